"""A check-in killed (SIGKILL) in the middle leaves the tournament as it was (#26): a real
``tournament table checkin`` process, stopped at the point its test hook holds it (right before
its one transaction), then the same check-in done whole; on both backends (the table file is
SQLite)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.tournament.test_tablefiles import (
    events_rows,
    moves,
    ok,
    partita_tournament,
    play_rest,
    refused,
)
from tournament.services.tablefiles import PAUSE

ROOT = Path(__file__).resolve().parents[2]


def test_a_checkin_killed_leaves_the_store_as_it_was(db: str, tmp_path: Path) -> None:
    partita_tournament(db)
    f = str(tmp_path / "t1.db")
    ok(db, "table", "checkout", "1", "1", "--to", f)
    play_rest(f, "M1", seed=1)
    assert ok(f, "table", "start", "1", "1", "ventuno").strip() == "M3"
    ok(f, "match", "move", "M3", moves(f, "M3", seed=2)[0])
    printed = json.loads(ok(f, "match", "show", "M1", "--json"))["head"]
    before = events_rows(db)
    hook = tmp_path / "hold"
    env = {**os.environ, PAUSE: str(hook), "PYTHONPATH": str(ROOT)}
    code = "import sys; from tournament.cli import main; sys.argv[0] = 'tournament'; main()"
    checkin = subprocess.Popen(
        [sys.executable, "-c", code, "--db", db, "table", "checkin", f],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while not Path(f"{hook}.ready").exists():  # the check-in has read and merged everything
            assert checkin.poll() is None, checkin.communicate()
            assert time.monotonic() < deadline, "the check-in never reached its transaction"
            time.sleep(0.05)
        checkin.send_signal(signal.SIGKILL)
        assert checkin.wait(30) == -signal.SIGKILL
    finally:
        if checkin.poll() is None:
            checkin.kill()
            checkin.wait()
    assert events_rows(db) == before  # not one event of the file, nor the check-in
    assert "every hash chain is intact" in ok(db, "verify")
    assert "is out" in refused(db, "match", "move", "M1", moves(db, "M1", seed=1)[1])  # still out
    ok(db, "table", "checkin", f)  # the same check-in, now whole
    assert events_rows(db)[: len(before)] == before
    assert ok(db, "match", "export", "M3") == ok(f, "match", "export", "M3")
    assert "matches" in ok(db, "verify", "M1", "--head", printed)  # the head printed at the table
