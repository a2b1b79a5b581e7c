"""Requests a second of the public pages at two sizes of tournament (issue 27): ``/``,
``/standings`` and ``/matches/M7`` of a simulated Swiss (3 rounds) of 16 and of 1,024 players,
one steady client in the same process (Starlette's TestClient: its own cost is counted too),
with a bare Starlette endpoint as the floor. Each page three ways: loaded again while nothing
moves (served from the page kept for the store's position), asked with its ETag (304), and
gathered afresh (what the first load after a move costs: its caches dropped each time).
A match's page verifies its match and should cost the same at both sizes; goal: every page
>= 100/s at 1,024 players.

    python benchmarks/web_pages.py                       # simulates into a temporary folder
    python benchmarks/web_pages.py --dir /tmp/pages      # keeps the simulations there
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PATHS = ("/", "/standings", "/matches/M7", "/api/standings")
SECONDS = 2.0


def simulated(folder: Path, players: int) -> Path:
    db = folder / f"p{players}.db"
    if not db.exists():
        subprocess.run(
            [sys.executable, "-m", "tournament", "--db", str(db), "simulate", "--players",
             str(players), "--rounds", "3"],
            check=True, capture_output=True,
        )  # fmt: skip
    return db


def rate(get: object, path: str, fresh: bool = False, tag: str | None = None) -> float:
    """Requests a second of ``path`` over SECONDS."""
    headers = {"If-None-Match": tag} if tag else {}
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < SECONDS:
        if fresh:
            app.state.pages.clear()
            app.state.rendered.clear()
        r = get(path, headers=headers)  # type: ignore[operator]
        assert r.status_code in (200, 304), (path, r.status_code)
        count += 1
    return count / (time.perf_counter() - start)


def floor() -> float:
    from starlette.applications import Starlette
    from starlette.responses import PlainTextResponse
    from starlette.routing import Route
    from starlette.testclient import TestClient

    bare = Starlette(routes=[Route("/", lambda r: PlainTextResponse("ok"))])
    with TestClient(bare) as client:
        return rate(client.get, "/")


def main() -> None:
    global app
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, help="where the simulated tournaments are kept")
    parser.add_argument("--players", type=int, nargs="+", default=[16, 1024])
    args = parser.parse_args()
    from starlette.testclient import TestClient

    from tournament.storage.store import Store
    from tournament.web.app import Settings, create_app

    print(f"floor: a bare Starlette endpoint, {floor():.0f}/s")
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.dir or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        for players in args.players:
            source = simulated(folder, players)
            db = Path(tmp) / f"served{players}.db"
            shutil.copy(source, db)  # the server writes its own tables: a copy
            app = create_app(Settings(db=db, passphrase="benchmark passphrase"), Store(db))
            with TestClient(app, base_url="http://127.0.0.1") as client:
                for path in PATHS:
                    first = client.get(path)
                    size = len(first.content)
                    again = rate(client.get, path)
                    tag = first.headers.get("etag")
                    unchanged = rate(client.get, path, tag=tag) if tag else float("nan")
                    cold = rate(client.get, path, fresh=True)
                    print(
                        f"  {players:>5} players {path:<16} {again:6.0f}/s again, "
                        f"{unchanged:6.0f}/s 304, {cold:6.0f}/s gathered afresh "
                        f"({size / 1000:.0f} KB)"
                    )


app = None
if __name__ == "__main__":
    main()
