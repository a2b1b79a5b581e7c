"""Load on ``tournament serve`` (issue 14), bounded and on 127.0.0.1 only.

200 clients hold ``/api/live`` open, 20 referees record a Tiro and a Texas Word'em through their
table pages at table pace, and a few workers load ``/standings`` as fast as the server answers,
for ``--seconds`` (60 by default). Prints the p50 and p99 latency of the page loads and of the
referees' posts, the errors (goal 0), and the delay from a recorded move to its message on every
open stream (goal p99 <= 1 s). The server is a real ``tournament serve`` process, stopped at
the end, over a new SQLite file or, with ``--server``, a new schema of a PostgreSQL server
(dropped at the end).

    python benchmarks/web_load.py                      # 60 s, SQLite
    python benchmarks/web_load.py --server postgresql://user:password@127.0.0.1/name
    python benchmarks/web_load.py --seconds 15 --listeners 50
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx

PASSPHRASE = "benchmark passphrase"
GAMES = ["tiro", "texas", "ventuno", "updown"]
TIRO = [
    (0, "roll", {"die": "d6", "values": "6 6 5 1"}),
    (1, "roll", {"die": "d6", "values": "5 4 2 1"}),
    (0, "roll", {"die": "d20", "values": "11"}),
    (0, "expression", {"expr": "6 x (5:6+1)"}),
    (1, "expression", {"expr": "(5+4+2):1"}),
]
TEXAS = [  # seats rotate for the second challenge
    (0, "roll", {"die": "consonant", "values": "T N"}),
    (1, "roll", {"die": "consonant", "values": "S N"}),
    (0, "roll", {"die": "vowel", "values": "O A"}),
    (0, "word", {"word": "onta"}),
    (1, "word", {"word": "sano"}),
    (0, "roll", {"die": "consonant", "values": "S"}),
    (0, "roll", {"die": "vowel", "values": "A"}),
    (1, "word", {"word": "sano"}),
    (0, "word", {"word": "sonata"}),
    (0, "roll", {"die": "consonant", "values": "C"}),
    (0, "roll", {"die": "vowel", "values": "I"}),
    (0, "word", {"word": "satanico"}),
    (1, "word", {"word": "incasso"}),
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def fresh_store(tmp: str, server: str | None) -> tuple[str, Any]:
    """A new store's --db (a file, or a new schema of the server) and how to take it away."""
    if server is None:
        return str(Path(tmp) / "load.db"), lambda: None
    import uuid
    from dataclasses import replace

    from tournament.storage.locations import locate
    from tournament.storage.postgres import connect

    where = replace(locate(server), schema=f"bench_web_{uuid.uuid4().hex[:6]}")  # type: ignore[type-var]
    url = (
        f"postgresql://{where.user}:{where.password}@{where.host}:{where.port}/"
        f"{where.dbname}?schema={where.schema}"
    )

    def drop() -> None:
        with connect(where) as conn:
            conn.execute(f"drop schema if exists {where.schema} cascade")

    return url, drop


def build(db: str, tables: int) -> None:
    from tournament.readside import readmodels
    from tournament.services import day
    from tournament.storage.locations import close
    from tournament.storage.store import Store

    store = Store(db)
    day.create(store, "Carico", games=GAMES, rounds=3)
    day.add_players(store, [f"p{i:02d}" for i in range(1, 2 * tables + 1)])
    readmodels.update(store)
    day.pair_next_round(store)
    readmodels.update(store)
    close(store)


def cpu_seconds(pid: int) -> float:
    """The user and system CPU time a process (and its children: workers) has used so far."""
    total = 0.0
    tick = os.sysconf("SC_CLK_TCK")
    pids = [pid]
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        pids += [int(c) for c in children]
    except OSError:
        pass
    for p in pids:
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rpartition(")")[2].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / tick  # utime, stime
    return total


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


