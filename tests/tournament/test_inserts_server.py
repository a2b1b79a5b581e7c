"""A server store's insert as one query string (#27, tournament.storage.inserts): what it
stores reads back byte for byte, its notification ids come in order, and a row stored already
stores nothing of its batch and leaves the connection as it was."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
from eventsourcing.persistence import IntegrityError, StoredEvent

from tournament.storage import inserts
from tournament.storage.locations import PostgresServer, close
from tournament.storage.store import Store

from .conftest import new_schema


@pytest.fixture
def server_store(postgres_server: PostgresServer) -> Iterator[Store]:
    s = Store(new_schema(postgres_server))
    yield s
    close(s)


def test_what_is_inserted_reads_back_as_it_was_written(server_store: Store) -> None:
    recorder = server_store.recorder
    odd = [
        StoredEvent(uuid.uuid4(), 1, "a.b:It's \\x00 not\\'s 'quoted' è", bytes(range(256))),
        StoredEvent(uuid.uuid4(), 1, "tournament.x:Y", b""),
        StoredEvent(uuid.uuid4(), 1, "tournament.x:Z", b"'\\\x00; COMMIT; --"),
    ]
    ids = recorder.insert_events(odd)
    assert ids is not None and list(ids) == sorted(ids) and len(set(ids)) == 3
    for e in odd:
        (back,) = recorder.select_events(e.originator_id)
        assert (back.originator_version, back.topic, back.state) == (1, e.topic, e.state)
    notes = recorder.select_notifications(ids[0], 3)
    assert [n.id for n in notes] == list(ids)
    assert [n.originator_id for n in notes] == [e.originator_id for e in odd]


def test_a_row_stored_already_stores_nothing_of_its_batch(server_store: Store) -> None:
    recorder = server_store.recorder
    first = StoredEvent(uuid.uuid4(), 1, "tournament.x:Y", b"first")
    (before,) = recorder.insert_events([first])
    other = StoredEvent(uuid.uuid4(), 1, "tournament.x:Y", b"other")
    again = StoredEvent(first.originator_id, 1, "tournament.x:Y", b"again")
    with pytest.raises(IntegrityError):
        recorder.insert_events([other, again])
    assert recorder.select_events(other.originator_id) == []
    assert [e.state for e in recorder.select_events(first.originator_id)] == [b"first"]
    # The recorder goes on: the next insert is stored after the last one.
    (after,) = recorder.insert_events([other])
    assert after > before and recorder.max_notification_id() == after


def test_the_literals_are_read_back_exactly() -> None:
    assert inserts.literal("it's") == "E'it''s'"
    assert inserts.literal("a\\b") == "E'a\\\\b'"
