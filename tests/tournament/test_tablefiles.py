"""Table files (#26): a table checked out to a file of its own, recorded there with the CLI verbs
and the console, checked in with its events, times and hashes; divergence and release.

The table file is always SQLite; test_tablefiles_processes.py checks out from, and checks in to,
a tournament on both backends.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
import typer
from click.testing import CliRunner

from engine.bots import random_game
from engine.events import event_to_json, parse_event
from engine.header import parse_header
from engine.lexicon import default_lexicon
from engine.match import Replay
from engine.notation import format as format_move
from tests.tournament.test_console import _screen, _wait_for, _wait_for_prompt, line_for
from tests.tournament.test_match_cli import app
from tournament.services import dice
from tournament.storage.locations import close
from tournament.storage.store import Store

GAMES = ("tiro", "ventuno", "updown", "roulette_russa")  # short games: the test's time
COMMAND = typer.main.get_command(app)  # built once (typer's runner builds it on every call)
runner = CliRunner()


def ok(db: str | Path, *args: str) -> str:
    result = runner.invoke(COMMAND, ["--db", str(db), *args])
    assert result.exit_code == 0, (result.stderr, result.exception)
    return result.stdout


def refused(db: str | Path, *args: str) -> str:
    """A refusal: exit 1, one sentence on stderr, no traceback."""
    result = runner.invoke(COMMAND, ["--db", str(db), *args])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit), result.stderr
    assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1, result.stderr
    return result.stderr


def partita_tournament(db: str) -> None:
    """Four players, round 1 paired, both tables' partite chosen, table 1's tiro started (M1)
    with one move, table 2's tiro (M2)."""
    ok(db, "create", "Sera", "--rounds", "2", "--plays", "partita")
    ok(db, "players", "add", "Giallo", "Blu", "Verde", "Rosso")
    ok(db, "round", "pair")
    for table in ("1", "2"):
        ok(db, "partita", "1", table, *GAMES)
        ok(db, "table", "start", "1", table, "tiro")
    first = moves(db, "M1", seed=1)[0]
    ok(db, "match", "move", "M1", first)


def moves(db: str, number: str, seed: int, console: bool = False) -> list[str]:
    """The moves (the notation) of a whole game of the match, played by the computer players;
    derived events are left to the recording (it writes them itself). ``console``: as the
    console takes them (a void is its undo of the last move)."""
    shown = json.loads(ok(db, "match", "show", number, "--json"))
    header = {"format": "tournament-match/1", "game": shown["game"], "players": shown["players"],
              "outside": shown["outside"]}  # fmt: skip
    replay = random_game(Replay.start(parse_header(header), default_lexicon()), random.Random(seed))
    said = [event_to_json(e) for e in replay.events]
    if console:
        return [line for e in said if (line := line_for(e))]
    return [format_move(parse_event(e)) for e in said if e["type"] not in ("out", "end")]


def play_rest(db: str, number: str, seed: int) -> None:
    """Record the rest of a game with ``match move``, one CLI call a move."""
    done = json.loads(ok(db, "match", "show", number, "--json"))["events"]
    every = moves(db, number, seed)
    shown = _inputs_before(db, number, done)
    for move in every[shown:]:
        ok(db, "match", "move", number, move)
    assert json.loads(ok(db, "match", "show", number, "--json"))["status"] == "finished"


def _inputs_before(db: str, number: str, position: int) -> int:
    log = [json.loads(x) for x in ok(db, "match", "export", number).splitlines()[1 : position + 1]]
    return sum(1 for e in log if e["type"] not in ("out", "end"))


def events_rows(db: str) -> list[tuple[Any, ...]]:
    s = Store(db)
    try:
        return [
            (n.id, n.originator_id, n.originator_version, n.topic, bytes(n.state))
            for n in s.recorder.select_notifications(1, 100000)
        ]
    finally:
        close(s)


def heads(db: str, numbers: list[str]) -> dict[str, str]:
    return {n: json.loads(ok(db, "match", "show", n, "--json"))["head"] for n in numbers}


