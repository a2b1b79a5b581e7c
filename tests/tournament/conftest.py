"""Stores on both backends: a new SQLite file, or a new schema on the test PostgreSQL server.

The server is named by TOURNAMENT_TEST_POSTGRES (a postgresql:// URL of a role that may create
databases); each test session makes a database of its own there and drops it at the end, and
each test a schema of its own. Without a server the PostgreSQL tests skip on a developer's
machine, and fail under CI=true: CI must run them.
"""

from __future__ import annotations

import gc
import os
import uuid
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from tournament.storage.locations import PostgresServer, close, locate
from tournament.storage.store import Store

BACKENDS = ("sqlite", "postgresql")


def url_of(server: PostgresServer) -> str:
    """The URL a test passes to --db (with its password: tests only)."""
    schema = f"?schema={server.schema}" if server.schema != "public" else ""
    return (
        f"postgresql://{server.user}:{server.password}@{server.host}:{server.port}/"
        f"{server.dbname}{schema}"
    )


def new_schema(server: PostgresServer, prefix: str = "t") -> str:
    """The --db of a new store in a schema of its own on the test server ``server``."""
    return url_of(replace(server, schema=f"{prefix}{uuid.uuid4().hex[:12]}"))


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A fresh database on the test server for this test session, dropped after it."""
    given = os.environ.get("TOURNAMENT_TEST_POSTGRES")
    if not given:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("CI must run the PostgreSQL tests: TOURNAMENT_TEST_POSTGRES is not set")
        pytest.skip("no PostgreSQL server: set TOURNAMENT_TEST_POSTGRES=postgresql://... to run")
    import psycopg
    from psycopg import sql

    base = locate(given)
    assert isinstance(base, PostgresServer)
    name = f"tournament_pytest_{os.getpid()}_{uuid.uuid4().hex[:6]}"
    with psycopg.connect(**base.conninfo(), autocommit=True) as conn:  # type: ignore[arg-type]
        conn.execute(sql.SQL("create database {}").format(sql.Identifier(name)))
    try:
        yield replace(base, dbname=name, schema="public")
    finally:
        gc.collect()  # stores a test left open give their connections back
        with psycopg.connect(**base.conninfo(), autocommit=True) as conn:  # type: ignore[arg-type]
            conn.execute(
                sql.SQL("drop database if exists {} with (force)").format(sql.Identifier(name))
            )


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def make_db(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> Iterator[Callable[[], str]]:
    """New, empty stores of this test's backend, as ``--db`` takes them."""
    made: list[PostgresServer] = []

    def new() -> str:
        if backend == "sqlite":
            return str(tmp_path / f"t{len(made) + len(list(tmp_path.iterdir()))}.db")
        server: PostgresServer = request.getfixturevalue("postgres_server")
        made.append(replace(server, schema=f"t{uuid.uuid4().hex[:12]}"))
        return url_of(made[-1])

    yield new
    if made:
        gc.collect()


@pytest.fixture
def db(make_db: Callable[[], str]) -> str:
    """A new, empty store of this test's backend (a file path or a postgresql:// URL)."""
    return make_db()


@pytest.fixture
def store(db: str) -> Iterator[Store]:
    s = Store(db)
    yield s
    close(s)


def raw_rows(store: Store, statement: str) -> list[tuple[Any, ...]]:
    """Rows read with the backend's own driver, as an organizer's SQL tool would."""
    where = store.location
    if isinstance(where, PostgresServer):
        from tournament.storage.postgres import connect

        with connect(where) as conn:
            return conn.execute(statement).fetchall()  # type: ignore[arg-type]
    import sqlite3

    conn = sqlite3.connect(where.path)
    try:
        return conn.execute(statement).fetchall()
    finally:
        conn.close()
