"""Where a refresh of the read models goes on from (#27): the schema they were made at, the
projection's position and the mark of the event there, asked in one round trip on a server
(three before), and the same as the three looks on either backend."""

from __future__ import annotations

from typing import Any

from tests.tournament.test_match_cli import ok
from tournament.readside import kept, readmodels
from tournament.services.matches import record_move
from tournament.storage.locations import close
from tournament.storage.sql import read_db
from tournament.storage.store import Store


def looked_one_by_one(db: Any) -> tuple[Any, ...]:
    at = readmodels.position(db)
    return readmodels.schema(db), at, readmodels.mark(db, at)


def test_where_a_refresh_goes_on_from_is_the_three_looks(db: str) -> None:
    ok(db, "match", "new", "tiro", "Giocatore 01", "blu", "--outside", "verde")
    store = Store(db)
    try:
        record_move(store, "M1", "roll giocatore 01 d6 6,6,5,1")
        readmodels.update(store, write=True)
        rdb = readmodels.database(store)
        made, at, mark = rdb.where(readmodels.PROJECTION)
        assert (made, at, mark) == looked_one_by_one(rdb)
        assert made == readmodels.SCHEMA and at > 0 and mark is not None and mark[0] == 2
        rdb.release()
    finally:
        close(store)


def test_a_refresh_after_a_move_asks_where_it_stands_once(make_db: Any) -> None:
    db = make_db()
    ok(db, "match", "new", "tiro", "Giocatore 01", "blu", "--outside", "verde")
    store = Store(db)
    kept.keep(store)  # (a server's store)
    try:
        readmodels.update(store, write=True)
        record_move(store, "M1", "roll giocatore 01 d6 6,6,5,1")
        rdb = read_db(store) if store.location.is_server else None
        if rdb is None:  # a file's: the same refresh, its looks cheap
            readmodels.update(store, write=True)
            return
        asked: list[str] = []
        rows = rdb.rows

        def counted(statement: str, params: Any = ()) -> Any:
            asked.append(statement)
            return rows(statement, params)

        rdb.rows = counted  # type: ignore[method-assign]
        try:
            progress = readmodels.update(store, write=True)
        finally:
            del rdb.rows
        assert progress.events == 1 and progress.matches == {"M1"}
        looks = [s for s in asked if "_projections" in s or "from events where id" in s]
        assert len(looks) == 1, looks  # the schema, the position and its mark: one statement
        assert looked_one_by_one(rdb) == rdb.where(readmodels.PROJECTION)
        assert rdb.where(readmodels.PROJECTION)[2][0] == 2  # (the move's event: the match's second)
    finally:
        close(store)
