"""Tables' writes of the tournament made together (#27): many starts or partite in one
transaction, each judged as it would be alone, a refused one leaving no trace; a finished
match's head handed on and recorded later, several in one save."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.tournament.test_heard_server import recording
from tournament.domain import views
from tournament.domain.tournaments import TOURNAMENT_ID
from tournament.errors import Refused
from tournament.readside import kept
from tournament.services import day, play, stored, tables
from tournament.services.tables import Choice, Start
from tournament.storage.locations import close
from tournament.storage.store import Store

GAMES = ("tiro", "texas", "ventuno", "updown")


def _room(db: str, tables_: int = 4) -> Store:
    store = Store(db)
    kept.keep(store)
    day.create(store, "Sera", games=list(GAMES), rounds=3)
    day.add_players(store, [f"p{i:02d}" for i in range(1, 2 * tables_ + 1)])
    day.pair_next_round(store)
    return store


def test_partite_and_starts_made_together_each_as_alone(db: str) -> None:
    store = _room(db)
    try:
        chosen = tables.choose_partitas(
            store,
            [
                Choice(1, 1, GAMES, "referee"),
                Choice(1, 2, ("tiro", "tiro", "texas", "ventuno"), "referee"),  # CH-3: refused
                Choice(1, 3, GAMES, "referee"),
                Choice(1, 4, GAMES, "referee"),
            ],
        )
        assert isinstance(chosen[1], Refused) and "four different games" in str(chosen[1])
        t = kept.tournament(store)
        assert [views.paired(t, 1).table(n).games for n in (1, 2, 3, 4)] == [
            GAMES, (), GAMES, GAMES
        ]  # fmt: skip
        started = play.start_challenges(
            store,
            [
                Start(1, 1, "tiro", by="referee", referee="Anna"),
                Start(1, 2, "tiro", by="referee"),  # no partita chosen: refused
                Start(1, 3, "texas", by="referee"),
                Start(1, 1, "tiro", by="referee"),  # started just before, in this batch
                Start(1, 4, "tiro", by="referee"),
            ],
            [False, False, True, False, False],
        )
        refused = [i for i, m in enumerate(started) if isinstance(m, Refused)]
        assert refused == [1, 3]
        assert "already" in str(started[3])
        # The numbers follow one another: nothing of the refused starts was saved.
        assert [started[i].number for i in (0, 2, 4)] == ["M1", "M2", "M3"]
        t = kept.tournament(store)
        assert views.paired(t, 1).table(1).matches == {"tiro": "M1"}
        assert views.paired(t, 1).table(3).matches == {"texas": "M2"}
        assert t.referee_of("M1") == "Anna"
        fresh = Store(db)  # what another process reads: the same, as stored
        try:
            again = day.get_tournament(fresh)
            assert views.paired(again, 1).table(4).matches == {"tiro": "M3"}
            assert sorted(m.number for m in fresh.matches()) == ["M1", "M2", "M3"]
        finally:
            close(fresh)
        # The sealed start's dice are sealed (its log opens with the commitment).
        assert "dice-commit" in "".join(store.get_match("M2").lines)
    finally:
        close(store)


def test_heads_handed_on_are_recorded_together(db: str) -> None:
    store = _room(db, 2)
    handed: list[stored.Head] = []
    try:
        for n in (1, 2):
            tables.choose_partita(store, 1, n, list(GAMES), "referee")
            tables.start_match(store, 1, n, "tiro", by="referee")
        stored.heads_later(store, handed.append)
        for number in ("M1", "M2"):
            _play_tiro(store, number, json.loads(store.get_match(number).header)["players"])
        assert [h.match for h in handed] == ["M1", "M2"]
        t = kept.tournament(store)
        assert "M1" not in t.heads  # (not recorded by the move itself)
        version = t.version
        stored.record_heads(store, handed)
        t = day.get_tournament(store)
        assert t.version == version + 2  # one event a head, in one save
        for h in handed:
            assert t.heads[h.match] == [h.events, store.get_match(h.match).head]
        stored.record_heads(store, handed)  # (recorded already: nothing more)
        assert day.get_tournament(store).version == version + 2
        stored.heads_later(store, None)
    finally:
        stored.heads_later(store, None)
        close(store)


def test_a_match_started_is_written_by_its_first_move_as_the_start_left_it(
    db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server keeps what a start saved, as it keeps what a move saved: a table's first move
    reads no match back from the store (#27: eighty tables starting at once then moving)."""
    store = _room(db, 3)
    try:
        for n in (1, 2, 3):
            tables.choose_partita(store, 1, n, list(GAMES), "referee")
        started = play.start_challenges(
            store, [Start(1, 1, "tiro", by="referee"), Start(1, 2, "tiro", by="referee")],
            [False, False],
        )  # fmt: skip
        first = tables.start_match(store, 1, 3, "tiro", by="referee")  # (one alone, too)
        read = recording(monkeypatch, Store, "get_match", lambda self, number: number)
        for match in (*started, first):
            players = json.loads(match.header)["players"]
            play.record_move(store, match.number, f"roll {players[0]} d6 6 6 5 1")
        assert read == []
        assert [len(Store(db).get_match(n).lines) for n in ("M1", "M2", "M3")] == [1, 1, 1]
    finally:
        close(store)


