"""(b) One CLI call that records an event, against importing typer, rich and eventsourcing.

Both are timed as whole processes, interleaved in the same run, so the ratio holds on a busy
machine. The goal is <= 1.3x. Bytecode caching is on, as on a user's machine.

    python benchmarks/cli_record.py
"""

from __future__ import annotations

import functools
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RUNS = 15
BASELINE = [sys.executable, "-c", "import typer, rich, eventsourcing.application"]


def seconds(cmd: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True, env=env)
    return time.perf_counter() - start


def timings(runs: int, env: dict[str, str]) -> tuple[list[float], list[float]]:
    """Interleaved timings of the imports and of ``match roll``, ``runs`` of each."""
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "bench.db")
        cli = [sys.executable, "-m", "tournament", "--db", db, "match"]
        run = functools.partial(subprocess.run, check=True, capture_output=True, env=env)
        run([*cli, "new", "ventuno", "giallo", "blu"])
        seconds(BASELINE, env)  # the first run of each writes its bytecode cache
        run([*cli, "show", "M1"])
        base, record = [], []
        # Each round records one roll and voids it, so the match stays short and legal.
        for i in range(runs):
            base.append(seconds(BASELINE, env))
            record.append(seconds([*cli, "roll", "M1", "giallo", "d6", "4", "5"], env))
            run([*cli, "void", "M1", str(2 * i + 1), "--reason", "bench"])
    return base, record


def main() -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    base, record = timings(RUNS, env)
    b, r = statistics.median(base), statistics.median(record)
    print(f"python -c 'import typer, rich, eventsourcing.application': {b * 1000:.0f} ms (median)")
    print(f"tournament match roll (load, replay, check, store): {r * 1000:.0f} ms (median)")
    print(f"ratio: {r / b:.2f}x (goal <= 1.3x)")


if __name__ == "__main__":
    main()
