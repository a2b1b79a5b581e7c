"""A move's writer that takes its looks as heard (#27, tournament.readside.ahead.write_ahead):
nothing asked before its save, whose own transaction checks what was taken as known
(tournament.storage.inserts.Guard); what another process stored meanwhile makes it store
nothing, and the write is made again with its looks asked."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import pytest
from eventsourcing.persistence import StoredEvent

from tests.tournament.test_heard_server import recording, until
from tests.tournament.test_holds_server import partita_store
from tests.tournament.test_tablefiles import moves, ok
from tournament.domain.tournaments import TOURNAMENT_ID
from tournament.readside import ahead, kept
from tournament.services.matches import record_move
from tournament.storage import heard, holds, inserts, newer
from tournament.storage.locations import PostgresServer, close
from tournament.storage.sql import read_db
from tournament.storage.store import Store


def _room(postgres_server: PostgresServer) -> tuple[str, Store]:
    """A server's kept store, listening, whose tournament, holds and M1 were looked at."""
    db, s = partita_store(postgres_server)
    kept.keep(s)
    read_db(s)  # (this thread's own connection, as a server's request thread has)
    until(lambda: heard.now(s) is not None)
    record_move(s, "M1", moves(db, "M1", seed=1)[1])  # (M1 kept as written, the holds read)
    kept.tournament(s)
    return db, s


def _lines(db: str, number: str) -> int:
    other = Store(db)  # (another process's view: what is stored)
    try:
        return len(other.get_match(number).lines)
    finally:
        close(other)


