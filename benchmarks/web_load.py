"""Load on ``tournament serve`` (issue 14), bounded and on 127.0.0.1 only.

200 clients hold ``/api/live`` open, 20 referees record a Tiro and a Texas Word'em through their
table pages at table pace (as a phone with scripts does: one JSON ``POST /table/TOKEN/move`` a
move, the page coming back with the answer; ``--form``: the form without scripts and its
303), and a few workers load ``/standings`` as fast as the server answers, for ``--seconds``
(60 by default). Prints the p50 and p99 latency of the page loads and of the
referees' posts, the errors (goal 0), and the delay from a recorded move to its message on every
open stream (goal p99 <= 1 s). The server is a real ``tournament serve`` process, stopped at
the end, over a new SQLite file or, with ``--server``, a new schema of a PostgreSQL server
(dropped at the end).

    python benchmarks/web_load.py                      # 60 s, SQLite
    python benchmarks/web_load.py --server postgresql://user:password@127.0.0.1/name
    python benchmarks/web_load.py --seconds 15 --listeners 50
    python benchmarks/web_load.py --form                # the referees' phones without scripts
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))

from viewers import Viewer  # noqa: E402

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


def descendants(pid: int) -> list[int]:
    """A process and every process under it (uvicorn's workers, their own children)."""
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        found.append(p)
        for task in Path(f"/proc/{p}/task").glob("*/children"):
            try:
                todo += [int(c) for c in task.read_text().split()]
            except OSError:
                continue
    return found


def cpu_seconds(pid: int) -> float:
    """The user and system CPU time a process and its children (workers) have used so far."""
    total = 0.0
    tick = os.sysconf("SC_CLK_TCK")
    for p in descendants(pid):
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rpartition(")")[2].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / tick  # utime, stime
    return total


def sent(form: dict[str, Any]) -> dict[str, Any]:
    """A move's form as a phone with scripts sends it (static/offline.js): its match, the
    position it was made at, its other fields, and ``"page": true`` (the table's page as the
    move left it comes back with the answer, drawn in place).

    >>> sent({"match": "M3", "position": "4", "kind": "roll", "die": "d6"})
    {'match': 'M3', 'at': 4, 'fields': {'kind': 'roll', 'die': 'd6'}, 'page': True}
    """
    fields = {k: v for k, v in form.items() if k not in ("match", "position")}
    return {"match": form["match"], "at": int(form["position"]), "fields": fields, "page": True}


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def slowest(timeline: list[tuple[float, float, str]]) -> str:
    """The half-second of the moves' POSTs sent whose slowest answer was slowest: when, how
    many, how slow (the tables move in step: after every start at once, all move at once)."""
    moves = [(t, ms) for t, ms, what in timeline if what in ("/move", "/record")]
    if not moves:
        return "none"
    first = min(t for t, _ in moves)
    halves: dict[int, list[float]] = {}
    for t, ms in moves:
        halves.setdefault(int((t - first) * 2), []).append(ms)
    at, worst = max(halves.items(), key=lambda kv: max(kv[1]))
    return f"{at / 2:.1f} s in, {len(worst)} moves, the slowest {max(worst):.0f} ms"


class Load:
    def __init__(self, url: str, seconds: float, form: bool = False) -> None:
        self.url, self.seconds = url, seconds
        self.form = form  # the referees post the form without scripts (and follow its 303)
        self.delays: list[float] = []
        self.page_ms: list[float] = []
        self.post_ms: list[float] = []
        self.start_ms: list[float] = []  # the challenges' starts (POST /start), apart
        self.timeline: list[tuple[float, float, str]] = []  # (sent at, ms, path) of each POST
        self.errors: dict[str, int] = {}
        self.moves = self.chosen = 0
        self.stop = 0.0
        self.cpu: list[float] = []
        self.cpu_at = lambda: 0.0
        self.elapsed = float("nan")  # from the first move's wait to the last referee's end
        self.own_cpu = float("nan")  # this process's CPU (the load itself) over that time

    def error(self, what: str) -> None:
        self.errors[what] = self.errors.get(what, 0) + 1

    async def viewers(self, count: int) -> list[Any]:
        """``count`` open streams, connected a hundred at a time; each has read its headers."""
        host, port = self.url.removeprefix("http://").split(":")
        request = (
            f"GET /api/live HTTP/1.1\r\nHost: {host}:{port}\r\nAccept: text/event-stream\r\n\r\n"
        ).encode()
        loop, open_ = asyncio.get_running_loop(), []
        for first in range(0, count, 100):
            ready = [asyncio.Event() for _ in range(first, min(first + 100, count))]

            def phone(e: asyncio.Event) -> Any:
                return loop.create_connection(lambda: Viewer(self, request, e.set), host, int(port))

            made = await asyncio.gather(*(phone(e) for e in ready))
            open_ += [transport for transport, _ in made]
            await asyncio.wait_for(asyncio.gather(*(e.wait() for e in ready)), 60)
        return open_

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
        async with httpx.AsyncClient(timeout=30, follow_redirects=True) as http:
            page = (await http.get(link)).text

            async def post(path: str, data: dict[str, Any]) -> str:
                token = re.search(r'name="csrf" value="([^"]+)"', page)
                start = time.monotonic()
                try:
                    r = await http.post(f"{link}{path}", data={"csrf": token.group(1), **data})  # type: ignore[union-attr]
                except httpx.HTTPError as e:
                    self.error(f"record {type(e).__name__}")
                    return page
                took = (time.monotonic() - start) * 1000
                (self.start_ms if path == "/start" else self.post_ms).append(took)
                self.timeline.append((start, took, path))
                bad = re.search(r'class="flash bad"[^>]*>([^<]{0,70})', r.text)
                if r.status_code != 200 or bad:
                    self.error(f"record {r.status_code}" + (f": {bad.group(1)}" if bad else ""))
                return r.text

            async def send(data: dict[str, Any]) -> str:
                """A move as a phone with scripts sends it (static/offline.js): one JSON
                ``POST /table/TOKEN/move`` asking for the page as the move left it."""
                token = re.search(r'data-csrf="([^"]+)"', page)
                body = {"csrf": token.group(1) if token else "", **sent(data)}
                start = time.monotonic()
                try:
                    r = await http.post(f"{link}/move", json=body)
                    said = r.json()
                except (httpx.HTTPError, ValueError) as e:
                    self.error(f"record {type(e).__name__}")
                    return page
                self.post_ms.append((time.monotonic() - start) * 1000)
                self.timeline.append((start, self.post_ms[-1], "/move"))
                if r.status_code != 200 or said.get("status") != "stored" or not said.get("page"):
                    self.error(f"record {r.status_code}: {str(said.get('reason'))[:70]}")
                    return page
                return str(said["page"])

            try:
                page = await post("/partita", {"games": GAMES})
                meta = re.search(r'<p class="meta">(.+?)</p>', page).group(1)  # type: ignore[union-attr]
                players = re.sub(r"<[^>]+>", "", meta).split(" – ")  # (each name its element)
            finally:
                self.chosen += 1
            await self.started.wait()  # every table's partita chosen: the moves from here
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
                    data = {
                        "match": match.group(1),
                        "position": position.group(1),
                        "kind": kind,
                        "by": seats[seat],
                        **fields,
                    }
                    page = await (post("/record", data) if self.form else send(data))
                    self.moves += 1

    async def run(self, links: list[str], listeners: int, loaders: int, pace: float) -> None:
        """The load for ``seconds``: ``listeners`` streams open first, then the referees (each
        choosing its partita, then its moves at ``pace``) and the ``loaders``."""
        self.stop = time.monotonic() + self.seconds + 120
        streams = await self.viewers(listeners)
        self.started = asyncio.Event()
        referees = [asyncio.create_task(self.referee(k, pace)) for k in links]
        while self.chosen < len(links):
            lost = [r.exception() for r in referees if r.done() and r.exception()]
            if lost:  # (the server went away before every partita was chosen)
                for r in referees:
                    r.cancel()
                raise SystemExit(f"a referee's table page failed: {lost[0]!r}")
            await asyncio.sleep(0.05)  # (each table's partita: not the moves' figures)
        self.post_ms.clear()
        self.start_ms.clear()
        self.timeline.clear()
        self.cpu, own = [self.cpu_at()], time.process_time()
        start = time.monotonic()
        self.stop = start + self.seconds
        self.started.set()
        await asyncio.gather(*referees, *(self.pages() for _ in range(loaders)))
        self.elapsed = time.monotonic() - start
        for _ in range(8):  # the last messages: until none has come for half a second (<= 2 s)
            seen = len(self.delays)
            await asyncio.sleep(0.25)
            if len(self.delays) == seen and (not listeners or self.delays):
                break
        self.cpu.append(self.cpu_at())
        self.own_cpu = time.process_time() - own
        self.stop = time.monotonic()  # a stream closed from now on is not an error
        for transport in streams:  # the clients hang up first: the server ends each stream
            transport.close()
        await asyncio.sleep(0.5)

    def figures(self) -> dict[str, float]:
        """What a step measured: moves a second, latencies (ms), the server's CPU a move (ms)."""
        cpu = self.cpu[-1] - self.cpu[0] if len(self.cpu) == 2 else float("nan")
        delays = [d * 1000 for d in self.delays]
        return {
            "moves": self.moves,
            "moves_s": self.moves / self.elapsed,
            "post_p50": pct(self.post_ms, 50),
            "post_p99": pct(self.post_ms, 99),
            "start_p50": pct(self.start_ms, 50) if self.start_ms else float("nan"),
            "start_p99": pct(self.start_ms, 99) if self.start_ms else float("nan"),
            "page_p50": pct(self.page_ms, 50),
            "page_p99": pct(self.page_ms, 99),
            "pages": len(self.page_ms),
            "deliveries": len(delays),
            "stream_p50": pct(delays, 50),
            "stream_p99": pct(delays, 99),
            "cpu_s": cpu,
            "cpu_move_ms": cpu * 1000 / max(self.moves, 1),
            "own_cpu_s": self.own_cpu,
            "elapsed": self.elapsed,
            "errors": sum(self.errors.values()),
        }


def serve(db: str, port: int, workers: int = 1, profile: str | None = None) -> Any:
    """A real ``tournament serve`` process on 127.0.0.1 (``profile``: under pyinstrument)."""
    return subprocess.Popen(
        [
            sys.executable,
            *(["-m", "pyinstrument", "-r", "text", "-o", profile] if profile else []),
            "-m", "tournament", "--db", str(db), "serve", "--port", str(port),
            "--organizer-passphrase", PASSPHRASE,
            *(["--workers", str(workers)] if workers > 1 else []),
        ],
        env={**os.environ},
    )  # fmt: skip


def step(
    server: str | None,
    referees: int,
    listeners: int,
    seconds: float,
    *,
    loaders: int = 0,
    pace: float = 1.5,
    workers: int = 1,
    profile: str | None = None,
    form: bool = False,
) -> Load:
    """One measure on a new store (a file, or a new schema of ``server``) and a new server,
    both gone after it."""  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        db, drop = fresh_store(tmp, server)
        try:
            build(db, referees)
            port = free_port()
            process = serve(db, port, workers, profile)
            try:
                url = f"http://127.0.0.1:{port}"
                links = asyncio.run(setup(url, process))
                load = Load(url, seconds, form)
                load.cpu_at = lambda: cpu_seconds(process.pid)  # type: ignore[method-assign]
                asyncio.run(load.run(links, listeners, loaders, pace))
            finally:
                process.terminate()
                try:
                    process.wait(20)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait(10)
        finally:
            drop()
    return load


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20, help="of moves (a table's script "
                        "is 18 moves: about 27 s at the default pace)")  # fmt: skip
    parser.add_argument("--listeners", type=int, default=200)
    parser.add_argument("--referees", type=int, default=20)
    parser.add_argument("--loaders", type=int, default=4, help="workers loading /standings")
    parser.add_argument("--pace", type=float, default=1.5, help="seconds between a table's moves")
    parser.add_argument("--workers", type=int, default=1, help="serve --workers (PostgreSQL)")
    parser.add_argument(
        "--form",
        action="store_true",
        help="the referees post the move form without scripts and follow its 303 (two requests "
        "a move); default: one JSON POST /table/TOKEN/move as a phone with scripts sends",
    )
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
    load = step(
        args.server, args.referees, args.listeners, args.seconds, loaders=args.loaders,
        pace=args.pace, workers=args.workers, profile=args.profile, form=args.form,
    )  # fmt: skip
    f = load.figures()
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the end")
    backend = "PostgreSQL" if args.server else "SQLite"
    print(
        f"web load on 127.0.0.1 ({backend}, {args.workers} worker(s)), {f['elapsed']:.0f} s of "
        f"moves: {args.listeners} streams, {args.referees} referees, {args.loaders} /standings "
        "loaders"
    )
    print(
        f"  /standings: {f['pages']} loads ({f['pages'] / f['elapsed']:.0f}/s), "
        f"p50 {f['page_p50']:.0f} ms, p99 {f['page_p99']:.0f} ms"
    )
    print(
        f"  referees' posts ({'the form and its 303' if args.form else 'JSON /move'}): "
        f"{len(load.post_ms)} ({load.moves} moves), "
        f"p50 {f['post_p50']:.0f} ms, p99 {f['post_p99']:.0f} ms"
    )
    print(
        f"  the challenges' starts (each table's at the same moment): {len(load.start_ms)}, "
        f"p50 {f['start_p50']:.0f} ms, p99 {f['start_p99']:.0f} ms; the slowest half-second "
        f"of moves: {slowest(load.timeline)}"
    )
    print(
        f"  move -> stream: {f['deliveries']} deliveries, p50 {f['stream_p50']:.0f} ms, "
        f"p99 {f['stream_p99']:.0f} ms (goal p99 <= 1000 ms)"
    )
    print(
        f"  server CPU: {f['cpu_s']:.1f} s, {f['moves_s']:.1f} moves/s, "
        f"{f['cpu_move_ms']:.1f} ms a move (pages and streams too; goal <= 5 ms); "
        f"this load's own CPU {f['own_cpu_s']:.1f} s"
    )
    print(f"  errors: {f['errors']} {load.errors or ''} (goal 0)")


async def setup(url: str, process: Any) -> list[str]:
    """Wait for the server, log the organizer in, print the table cards; return their links."""
    async with httpx.AsyncClient(timeout=30, follow_redirects=True) as http:
        for _ in range(600):
            try:
                page = (await http.get(f"{url}/organizer/")).text
                break
            except httpx.HTTPError:
                if process.poll() is not None:
                    break
                await asyncio.sleep(0.05)
        else:
            raise SystemExit("the server did not start")
        if process.poll() is not None:
            raise SystemExit(f"the server stopped (exit status {process.returncode})")
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
