"""A fresh tournament for the web's tests, the app in process, and a real server on a free port."""

from __future__ import annotations

import re
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from tests.tournament.conftest import new_schema, postgres_server, url_of  # noqa: F401  (a fixture)
from tournament.readside import readmodels
from tournament.services import day
from tournament.storage.store import Store
from tournament.web.app import Settings, create_app

PASSPHRASE = "correct horse battery"
GAMES = ["tiro", "texas", "ventuno", "updown"]


def build(db: Path | str, players: tuple[str, ...] = ("giallo", "blu"), **settings: Any) -> Store:
    store = Store(db)
    day.create(store, "Torneo di prova", **{"games": GAMES, "rounds": 2, **settings})
    day.add_players(store, list(players))
    readmodels.update(store)
    return store


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return build(tmp_path / "t.db")


@pytest.fixture(params=("sqlite", "postgresql"))
def any_db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A new store's --db on either backend (a file, or a schema of the test server)."""
    if request.param == "sqlite":
        return str(tmp_path / "t.db")
    server = request.getfixturevalue("postgres_server")
    return new_schema(server, "w")


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """What ``tournament serve`` asked uvicorn to run (uvicorn itself replaced, and the serving
    process's own tuning of its loop and collector: not this test process's)."""
    import uvicorn

    from tournament.cli import serve as serve_command

    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: calls.append({"app": app, **kw}))
    monkeypatch.setattr(serve_command, "collects_less", lambda: None)
    monkeypatch.setattr(serve_command, "ticks_once_a_second", lambda: None)
    return calls


def serve(db: Path | str, *args: str) -> Any:
    """``tournament --db DB serve ARGS`` (uvicorn replaced by ``served``)."""
    from typer.testing import CliRunner

    from tournament.cli import full_app

    return CliRunner().invoke(full_app(), ["--db", str(db), "serve", *args])


def make_client(store: Store, **settings: Any) -> TestClient:
    db = store.location  # a file, or a PostgreSQL server
    app = create_app(Settings(db=db, passphrase=PASSPHRASE, interval=0.05, **settings), store)
    return TestClient(app, base_url="http://127.0.0.1")


@pytest.fixture
def client(store: Store) -> Iterator[TestClient]:
    with make_client(store) as c:
        yield c


def csrf(html: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', html)
    assert found, "the page has no CSRF field"
    return found.group(1)


def log_in(client: TestClient) -> str:
    """Log the organizer in; return the session's CSRF token."""
    token = csrf(client.get("/organizer/").text)
    r = client.post("/organizer/login", data={"csrf": token, "passphrase": PASSPHRASE})
    assert r.status_code == 200 and "/organizer/round/pair" in r.text
    return csrf(r.text)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """uvicorn in a thread on 127.0.0.1, stopped by the test."""

    def __init__(self, store: Store) -> None:
        import uvicorn

        db = store.location
        app = create_app(Settings(db=db, passphrase=PASSPHRASE), Store(db))
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> Server:
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.02)
        return self

    def __exit__(self, *_: Any) -> None:
        self.server.should_exit = True
        self.thread.join(10)


@pytest.fixture
def server(store: Store) -> Iterator[Server]:
    with Server(store) as s:
        yield s


TIRO = [
    ("giallo", "roll", {"die": "d6", "values": "6 6 5 1"}),
    ("blu", "roll", {"die": "d6", "values": "5 4 2 1"}),
    ("giallo", "roll", {"die": "d20", "values": "11"}),
    ("giallo", "expression", {"expr": "6 x (5:6+1)"}),
    ("blu", "expression", {"expr": "(5+4+2):1"}),
]


def refresh(store: Store, client: TestClient | None) -> None:
    """Bring the read models up to date (through the running app's lock when there is one)."""
    if client is None:
        readmodels.update(store)
    else:
        client.app.state.live.refresh()  # type: ignore[attr-defined]


def paired(store: Store, client: TestClient | None = None) -> None:
    day.pair_next_round(store)
    refresh(store, client)


def rounds(store: Store) -> int:
    return len(day.get_tournament(store).rounds)


def issue(client: TestClient, token: str) -> str:
    """The organizer prints the table cards; return the first table's link path."""
    r = client.post("/organizer/cards", data={"csrf": token, "confirm": "yes"})
    assert r.status_code == 200
    links = re.findall(r"http://127\.0\.0\.1/table/([A-Za-z0-9_-]+)", r.text)
    assert links, "no table link on the cards"
    return f"/table/{links[0]}"


def record(client: TestClient, table: str, by: str, kind: str, **fields: str) -> str:
    page = client.get(table).text
    position = re.search(r'name="position" value="(\d+)"', page)
    match = re.search(r'name="match" value="(M\d+)"', page)
    assert position and match, page
    data = {"csrf": csrf(page), "match": match.group(1), "position": position.group(1)}
    r = client.post(f"{table}/record", data={**data, "kind": kind, "by": by, **fields})
    assert r.status_code == 200
    return r.text


class Written:
    """A live stream's end as the hub sees it (a :class:`tournament.web.live.Sink`'s ``push``):
    what it was given to write, each push's body and the frames in it."""

    def __init__(self) -> None:
        self.bodies: list[bytes] = []
        self.frames: list[bytes] = []

    def push(self, frames: list[bytes], body: bytes) -> bool:
        self.bodies.append(body)
        self.frames += frames
        return True

    def end(self, drop: bool = False) -> None:
        pass
