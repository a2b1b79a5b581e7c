"""A server's writer of a move and its looks ahead of its save (#27): the tournament kept, the
match this process last wrote and the table files' holds, each a look the save depends on
(:mod:`tournament.readside.kept`, :mod:`tournament.storage.holds`), not asked one by one in
the writer's turn: taken as heard and checked by the save's own transaction, or asked of the
server together at the turn's start (:func:`write_ahead`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from tournament.readside.kept import kept, kept_tournament, writing
from tournament.storage import heard
from tournament.storage.store import Store

W = TypeVar("W")


def write_ahead(store: Store, number: str, write: Callable[[], W]) -> W:
    """``write()``, a server's writer of a move to ``number``: its looks at the tournament
    kept, at the match this process last wrote and at the table files' holds (the save's
    check) are not asked one by one (#27).

    - While the store's listener heard nobody else change the tournament or the match since
      they were last found the store's, they are taken as known, and the save's own
      transaction checks, under the table's lock, that the tournament is still at its
      version and no table event was stored since the holds were read (an
      :class:`tournament.storage.inserts.Guard`; the match's next version is its key). When
      the store moved past them, or the write is refused before its save, or makes none
      (what was taken as known may be a moment old), nothing was stored and the write is
      made again, below. The tournament's look so taken stands for the room's pages as an
      asked one would: each move's save checks it.
    - Otherwise they are asked of the server together at the start, in one round trip
      (:func:`tournament.storage.newer.ahead`); each is still asked in the writer's turn, and
      one that the write does not make as expected asks on its own. The holds are so looked
      at a moment before the save rather than just before it: a table checked out in that
      moment is refused from the next write on, as one checked out just after the check
      always was (a move's save takes no lock of the tournament).

    A file's: ``write()``."""
    if not (kept(store) and store.location.is_server):
        return write()
    from tournament.errors import StoreError, UserError
    from tournament.storage import holds, inserts, newer  # (a server's only)
    from tournament.storage.sealedlog import normalise_number

    try:
        number = normalise_number(number)  # (as kept.match_to_write takes it)
    except StoreError:
        number = ""  # (not a match's: refused in the write, its match never asked)
    trusted = _known(store, number)
    if trusted is not None:
        try:
            with newer.known(store, *trusted):
                try:
                    done = write()
                except UserError:
                    if not inserts.pending(store.recorder):
                        raise  # (refused by its save, or after it: the answer as it is)
                else:
                    if not inserts.pending(store.recorder):
                        return done  # (its save checked what it took as known)
        except inserts.LooksMoved:
            pass
    with newer.ahead(store, _looks(store, number), holds.look_ahead(store)):
        return write()


def _looks(store: Store, number: str) -> list[tuple[Any, int]]:
    """The aggregates (and versions) a writer of ``number`` looks at: the tournament kept, the
    match this process last wrote."""
    from tournament.domain.tournaments import TOURNAMENT_ID

    (t, head, _), (match, _) = kept_tournament(store), writing(store, number)
    looks: list[tuple[Any, int]] = []
    if t is not None and head is not None:
        looks.append((TOURNAMENT_ID, t.version - 1))
    if match is not None:
        looks.append((match.id, match.version - 1))
    return looks


def _known(store: Store, number: str) -> tuple[dict[Any, Any], Any] | None:
    """What a writer of ``number`` may take as known (see :func:`write_ahead`): the answers of
    its looks by their keys (:func:`tournament.storage.newer.known`) and the guard its save
    carries; None when anything of it may have moved (then each is asked)."""
    from eventsourcing.persistence import StoredEvent

    from tournament.domain.tournaments import TOURNAMENT_ID
    from tournament.storage import holds, inserts, newer

    seen = vars(store).get("_table_events")
    (t, head, looked), (match, written_at) = kept_tournament(store), writing(store, number)
    if t is None or head is None or seen is None:
        return None
    if not heard.unchanged_since(store, looked, TOURNAMENT_ID, t.version):
        return None
    answers: dict[Any, Any] = {
        newer.events_key(store, TOURNAMENT_ID, t.version - 1): [
            StoredEvent(TOURNAMENT_ID, t.version, "", head)
        ]
    }
    if match is not None:
        own = heard.own_last(store, match.id)  # (the match's next version is its save's key)
        if (
            own is None
            or own[0] != match.version
            or not heard.unchanged_since(
                store, written_at, match.id, match.version, trust=float("inf")
            )
        ):
            return None
        answers[newer.events_key(store, match.id, match.version - 1)] = [
            StoredEvent(match.id, match.version, "", own[1])
        ]
    last, topics, limit = holds.look_ahead(store)
    answers[newer.since_key(store, last, topics, limit)] = (last, [])
    return answers, inserts.Guard(TOURNAMENT_ID, t.version, last, tuple(topics))