def test_a_partita_recorded_on_a_table_file_and_checked_in(tmp_path: Path) -> None:
    """(On SQLite; on PostgreSQL the checkout and the checkin are tested with the SIGKILL.)"""
    db = str(tmp_path / "sera.db")
    partita_tournament(db)
    file = tmp_path / "t1.db"
    said = ok(db, "table", "checkout", "1", "1", "--to", str(file))
    # Those started and those still to play, numbered in the tournament now (after M2).
    assert "M1 (tiro), M3 (ventuno), M4 (updown), M5 (roulette_russa)" in said
    # The tournament refuses other writers, saying where the table is.
    why = refused(db, "match", "move", "M1", moves(db, "M1", seed=1)[1])
    assert "table 1 of round 1 is out" in why and str(file) in why and "table release 1 1" in why
    assert "is out" in refused(db, "match", "move", "M1", "pass Giallo")  # before any rule
    assert str(file) in refused(db, "table", "start", "1", "1", "ventuno")
    assert ok(db, "table", "start", "1", "2", "ventuno").strip() == "M6"  # past the reserved
    status = ok(db, "status")  # the day's status says where the table is
    assert "table 1 of round 1 is out" in status and str(file) in status
    tables = {tb["table"]: tb for tb in json.loads(ok(db, "status", "--json"))["tables"]}
    assert str(file) in tables[1]["out"] and "out" not in tables[2]
    # The file: every usual command, on that table's matches only.
    f = str(file)
    play_rest(f, "M1", seed=1)
    assert ok(f, "table", "start", "1", "1", "ventuno", "--referee", "Anna").strip() == "M3"
    play_rest(f, "M3", seed=2)
    assert ok(f, "table", "start", "1", "1", "updown").strip() == "M4"
    on_the_console(f, "M4", seed=2)  # the referee's console, in a real terminal
    assert ok(f, "table", "start", "1", "1", "roulette_russa").strip() == "M5"
    play_rest(f, "M5", seed=4)
    assert "table file of table 1 of round 1" in refused(f, "match", "move", "M2", "pass Verde")
    assert "table file" in refused(f, "players", "add", "Viola")
    assert "every hash chain is intact" in ok(f, "verify")
    printed = heads(f, ["M1", "M3", "M4", "M5"])
    before = events_rows(db)
    done = ok(db, "table", "checkin", f)
    assert "M3 (started in the table file)" in done and "is back in the tournament" in done
    assert "is out" not in ok(db, "status")
    # Each match goes on as the file recorded it: its events, times and hashes.
    assert events_rows(db)[: len(before)] == before
    assert "every hash chain is intact" in ok(db, "verify")
    for number, head in printed.items():
        assert "matches" in ok(db, "verify", number, "--head", head)
    assert ok(db, "match", "export", "M1") == ok(f, "match", "export", "M1")
    shown = ok(db, "status")
    assert (
        "table 1: Giallo - Blu: decided; tiro M1, ventuno M3, updown M4, roulette_russa M5" in shown
    )
    # The table is back; the file takes no more moves.
    assert "was checked in" in refused(f, "match", "move", "M5", "pass Giallo")
    assert "is not out" in refused(db, "table", "checkin", f)
    for number in printed:
        assert json.loads(ok(db, "match", "show", number, "--json"))["status"] == "finished"
    s = Store(db)
    try:  # the referee named on the file, and the heads, are the tournament's now
        from tournament.services.stored import get_tournament

        t = get_tournament(s)
        assert t.referee_of("M3") == "Anna"
        assert {n: t.heads[n][1] for n in printed} == printed
    finally:
        close(s)


