"""What a store holds for its table files (#26), read from its events without the tournament.

Every save asks (:func:`check`): a match of a table that is out, or the table itself, is refused
in one sentence saying where the table is (:mod:`tournament.domain.tablefiles` decides); and a
new match never takes a number a checkout gave a table (:func:`reserved`). Only the four table
events are read, by their stored names, from where this store last looked on: a store that never
had a table file reads no event and loads no class of the tournament (#15).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tournament.domain.tablefiles import Holds, refusal
from tournament.errors import Refused
from tournament.storage import heard

TOPICS = tuple(f"tournament.tournaments:Tournament.{kind}" for kind in (
    "TableCheckedOut", "TableCheckedIn", "TableReleased", "TableFileWritten"
))  # fmt: skip
PAGE = 1000


class TableOut(Refused):
    """A write that is another store's: the table is out (or this is a table file)."""


def holds(store: Any, fresh: bool = False) -> Holds:
    """The holds of the store's table events, read on from the last one this store saw; on a
    server's kept store, nothing asked while nobody else stored anything since the last look
    (:mod:`tournament.storage.heard`, #27: asked three times a move), unless ``fresh``: a
    save's check asks the server every time (a checkout committed a moment ago, its
    notification not heard yet, must refuse the save), in the save's turn: a move's writer
    asks it with its other looks, at the turn's start, or takes it as heard with its save's
    own check that no table event was stored since (tournament.readside.ahead.write_ahead; a
    page's look in the turn that took the answer asked leaves the save's check its sequel, as
    of the same moment)."""
    seen: tuple[Any, ...] = vars(store).get("_table_events") or (0, [], None, None)
    last, events, count, found = seen
    now = heard.now(store)  # (before the look: what is heard during it is looked at again)
    if not fresh and now is not None and count == now and found is not None:
        return found  # type: ignore[no-any-return]
    upto, page = _look(store, last, not fresh)  # read up to ``upto``: the next call goes on
    while last < upto:
        if page is None:
            page = store.recorder.select_notifications(last + 1, PAGE, stop=upto, topics=TOPICS)
        events = events + [store.mapper.to_domain_event(n) for n in page]
        last, page = (page[-1].id if len(page) == PAGE else upto), None
    found = Holds.of(events)
    vars(store)["_table_events"] = (last, events, now, found)
    return found


def look_ahead(store: Any) -> tuple[int, Sequence[str], int]:
    """What a server's next look asks (:func:`tournament.storage.newer.last_and_since`'s last,
    topics and limit): asked ahead of a write with its other looks (newer.ahead, #27)."""
    seen = vars(store).get("_table_events")
    return (seen[0] if seen else 0), TOPICS, PAGE


def _look(store: Any, last: int, go_on: bool = False) -> tuple[int, list[Any] | None]:
    """The store's last notification id, and on a server the first page of its table events
    after ``last`` with it, in one round trip (#27: asked on every save and table page);
    ``go_on``: a page's look, not a save's check (see ``newer.last_and_since``)."""
    if not store.location.is_server:
        return last_id(store), None
    from tournament.storage import newer  # (a server's only)

    return newer.last_and_since(store, last, TOPICS, PAGE, go_on=go_on)


def saw(
    store: Any, before: int, ids: Sequence[int], topics: Sequence[str], guarded: bool = False
) -> None:
    """What a save of this process stored (its notifications' ``ids`` and ``topics``) is read
    already: when they follow the ``before`` it last read on from and hold no table event, the
    next look goes on from them (#27: a table's page drawn after a move reads no row for it);
    else the next look asks the server, whatever was heard. ``guarded``: the save's own
    transaction found no table event stored after ``before`` (tournament.storage.inserts.Guard),
    so the ids between are none either."""
    seen = vars(store).get("_table_events")
    if seen is None:
        return
    last, events, count, found = seen
    if (
        last == before
        and ids
        and not any(t in TOPICS for t in topics)
        and (guarded or list(ids) == list(range(before + 1, before + 1 + len(ids))))
    ):
        vars(store)["_table_events"] = (ids[-1], events, count, found)
    else:
        vars(store)["_table_events"] = (last, events, None, None)


def last_id(store: Any) -> int:
    """The store's last notification id (0: nothing stored): through a server's kept
    connection to its file where it has one (:func:`tournament.storage.sqlitefile.last_id`),
    else asked of eventsourcing's recorder (a command line call loads nothing more, #15)."""
    if vars(store).get("_file_connections") is None:
        return int(store.recorder.max_notification_id() or 0)
    from tournament.storage import sqlitefile

    return sqlitefile.last_id(store)


def check(store: Any, objs: Sequence[Any], fresh: bool = True) -> None:
    """Raise :class:`TableOut` when what is saved is the other store's (see the module):
    asked of the server (``fresh``), unless this is a word said before the save's own check."""
    found = holds(store, fresh)
    if not found.out and found.file is None:
        return  # (no class of the tournament loaded, #15)
    from tournament.domain.tournaments import Tournament

    numbers = [o.number for o in objs if not isinstance(o, Tournament) and hasattr(o, "number")]
    events = [e for o in objs if isinstance(o, Tournament) for e in o.pending_events]
    why = refusal(found, numbers, events)
    if why is not None:
        raise TableOut(why)


def reserved(store: Any) -> set[str]:
    """Every match number a checkout gave a table (taken, whether started or not): asked of
    the server, as a new match's number is taken from it."""
    return set(holds(store, fresh=True).reserved)
