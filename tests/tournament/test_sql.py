"""The SQLite dialect of the read models' database (tournament.storage.sql)."""

from __future__ import annotations

import sqlite3

import pytest

from tournament.storage.sql import SqliteReadDB


@pytest.fixture
def db() -> SqliteReadDB:
    made = SqliteReadDB(sqlite3.connect(":memory:"))
    made.create("t", {"k": int, "v": str}, pk="k")
    return made


@pytest.mark.parametrize("count", [0, 1, SqliteReadDB.VALUES // 2 - 1, 2 * SqliteReadDB.VALUES + 3])
def test_rows_written_many_to_a_statement_are_all_there_in_their_order(
    db: SqliteReadDB, count: int
) -> None:
    rows = [(k, f"row {k}") for k in range(count)]
    db.insert("t", ("k", "v"), iter(rows))
    assert db.rows("select k, v from t order by rowid") == rows


def test_an_upsert_replaces_rows_of_the_same_key_the_last_one_standing(db: SqliteReadDB) -> None:
    db.insert("t", ("k", "v"), [(1, "old"), (2, "kept")])
    many = [(k % 3, f"new {k}") for k in range(SqliteReadDB.VALUES)]  # each key many times
    db.upsert("t", ("k", "v"), "k", many)
    assert dict(db.rows("select k, v from t")) == {k: v for k, v in many}


def test_a_write_that_fails_half_way_is_refused_as_one_row_at_a_time_was(db: SqliteReadDB) -> None:
    rows = [(k, "x") for k in range(SqliteReadDB.VALUES)] + [(0, "again")]
    with pytest.raises(sqlite3.IntegrityError):
        db.insert("t", ("k", "v"), rows)


@pytest.mark.parametrize("setting", ["off", "on", "fast"])
def test_dropping_a_read_model_leaves_the_connections_secure_delete_as_it_was(
    db: SqliteReadDB, setting: str
) -> None:
    db.run(f"pragma secure_delete = {setting}")
    db.insert("t", ("k", "v"), [(1, "a")])
    db.drop("t")
    assert "t" not in db.tables()
    assert db.rows("pragma secure_delete")[0][0] == ("off", "on", "fast").index(setting)


def test_the_log_is_read_with_the_common_topic_left_out(db: SqliteReadDB) -> None:
    db.run(
        "create table stored_events (originator_id TEXT, originator_version INTEGER, "
        "topic TEXT, state BLOB, PRIMARY KEY (originator_id, originator_version))"
    )
    db.run_many(
        "insert into stored_events values (?, ?, ?, ?)",
        [("a", 1, "m:Started", b"{}"), ("a", 2, "m:Recorded", b"{}"), ("b", 1, "t:Created", b"{}")],
    )
    rows = db.stored(2, 10, common="m:Recorded")
    assert [row[:4] for row in rows] == [(2, "a", 2, None), (3, "b", 1, "t:Created")]
