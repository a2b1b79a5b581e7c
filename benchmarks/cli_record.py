"""(b) One CLI call that records an event, against importing typer, rich and eventsourcing.

Both are timed as whole processes, interleaved in the same run, so the ratio holds on a busy
machine. The goal is <= 1.3x. Bytecode caching is on, as on a user's machine.

    python benchmarks/cli_record.py
"""

from __future__ import annotations

import functools
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RUNS = 15
BASELINE = [sys.executable, "-c", "import typer, rich, eventsourcing.application"]


CPU: list[tuple[float, float]] = []  # (the imports, match roll): CPU seconds of each pair timed


def seconds(cmd: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True, env=env)
    return time.perf_counter() - start


def cpu_seconds() -> float:
    """User and system time of the processes this one has waited for, so far."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def timings(runs: int, env: dict[str, str]) -> tuple[list[float], list[float]]:
    """Interleaved timings of the imports and of ``match roll``, ``runs`` of each (wall time;
    :data:`CPU` gets their CPU time too, steadier than the wall on a machine others share)."""
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "bench.db")
        cli = [sys.executable, "-m", "tournament", "--db", db, "match"]
        run = functools.partial(subprocess.run, check=True, capture_output=True, env=env)
        run([*cli, "new", "ventuno", "giallo", "blu"])
        seconds(BASELINE, env)  # the first run of each writes its bytecode cache
        run([*cli, "show", "M1"])
        base, record = [], []
        # Each round records one roll and voids it, so the match stays short and legal.
        CPU.clear()
        for i in range(runs):
            before = cpu_seconds()
            base.append(seconds(BASELINE, env))
            between = cpu_seconds()
            record.append(seconds([*cli, "roll", "M1", "giallo", "d6", "4", "5"], env))
            CPU.append((between - before, cpu_seconds() - between))
            run([*cli, "void", "M1", str(2 * i + 1), "--reason", "bench"])
    return base, record


def main() -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    base, record = timings(RUNS, env)
    b, r = statistics.median(base), statistics.median(record)
    print(f"python -c 'import typer, rich, eventsourcing.application': {b * 1000:.0f} ms (median)")
    print(f"tournament match roll (load, replay, check, store): {r * 1000:.0f} ms (median)")
    print(f"ratio: {r / b:.2f}x (goal <= 1.3x); in CPU time {cpu_ratio():.2f}x")


def cpu_ratio() -> float:
    """The ratio of the medians of the CPU times of the last :func:`timings`."""
    return statistics.median(r for _, r in CPU) / statistics.median(b for b, _ in CPU)


if __name__ == "__main__":
    main()
