"""Requests a second of the public pages at two sizes of tournament (issue 27): ``/``,
``/standings`` and ``/matches/M7`` (and ``/api/standings``) of a simulated Swiss (3 rounds) of
16 and of 1,024 players, from one steady client (keep-alive, ``Accept-Encoding: gzip`` as a
phone sends it) on a server of one process (uvicorn, as ``tournament serve`` runs it), with a
bare Starlette endpoint on the same server as the floor. Each page three ways: loaded again
while nothing moves (served from the page kept for the store's position), asked with its ETag
(304), and gathered afresh (what the first load after a move costs: the server's page caches
dropped before each request; the matches' rows and the tables' states a server keeps, each
brought forward by what a move changed, stay as after a move at one table). Each figure is
the best of three runs of a second, with the server's CPU a request (ms) beside it: on a
shared machine the CPU is the steadier figure. A
match's page should cost the same at both sizes; goal: every page >= 100/s at 1,024 players.

    python benchmarks/web_pages.py                       # simulates into a temporary folder
    python benchmarks/web_pages.py --dir /tmp/pages      # keeps the simulations there
    python benchmarks/web_pages.py --profile /tmp/prof   # yappi's profile of each server
    python benchmarks/web_pages.py --code ../main .      # two checkouts, before and after

The client and the server are two processes: on a shared machine of two cores, the ratios
within one run are the figures to read.
"""

from __future__ import annotations

import argparse
import gzip
import http.client
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

PATHS = ("/", "/standings", "/matches/M7", "/api/standings")
SECONDS = 1.0
ROUNDS = 3
FRESH = "x-benchmark-fresh"  # a request whose server drops its page caches first
FLOOR = "/benchmark-floor"


def simulated(folder: Path, players: int) -> Path:
    db = folder / f"p{players}.db"
    if not db.exists():
        subprocess.run(
            [sys.executable, "-m", "tournament", "--db", str(db), "simulate", "--players",
             str(players), "--rounds", "3"],
            check=True, capture_output=True,
        )  # fmt: skip
    return db


def serve(db: Path, port: int, profile: Path | None) -> None:
    """The server's process: the app over ``db`` with the floor's endpoint beside it, and a
    header that drops the page caches (the benchmark's own, never the program's)."""
    import uvicorn
    from starlette.responses import PlainTextResponse
    from starlette.routing import Route

    from tournament.readside import kept
    from tournament.storage.store import Store
    from tournament.web.app import Settings, create_app

    app = create_app(Settings(db=db, passphrase="benchmark passphrase"), Store(db))
    app.router.routes.insert(0, Route(FLOOR, lambda r: PlainTextResponse("ok")))

    async def fresh(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and any(k == FRESH.encode() for k, _ in scope["headers"]):
            for kept_here in ("shelf", "pages", "rendered"):  # (this version's and earlier ones')
                getattr(app.state, kept_here, {}).clear()
            kept._outcomes.clear()  # every match's outcome, read once a position
        await app(scope, receive, send)

    if profile is not None:
        import signal

        import yappi

        # uvicorn raises the SIGTERM it caught again once stopped: exit through the profile.
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
        yappi.set_clock_type("cpu")
        yappi.start()
    try:
        uvicorn.run(fresh, host="127.0.0.1", port=port, log_level="warning", access_log=False)
    finally:
        if profile is not None:
            yappi.stop()
            stats = yappi.get_func_stats()
            stats.sort("ttot")
            with profile.open("w") as out:
                stats.print_all(out=out, columns={0: ("name", 90), 1: ("ncall", 10),
                                                  3: ("ttot", 8), 4: ("tavg", 8)})  # fmt: skip


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    """The user and system CPU a process has used (Linux's /proc; 0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Client:
    """One steady client on one kept-alive connection to the server ``pid``."""

    def __init__(self, port: int, pid: int) -> None:
        self.port, self.pid = port, pid
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def get(self, path: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
        self.connection.request("GET", path, headers={"Accept-Encoding": "gzip", **headers})
        r = self.connection.getresponse()
        body = r.read()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, body

    def wait(self) -> None:
        for _ in range(600):
            try:
                self.get(FLOOR)
                return
            except OSError:
                self.connection.close()
                time.sleep(0.1)
        raise SystemExit("the server did not start")

    def rate(self, path: str, **headers: str) -> tuple[float, float]:
        """Requests a second of ``path``, the best of ROUNDS runs of SECONDS (a shared machine
        slows some of them), and the server's CPU a request over all of them, in ms (steadier:
        what one core of a quiet machine would serve is about 1000 / that a second)."""
        best, total, used = 0.0, 0, -cpu_seconds(self.pid)
        for _ in range(ROUNDS):
            count, start = 0, time.perf_counter()
            while time.perf_counter() - start < SECONDS:
                status, _, _ = self.get(path, **headers)
                assert status in (200, 304), (path, status)
                count += 1
            best = max(best, count / (time.perf_counter() - start))
            total += count
        return best, (used + cpu_seconds(self.pid)) * 1000 / total


def measure(db: Path, players: int, profile: Path | None, code: str | None) -> None:
    """Each page on a server of the checkout ``code`` (None: the one this script runs from)."""
    port = free_port()
    command = [sys.executable, __file__, "--serve", str(db), "--port", str(port)]
    named = f" ({Path(code).name})" if code else ""
    if profile is not None:
        command += ["--profile", str(profile / f"server{players}{Path(code or '.').name}.txt")]
    path = os.pathsep.join([code, *sys.path] if code else sys.path)
    server = subprocess.Popen(command, env={**os.environ, "PYTHONPATH": path})
    try:
        client = Client(port, server.pid)
        client.wait()
        floor, cpu = client.rate(FLOOR)
        print(f"  {players:>5} players{named}: floor (a bare endpoint, same server) "
              f"{floor:.0f}/s ({cpu:.2f} ms CPU)")  # fmt: skip
        nothing = (float("nan"), float("nan"))
        for path in PATHS:
            status, headers, body = client.get(path)
            assert status == 200, (path, status)
            size = len(gzip.decompress(body) if headers.get("content-encoding") else body)
            again = client.rate(path)
            tag = headers.get("etag")
            unchanged = client.rate(path, **{"If-None-Match": tag}) if tag else nothing
            cold = client.rate(path, **{FRESH: "1"})
            print(
                f"  {players:>5} players {path:<16} "
                + ", ".join(f"{r:5.0f}/s ({c:5.2f} ms) {what}" for (r, c), what in
                            ((again, "again"), (unchanged, "304"), (cold, "afresh")))
                + f" ({size / 1000:.0f} KB, {len(body) / 1000:.0f} KB sent)"
            )  # fmt: skip
        client.connection.close()
    finally:
        server.terminate()
        server.wait(30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, help="where the simulated tournaments are kept")
    parser.add_argument("--players", type=int, nargs="+", default=[16, 1024])
    parser.add_argument("--profile", type=Path, help="a folder for yappi's profile of each server")
    parser.add_argument(
        "--code", nargs="+", help="checkouts to serve from, one after the other at each size "
        "(e.g. the main checkout and this one: before and after in one run)",
    )  # fmt: skip
    parser.add_argument("--serve", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve is not None:
        serve(args.serve, args.port, args.profile)
        return
    if args.profile is not None:
        args.profile.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.dir or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        for players in args.players:
            source = simulated(folder, players)
            db = Path(tmp) / f"served{players}.db"
            for code in args.code or [None]:
                shutil.copy(source, db)  # the server writes its own tables: a copy
                measure(db, players, args.profile, code)


if __name__ == "__main__":
    main()