class Load:
    def __init__(self, url: str, seconds: float) -> None:
        self.url, self.seconds = url, seconds
        self.delays: list[float] = []
        self.page_ms: list[float] = []
        self.post_ms: list[float] = []
        self.errors: dict[str, int] = {}
        self.moves = 0
        self.stop = 0.0
        self.cpu: list[float] = []
        self.cpu_at = lambda: 0.0

    def error(self, what: str) -> None:
        self.errors[what] = self.errors.get(what, 0) + 1

    async def listener(self, ready: asyncio.Event, count: list[int], total: int) -> None:
        try:
            async with httpx.AsyncClient(timeout=None) as http:
                async with http.stream("GET", f"{self.url}/api/live") as stream:
                    count[0] += 1
                    if count[0] == total:
                        ready.set()
                    async for line in stream.aiter_lines():
                        if line.startswith("data:"):
                            m = json.loads(line[5:])
                            if m["match"]:  # from the write's own time stamp to here
                                stored = datetime.fromisoformat(m["at"]).timestamp()
                                self.delays.append(time.time() - stored)
                        if time.monotonic() > self.stop + 2:
                            return
        except (httpx.HTTPError, asyncio.CancelledError):
            if time.monotonic() < self.stop:
                self.error("stream")

    async def pages(self) -> None:
        async with httpx.AsyncClient(timeout=10) as http:
            while time.monotonic() < self.stop:
                start = time.monotonic()
                try:
                    r = await http.get(f"{self.url}/standings")
                    if r.status_code != 200:
                        self.error(f"standings {r.status_code}")
                except httpx.HTTPError:
                    self.error("standings")
                self.page_ms.append((time.monotonic() - start) * 1000)

    async def referee(self, link: str, pace: float) -> None:
        async with httpx.AsyncClient(timeout=10, follow_redirects=True) as http:
            page = (await http.get(link)).text

            async def post(path: str, data: dict[str, Any]) -> str:
                token = re.search(r'name="csrf" value="([^"]+)"', page)
                start = time.monotonic()
                try:
                    r = await http.post(f"{link}{path}", data={"csrf": token.group(1), **data})  # type: ignore[union-attr]
                except httpx.HTTPError as e:
                    self.error(f"record {type(e).__name__}")
                    return page
                self.post_ms.append((time.monotonic() - start) * 1000)
                bad = re.search(r'class="flash bad"[^>]*>([^<]{0,70})', r.text)
                if r.status_code != 200 or bad:
                    self.error(f"record {r.status_code}" + (f": {bad.group(1)}" if bad else ""))
                return r.text

            page = await post("/partita", {"games": GAMES})
            meta = re.search(r'<p class="meta">(.+?)</p>', page).group(1)  # type: ignore[union-attr]
            players = re.sub(r"<[^>]+>", "", meta).split(" – ")  # (each name in its own element)
            for seats, moves in ((players, TIRO), (players[1:] + players[:1], TEXAS)):
                page = await post("/start", {"game": GAMES[0] if moves is TIRO else GAMES[1]})
                for seat, kind, fields in moves:
                    if time.monotonic() > self.stop:
                        return
                    await asyncio.sleep(pace)
                    match = re.search(r'name="match" value="(M\d+)"', page)
                    position = re.search(r'name="position" value="(\d+)"', page)
                    if not (match and position):
                        self.error("page")
                        return
                    key = (match.group(1), int(position.group(1)) + 1)
                    data = {
                        "match": key[0],
                        "position": position.group(1),
                        "kind": kind,
                        "by": seats[seat],
                        **fields,
                    }
                    page = await post("/record", data)
                    self.moves += 1

    async def run(
        self, links: list[str], listeners: int, loaders: int, pace: float, server: Any
    ) -> None:
        ready, count = asyncio.Event(), [0]
        if not listeners:
            ready.set()
        self.stop = time.monotonic() + self.seconds + 60
        streams = [
            asyncio.create_task(self.listener(ready, count, listeners)) for _ in range(listeners)
        ]
        await asyncio.wait_for(ready.wait(), 60)
        self.cpu = [self.cpu_at()]
        self.stop = time.monotonic() + self.seconds
        work = [self.pages() for _ in range(loaders)] + [self.referee(k, pace) for k in links]
        await asyncio.gather(*work)
        await asyncio.sleep(2)  # the last messages
        self.cpu.append(self.cpu_at())
        self.stop = time.monotonic()  # a stream closed from now on is not an error
        for t in streams:  # the clients hang up first: the server ends each stream cleanly
            t.cancel()
        await asyncio.gather(*streams, return_exceptions=True)
        await asyncio.sleep(0.5)
        server.terminate()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--listeners", type=int, default=200)
    parser.add_argument("--referees", type=int, default=20)
    parser.add_argument("--loaders", type=int, default=4, help="workers loading /standings")
    parser.add_argument("--pace", type=float, default=1.5, help="seconds between a table's moves")
    parser.add_argument(
        "--server",
        help="a PostgreSQL server (postgresql://user:password@host/name): the "
        "tournament in a new schema of it, dropped at the end; default a new SQLite file",
    )
    parser.add_argument(
        "--profile",
        help="write pyinstrument's profile of the server here (pip install pyinstrument)",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db, drop = fresh_store(tmp, args.server)
        build(db, args.referees)
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        server = subprocess.Popen(
            [
                sys.executable,
                *(["-m", "pyinstrument", "-r", "text", "-o", args.profile] if args.profile else []),
                "-m",
                "tournament",
                "--db",
                str(db),
                "serve",
                "--port",
                str(port),
                "--organizer-passphrase",
                PASSPHRASE,
            ],
            env={**os.environ},
        )
        try:
            links = asyncio.run(setup(url))
            load = Load(url, args.seconds)
            started = time.monotonic()
            load.cpu_at = lambda: cpu_seconds(server.pid)  # type: ignore[attr-defined]
            asyncio.run(load.run(links, args.listeners, args.loaders, args.pace, server))
            elapsed = time.monotonic() - started
        finally:
            server.terminate()
            server.wait(10)
            drop()
    seconds = args.seconds
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the end")
    backend = "PostgreSQL" if args.server else "SQLite"
    print(
        f"web load on 127.0.0.1 ({backend}), {seconds:g} s: {args.listeners} streams, "
        f"{len(links)} referees, "
        f"{args.loaders} /standings loaders ({elapsed:.0f} s in all)"
    )
    pages, posts, delays = load.page_ms, load.post_ms, [d * 1000 for d in load.delays]
    print(
        f"  /standings: {len(pages)} loads ({len(pages) / seconds:.0f}/s), "
        f"p50 {pct(pages, 50):.0f} ms, p99 {pct(pages, 99):.0f} ms"
    )
    print(
        f"  referees' posts: {len(posts)} ({load.moves} moves), "
        f"p50 {pct(posts, 50):.0f} ms, p99 {pct(posts, 99):.0f} ms"
    )
    print(
        f"  move -> stream: {len(delays)} deliveries, p50 {pct(delays, 50):.0f} ms, "
        f"p99 {pct(delays, 99):.0f} ms (goal p99 <= 1000 ms)"
    )
    cpu = load.cpu[-1] - load.cpu[0] if len(load.cpu) == 2 else float("nan")
    print(
        f"  server CPU: {cpu:.1f} s, {load.moves / seconds:.1f} moves/s, "
        f"{cpu * 1000 / max(load.moves, 1):.1f} ms a move (pages and streams too; goal <= 5 ms)"
    )
    print(f"  errors: {sum(load.errors.values())} {load.errors or ''} (goal 0)")


async def setup(url: str) -> list[str]:
    """Wait for the server, log the organizer in, print the table cards; return their links."""
    async with httpx.AsyncClient(timeout=10, follow_redirects=True) as http:
        for _ in range(200):
            try:
                page = (await http.get(f"{url}/organizer/")).text
                break
            except httpx.HTTPError:
                await asyncio.sleep(0.05)
        else:
            raise SystemExit("the server did not start")
        token = re.search(r'name="csrf" value="([^"]+)"', page).group(1)  # type: ignore[union-attr]
        page = (
            await http.post(
                f"{url}/organizer/login", data={"csrf": token, "passphrase": PASSPHRASE}
            )
        ).text
        token = re.search(r'name="csrf" value="([^"]+)"', page).group(1)  # type: ignore[union-attr]
        cards = (await http.post(f"{url}/organizer/cards", data={"csrf": token})).text
        return sorted(set(re.findall(rf"{re.escape(url)}/table/[A-Za-z0-9_-]+", cards)))


if __name__ == "__main__":
    main()
