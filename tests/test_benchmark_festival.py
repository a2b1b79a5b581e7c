"""benchmarks/festival.py (#27) cannot rot: its smallest step, one referee and three viewers for
a few seconds on a real ``tournament serve`` over SQLite, gives a row of real figures."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_smallest_step_measures_a_real_server() -> None:
    command = [
        sys.executable, str(ROOT / "benchmarks" / "festival.py"), "--backends", "sqlite",
        "--cpu-referees", "0", "--referees", "1", "--viewers", "3", "--crowd", "--no-pages",
        "--seconds", "1.5", "--pace", "0.25", "--settle", "0",
    ]  # fmt: skip
    done = subprocess.run(
        command, capture_output=True, text=True, timeout=90,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    table = done.stdout.partition("## Festival load")[2]
    rows = [line for line in table.splitlines() if line.startswith("| SQLite")]
    assert len(rows) == 1, done.stdout
    cells = [c.strip() for c in rows[0].strip("|").split("|")]
    backend, workers, referees, viewers, moves_s, posts, stream, cpu, _own, _load, errors = cells
    assert (backend, workers, referees, viewers, errors) == ("SQLite", "1", "1", "3", "0")
    assert float(moves_s) > 0  # moves were recorded, each POST timed
    assert all(p.strip().replace(",", "").isdigit() for p in posts.split("/")), posts
    # every viewer's stream brought the moves: their delays were read off the raw socket
    assert all(p.strip().replace(",", "").isdigit() for p in stream.split("/")), stream
    assert float(cpu) > 0  # the server process's own CPU, from /proc
