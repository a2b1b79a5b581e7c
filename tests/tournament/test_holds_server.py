"""What a server's store holds for its table files, read on from where the process last
looked (#26, #27; a file's: test_tablefiles.py): its last id and its new table events in one
statement (tournament.storage.newer.last_and_since)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.tournament.conftest import new_schema
from tests.tournament.test_tablefiles import ok, partita_tournament
from tournament.storage import holds
from tournament.storage.locations import PostgresServer, close
from tournament.storage.store import Store


def partita_store(server: PostgresServer) -> tuple[str, Store]:
    """A new schema's tournament (test_tablefiles.partita_tournament) and a store open on it."""
    db = new_schema(server)
    partita_tournament(db)
    return db, Store(db)


def test_a_checkout_and_a_release_are_read_on_from_the_last_look(
    postgres_server: PostgresServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db, s = partita_store(postgres_server)
    try:

        def asked(*args: Any, **kwargs: Any) -> Any:
            raise AssertionError("asked apart")

        # One statement a look: neither of eventsourcing's two queries.
        monkeypatch.setattr(s.recorder, "max_notification_id", asked)
        monkeypatch.setattr(s.recorder, "select_notifications", asked)
        assert not holds.holds(s).out  # the look that the next ones go on from
        ok(db, "table", "checkout", "1", "1", "--to", str(tmp_path / "t1.db"))
        assert (1, 1) in holds.holds(s).out  # stored by another process since
        ok(db, "table", "release", "1", "1")
        assert not holds.holds(s).out
    finally:
        close(s)
