"""More than one process over one PostgreSQL store (#27): the tournament's writers queue across
processes rather than starve, the live stream is woken by the database's NOTIFY (and still
polls when a notification is missed), and the rate limits count across processes."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from tournament.readside import kept
from tournament.services import day, stores, tables
from tournament.storage.store import Store

from .conftest import GAMES, build, url_of

TABLES = 40


@pytest.fixture
def server_db(postgres_server: Any) -> Iterator[str]:
    """A new store's --db in a schema of its own on the test server."""
    yield url_of(replace(postgres_server, schema=f"w{uuid.uuid4().hex[:12]}"))


def test_forty_tables_starting_at_once_all_start_each_written_once(
    server_db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = build(server_db, players=tuple(f"p{i:02d}" for i in range(2 * TABLES)))
    day.pair_next_round(store)
    # Eight servers' stores (each its own connections and kept tournament), five tables each.
    terminals = [Store(server_db) for _ in range(8)]
    for terminal in terminals:
        kept.keep(terminal)
    opened: list[int] = []
    open_match = tables.open_match

    def counted(*args: Any, **kwargs: Any) -> Any:
        opened.append(args[3])
        return open_match(*args, **kwargs)

    monkeypatch.setattr(tables, "open_match", counted)
    together = threading.Barrier(TABLES)
    refused: list[str] = []

    def start(table: int) -> None:
        terminal = terminals[table % len(terminals)]
        together.wait()
        try:
            tables.choose_partita(terminal, 1, table, GAMES)
            tables.start_match(terminal, 1, table, "tiro")
        except Exception as e:  # noqa: BLE001 - said in the assertion
            refused.append(f"table {table}: {e}")

    threads = [threading.Thread(target=start, args=(n,)) for n in range(1, TABLES + 1)]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
    finally:
        for terminal in terminals:
            stores.close(terminal)
    assert refused == []
    t = day.get_tournament(Store(server_db))
    started = [tb for tb in t.rounds[0]["tables"] if tb.get("matches")]
    assert len(started) == TABLES
    numbers = [m for tb in started for m in tb["matches"].values()]
    assert sorted(numbers, key=lambda n: int(n[1:])) == [f"M{n}" for n in range(1, TABLES + 1)]
    # Queued, not retried: each table's start was made once (it was made 675 times for 40).
    assert sorted(opened) == list(range(1, TABLES + 1))