def on_the_console(f: str, number: str, seed: int) -> None:
    """Record a whole game with ``tournament play`` in tmux, typed line by line (where tmux is
    missing, .ci/run installs it: with the recording verbs instead)."""
    if shutil.which("tmux") is None:
        play_rest(f, number, seed)
        return
    lines = moves(f, number, seed, console=True)
    assert not any(line.startswith("undo") for line in lines)  # (the seed's game has no void)
    session = f"tablefile{time.monotonic_ns()}"
    command = f"tournament --db {f} play {number} --no-timers; sleep 60"
    subprocess.run(["tmux", "new-session", "-d", "-s", session, "-x", "120", "-y", "40", command],
                   check=True)  # fmt: skip
    try:
        for i, line in enumerate(lines, 1):
            _wait_for_prompt(session)
            subprocess.run(["tmux", "send-keys", "-t", session, "-l", line], check=True)
            subprocess.run(["tmux", "send-keys", "-t", session, "Enter"], check=True)
            _wait_until(lambda i=i: _screen(session).count("registrato #") >= i, session)
        _wait_for(session, "partita finita")
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], check=False)
    assert json.loads(ok(f, "match", "show", number, "--json"))["status"] == "finished"


def _wait_until(done: Any, session: str, seconds: float = 20) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        if time.monotonic() > deadline:
            raise AssertionError(_screen(session))
        time.sleep(0.05)


def test_a_match_that_moved_on_in_both_places_is_refused_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """(On SQLite: on PostgreSQL the check-in's one transaction is tested by a SIGKILL.)"""
    db = str(tmp_path / "sera.db")
    partita_tournament(db)
    f = str(tmp_path / "t1.db")
    ok(db, "table", "checkout", "1", "1", "--to", f)
    ok(f, "table", "start", "1", "1", "ventuno")
    ok(f, "match", "move", "M3", moves(f, "M3", seed=2)[0])
    rest = moves(db, "M1", seed=1)
    ok(f, "match", "move", "M1", rest[1])
    # A terminal that looked a moment before the checkout still writes to M1 here (the race).
    from tournament.storage import holds

    monkeypatch.setattr(holds, "check", lambda store, objs, fresh=True: None)
    ok(db, "match", "move", "M1", _other(rest[1]))
    monkeypatch.undo()
    before = events_rows(db)
    why = refused(db, "table", "checkin", f)
    assert "M1 moved on both here and in the table file" in why
    assert "position 2" in why and "here: " in why and "there: " in why
    assert events_rows(db) == before  # nothing changed: M3 not taken in either
    assert "is out" in refused(db, "match", "move", "M1", rest[2])
    # Release takes the table back without the file.
    assert "back in the tournament" in ok(db, "table", "release", "1", "1", "--reason", "lost")
    assert "is not out" in refused(db, "table", "checkin", f)
    assert ok(db, "table", "start", "1", "1", "ventuno").strip() == "M3"  # its number stays


def _other(move: str) -> str:
    """The same roll with other faces (another event at the same position)."""
    head, *faces = move.split(" d6 ")
    values = faces[0].split()
    return f"{head} d6 " + " ".join(str(int(v) % 6 + 1) for v in values)


def test_checkout_refuses_cleanly(tmp_path: Path) -> None:
    db = str(tmp_path / "sera.db")
    partita_tournament(db)
    f = tmp_path / "t1.db"
    assert "no table 9" in refused(db, "table", "checkout", "1", "9", "--to", str(f))
    s = Store(db)
    try:
        kept = {n: dice.keep(s, n) for n in ("M1", "M2")}  # each table's digital dice seed
    finally:
        close(s)
    ok(db, "table", "checkout", "1", "1", "--to", str(f))
    s = Store(f)
    try:  # only the table's seed travels: another table's secret stays in the tournament
        assert dice.every_seed(s) == [("M1", kept["M1"])]
    finally:
        close(s)
    assert "already exists" in refused(db, "table", "checkout", "1", "2", "--to", str(f))
    assert "is out" in refused(db, "table", "checkout", "1", "1", "--to", str(tmp_path / "b.db"))
    elsewhere = str(tmp_path / "c.db")
    assert "table file" in refused(str(f), "table", "checkout", "1", "2", "--to", elsewhere)
    assert "not a table file" in refused(db, "table", "checkin", db)
    assert "not out" in refused(db, "table", "release", "1", "2")
    # The pages say where the table is: its referee's page and the match's.
    from tournament.web.referee import table_view
    from tournament.web.views import match

    s = Store(db)
    try:
        assert str(f) in table_view(s, 1, 1, None, "en")["out"]
        assert table_view(s, 1, 2, None, "en")["out"] is None
        assert "tavolo 1 del turno 1" in match(s, "M1", Path(db))["_out"]["it"]
        assert match(s, "M2", Path(db))["_out"] is None
    finally:
        close(s)


