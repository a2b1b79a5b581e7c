"""A server's events of one aggregate after a version, as a kept store asks before it uses the
tournament or a match (#27): the rows eventsourcing's own query gives, through the thread's kept
connection when it is idle, and through eventsourcing's inside one of its transactions."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from tests.tournament.test_match_cli import ok
from tournament.services.matches import load, record_move
from tournament.storage.locations import close
from tournament.storage.newer import events_after
from tournament.storage.sql import read_db
from tournament.storage.store import Store


def rows_of(events: Any) -> list[tuple[Any, ...]]:
    return [(e.originator_id, e.originator_version, e.topic, bytes(e.state)) for e in events]


@pytest.mark.parametrize("backend", ["postgresql"])
def test_the_events_after_a_version_are_eventsourcings_own(make_db: Any) -> None:
    db = make_db()
    ok(db, "match", "new", "tiro", "Giocatore 01", "blu", "--outside", "verde")
    store = Store(db)
    try:
        record_move(store, "M1", "roll giocatore 01 d6 6,6,5,1")
        record_move(store, "M1", "roll blu d6 5 4 2 1")
        match = load(store, "M1").match
        with ThreadPoolExecutor(1) as other:  # a thread without a connection of its own
            asked = other.submit(events_after, store, match.id, 1).result()
            dbs = vars(store).get("_read_dbs")
            assert dbs is None or other.submit(dbs.held).result() is None  # (none opened)
        assert rows_of(asked) == rows_of(store.recorder.select_events(match.id, gt=1))
        rdb = read_db(store)  # this thread's, as a web server's request threads hold one
        for version in (0, 1, 2, 3, 9):
            theirs = rows_of(store.recorder.select_events(match.id, gt=version))
            assert rows_of(events_after(store, match.id, version)) == theirs
        assert len(events_after(store, match.id, 1)) == 2
        with rdb.transaction():  # (a refresh's: asked on another connection, not in it)
            assert rows_of(events_after(store, match.id, 1)) == rows_of(
                store.recorder.select_events(match.id, gt=1)
            )
            rdb.rows("select 1")  # the transaction is not undone
    finally:
        close(store)
