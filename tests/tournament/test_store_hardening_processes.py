"""Issue 10, point 4, with real processes: SIGKILL in the middle of a simulation leaves no match
outside its table, acknowledged events are never lost, several terminals starting tables at once
all succeed, and readers and read-model updaters run beside the writers without an error."""

from __future__ import annotations

import json
import multiprocessing
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from tests.tournament.test_match_cli import ok
from tests.tournament.test_verify_tamper import words
from tournament.errors import Refused
from tournament.readside import readmodels
from tournament.services import day
from tournament.services.stored import attached
from tournament.storage.store import Store
from tournament.verify import verify_store

KILLS = 5
PROGRAM = [sys.executable, "-m", "tournament"]


def orphans(db: Path) -> set[str]:
    """Stored matches that no table of the tournament plays."""
    store = Store(db)
    stored = {m.number for m in store.matches()}
    try:
        t = day.get_tournament(store)
    except Refused:
        return stored
    return {n for n in stored if not attached(t, n)}


def test_simulate_killed_mid_round_leaves_no_orphan(tmp_path: Path) -> None:
    rng = random.Random(2026)
    landed, found = 0, set()
    knobs = ["simulate", "--players", "6", "--rounds", "2", "--seed"]
    start = time.monotonic()  # one whole run first: the kills fall within its length
    subprocess.run(
        [*PROGRAM, "--db", str(tmp_path / "whole.db"), *knobs, "9"], check=True, capture_output=True
    )
    length = time.monotonic() - start
    for k in range(KILLS):
        db = tmp_path / f"k{k}.db"
        proc = subprocess.Popen(
            [*PROGRAM, "--db", str(db), *knobs, str(k)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(rng.uniform(0.3, 0.9) * length)
        landed += proc.poll() is None
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        if not db.exists():
            continue
        found |= {f"{db.name}:{n}" for n in orphans(db)}
        assert verify_store(db, words).ok
    print(f"orphans after {KILLS} kills ({landed} mid-run): {len(found)}")
    assert landed > 0
    assert found == set()


RECORDER = """
import sys
from tournament.storage.store import Store
store = Store(sys.argv[1])
match = store.get_match("M1")
line = '{"by":"giallo","die":"d6","type":"roll","values":[1,2]}'
for n in range(1, 100000):
    store.append(match, [line])
    print(n, flush=True)
"""


def test_no_acknowledged_event_is_lost_to_sigkill(tmp_path: Path) -> None:
    rng = random.Random(7)
    for k in range(3):
        db = tmp_path / f"a{k}.db"
        ok(db, "match", "new", "ventuno", "giallo", "blu")
        proc = subprocess.Popen(
            [sys.executable, "-c", RECORDER, str(db)], stdout=subprocess.PIPE, text=True
        )
        acknowledged = 0
        deadline = time.monotonic() + rng.uniform(1.0, 2.5)
        assert proc.stdout is not None
        while time.monotonic() < deadline:
            acknowledged = int(proc.stdout.readline())
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        stored = len(Store(db).get_match("M1").lines)  # the chain is intact too
        assert stored >= acknowledged > 0


def spawn(db: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [*PROGRAM, "--db", str(db), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_table_starts_at_the_same_moment_all_succeed(tmp_path: Path) -> None:
    db = tmp_path / "c.db"
    ok(db, "create", "Club", "--plays", "partita")
    ok(db, "players", "add", *[f"P{i}" for i in range(8)])
    ok(db, "round", "pair")
    games = ["tiro", "ventuno", "updown"]
    for table in range(1, 5):
        ok(db, "partita", "1", str(table), *games, "battaglia")
    procs = [spawn(db, "table", "start", "1", str(tb), g) for tb in range(1, 5) for g in games]
    failed = [p.communicate()[1] for p in procs if p.wait() != 0]
    print(f"concurrent table starts failed: {len(failed)} of {len(procs)}")
    assert failed == []
    status = json.loads(ok(db, "status", "--json"))
    attached = sorted(m for tb in status["tables"] for m in tb["matches"].values())
    assert len(attached) == len(procs) == len(set(attached))
    assert orphans(db) == set()
    assert verify_store(db, words).ok


UPDATER = """
import sys
from tournament.readside import readmodels
from tournament.storage.store import Store
store = Store(sys.argv[1])
roll = '{"by":"giallo","die":"d6","type":"roll","values":[1,2]}'
store.append(store.get_match(sys.argv[2]), [roll])
readmodels.update(store, write=True)
"""


def test_readers_and_updaters_beside_the_writers(tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    ok(db, "simulate", "--players", "4", "--rounds", "1", "--plays", "tiro", "--seed", "5")
    for _ in range(6):  # M3 to M8: one roll each, from the updaters below
        ok(db, "match", "new", "ventuno", "giallo", "blu")
    procs: list[subprocess.Popen[str]] = []
    for wave in range(3):
        procs += [
            subprocess.Popen(
                [sys.executable, "-c", UPDATER, str(db), f"M{3 + 2 * wave + i}"],
                stderr=subprocess.PIPE,
                text=True,
            )
            for i in range(2)
        ]
        procs += [spawn(db, "status", "--json"), spawn(db, "standings", "--json")]
    failed = [p.communicate()[1] for p in procs if p.wait() != 0]
    print(f"concurrency failures: {len(failed)} of {len(procs)}")
    assert failed == []
    store = Store(db)
    rows = list(readmodels.database(store).query("select * from events order by id"))
    readmodels.rebuild(store)
    assert rows == list(readmodels.database(store).query("select * from events order by id"))


def test_tournament_changes_at_the_same_moment_win_or_say_so(tmp_path: Path) -> None:
    db = tmp_path / "p.db"
    ok(db, "create", "Club")
    procs = [spawn(db, "players", "add", f"P{i}") for i in range(6)]
    added, refusals = [], []
    for i, p in enumerate(procs):
        _, err = p.communicate()
        if p.wait() == 0:
            added.append(f"P{i}")
        else:
            refusals.append(err)
    print(f"simultaneous players add: {len(added)} stored, {len(refusals)} told to repeat")
    assert all(e.startswith("error: another terminal changed the tournament") for e in refusals)
    assert all(e.count("\n") == 1 for e in refusals)
    players = json.loads(ok(db, "players", "list", "--json"))
    assert sorted(p["name"] for p in players) == sorted(added)


def create_at_the_barrier(db: str, name: str, barrier: Any, results: Any) -> None:
    """A child process: ``tournament create NAME`` on a database nobody has made yet, started
    together with another one at the barrier."""
    from typer.testing import CliRunner

    from tournament.cli import app, register_all

    register_all()
    barrier.wait(timeout=60)
    result = CliRunner().invoke(app, ["--db", db, "create", name])
    results.put((name, result.exit_code, result.stderr))


def test_two_processes_create_the_same_new_database(tmp_path: Path) -> None:
    """Two terminals create the same brand-new file at once: one tournament is stored, the
    other is told why in one true sentence, and the refused one removes nothing of the
    other's (it removed the file it believed its own, with the winner's tournament in it)."""
    context = multiprocessing.get_context("fork")
    for k in range(8):  # bounded; the barrier starts both at once, so no timing is assumed
        db = str(tmp_path / f"new{k}.db")
        barrier, results = context.Barrier(2), context.Queue()
        children = [
            context.Process(target=create_at_the_barrier, args=(db, name, barrier, results))
            for name in ("Sera A", "Sera B")
        ]
        for child in children:
            child.start()
        told = [results.get(timeout=120) for _ in children]
        for child in children:
            child.join(timeout=60)
            assert child.exitcode == 0
        created = [name for name, code, _ in told if code == 0]
        refused = [err for _, code, err in told if code != 0]
        assert len(created) == 1 and len(refused) == 1, told
        assert refused[0] in (
            "error: this database already holds a tournament: use another --db\n",
            "error: another terminal changed the tournament at the same moment; nothing was "
            "stored: repeat\n",
        ), told
        assert json.loads(ok(Path(db), "status", "--json"))["name"] == created[0]
