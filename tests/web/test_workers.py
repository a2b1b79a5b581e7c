"""More than one process over one PostgreSQL store (#27): the tournament's writers queue across
processes rather than starve, the live stream is woken by the database's NOTIFY (and still
polls when a notification is missed), and the rate limits count across processes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from tournament.readside import kept
from tournament.services import day, stores, tables
from tournament.storage.store import Store

from .conftest import GAMES, Written, build, make_client, new_schema

TABLES = 40


@pytest.fixture
def server_db(postgres_server: Any) -> Iterator[str]:
    """A new store's --db in a schema of its own on the test server."""
    yield new_schema(postgres_server, "w")


def test_forty_tables_starting_at_once_all_start_each_written_once(
    server_db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = build(server_db, players=tuple(f"p{i:02d}" for i in range(2 * TABLES)))
    day.pair_next_round(store)
    # Four servers' stores (each its own connections and kept tournament), ten tables each
    # (more would take the connections the test server keeps for the other test worker).
    terminals = [Store(server_db) for _ in range(4)]
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
    reader = Store(server_db)
    t = day.get_tournament(reader)
    stores.close(reader)
    stores.close(store)
    started = [tb for tb in t.rounds[0]["tables"] if tb.get("matches")]
    assert len(started) == TABLES
    numbers = [m for tb in started for m in tb["matches"].values()]
    assert sorted(numbers, key=lambda n: int(n[1:])) == [f"M{n}" for n in range(1, TABLES + 1)]
    # Queued, not retried: each table's start was made once (it was made 675 times for 40).
    assert sorted(opened) == list(range(1, TABLES + 1))


ROLL = (
    "import sys; from tournament.services.matches import record; "
    "from tournament.storage.store import Store; "
    "record(Store(sys.argv[1]), 'M1', {'type': 'roll', 'by': 'giallo', 'die': 'd6', "
    "'values': [6, 6, 5, 1]})"
)


def roll(db: str) -> None:
    """Giallo's first roll of M1, recorded through a store of its own (another server's)."""
    from tournament.services.matches import record

    record(Store(db), "M1", {"type": "roll", "by": "giallo", "die": "d6", "values": [6, 6, 5, 1]})


def started(db: str) -> Store:
    """A tournament whose round 1 plays M1, a Tiro."""
    store = build(db)
    day.pair_next_round(store)
    tables.choose_partita(store, 1, 1, GAMES)
    tables.start_match(store, 1, 1, "tiro")
    return store


def streamed(hub: Any, seconds: float) -> list[dict[str, Any]]:
    """The messages a stream of ``hub`` receives within ``seconds`` of the first."""
    written = Written()
    hub.listeners.add(written)
    deadline = time.monotonic() + seconds
    try:
        while not written.frames:
            if time.monotonic() > deadline:
                return []
            time.sleep(0.01)
        time.sleep(0.1)  # (the rest of a burst)
        frames = list(written.frames)
    finally:
        hub.listeners.discard(written)
    return [json.loads(f.decode().split("data: ", 1)[1]) for f in frames if f]


def test_a_move_written_by_another_process_reaches_the_stream_by_notify(server_db: str) -> None:
    store = started(server_db)
    # Polling alone would not look again for ten minutes: only the notification can tell.
    with make_client(store, safety=600) as client:
        hub = client.app.state.live  # type: ignore[attr-defined]
        assert hub.listening.wait(10), "the live task did not listen"
        root = Path(__file__).resolve().parents[2]
        with ThreadPoolExecutor(1) as pool:
            seen = pool.submit(streamed, hub, 30)
            subprocess.run([sys.executable, "-c", ROLL, server_db], check=True, timeout=60,
                           env={**os.environ, "PYTHONPATH": str(root)})  # fmt: skip
            messages = seen.result()
    assert [(m["match"], m["type"], m["position"]) for m in messages] == [("M1", "roll", 1)]


def test_a_missed_notification_is_made_up_by_the_safety_poll(
    server_db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = started(server_db)
    listen = stores.wake_on_notify
    told: list[bool] = []

    def deaf(store: Store, wake: Any, stopped: Any) -> bool:  # listening, every notification missed
        def first(listening: bool) -> None:
            if not told:
                wake(listening)
            told.append(listening)

        return listen(store, first, stopped)

    monkeypatch.setattr(stores, "wake_on_notify", deaf)
    with make_client(store, safety=0.2) as client:
        hub = client.app.state.live  # type: ignore[attr-defined]
        deadline = time.monotonic() + 10
        while not told:  # listening, and deaf
            assert time.monotonic() < deadline
            time.sleep(0.01)
        with ThreadPoolExecutor(1) as pool:
            seen = pool.submit(streamed, hub, 10)
            roll(server_db)
            messages = seen.result()
        assert hub.listening.is_set()  # (listening all along, told nothing after its start)
    assert [(m["match"], m["type"]) for m in messages] == [("M1", "roll")]


def test_wrong_guesses_are_counted_across_processes(any_db: str) -> None:
    store = build(any_db)
    one, two = make_client(Store(any_db)), make_client(Store(any_db))  # two servers' apps
    with one, two:
        limit = one.app.state.guesses.limit  # type: ignore[attr-defined]
        session = ""
        codes = []
        for n in range(limit + 1):  # the same browser, its taps shared by the two servers
            server = (one, two)[n % 2]
            server.cookies.clear()
            r = server.get(
                "/table/AAAAAAAAAAAAAAAAAAAAAA", headers={"Cookie": f"session={session}"}
            )
            codes.append(r.status_code)
            session = r.cookies.get("session") or session
        assert codes == [404] * limit + [429]
        # Another phone of the same room is not locked out, on either server.
        for server in (one, two):
            server.cookies.clear()
            assert server.get("/table/BBBBBBBBBBBBBBBBBBBBBB").status_code == 404
    store.close()


def test_workers_read_their_settings_from_a_file_of_the_owner_never_the_environment(
    server_db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import stat

    import uvicorn
    from typer.testing import CliRunner

    from tournament.cli import full_app
    from tournament.cli import serve as serve_command
    from tournament.services import stores as services_stores
    from tournament.web.app import SETTINGS_ENV, from_environment

    build(server_db)
    seen: dict[str, Any] = {}
    closed: list[Any] = []
    close = services_stores.close
    monkeypatch.setattr(services_stores, "close", lambda s: (closed.append(s), close(s)))

    def run(app: str, **options: Any) -> None:  # what each worker would find
        file = Path(os.environ[SETTINGS_ENV])
        seen.update(file=file, mode=stat.S_IMODE(file.stat().st_mode), workers=options["workers"],
                    environment=dict(os.environ), closed=list(closed),
                    app=from_environment())  # fmt: skip

    monkeypatch.setattr(uvicorn, "run", run)
    monkeypatch.setattr(serve_command, "ticks_once_a_second", lambda: None)  # (a server's own)
    monkeypatch.setattr(serve_command, "supervises_less", lambda: None)  # (its supervisor's)
    monkeypatch.setenv("TOURNAMENT_ORGANIZER_PASSPHRASE", "a passphrase of the room")
    monkeypatch.setenv("TOURNAMENT_DB", server_db)
    r = CliRunner().invoke(full_app(), ["serve", "--workers", "2", "--host", "::"])
    assert r.exit_code == 0, r.output
    assert "http://[::]:8000/" in r.output  # (it said http://:::8000/)
    assert seen["workers"] == 2 and seen["mode"] == 0o600
    assert not seen["file"].exists()  # removed when the server stopped
    environment = " ".join(seen["environment"].values())
    assert "a passphrase of the room" not in environment and server_db not in environment
    # The serving process serves nothing: its store given back before the workers start, its
    # listener stopped (#27: not a connection and a thread idle beside the workers').
    (own,) = seen["closed"]
    assert vars(own)["_heard"].stopped.is_set()
    settings = seen["app"].state.settings
    assert settings.passphrase == "a passphrase of the room"
    assert str(settings.db) == str(Store(server_db).location)


def test_a_server_that_cannot_listen_polls_at_the_interval(
    server_db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = started(server_db)

    def refused(store: Store, wake: Any, stopped: Any) -> bool:  # a pooler that takes no LISTEN
        wake(False)
        stopped.wait()
        return True

    monkeypatch.setattr(stores, "wake_on_notify", refused)
    with make_client(store, safety=600) as client:  # (the interval: make_client's 0.05 s)
        hub = client.app.state.live  # type: ignore[attr-defined]
        with ThreadPoolExecutor(1) as pool:
            seen = pool.submit(streamed, hub, 10)
            roll(server_db)
            messages = seen.result()
        assert not hub.listening.is_set()
    assert [(m["match"], m["type"]) for m in messages] == [("M1", "roll")]


def test_a_store_that_fails_to_count_is_asked_again_after_the_window(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One failure of the store (a busy file, a lost server) makes this process count alone
    for a window, not for good: the limit holds across processes again after it."""
    from tournament.web import security

    clock = [1000.0]
    monkeypatch.setattr(security.time, "monotonic", lambda: clock[0])
    asked: list[str] = []

    def count(store: Any, keys: list[str], since: float) -> dict[str, int]:
        asked.append("count")
        if len(asked) == 1:
            raise OSError("database is locked")
        return {key: 9 for key in keys}  # the other processes' failures

    monkeypatch.setattr(stores, "count_guesses", count)
    limit = security.RateLimit(limit=5, window=60, store=object())
    assert limit._stored("count", ["address x"]) is None  # failed: this process counts
    assert not limit._asks()
    clock[0] += 30
    assert not limit._asks() and asked == ["count"]
    clock[0] += 31
    assert limit._asks() and limit._stored("count", ["address x"]) == {"address x": 9}


def test_a_name_looked_up_in_the_standings_is_drawn_not_kept(tmp_path: Path) -> None:
    """Any text can be typed in the standings' name field: such a page is not kept, so no one
    can push the room's pages off the shelf by typing names."""
    store = build(str(tmp_path / "t.db"))
    with make_client(Store(str(tmp_path / "t.db"))) as client:
        shelf = client.app.state.shelf  # type: ignore[attr-defined]
        assert client.get("/standings").status_code == 200
        kept_before = len(shelf.pages)
        for n in range(20):
            assert client.get(f"/standings?player=nobody{n}").status_code == 200
        assert len(shelf.pages) == kept_before
    store.close()


def test_workers_starting_at_once_make_the_stores_tables_once(server_db: str) -> None:
    """serve --workers starts its processes together on a new schema: each makes the store's
    own tables and its read models at once, and none fails on the other's half-made table."""
    from tournament.readside import readmodels

    base = server_db.rsplit("?schema=", 1)[0]
    for attempt in range(3):  # (a race: tried on a few new schemas)
        db = f"{base}?schema=w{uuid.uuid4().hex[:12]}" if attempt else server_db
        first = Store(db)  # a tournament, nothing else of the store's yet
        day.create(first, "Festival", games=GAMES, rounds=1)
        stores.close(first)
        starting = [Store(db) for _ in range(4)]
        together = threading.Barrier(len(starting))
        failed: list[str] = []

        def start(store: Store, together: Any = together, failed: list[str] = failed) -> None:
            together.wait()
            try:
                stores.prepare_links(store)
                readmodels.update(store, write=True)
            except Exception as e:  # noqa: BLE001 - said in the assertion
                failed.append(f"{type(e).__name__}: {e}")

        threads = [threading.Thread(target=start, args=(s,)) for s in starting]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        for store in starting:
            stores.close(store)
        assert failed == []


def test_moves_stored_together_reach_a_stream_in_one_write(
    server_db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """#27, a thousand phones: woken by a notification with streams open, the live task waits
    ``TOGETHER`` seconds for what is stored with it, so that a room's moves stored a moment
    apart go out in one write a stream (here the wait is long enough for two saves of another
    process on a busy machine)."""
    from tournament.services.matches import record
    from tournament.web import live

    from .conftest import Written

    store = started(server_db)
    monkeypatch.setattr(live, "TOGETHER", 2.0)
    with make_client(store, safety=600) as client:
        hub = client.app.state.live  # type: ignore[attr-defined]
        assert hub.listening.wait(10), "the live task did not listen"
        written = Written()
        hub.listeners.add(written)
        other = Store(server_db)
        try:
            record(
                other, "M1", {"type": "roll", "by": "giallo", "die": "d6", "values": [6, 6, 5, 1]}
            )
            record(other, "M1", {"type": "roll", "by": "blu", "die": "d6", "values": [5, 4, 2, 1]})
            deadline = time.monotonic() + 20
            while len(written.frames) < 2:
                assert time.monotonic() < deadline, "the stream was not told"
                time.sleep(0.02)
        finally:
            hub.listeners.discard(written)
            other.close()
    assert len(written.bodies) == 1 and len(written.frames) == 2
