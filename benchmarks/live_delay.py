"""From a stored event to its message on a stream of another process (issue 27), quiet: a real
``tournament serve`` over a new schema of a PostgreSQL server (dropped at the end) or a new
SQLite file, one stream open, and this process storing ``--events`` events one at a time (a
player registered late: one tournament event each), each timed from the start of its save to
its message on the stream, the save's own time printed beside. Prints the p50, p90 and max:
the live task's polling adds up to its interval (0.1 s) to the save; woken by the database's
NOTIFY, a few milliseconds. Run it from outside the checkout to compare another version
(``cd /tmp; PYTHONPATH=/path/to/other python /path/to/benchmarks/live_delay.py ...``).

    python benchmarks/live_delay.py --server postgresql://user:password@127.0.0.1/name
    python benchmarks/live_delay.py                   # SQLite: polling, for comparison
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

sys.path.append(str(Path(__file__).resolve().parents[1]))  # (PYTHONPATH first: to compare)
from benchmarks.http_stack import wait_up  # noqa: E402
from benchmarks.web_load import PASSPHRASE, build, free_port, fresh_store, pct  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", help="a PostgreSQL server (postgresql://...); default SQLite")
    parser.add_argument("--events", type=int, default=40)
    args = parser.parse_args()
    from tournament.services import day
    from tournament.storage.store import Store

    with tempfile.TemporaryDirectory() as tmp:
        db, drop = fresh_store(tmp, args.server)
        build(db, 2)
        port = free_port()
        server = subprocess.Popen(
            [sys.executable, "-m", "tournament", "--db", db, "serve", "--port", str(port),
             "--organizer-passphrase", PASSPHRASE],
            env={**os.environ}, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        url = f"http://127.0.0.1:{port}"
        delays: list[float] = []
        saves: list[float] = []
        try:
            wait_up(url)
            arrived = threading.Event()
            at = [0.0]

            def listen() -> None:
                with httpx.stream("GET", f"{url}/api/live", timeout=60) as r:
                    for line in r.iter_lines():
                        if line.startswith("data:"):
                            at[0] = time.perf_counter()
                            arrived.set()

            threading.Thread(target=listen, daemon=True).start()
            time.sleep(1.0)
            store = Store(db)
            for n in range(args.events):
                time.sleep(random.uniform(0.05, 0.25))  # (not in step with a poll)
                arrived.clear()
                began = time.perf_counter()
                day.add_players(store, [f"late{n:03d}"])
                saves.append((time.perf_counter() - began) * 1000)
                if arrived.wait(10):
                    delays.append((at[0] - began) * 1000)
        finally:
            server.terminate()
            server.wait(10)
            drop()
    backend = "PostgreSQL" if args.server else "SQLite"
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the end")
    print(
        f"stored event -> stream ({backend}, another process): {len(delays)}/{args.events} "
        f"arrived, p50 {pct(delays, 50):.0f} ms, p90 {pct(delays, 90):.0f} ms, "
        f"max {max(delays, default=float('nan')):.0f} ms; the save alone p50 "
        f"{pct(saves, 50):.0f} ms"
    )


if __name__ == "__main__":
    main()
