"""A table's partita chosen and its challenge started on a server's store (#27): the tournament
the writer saved is the one the readers share next, not brought forward again from the store."""

from __future__ import annotations

import pytest

from tournament.domain import views
from tournament.readside import kept
from tournament.services import day, tables
from tournament.storage.locations import close
from tournament.storage.store import Store

GAMES = ["tiro", "texas", "ventuno", "updown"]


def test_the_tournament_a_start_saved_is_the_one_read_next(
    db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = Store(db)
    kept.keep(store)
    try:
        day.create(store, "Carico", games=GAMES, rounds=3)
        day.add_players(store, ["Anna", "Bruno", "Carla", "Dario"])
        day.pair_next_round(store)
        before = kept.tournament(store)
        chosen = tables.choose_partita(store, 1, 1, GAMES, "referee")
        forwarded: list[object] = []
        monkeypatch.setattr(kept, "_project", lambda *a: forwarded.append(a))  # (not asked)
        assert kept.tournament(store) is chosen and forwarded == []
        assert views.paired(chosen, 1).table(1).games == tuple(GAMES)
        assert views.paired(before, 1).table(1).games == ()  # (what a reader held: as it was)
        match = tables.start_match(store, 1, 1, "tiro", by="referee")
        t = kept.tournament(store)
        assert t is not chosen and forwarded == []
        assert views.paired(t, 1).table(1).matches == {"tiro": match.number}
        monkeypatch.undo()
        # Another process's write is still seen (brought forward from the store).
        other = Store(db)
        try:
            tables.choose_partita(other, 1, 2, GAMES, "referee")
        finally:
            close(other)
        assert views.paired(kept.tournament(store), 1).table(2).games == tuple(GAMES)
    finally:
        close(store)