def test_the_merge_is_a_fast_forward_for_any_carrier(tmp_path: Path) -> None:
    """Part 3: a longer exported log of a match stored here goes on as it was recorded (its
    times and hashes kept); a shorter or another one is a new match, as before; a copy whose
    chain does not hold together is refused."""
    from tournament.errors import Refused
    from tournament.services.merge import Diverged, Incoming, fast_forward

    a, b = tmp_path / "a.db", tmp_path / "b.db"
    ok(a, "match", "new", "tiro", "giallo", "blu", "--outside", "verde")
    plays = ["roll giallo d6 6 6 5 1", "roll blu d6 5 4 2 1", "roll verde d20 11"]
    ok(a, "match", "move", "M1", plays[0])
    (tmp_path / "short.jsonl").write_text(ok(a, "match", "export", "M1"))
    for move in plays[1:]:
        ok(a, "match", "move", "M1", move)
    (tmp_path / "long.jsonl").write_text(longer := ok(a, "match", "export", "M1"))
    assert ok(b, "match", "import", str(tmp_path / "short.jsonl")).strip() == "M1"
    assert ok(b, "match", "import", str(tmp_path / "long.jsonl")).strip() == "M1"
    assert ok(b, "match", "export", "M1") == longer  # the same events, times and hashes
    assert ok(b, "match", "import", str(tmp_path / "short.jsonl")).strip() == "M2"  # as before
    s, other = Store(a), Store(b)
    try:
        mine, theirs = other.get_match("M2"), s.get_match("M1")
        with pytest.raises(Diverged, match="another start"):
            fast_forward(mine, theirs, "a.db")
        mine = s.get_match("M1")
        assert fast_forward(mine, other.get_match("M1"), "b.db") is None  # nothing more
        b = mine.binding
        lines = [mine.lines[0], '{"by":"blu","die":"d6","type":"roll","values":[1,1,1,1]}']
        moved = Incoming.of(mine.header, lines, type(b)(b.match, b.id, b.at, tuple(b.times[:2])))
        with pytest.raises(Diverged, match=r"position 2 \(here: roll blu d6 5 4 2 1; there: ro"):
            fast_forward(mine, moved, "x")
        broken = Incoming(moved.number, moved.id, moved.header, moved.start, moved.lines,
                          [moved.hashes[0], "0" * 64], moved.times)  # fmt: skip
        with pytest.raises(Refused, match="does not hold together"):
            fast_forward(None, broken, "x")
    finally:
        close(s)
        close(other)


def test_a_drawn_knockout_tables_decider_is_started_in_the_tournament(tmp_path: Path) -> None:
    """A decider's number is the tournament's to give (#24 with #26): in a table file its start
    is refused in one sentence saying what to do, and after the checkin it starts at home."""
    from tests.tournament.test_knockouts import semi_final_drawn, tiro
    from tournament.errors import Refused
    from tournament.services import tablefiles

    home = Store(str(tmp_path / "home.db"))
    try:
        semi_final_drawn(home, "replay")
        tablefiles.checkout(home, 1, 1, str(tmp_path / "t1.db"))
        file = Store(str(tmp_path / "t1.db"))
        try:
            with pytest.raises(Refused, match="check table 1 in"):
                tiro(file, 1, 1, "Dario")
        finally:
            close(file)
        tablefiles.checkin(home, str(tmp_path / "t1.db"))
        assert tiro(home, 1, 1, "Dario")  # the decider, at home once the table is back
    finally:
        close(home)
