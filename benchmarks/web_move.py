"""The server's CPU a recorded move (issue 27), counted on the server alone: a real
``tournament serve`` process (its CPU read from /proc, every thread, as
:func:`web_load.cpu_seconds` does), a tournament of ``--tables`` tables in round 1, each table's
referee recording a Tiro (a partita chosen, the challenge started, five moves) from its page:
the POST and then the table page it redirects to, as a phone without scripts does. Then each
table's Texas Word'em (thirteen moves) through ``POST /table/TOKEN/move``, the JSON a phone's
script sends, asking for the page with its answer (a server that sends none: the page reloaded,
as offline.js does then). The client's own work is not counted; the server's live task (its
polling and its refresh of the read models) is, as it is the moves' cost too.

Prints, at each size: the CPU a move (the POSTs, the pages after them, and the JSON moves),
the server's idle CPU (its live task polling, counted in the figures above), and a public match
page and /standings. Before the moves, the starts: the CPU of a table choosing its partita and
of starting its challenge (the POST and its 303, with the live task's refresh). A move's cost
should not grow with the tournament (goal <= 5 ms a move).

    python benchmarks/web_move.py                  # 20 and 100 tables, SQLite
    python benchmarks/web_move.py --tables 20 --profile /tmp/move.txt   # yappi, in the server
        (the moves there, the starts in /tmp/move-starts.txt; /tmp/move.pstat: for pstats)
    python benchmarks/web_move.py --tables 20 --code /work/main   # another checkout's server
    python benchmarks/web_move.py --server postgresql://user:password@127.0.0.1/db  # PostgreSQL
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import runpy
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import httpx  # noqa: E402
from web_load import (  # noqa: E402
    GAMES,
    PASSPHRASE,
    TEXAS,
    TIRO,
    build,
    cpu_seconds,
    free_port,
    fresh_store,
    setup,
)

PROFILED = "--profiled-server"  # (this script, run as the server under yappi)


def csrf(html: str) -> str:
    return re.search(r'name="csrf" value="([^"]+)"', html).group(1)  # type: ignore[union-attr]


def found(pattern: str, html: str) -> str:
    return re.search(pattern, html).group(1)  # type: ignore[union-attr]


def players_of(page: str) -> list[str]:
    meta = found(r'<p class="meta">(.+?)</p>', page)
    return re.sub(r"<[^>]+>", "", meta).split(" – ")  # (each name in its own element)


class Server:
    """A ``tournament serve`` process on a free port of 127.0.0.1, stopped on exit."""

    def __init__(self, db: str, profile: str | None) -> None:
        port = free_port()
        self.url = f"http://127.0.0.1:{port}"
        head = [__file__, PROFILED, profile] if profile else ["-m", "tournament"]
        self.process = subprocess.Popen(
            [
                sys.executable,
                *head,
                "--db",
                db,
                "serve",
                "--port",
                str(port),
                "--organizer-passphrase",
                PASSPHRASE,
            ],  # fmt: skip
            env={**os.environ},
        )
        self.profile = profile

    def cpu(self) -> float:
        return cpu_seconds(self.process.pid)

    def signal(self, number: int) -> None:
        if self.profile:
            self.process.send_signal(number)

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(30)


def settle(server: Server, quiet: float = 0.05) -> None:
    """Wait until the live task has caught up (the server's CPU grows no faster than while
    idle, over a few of its polls)."""
    for _ in range(100):
        before = server.cpu()
        time.sleep(0.5)
        if server.cpu() - before <= quiet:
            return


def run(tables: int, where: str | None, profile: str | None) -> dict[str, Any]:
    """One size's figures, on a new SQLite file or a new schema of the PostgreSQL server
    ``where`` (dropped after)."""
    with tempfile.TemporaryDirectory() as tmp:
        db, drop = fresh_store(tmp, where)
        try:
            build(db, tables)
            server = Server(db, profile)
            try:
                links = asyncio.run(setup(server.url, server.process))
                with httpx.Client(base_url=server.url, timeout=30) as http:
                    return moves(server, http, [link.removeprefix(server.url) for link in links])
            finally:
                server.stop()
        finally:
            drop()


def moves(server: Server, http: httpx.Client, links: list[str]) -> dict[str, Any]:
    pages = {link: http.get(link).text for link in links}
    # The starts (#27): every table chooses its partita, then every table starts its Tiro (the
    # POST and its 303 alone, the page not asked), each counted with the live task's refresh.
    settle(server)
    server.signal(signal.SIGUSR1)
    cpu = server.cpu()
    for link in links:
        r = http.post(f"{link}/partita", data={"csrf": csrf(pages[link]), "games": GAMES})
        assert r.status_code == 303, r.text[:300]
    settle(server)
    chosen = server.cpu()
    for link in links:
        r = http.post(f"{link}/start", data={"csrf": csrf(pages[link]), "game": "tiro"})
        assert r.status_code == 303, r.text[:300]
    settle(server)
    started = server.cpu()
    server.signal(signal.SIGUSR2)  # (the profile of the starts)
    choose, start = (chosen - cpu) / len(links), (started - chosen) / len(links)
    for link in links:
        pages[link] = http.get(link).text
        assert 'name="match"' in pages[link], pages[link][:300]
    settle(server)
    before = server.cpu()
    time.sleep(2)
    idle = (server.cpu() - before) / 2
    server.signal(signal.SIGUSR1)
    post = get = 0.0
    count = 0
    started = time.monotonic()
    for seat, kind, fields in TIRO:
        cpu = server.cpu()
        for link in links:
            page = pages[link]
            data = {
                "csrf": csrf(page),
                "match": found(r'name="match" value="(M\d+)"', page),
                "position": found(r'name="position" value="(\d+)"', page),
                "kind": kind,
                "by": players_of(page)[seat],
                **fields,
            }
            r = http.post(f"{link}/record", data=data)
            assert r.status_code == 303, (r.status_code, r.text[:300])
            count += 1
        after_posts = server.cpu()
        post += after_posts - cpu
        for link in links:
            r = http.get(link)
            assert r.status_code == 200 and 'class="flash bad"' not in r.text, r.text[:300]
            pages[link] = r.text
        get += server.cpu() - after_posts
    before = server.cpu()
    settle(server)
    post += server.cpu() - before  # the live task's last refresh
    form_wall = time.monotonic() - started
    # The second challenge, through the JSON endpoint (the seats rotate, as at the table).
    for link in links:
        page = pages[link]
        http.post(f"{link}/start", data={"csrf": csrf(page), "game": "texas"})
        pages[link] = http.get(link).text
    settle(server)
    json_cpu, json_count, reloads = server.cpu(), 0, 0
    at = {link: int(found(r'name="position" value="(\d+)"', pages[link])) for link in links}
    for seat, kind, fields in TEXAS:
        for link in links:
            page = pages[link]
            seats = players_of(page)[1:] + players_of(page)[:1]
            body = {
                "csrf": csrf(page),
                "match": found(r'name="match" value="(M\d+)"', page),
                "at": at[link],
                "fields": {"kind": kind, "by": seats[seat], **fields},
                "page": True,  # the page drawn with the answer (a server that does not: a GET)
            }
            r = http.post(f"{link}/move", json=body)
            assert r.status_code == 200 and r.json()["status"] == "stored", r.text[:300]
            at[link] = r.json()["position"]
            json_count += 1
            if "page" not in r.json():  # offline.js reloads the page then
                reloads += 1
                assert http.get(link).status_code == 200
    settle(server)
    json_cpu = server.cpu() - json_cpu
    server.signal(signal.SIGUSR2)
    number = found(r'name="match" value="(M\d+)"', pages[links[0]])
    views = 50
    cpu = server.cpu()
    for _ in range(views):
        assert http.get(f"/matches/{number}").status_code == 200
    match_cpu = (server.cpu() - cpu) / views
    cpu = server.cpu()
    for _ in range(views):
        assert http.get("/standings").status_code == 200
    standings_cpu = (server.cpu() - cpu) / views
    return {
        "choose": choose,
        "start": start,
        "moves": count,
        "post": post / count,
        "page": get / count,
        "json": json_cpu / json_count,
        "json_moves": json_count,
        "reloads": reloads,
        "idle": idle,
        "wall": form_wall,
        "match": match_cpu,
        "standings": standings_cpu,
    }


def profiled_server(out: str, argv: list[str]) -> None:
    """Run ``tournament`` (``argv``) under yappi, every thread's CPU: SIGUSR1 starts counting,
    SIGUSR2 writes the profile: the first (the starts) to ``out`` named ``-starts``, the second
    (the moves) to ``out``; a name ending in ``.pstat`` is written for :mod:`pstats`."""
    import yappi  # pip install yappi (not a dependency of the project)

    yappi.set_clock_type("cpu")
    written = []

    def start(*_: Any) -> None:
        yappi.clear_stats()
        yappi.start(profile_threads=True)

    def write(*_: Any) -> None:
        yappi.stop()
        path = Path(out)
        if not written:
            path = path.with_name(f"{path.stem}-starts{path.suffix}")
        written.append(path)
        stats = yappi.get_func_stats()
        if path.suffix == ".pstat":
            stats.save(str(path), type="pstat")
            return
        with open(path, "w") as f:
            stats.sort("ttot").print_all(
                f, columns={0: ("name", 100), 1: ("ncall", 10), 3: ("ttot", 8), 2: ("tsub", 8)}
            )

    signal.signal(signal.SIGUSR1, start)
    signal.signal(signal.SIGUSR2, write)
    sys.argv = ["tournament", *argv]
    runpy.run_module("tournament", run_name="__main__")


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] == PROFILED:
        profiled_server(sys.argv[2], sys.argv[3:])
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[20, 100])
    parser.add_argument(
        "--profile",
        help="write yappi's profile of the server over the moves here, every thread "
        "(pip install yappi): its CPU grows some 3x under it",
    )
    parser.add_argument(
        "--code",
        help="the checkout the server runs (its PYTHONPATH; default: as this script is run), "
        "to compare two in one run",
    )
    parser.add_argument(
        "--server",
        help="a PostgreSQL server (postgresql://user:password@host/name): each size on a new "
        "schema of it, dropped after; default a new SQLite file",
    )
    args = parser.parse_args()
    if args.code:
        os.environ["PYTHONPATH"] = str(Path(args.code).resolve())
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    backend = "PostgreSQL" if args.server else "SQLite"
    print(f"CPU of the `tournament serve` process alone ({backend}; every thread, from /proc):")
    for n in args.tables:
        r = run(n, args.server, args.profile)
        print(
            f"  {n:>4} tables ({2 * n} players): "
            f"choosing a partita {r['choose'] * 1000:.1f} ms, starting a challenge "
            f"{r['start'] * 1000:.1f} ms (each POST with its 303, the live task's refresh); "
            f"{(r['post'] + r['page']) * 1000:.1f} ms a move from the form (goal <= 5 ms): "
            f"the POST {r['post'] * 1000:.1f} ms (with the live task's refresh), "
            f"the page after it {r['page'] * 1000:.1f} ms; "
            f"a phone's move (JSON /move {'and a reload' if r['reloads'] else 'with its page'}) "
            f"{r['json'] * 1000:.1f} ms ({r['moves']} + {r['json_moves']} moves); "
            f"idle {r['idle'] * 1000:.0f} ms/s; "
            f"/matches/M {r['match'] * 1000:.1f} ms, /standings {r['standings'] * 1000:.1f} ms"
        )


if __name__ == "__main__":
    main()