def test_a_move_whose_looks_were_heard_unchanged_asks_nothing_before_its_save(
    postgres_server: PostgresServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    db, s = _room(postgres_server)
    try:
        before = _lines(db, "M1")
        asked = recording(monkeypatch, newer, "_kept_or", lambda *a: a if a[0] is s else None)
        together = recording(monkeypatch, newer, "_together", lambda *a: len(a[2]))
        guards = recording(monkeypatch, inserts, "statement", lambda *a: a[3])
        ahead.write_ahead(s, "M1", lambda: record_move(s, "M1", moves(db, "M1", seed=1)[2]))
        assert asked == [] and together == []  # not one look asked
        (guard,) = guards
        assert guard.originator == TOURNAMENT_ID and guard.version == kept.tournament(s).version
        assert guard.topics == holds.TOPICS
        assert _lines(db, "M1") == before + 1
        # The save's own transaction found no table event: the holds are read on past it.
        assert holds.look_ahead(s)[0] == s.recorder.max_notification_id()
    finally:
        close(s)


@pytest.mark.parametrize("table", ["1", "2"])
def test_a_checkout_stored_after_the_looks_is_seen_by_the_save(
    postgres_server: PostgresServer, tmp_path: Path, table: str
) -> None:
    """Another process checks a table out after the writer took its looks as known: the
    save stores nothing, and the write made again with its looks asked is refused when the
    table is the move's (1), stored once when it is another (2)."""
    db, s = _room(postgres_server)
    try:
        before = _lines(db, "M1")
        made: list[int] = []

        def write() -> Any:
            made.append(len(made))
            if len(made) == 1:  # (between the looks and the save, once)
                ok(db, "table", "checkout", "1", table, "--to", str(tmp_path / "t.db"))
            return record_move(s, "M1", moves(db, "M1", seed=1)[2])

        if table == "1":
            with pytest.raises(holds.TableOut):
                ahead.write_ahead(s, "M1", write)
            assert _lines(db, "M1") == before
        else:
            ahead.write_ahead(s, "M1", write)
            assert _lines(db, "M1") == before + 1
        assert made == [0, 1]
    finally:
        close(s)


def test_a_tournament_changed_after_the_looks_is_seen_by_the_save(
    postgres_server: PostgresServer,
) -> None:
    """Another process changes the tournament (no table event) after the writer took its
    looks as known: its save stores nothing, and the write made again is stored once."""
    db, s = _room(postgres_server)
    try:
        before, version = _lines(db, "M1"), kept.tournament(s).version
        made: list[int] = []

        def write() -> Any:
            made.append(len(made))
            if len(made) == 1:
                ok(db, "players", "add", "Nero")
            return record_move(s, "M1", moves(db, "M1", seed=1)[2])

        ahead.write_ahead(s, "M1", write)
        assert made == [0, 1] and _lines(db, "M1") == before + 1
        assert kept.tournament(s).version == version + 1
    finally:
        close(s)


def test_a_write_whose_save_took_the_guard_asks_every_look_after_it(
    postgres_server: PostgresServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A second save in the same write decides on what is stored: after the first save, the
    looks taken as known are asked; and a write that makes no save is made again."""
    db, s = _room(postgres_server)
    try:
        asked = recording(monkeypatch, newer, "_kept_or", lambda *a: a if a[0] is s else None)

        def two_saves() -> None:
            kept.tournament(s)
            assert asked == []
            record_move(s, "M1", moves(db, "M1", seed=1)[2])
            kept.tournament(s)  # (the tournament after the move's save: asked)

        ahead.write_ahead(s, "M1", two_saves)
        assert len(asked) == 1
        made: list[bool] = []
        ahead.write_ahead(s, "M1", lambda: made.append(inserts.pending(s.recorder)))
        assert made == [True, False]
    finally:
        close(s)


def test_a_refusal_taken_on_what_was_heard_is_decided_again_on_what_is_stored(
    postgres_server: PostgresServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What was taken as known may be a moment old: a write refused before its save is made
    again with its looks asked; one refused by its save or after it is not."""
    from tournament.errors import Refused

    db, s = _room(postgres_server)
    try:
        made: list[bool] = []

        def refused() -> None:
            made.append(inserts.pending(s.recorder))
            raise Refused("no")

        with pytest.raises(Refused):
            ahead.write_ahead(s, "M1", refused)
        assert made == [True, False]  # (the second time as ever: no guard)
        made.clear()

        def after_its_save() -> None:
            record_move(s, "M1", moves(db, "M1", seed=1)[2])
            made.append(inserts.pending(s.recorder))
            raise Refused("said after the save")

        with pytest.raises(Refused):
            ahead.write_ahead(s, "M1", after_its_save)
        assert made == [False]
    finally:
        close(s)


def test_a_guard_stores_nothing_when_the_store_moved_past_it(
    postgres_server: PostgresServer,
) -> None:
    db, s = partita_store(postgres_server)
    try:
        recorder = s.recorder
        version = kept.tournament(s).version
        last = int(recorder.max_notification_id())
        row = StoredEvent(uuid.uuid4(), 1, "tournament.x:Y", b"row")
        created = recorder.select_events(TOURNAMENT_ID, limit=1)[0].topic
        for guard in (
            inserts.Guard(TOURNAMENT_ID, version - 1, last, holds.TOPICS),  # (moved on)
            inserts.Guard(uuid.uuid4(), version, last, holds.TOPICS),  # (none stored)
            inserts.Guard(TOURNAMENT_ID, version, 0, (created,)),  # (one of its topics since 0)
        ):
            inserts.guarding(recorder, guard)
            with pytest.raises(inserts.LooksMoved):
                recorder.insert_events([row])
            assert recorder.select_events(row.originator_id) == []
            assert not inserts.pending(recorder)  # (taken by the insert: a second one carries none)
        inserts.guarding(recorder, inserts.Guard(TOURNAMENT_ID, version, last, holds.TOPICS))
        assert recorder.insert_events([]) == [] and inserts.pending(recorder)  # (no rows: kept)
        (stored,) = recorder.insert_events([row])
        assert stored == last + 1 and inserts.passed_last(recorder) is not None
    finally:
        close(s)


def test_a_match_just_moved_is_drawn_as_saved_while_nothing_else_is_heard(
    postgres_server: PostgresServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A page's read (``heard_ok``) of a match this process has just saved asks the server
    nothing while its listener hears nobody else write to it (#27: a table's page after its
    move or its start, tests/tournament/test_together.py); another process's move to it is
    looked at."""
    from tournament.readside import reading

    db, s = _room(postgres_server)
    try:
        asked = recording(monkeypatch, kept, "after_head", lambda *a: a[1])
        lines = len(reading.read_match(s, "M1", heard_ok=True).lines)
        assert lines == _lines(db, "M1") and asked == []
        count = heard.now(s)
        ok(db, "match", "move", "M1", moves(db, "M1", seed=1)[2])
        until(lambda: heard.now(s) != count)
        assert len(reading.read_match(s, "M1", heard_ok=True).lines) == lines + 1
        assert len(asked) == 1
    finally:
        close(s)
