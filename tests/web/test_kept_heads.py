"""What a server keeps is checked by the chain's head, not by its version alone (#27): a match
or the tournament replaced underneath by another process with as many events (a `match
import`, a table file's check-in, a tournament started over) is read again at once, on
PostgreSQL as on SQLite."""

from __future__ import annotations

import sqlite3
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from tournament.domain.tournaments import TOURNAMENT_ID
from tournament.readside import kept
from tournament.readside.reading import read_match
from tournament.services import day, play, stores, tables
from tournament.services.matches import load
from tournament.storage.locations import PostgresServer, locate
from tournament.storage.sealedlog import match_uuid
from tournament.storage.store import Store

from .conftest import GAMES, build, new_schema, paired

COLUMNS = "originator_id, originator_version, topic, state"


@pytest.fixture
def two_schemas(postgres_server: Any) -> Iterator[tuple[str, str]]:
    """Two new stores' --db on the test server, each a schema of its own."""
    yield tuple(  # type: ignore[misc]
        new_schema(postgres_server, "k") for _ in range(2)
    )


def _replace_rows(target: str, source: str, originator: uuid.UUID) -> None:
    """Put ``source``'s rows of one aggregate in place of ``target``'s (another process's
    doing: a copy restored, a match imported over the one stored)."""
    import psycopg

    into, out = locate(target), locate(source)
    assert isinstance(into, PostgresServer) and isinstance(out, PostgresServer)
    select = f"select {COLUMNS} from {out.schema}.tournament_events where originator_id = %s"
    with psycopg.connect(**into.conninfo(), autocommit=True) as conn:  # type: ignore[arg-type]
        rows = conn.execute(select, [originator]).fetchall()
        assert rows
        with conn.transaction():
            conn.execute(
                f"delete from {into.schema}.tournament_events where originator_id = %s",
                [originator],
            )
            conn.cursor().executemany(
                f"insert into {into.schema}.tournament_events ({COLUMNS}) values (%s, %s, %s, %s)",
                rows,
            )


def _started(db: str, values: str) -> tuple[Store, str]:
    store = build(db)
    paired(store)
    tables.choose_partita(store, 1, 1, GAMES)
    number = tables.start_match(store, 1, 1, "tiro").number
    play.record_move(store, number, f"roll giallo d6 {values}")
    return store, number


def test_a_kept_match_replaced_with_as_many_events_on_postgresql_is_read_again(
    two_schemas: tuple[str, str],
) -> None:
    one, other = two_schemas
    first, number = _started(one, "6 6 5 1")
    second, _ = _started(other, "3 3 2 2")
    server = Store(one)  # the server's store, beside the one another process writes through
    kept.keep(server)
    try:
        assert read_match(server, number) is read_match(server, number)  # kept while unchanged
        play.record_move(server, number, "roll blu d6 5 4 2 1")  # (its aggregate kept after it)
        play.record_move(second, number, "roll blu d6 5 4 2 1")
        _replace_rows(one, other, match_uuid(number))  # as many events, another match
        fresh = load(second, number)
        shown = load(server, number)
        assert shown.match.lines == fresh.match.lines and shown.replay.state == fresh.replay.state
        assert '"values":[3,3,2,2]' in shown.match.lines[0]
        # Its aggregate too: the next move is judged and chained on the match now stored.
        play.record_move(server, number, "roll giallo d20 11")
        reader = Store(one)
        assert load(reader, number).match.lines[:-1] == fresh.match.lines
        assert reader.get_match(number).intact()
        stores.close(reader)
    finally:
        for store in (server, first, second):
            stores.close(store)


def _swap_tournament(db: str, source: str) -> None:
    """Put ``source``'s tournament in place of ``db``'s, as many events each."""
    if locate(db).is_server:
        _replace_rows(db, source, TOURNAMENT_ID)
        return
    with sqlite3.connect(source) as conn:
        rows = conn.execute(
            f"select {COLUMNS} from stored_events where originator_id = ?", [TOURNAMENT_ID.hex]
        ).fetchall()
    with sqlite3.connect(db) as conn:
        conn.execute("delete from stored_events where originator_id = ?", [TOURNAMENT_ID.hex])
        conn.execute("delete from stored_snapshots")
        conn.executemany(f"insert into stored_events ({COLUMNS}) values (?, ?, ?, ?)", rows)


def test_a_kept_tournament_replaced_with_as_many_events_is_read_again(
    any_db: str, tmp_path: Any, request: pytest.FixtureRequest
) -> None:
    if locate(any_db).is_server:
        server_of: Any = request.getfixturevalue("postgres_server")
        other = new_schema(server_of, "k")
    else:
        other = str(tmp_path / "other.db")
    made = [build(any_db, ("a", "b")), build(other, ("c", "d"))]
    server = Store(any_db)
    kept.keep(server)
    try:
        assert list(kept.tournament(server).players) == ["a", "b"]
        _swap_tournament(any_db, other)
        assert list(kept.tournament(server).players) == ["c", "d"]
        day.add_players(server, ["e"])  # written on the tournament now stored
        reader = Store(any_db)
        assert list(day.get_tournament(reader).players) == ["c", "d", "e"]
        stores.close(reader)
    finally:
        for store in (server, *made):
            stores.close(store)