def test_a_refresh_after_starts_reads_none_of_the_new_matches_back(
    db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The read models' refresh after a room's starts takes each new match as the start kept
    it, by its start's hash (#27: not one read of a match a start)."""
    from tournament.readside import reading, readmodels

    store = _room(db, 2)
    try:
        for n in (1, 2):
            tables.choose_partita(store, 1, n, list(GAMES), "referee")
        readmodels.update(store, write=True)
        play.start_challenges(
            store, [Start(1, 1, "tiro", by="referee"), Start(1, 2, "tiro", by="referee")],
            [False, False],
        )  # fmt: skip

        def asked(*_: Any) -> None:
            raise AssertionError("a new match read back")

        monkeypatch.setattr(reading, "_brought_forward", asked)
        select = store.recorder.select_events

        def select_events(originator: Any, *args: Any, **kwargs: Any) -> Any:
            if originator != TOURNAMENT_ID:
                asked()
            return select(originator, *args, **kwargs)

        monkeypatch.setattr(store.recorder, "select_events", select_events)
        progress = readmodels.update(store, write=True)
        assert progress.matches == {"M1", "M2"}
        rows = readmodels.current(store).rows("select id, status from matches order by id")
        assert [tuple(r) for r in rows] == [("M1", "in_progress"), ("M2", "in_progress")]
    finally:
        close(store)


def test_the_tournament_a_heads_save_stored_is_the_one_readers_share(
    db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The readers' next look takes the tournament the heads' save stored, not a copy of the
    one before brought forward (#27: every match's end changes the tournament)."""
    store = _room(db, 1)
    try:
        tables.choose_partita(store, 1, 1, list(GAMES), "referee")
        tables.start_match(store, 1, 1, "tiro", by="referee")
        handed: list[stored.Head] = []
        stored.heads_later(store, handed.append)
        _play_tiro(store, "M1", json.loads(store.get_match("M1").header)["players"])
        stored.heads_later(store, None)
        before = kept.tournament(store)
        stored.record_heads(store, handed)
        copies: list[Any] = []
        monkeypatch.setattr(kept, "copied", lambda t: copies.append(t) or t)
        after = kept.tournament(store)
        assert copies == []
        assert after is not before and after.heads["M1"] == [handed[0].events, handed[0].head]
        assert kept.tournament(store) is after  # (shared as saved: not brought forward again)
        assert day.get_tournament(Store(db)).heads == after.heads
    finally:
        stored.heads_later(store, None)
        close(store)


def _play_tiro(store: Store, number: str, players: Any) -> None:
    first, second = players
    for text in (
        f"roll {first} d6 6 6 5 1",
        f"roll {second} d6 5 4 2 1",
        f"roll {first} d20 11",
        f"expr {first} 6 x (5:6+1)",
        f"expr {second} (5+4+2):1",
    ):
        play.record_move(store, number, text)


def test_a_failing_store_fails_the_whole_batch(db: str) -> None:
    store = _room(db, 2)
    try:
        tables.choose_partita(store, 1, 1, list(GAMES), "referee")
        tables.choose_partita(store, 1, 2, list(GAMES), "referee")
        boom = RuntimeError("the server went away")

        def save_new(*_: Any) -> None:
            raise boom

        store.save_new = save_new  # type: ignore[method-assign]
        with pytest.raises(RuntimeError):
            tables.start_matches(store, [Start(1, 1, "tiro"), Start(1, 2, "tiro")])
        del store.save_new
        assert views.paired(day.get_tournament(store), 1).table(1).matches == {}
        made = tables.start_matches(store, [Start(1, 1, "tiro"), Start(1, 2, "tiro")])
        assert [m.number for m in made] == ["M1", "M2"]  # type: ignore[union-attr]
    finally:
        close(store)


def test_a_table_out_in_a_table_file_is_told_alone_the_others_start(db: str, tmp_path: Any) -> None:
    from tournament.services import tablefiles
    from tournament.storage.holds import TableOut

    store = _room(db, 4)
    try:
        for n in (1, 2, 3):
            tables.choose_partita(store, 1, n, list(GAMES), "referee")
        tablefiles.checkout(store, 1, 3, str(tmp_path / "t3.db"))
        made = tables.start_matches(store, [Start(1, n, "tiro") for n in (1, 2, 3)])
        assert isinstance(made[2], TableOut)  # (refused in the save: told to its table only)
        t = day.get_tournament(store)
        assert [bool(views.paired(t, 1).table(n).matches) for n in (1, 2)] == [True, True]
        chosen = tables.choose_partitas(
            store, [Choice(1, 3, ("texas", "tiro", "updown", "ventuno")), Choice(1, 4, GAMES)]
        )
        assert isinstance(chosen[0], Refused) and not isinstance(chosen[1], Refused)
        assert views.paired(day.get_tournament(store), 1).table(4).games == GAMES
    finally:
        close(store)


def test_a_seal_that_fails_is_its_own_tables_the_others_sealed(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sqlite3

    from tournament.errors import UserError
    from tournament.services import dice

    store = _room(str(tmp_path / "t.db"), 3)
    try:
        for n in (1, 2, 3):
            tables.choose_partita(store, 1, n, list(GAMES), "referee")
        keep = dice.keep

        def locked_for_m2(s: Store, number: str) -> str:
            if number == "M2":
                raise sqlite3.OperationalError("database is locked")
            return keep(s, number)

        monkeypatch.setattr(dice, "keep", locked_for_m2)
        made = play.start_challenges(store, [Start(1, n, "tiro") for n in (1, 2, 3)], [True] * 3)
        assert isinstance(made[1], UserError) and "locked" in str(made[1])
        sealed = {n: "dice-commit" in "".join(store.get_match(n).lines) for n in ("M1", "M3")}
        assert sealed == {"M1": True, "M3": True}
    finally:
        close(store)


def test_a_head_recorded_late_never_replaces_a_newer_one(db: str) -> None:
    store = _room(db, 1)
    try:
        tables.choose_partita(store, 1, 1, list(GAMES), "referee")
        tables.start_match(store, 1, 1, "tiro")
        stored.record_heads(store, [stored.Head("M1", 12, "h12")])  # (a correction's, first)
        stored.record_heads(store, [stored.Head("M1", 10, "h10")])  # (queued before it)
        assert day.get_tournament(store).heads["M1"] == [12, "h12"]
        stored.record_heads(store, [stored.Head("M1", 12, "other")])  # (a log stored over it)
        assert day.get_tournament(store).heads["M1"] == [12, "other"]
    finally:
        close(store)


def test_a_batch_that_meets_another_writer_takes_no_number_for_nothing(db: str) -> None:
    store = _room(db, 3)
    other = Store(db)
    try:
        for n in (1, 2, 3):
            tables.choose_partita(store, 1, n, list(GAMES), "referee")
        save_new, met = store.save_new, []

        def meeting(*a: Any) -> None:
            if not met:  # another terminal saves the tournament just before this batch does
                met.append(1)
                t = day.get_tournament(other)
                t.name_referee(match="M99", referee="Zeta", by="organizer")
                stored.save(other, t)
            save_new(*a)

        store.save_new = meeting  # type: ignore[method-assign]
        made = tables.start_matches(store, [Start(1, n, "tiro") for n in (1, 2, 3)])
        assert met and [m.number for m in made] == ["M1", "M2", "M3"]  # type: ignore[union-attr]
        assert sorted(m.number for m in other.matches()) == ["M1", "M2", "M3"]
    finally:
        close(other)
        close(store)
