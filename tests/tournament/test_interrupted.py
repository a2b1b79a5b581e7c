"""Ctrl-C in long work (#28): a real process stopped by SIGINT at a chosen point (it says it is
there and waits on its stdin, so no timing is guessed) says so, exits 130 and leaves nothing
half-made: ``simulate`` no half-built database that a rerun refuses, ``export`` no partial file
or folder."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from tests.tournament.test_match_cli import ok

ROOT = Path(__file__).resolve().parents[2]

# The command runs as `tournament ...` would; ``target`` is wrapped so that its ``at``-th call
# prints "ready" and blocks on stdin, where the SIGINT finds it.
STOPPED_AT = """
import signal, sys, importlib
# (Ctrl-C as at a terminal: a test run started in the background inherits it ignored)
signal.signal(signal.SIGINT, signal.default_int_handler)
module, name, at = sys.argv[1], sys.argv[2], int(sys.argv[3])
m = importlib.import_module(module)
real, calls = getattr(m, name), []
def stop_here(*args, **kwargs):
    calls.append(1)
    if len(calls) == at:
        print("ready", flush=True)
        sys.stdin.readline()
    return real(*args, **kwargs)
setattr(m, name, stop_here)
sys.argv = ["tournament", *sys.argv[4:]]
from tournament.cli import main
main()
"""


def interrupted(cwd: Path, where: str, at: int, *args: str) -> subprocess.CompletedProcess:
    module, name = where.rsplit(".", 1)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TOURNAMENT_LANG": "en"}
    proc = subprocess.Popen(
        [sys.executable, "-c", STOPPED_AT, module, name, str(at), *args],
        cwd=cwd,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None and proc.stdout.readline() == "ready\n"
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def test_ctrl_c_leaves_no_half_built_simulation_nor_a_partial_export(tmp_path: Path) -> None:
    db = tmp_path / "sim.db"
    sim = ("--db", str(db), "simulate", "--players", "4", "--rounds", "3", "--plays", "tiro")
    # Stopped while round 2 is played: no database, nothing hidden beside it.
    done = interrupted(tmp_path, "tournament.services.simulate.play_table", 3, *sim)
    assert done.returncode == 130, done
    assert done.stderr.strip() == "stopped by Ctrl-C: nothing half-made is left"
    assert sorted(tmp_path.iterdir()) == []
    # The rerun builds it whole (it refused a half-built one before).
    assert "Standings after the simulation" in ok(db, *sim[2:])
    # Export stopped at its fifth file: no folder, no partial file.
    out = tmp_path / "sheets"
    args = ("--db", str(db), "export", "all", "--out", str(out))
    done = interrupted(tmp_path, "tournament.services.printing.write_whole", 5, *args)
    assert done.returncode == 130, done
    assert "stopped by Ctrl-C" in done.stderr and "Traceback" not in done.stderr
    assert not out.exists()
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []
