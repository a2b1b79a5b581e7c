"""Where a refresh of the read models goes on from (#27): the schema they were made at, the
projection's position and the mark of the event there, asked in one round trip on a server
(three before), and the same as the three looks on either backend."""

from __future__ import annotations

from typing import Any

from tests.tournament.test_match_cli import ok
from tournament.readside import kept, reading, readmodels
from tournament.services.matches import record_move
from tournament.storage.locations import close
from tournament.storage.sql import PostgresSQL, SqliteReadDB, read_db
from tournament.storage.store import Store, match_uuid


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


TIRO = [  # giocatore 01 wins (TI-4)
    "roll giocatore 01 d6 6 6 5 1",
    "roll blu d6 5 4 2 1",
    "roll verde d20 11",
    "expr giocatore 01 6 x (5:6+1)",
    "expr blu (5+4+2):1",
]


def test_a_refresh_after_this_process_s_own_moves_reads_none_of_them_back(
    make_db: Any, monkeypatch: Any
) -> None:
    """#27: a server's own move is kept as written; the refresh that projects it finds the
    match there at the line and hash it read in the notification log, and asks the store
    nothing more of it. A move that decides nothing rewrites no challenge row; the one that
    ends the match writes its rows once; the read models agree with a rebuild."""
    db = make_db()
    ok(db, "match", "new", "tiro", "Giocatore 01", "blu", "--outside", "verde")
    store = Store(db)
    kept.keep(store)  # (a server's store)
    asked: list[str] = []
    for name in ("after_head", "unchanged"):
        was = getattr(kept, name)
        monkeypatch.setattr(kept, name, lambda *a, _was=was, _n=name: asked.append(_n) or _was(*a))
    selected, m1 = store.recorder.select_events, match_uuid("M1")

    def select(*a: Any, **k: Any) -> Any:
        if (a[0] if a else k.get("originator_id")) == m1:  # (not the tournament's own)
            asked.append("select")
        return selected(*a, **k)

    store.recorder.select_events = select  # type: ignore[method-assign]
    deleted: list[Any] = []  # (the challenges' rows rewritten, by the refresh's statements)
    for cls in (SqliteReadDB, PostgresSQL):
        run = cls.run

        def counted_run(db_: Any, statement: str, params: Any = (), _run: Any = run) -> None:
            if statement.startswith("delete from challenges"):
                deleted.append(list(params))
            return _run(db_, statement, params)  # type: ignore[no-any-return]

        monkeypatch.setattr(cls, "run", counted_run)
    try:
        readmodels.update(store, write=True)
        rdb = readmodels.database(store)
        for line in TIRO:
            record_move(store, "M1", line)
            asked.clear()
            deleted.clear()
            readmodels.update(store, write=True)
            assert asked == [], (line, asked)  # nothing of M1 read back
            assert deleted == ([["M1"]] if line == TIRO[-1] else []), (line, deleted)
            rows = rdb.rows("select player, points, won from challenges where match = 'M1'")
            assert (rows != []) == (line == TIRO[-1]), line  # decided by the last move only
        rows = sorted(tuple(r) for r in rdb.rows("select player, won from challenges"))
        assert rows == [("Giocatore 01", 1), ("blu", 0)]
        status = rdb.rows("select status, winners from matches where id = 'M1'")
        assert [tuple(r) for r in status] == [("finished", '["Giocatore 01"]')]
        projected = readmodels.outcomes(rdb)
        other = Store(db)  # (keeps nothing: every row read)
        try:  # what was kept as written is the match as stored, to the last time
            assert kept.stored_match(store, "M1") == reading.read_match(other, "M1")
        finally:
            close(other)
        readmodels.update(store, again=True)  # a rebuild from the events alone
        assert readmodels.outcomes(readmodels.database(store)) == projected
        rdb.release()
    finally:
        del store.recorder.select_events
        close(store)


def test_another_process_s_moves_are_read_on_from_the_refresh_s_own_rows(
    make_db: Any, monkeypatch: Any
) -> None:
    """A server's refresh takes the moves another process stored (a second worker, a command
    line call) from the rows it projects, the match kept brought forward by them: not read
    again (#27); the match so kept is the stored one, line for line."""
    db = make_db()
    ok(db, "match", "new", "tiro", "Giocatore 01", "blu", "--outside", "verde")
    store = Store(db)
    kept.keep(store)  # (a server's store)
    try:
        record_move(store, "M1", "roll giocatore 01 d6 6,6,5,1")
        readmodels.update(store, write=True)  # (M1 kept as the refresh read it)
        ok(db, "match", "move", "M1", "roll blu d6 5,4,2,1")  # another process's moves
        ok(db, "match", "move", "M1", "roll verde d20 11")

        def asked(*_: Any) -> None:
            raise AssertionError("M1 read again")

        monkeypatch.setattr(reading, "_brought_forward", asked)
        monkeypatch.setattr(store.recorder, "select_events", asked)
        progress = readmodels.update(store, write=True)
        assert progress.matches == {"M1"}
        monkeypatch.undo()
        found = kept.stored_match(store, "M1")
        fresh = Store(db)
        try:
            stored = fresh.get_match("M1")
            assert (found.lines, found.hashes, found.times) == (
                list(stored.lines),
                list(stored.hashes),
                list(stored.times),
            )
        finally:
            close(fresh)
    finally:
        close(store)
