"""The server's HTTP stack (issue 27): uvicorn on h11 and asyncio's loop against httptools and
uvloop (``uvicorn[standard]``), on the same app over the same simulated tournament (SQLite,
64 players, 3 rounds), measured by the server's own CPU: each stack a real uvicorn process,
stopped at the end.

Two loads, one after the other, for each stack: ``--clients`` keep-alive clients loading
``/api/standings`` and ``/standings`` (answered from the page kept for the store's position:
what is left is mostly HTTP) for ``--seconds`` each; then ``--streams`` open ``/api/live`` and
``--events`` stored events told to all of them. Prints requests a second, the server's CPU a
request and a message a stream; a stack that is not installed is said and left out.

    python benchmarks/http_stack.py
    python benchmarks/http_stack.py --seconds 5 --streams 500 --events 40
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.append(str(Path(__file__).resolve().parents[1]))  # (PYTHONPATH first: to compare)
from benchmarks.web_load import cpu_seconds, free_port  # noqa: E402

PASSPHRASE = "benchmark passphrase"
STACKS = {"h11 + asyncio": ("h11", "asyncio"), "httptools + uvloop": ("httptools", "uvloop")}


def serve(db: Path, settings: Path, http: str, loop: str) -> tuple[subprocess.Popen[bytes], str]:
    from tournament.web.app import SETTINGS_ENV

    port = free_port()
    env = {**os.environ, SETTINGS_ENV: str(settings)}
    server = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "--factory", "tournament.web.app:from_environment",
         "--port", str(port), "--http", http, "--loop", loop, "--log-level", "warning",
         "--no-access-log"],
        env=env,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    wait_up(url)
    return server, url


def wait_up(url: str) -> None:
    """Until the server at ``url`` answers (at most some 15 s)."""
    for _ in range(300):
        try:
            httpx.get(f"{url}/api", timeout=2)
            return
        except httpx.HTTPError:
            time.sleep(0.05)


async def requests(url: str, path: str, clients: int, seconds: float) -> int:
    done = 0
    end = time.monotonic() + seconds

    async def client() -> None:
        nonlocal done
        async with httpx.AsyncClient(timeout=30) as http:
            while time.monotonic() < end:
                r = await http.get(f"{url}{path}")
                r.raise_for_status()
                done += 1

    await asyncio.gather(*(client() for _ in range(clients)))
    return done


async def fanout(url: str, db: Path, streams: int, events: int, pid: int) -> tuple[float, int]:
    """The server's CPU while ``events`` stored events reach ``streams`` streams; messages."""
    from tournament.services import day
    from tournament.storage.store import Store

    received = 0
    ready = asyncio.Event()
    opened = 0

    async def stream(http: httpx.AsyncClient) -> None:
        nonlocal received, opened
        async with http.stream("GET", f"{url}/api/live") as r:
            opened += 1
            if opened == streams:
                ready.set()
            async for line in r.aiter_lines():
                if line.startswith("data:"):
                    received += 1
                    if received >= streams * events:
                        return

    limits = httpx.Limits(max_connections=streams + 10)
    async with httpx.AsyncClient(timeout=120, limits=limits) as http:
        tasks = [asyncio.create_task(stream(http)) for _ in range(streams)]
        await asyncio.wait_for(ready.wait(), 60)
        await asyncio.sleep(0.5)
        store = Store(db)
        before = cpu_seconds(pid)
        for n in range(events):
            await asyncio.to_thread(day.add_players, store, [f"late{n:03d}"])
            await asyncio.sleep(0.05)
        deadline = time.monotonic() + 30
        while received < streams * events and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        cpu = cpu_seconds(pid) - before
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    return cpu, received


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--streams", type=int, default=300)
    parser.add_argument("--events", type=int, default=30)
    parser.add_argument("--reverse", action="store_true", help="the stacks in the other order")
    args = parser.parse_args()
    from tournament.web.app import Settings, settings_text

    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the start")
    with tempfile.TemporaryDirectory() as tmp:
        stacks = list(STACKS.items())
        for name, (http, loop) in reversed(stacks) if args.reverse else stacks:
            if not all(importlib.util.find_spec(m) for m in (http, loop) if m != "asyncio"):
                print(f"{name}: not installed (pip install 'uvicorn[standard]')")
                continue
            db = Path(tmp) / f"{http}.db"
            subprocess.run([sys.executable, "-m", "tournament", "--db", str(db), "simulate",
                            "--players", "64", "--rounds", "3"], check=True,
                           capture_output=True)  # fmt: skip
            settings = Path(tmp) / f"{http}.json"
            settings.write_text(settings_text(Settings(db=db, passphrase=PASSPHRASE), str(db)))
            server, url = serve(db, settings, http, loop)
            try:
                for path in ("/api/standings", "/standings"):
                    asyncio.run(requests(url, path, args.clients, 1))  # warmed up
                    before = cpu_seconds(server.pid)
                    done = asyncio.run(requests(url, path, args.clients, args.seconds))
                    cpu = cpu_seconds(server.pid) - before
                    print(f"{name}: {path}: {done / args.seconds:.0f}/s, "
                          f"server CPU {cpu * 1000 / max(done, 1):.2f} ms a request")  # fmt: skip
                cpu, got = asyncio.run(fanout(url, db, args.streams, args.events, server.pid))
                each = cpu * 1e6 / max(got, 1)
                print(f"{name}: {args.streams} streams x {args.events} events: {got} messages, "
                      f"server CPU {each:.0f} us a message a stream")  # fmt: skip
            finally:
                server.terminate()
                server.wait(10)
    print(json.dumps({"note": "compare the CPU figures: the throughput also counts the client"}))


if __name__ == "__main__":
    main()
