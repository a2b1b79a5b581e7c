"""Festival scale (#27): conditional pages answered 304 from the store's position, a stream that
says what each event changes and encodes it once for every stream, what a server keeps in
memory (the tournament, the matches' replays) checked against the store, and two server
processes over one PostgreSQL store sharing sessions, CSRF tokens and the stream."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.testclient import TestClient

from tournament.readside import kept
from tournament.services import day, tables
from tournament.services.matches import load
from tournament.storage.store import Store

from .conftest import (
    GAMES,
    PASSPHRASE,
    TIRO,
    Written,
    build,
    csrf,
    free_port,
    issue,
    log_in,
    paired,
    record,
)


def start_tiro(client: TestClient, store: Store) -> str:
    """Round 1 paired, its table's partita chosen and its Tiro started; the table's link."""
    paired(store, client)
    table = issue(client, log_in(client))
    page = client.get(table).text
    client.post(f"{table}/partita", data={"csrf": csrf(page), "games": GAMES})
    client.post(f"{table}/start", data={"csrf": csrf(page), "game": "tiro"})
    return table


def test_a_public_page_is_answered_304_until_the_store_moves(
    client: TestClient, store: Store
) -> None:
    table = start_tiro(client, store)
    for path in ("/", "/standings", "/rounds/1", "/api/standings", "/api"):
        first = client.get(path)
        tag = first.headers["etag"]
        assert first.status_code == 200 and first.headers["cache-control"] == "no-cache"
        again = client.get(path, headers={"If-None-Match": tag})
        assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == tag
    tag = client.get("/standings").headers["etag"]
    english = client.get("/standings", headers={"Cookie": "lang=en"}).headers["etag"]
    assert english != tag  # the words differ: so does the tag
    home = client.get("/").headers["etag"]
    seat, kind, fields = TIRO[0]
    record(client, table, seat, kind, **fields)
    # The home page shows who acts next: it moved; the standings wait for an outcome
    # (tests/web/test_afresh.py).
    moved = client.get("/", headers={"If-None-Match": home})
    assert moved.status_code == 200 and moved.headers["etag"] != home
    assert "Torneo di prova" in moved.text
    assert client.get("/standings", headers={"If-None-Match": tag}).status_code == 304


def test_pages_are_compressed_and_static_files_kept(client: TestClient, store: Store) -> None:
    start_tiro(client, store)
    page = client.get("/rounds/1", headers={"Accept-Encoding": "gzip"})
    assert page.status_code == 200
    if len(page.content) >= 1000:
        assert page.headers.get("content-encoding") == "gzip"
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200 and icon.headers["content-type"].startswith("image/svg+xml")
    script = client.get("/static/live.js")
    assert script.status_code == 200 and "max-age=" in script.headers["cache-control"]


def test_the_stream_names_the_match_its_round_and_whether_the_standings_move(
    client: TestClient, store: Store
) -> None:
    table = start_tiro(client, store)
    hub = client.app.state.live  # type: ignore[attr-defined]
    start = store.recorder.max_notification_id()  # the start told, the moves to come
    for seat, kind, fields in TIRO:
        record(client, table, seat, kind, **fields)
    deadline = time.monotonic() + 5
    while hub.last <= start:
        assert time.monotonic() < deadline, "the live task did not see the moves"
        time.sleep(0.01)
    hub.refresh()
    messages = hub.since(start)
    moves = [m for m in messages if m["match"] == "M1"]
    assert [m["type"] for m in moves][:5] == ["roll", "roll", "roll", "expression", "expression"]
    assert all(m["round"] == 1 for m in moves)
    assert [m["standings"] for m in moves] == [
        m["type"] in ("end", "ruling", "void") for m in moves
    ]
    assert any(m["type"] == "end" and m["standings"] for m in moves)  # the match ended
    others = [m for m in messages if m["match"] is None]  # the tournament's (its head recorded)
    assert others and all(m["standings"] and m["round"] is None for m in others)
    # What the stream sends live is the same as what a listener reconnecting is sent again.
    live = [hub._message(n) for n in hub.store.recorder.select_notifications(start + 1, 100)]
    assert live == messages


def test_each_message_is_encoded_once_for_every_stream(client: TestClient) -> None:
    hub = client.app.state.live  # type: ignore[attr-defined]
    streams = [Written(), Written(), Written()]
    hub.listeners.update(streams)
    try:
        message = {"id": 7, "match": "M1", "position": 3, "type": "roll", "at": "x",
                   "round": 1, "standings": False}  # fmt: skip
        hub.publish(message)
        frames = [w.bodies[0] for w in streams]
    finally:
        hub.listeners.difference_update(streams)
    assert frames[0] is frames[1] is frames[2]  # one encoding, shared
    text = frames[0].decode()
    assert text.startswith("id: 7\r\nevent: stored\r\ndata: ") and text.endswith("\r\n\r\n")
    assert json.loads(text.split("data: ", 1)[1]) == message


def test_what_a_server_keeps_follows_the_store_whoever_writes(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    store = build(db)
    day.pair_next_round(store)
    server = Store(db)
    kept.keep(server)
    before = kept.tournament(server)
    assert before is not None and kept.tournament(server) is before  # nothing moved: the same
    other = Store(db)  # another process
    tables.choose_partita(other, 1, 1, GAMES)
    number = tables.start_match(other, 1, 1, "tiro").number
    after = kept.tournament(server)
    assert after is not before and after.version > before.version
    assert after.rounds == day.get_tournament(other).rounds
    assert before.version < after.version and not before.rounds[0]["tables"][0].get("matches")
    # A match's replay is kept and extended by what another process records.
    from tournament.services.matches import record as record_event

    for seat, kind, fields in TIRO[:3]:  # three rolls
        values = [int(v) for v in fields["values"].split()]
        record_event(other, number, {"type": kind, "by": seat, "die": fields["die"],
                                     "values": values})  # fmt: skip
        shown = load(server, number)
        fresh = load(other, number)
        assert shown.replay.position == fresh.replay.position
        assert shown.replay.state == fresh.replay.state and shown.replay.turns == fresh.replay.turns
    # Copies for writers are the writer's own.
    copy = day.get_tournament(server)
    assert copy is not kept.tournament(server) and copy.rounds == kept.tournament(server).rounds


def test_workers_need_a_postgresql_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn
    from typer.testing import CliRunner

    from tournament.cli import full_app

    monkeypatch.setattr(uvicorn, "run", lambda *a, **k: pytest.fail("served"))
    build(tmp_path / "t.db")
    r = CliRunner().invoke(full_app(), ["--db", str(tmp_path / "t.db"), "serve", "--workers", "2"])
    assert r.exit_code == 1 and "--workers needs a PostgreSQL server" in r.output
    r = CliRunner().invoke(full_app(), ["--db", str(tmp_path / "t.db"), "serve", "--workers", "0"])
    assert r.exit_code == 1 and "from 1 to 64" in r.output


def _serve(db: str, port: int) -> subprocess.Popen[bytes]:
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.Popen(
        [sys.executable, "-m", "tournament", "--db", db, "serve", "--port", str(port),
         "--organizer-passphrase", PASSPHRASE],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip


def _up(url: str) -> None:
    deadline = time.monotonic() + 30
    while True:
        try:
            httpx.get(f"{url}/api", timeout=2)
            return
        except httpx.HTTPError:
            assert time.monotonic() < deadline, f"{url} did not start"
            time.sleep(0.1)


def test_two_processes_share_sessions_csrf_tokens_and_the_stream(any_db: str) -> None:
    if not any_db.startswith("postgresql"):
        pytest.skip("several server processes share a PostgreSQL store (serve --workers)")
    store = build(any_db)
    day.pair_next_round(store)
    ports = free_port(), free_port()
    servers = [_serve(any_db, p) for p in ports]
    a, b = (f"http://127.0.0.1:{p}" for p in ports)
    try:
        _up(a)
        _up(b)
        with httpx.Client(timeout=10, follow_redirects=True) as one:
            token = csrf(one.get(f"{a}/organizer/").text)
            page = one.post(f"{a}/organizer/login", data={"csrf": token, "passphrase": PASSPHRASE})
            assert page.status_code == 200
            # The session and the form drawn by A are B's too.
            cards = one.post(f"{b}/organizer/cards", data={"csrf": csrf(page.text)})
            assert cards.status_code == 200, cards.text[:200]
            links = re.findall(rf"{re.escape(b)}/table/([A-Za-z0-9_-]+)", cards.text)
            assert links
            table = f"/table/{links[0]}"
            with (
                httpx.Client(timeout=10, follow_redirects=True) as phone,
                httpx.stream("GET", f"{b}/api/live", timeout=10) as stream,
            ):
                page = phone.get(f"{a}{table}").text
                phone.post(f"{a}{table}/partita", data={"csrf": csrf(page), "games": GAMES})
                started = phone.post(f"{b}{table}/start", data={"csrf": csrf(page), "game": "tiro"})
                assert started.status_code == 200 and 'value="M1"' in started.text
                seen: list[dict[str, Any]] = []
                for line in stream.iter_lines():  # the start written through A and B, told by B
                    if line.startswith("data:"):
                        seen.append(json.loads(line[5:]))
                        if any(m["match"] == "M1" for m in seen):
                            break
            assert any(m["match"] == "M1" and m["type"] == "Match.Started" for m in seen)
    finally:
        for s in servers:
            s.terminate()
        for s in servers:
            s.wait(10)
