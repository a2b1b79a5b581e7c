"""A server's file read ``immutable=1`` (#29: a read-only folder, a disk nearly full, where
SQLite could not make its -shm file) is opened again when the file changes (#27): a kept
connection, or eventsourcing's pool of readers, would otherwise never see another process's
writes."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from tournament.readside import kept
from tournament.services import day, stores
from tournament.storage import sqlitefile
from tournament.storage.store import Store

from .conftest import build


def test_a_server_reading_a_file_immutable_sees_another_process_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "t.db"
    stores.close(build(db, ("a", "b")))  # (its -wal folded into the file)
    monkeypatch.setattr(sqlitefile, "_room", lambda folder: False)  # the disk nearly full
    gc.collect()  # (the built store dropped: nothing holds its -wal)
    assert "immutable=1" in sqlitefile.read_uri(db)
    server = Store(db)
    kept.keep(server)
    try:
        before = sqlitefile.last_id(server)
        assert list(kept.tournament(server).players) == ["a", "b"]
        writer = Store(db)  # another process: it writes (a few bytes still fit)
        day.add_players(writer, ["c"])
        stores.close(writer)
        assert sqlitefile.last_id(server) > before  # through this thread's kept connection
        assert server.recorder.max_notification_id() > before  # through the store's readers
        assert list(kept.tournament(server).players) == ["a", "b", "c"]
    finally:
        stores.close(server)
