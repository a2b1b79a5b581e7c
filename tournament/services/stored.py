"""The tournament as stored: read it, save it (a snapshot every hundred events), and keep a
finished match's head hash in it.

What every service of the day builds on, and what recording a move needs of the tournament
(:func:`record_head`) without the rest of the day.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from typing import NamedTuple

from eventsourcing.persistence import IntegrityError

from engine.message import msg
from tournament.domain import views
from tournament.domain.tournaments import TOURNAMENT_ID, Tournament
from tournament.errors import Refused
from tournament.readside import kept
from tournament.services.retry import retried
from tournament.storage.store import Conflict, Match, Store, StoreError


def get_tournament(store: Store) -> Tournament:
    """The tournament, to change and save (a server's store: a copy of the one it keeps)."""
    t = kept.tournament_copy(store)
    if t is None:
        raise Refused(msg("there is no tournament in this database: create one first"))
    return t


def read_tournament(store: Store, heard_ok: bool = False) -> Tournament | None:
    """The tournament, only to read (a server's store: the one its readers share, brought up to
    date from the tournament's own events, #27); None when there is none. ``heard_ok``: a
    page's read (see :func:`tournament.readside.kept.tournament`)."""
    return kept.tournament(store, heard_ok)


SNAPSHOT_EVERY = 100


def save(store: Store, t: Tournament, *matches: Match) -> None:
    """Save the tournament (with new ``matches``, in the same transaction), and snapshot it
    each time it passes another hundred events.

    A season gathers tens of thousands of tournament events; loading it from its latest
    snapshot keeps every command quick (eventsourcing's snapshots, taken here rather than
    by the application so that recording a move never loads the tournament's classes).
    Raises :class:`Conflict` (nothing stored) when another terminal saved it first.
    """
    before = t.version - len(t.pending_events)
    try:
        store.save(*matches, t)
    except IntegrityError:
        raise Conflict(
            msg(
                "another terminal changed the tournament at the same moment; nothing was stored: "
                "repeat"
            )
        ) from None
    snapshot(store, t, before)


def snapshot(store: Store, t: Tournament, before: int) -> None:
    """Snapshot the tournament saved at ``t.version`` if it passed another hundred events since
    version ``before``."""
    if t.version // SNAPSHOT_EVERY > before // SNAPSHOT_EVERY:
        store.take_snapshot(TOURNAMENT_ID, version=t.version)


class Head(NamedTuple):
    """A finished match's head hash, to keep in its tournament."""

    match: str
    events: int
    head: str
    by: str = "program"


_later: weakref.WeakKeyDictionary[Store, Callable[[Head], None]] = weakref.WeakKeyDictionary()


def heads_later(store: Store, sink: Callable[[Head], None] | None) -> None:
    """From now on hand this store's finished heads to ``sink`` rather than record each in
    the move's own turn (a server records them together, after the moves' answers, #27:
    eighty tables ending their challenges at once waited for eighty saves of the tournament);
    None: each recorded at once again. A head that is never recorded is recorded by the
    round's close, as any head missing."""
    if sink is None:
        _later.pop(store, None)
    else:
        _later[store] = sink


def record_head(store: Store, match: Match, by: str = "program") -> None:
    """Record a finished match's head hash in its tournament (if it is one of its matches), so
    that ``tournament verify`` finds its last events removed. Retried against other terminals.

    Never fails the recording that called it: the match is stored already, and closing the
    round records every head not recorded yet (a tournament that cannot be read is said by the
    next command that reads it).
    """
    if match.head is None:
        return
    head = Head(match.number, len(match.lines), match.head, by)
    sink = _later.get(store)
    if sink is not None and _in_open_round(store, match.number):
        sink(head)  # (a closed round's would never be recorded by its close: recorded now)
        return
    record_heads(store, [head])


def _in_open_round(store: Store, number: str) -> bool:
    """Whether the match's round is open, in the tournament as last heard (#27: a head handed
    on is recorded all the same, whatever its round: only a head's own turn is decided here)."""
    t = kept.tournament(store, heard_ok=True)
    table = views.table_of(t, number) if t is not None else None
    return t is not None and table is not None and not views.paired(t, table.round).closed


def record_heads(store: Store, heads: Sequence[Head]) -> None:
    """Record finished matches' heads in their tournament, in one save (see
    :func:`record_head`: never fails, a head left out is recorded by the round's close)."""

    def once() -> None:
        try:
            t = get_tournament(store)
        except (Refused, StoreError):
            return
        for h in heads:
            known = t.heads.get(h.match)
            # A log only grows: a head of fewer events than the one kept is an older one
            # (recorded late, after a correction's): never put back over the newer. One of as
            # many events is the log stored in its place (a match imported over it).
            newer = known is None or known[0] < h.events
            replaced = known is not None and known[0] == h.events and known[1] != h.head
            if attached(t, h.match) and (newer or replaced):
                t.record_head(match=h.match, events=h.events, head=h.head, by=h.by)
        if t.pending_events:
            save(store, t)
            kept.saved(store, t)  # (the one a server's readers share, from here on)

    try:
        retried(once, store=store)
    except Refused:  # (kept changing, or one of them is out in a table file)
        if len(heads) > 1:  # each alone then: the others are recorded
            for h in heads:
                record_heads(store, [h])
        # (else: closing the round records the head)


def attached(t: Tournament, number: str) -> bool:
    """Whether a table of the tournament plays this match."""
    return views.table_of(t, number) is not None
