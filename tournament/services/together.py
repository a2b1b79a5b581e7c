"""Several tables' writes of the tournament made together: one turn, one transaction (#27).

Eighty tables starting their challenges at the same moment each read the tournament, decided
and saved it in turn, one save after another on its one aggregate: the last waited for
seventy-nine saves (2.4 s on a server). A server's front end now hands the writes that arrive
while one is made to :func:`start_matches` or :func:`choose_partitas` at once, and they are
decided one after another on one copy of the tournament and saved in one transaction.

Each write is judged as it would be alone, in the order given: one that is refused (a table
started twice, a round closed meanwhile) gets its own refusal, and the others are decided
again without it on a fresh copy, so that nothing it began is saved. A failure of the store
(the server away) fails them all, and none is stored.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from tournament.domain.tournaments import Tournament
from tournament.errors import UserError
from tournament.readside import kept
from tournament.services.day import get_tournament, save
from tournament.services.retry import retried
from tournament.services.stored import snapshot
from tournament.services.tables import decide_partita, open_match
from tournament.storage.store import Match, Store

Item = TypeVar("Item")
Made = TypeVar("Made")


@dataclass(frozen=True)
class Start:
    """One table's challenge to start (see :func:`tournament.services.tables.start_match`)."""

    round: int
    table: int
    game: str
    outside: tuple[str, ...] = ()
    by: str = "organizer"
    lexicon: str | None = None
    referee: str | None = None  # (checked by the caller)


@dataclass(frozen=True)
class Choice:
    """One table's partita (CH-3, see :func:`tournament.services.tables.choose_partita`)."""

    round: int
    table: int
    games: tuple[str, ...]
    by: str = "organizer"


def start_matches(store: Store, starts: Sequence[Start]) -> list[Match | UserError]:
    """Start every table's challenge of ``starts`` in one transaction: for each, its new match
    or why it was refused (the others started all the same)."""

    def open_one(t: Tournament, s: Start) -> Match:
        return open_match(
            store, t, s.round, s.table, s.game, s.outside, s.by, s.lexicon,
            referee=s.referee, save=False,
        )  # fmt: skip

    def save_all(t: Tournament, made: list[Match]) -> None:
        before = t.version - len(t.pending_events)
        store.save_new(made[-1], *made[:-1], t)
        snapshot(store, t, before)

    return _together(store, starts, open_one, save_all)


def choose_partitas(store: Store, choices: Sequence[Choice]) -> list[Tournament | UserError]:
    """Record every table's partita of ``choices`` in one transaction: for each, the tournament
    saved (only to read) or why it was refused."""

    def decide(t: Tournament, c: Choice) -> Tournament:
        decide_partita(t, c.round, c.table, c.games, c.by)
        return t

    def save_all(t: Tournament, made: list[Tournament]) -> None:
        save(store, t)

    return _together(store, choices, decide, save_all)


def _together(
    store: Store,
    items: Sequence[Item],
    decide: Callable[[Tournament, Item], Made],
    save_all: Callable[[Tournament, list[Made]], None],
) -> list[Made | UserError]:
    """Decide ``items`` in order on one copy of the tournament and save them with
    ``save_all``; an item refused is left out and the rest decided again from a fresh copy
    (nothing of the refused one saved); made again whole when another writer saved first."""
    refused: dict[int, UserError] = {}

    def once() -> dict[int, Made]:
        while True:
            t = get_tournament(store)
            made: dict[int, Made] = {}
            for i, item in enumerate(items):
                if i in refused:
                    continue
                try:
                    made[i] = decide(t, item)
                except UserError as e:
                    refused[i] = e
                    break
            else:
                if made:
                    save_all(t, list(made.values()))
                    kept.saved(store, t)  # (the one a server's readers share, from here on)
                return made
            store.numbers_unused()  # (the numbers given to this copy's matches: none saved)

    made = retried(once, store=store)
    return [refused[i] if i in refused else made[i] for i in range(len(items))]


__all__ = ["Choice", "Start", "choose_partitas", "start_matches"]
