"""Long work draws a rich progress bar with counts on a terminal and stays quiet when piped or
with --json (#11): simulate, match import of a long log, verify, rebuild, export all, demo."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import EXAMPLES
from tests.tournament.test_match_cli import run
from tournament.cli import progress

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


@pytest.fixture
def terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """stderr is a terminal, as a person at the keyboard has it."""
    monkeypatch.setattr(progress, "_terminal", lambda: True)


def said(db: Path, *args: str) -> tuple[str, str]:
    result = run(db, *args)
    assert result.exit_code == 0, result.stderr
    return result.stdout, ANSI.sub("", result.stderr)


@pytest.fixture
def simulated(tmp_path: Path) -> Path:
    db = tmp_path / "t.db"
    out, err = said(db, "simulate", "--players", "4", "--rounds", "2", "--json")
    assert json.loads(out) and err == ""  # --json: the rows, nothing drawn
    return db


def test_on_a_terminal_each_long_command_draws_its_counts(
    simulated: Path, tmp_path: Path, terminal: None
) -> None:
    _, err = said(tmp_path / "s.db", "simulate", "--players", "4", "--rounds", "2")
    assert "simulating: round 2" in err and "2/2" in err
    knockout = ("--format", "elimination", "--plays", "tiro", "--players", "5")
    _, err = said(tmp_path / "k.db", "simulate", *knockout)
    assert "simulating: round 3" in err and "3/3" in err  # 5 players: three rounds of a bracket
    out, err = said(simulated, "export", "all", "--out", str(tmp_path / "out"))
    # 11 blank sheets, the standings, 2 rounds' pairings, the partite, and 16 matches (two
    # rounds of two tables, each a partita of four)
    total = 11 + 1 + 2 + 1 + 16
    assert f"{total}/{total}" in err and "writing: M16" in err
    assert out.startswith("wrote ")
    _, err = said(simulated, "verify")
    assert "verifying: tournament" in err or "verifying: M" in err
    assert re.search(r"verifying: \S+ .*\b17\b", err)  # 16 matches and the tournament
    out, err = said(simulated, "rebuild")
    events = re.findall(r"from (\d+) events", out)[0]
    assert re.search(rf"rebuilding the read models \(events\) .*\b{events}\b", err)


def test_a_long_log_is_counted_as_it_is_checked(
    tmp_path: Path, terminal: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tournament.cli import match

    log = EXAMPLES / "alphatiana-full.jsonl"  # 65 events
    _, err = said(tmp_path / "a.db", "match", "import", str(log))
    assert "/65" not in err  # a short log: checked before a bar could be seen
    monkeypatch.setattr(match, "LONG_LOG", 10)
    out, err = said(tmp_path / "b.db", "match", "import", str(log))
    assert out == "M1\n" and "checking alphatiana-full.jsonl" in err and "65/65" in err


def test_json_and_pipes_stay_quiet(simulated: Path, tmp_path: Path, terminal: None) -> None:
    for args in (("verify", "--json"), ("rebuild", "--json")):
        out, err = said(simulated, *args)
        assert json.loads(out) and err == "", args


def test_piped_nothing_is_drawn(simulated: Path, tmp_path: Path) -> None:
    for args in (("verify",), ("rebuild",), ("export", "all", "--out", str(tmp_path / "o"))):
        out, err = said(simulated, *args)
        assert out and err == "", args
    out, err = said(tmp_path / "m.db", "match", "import", str(EXAMPLES / "tiro-seed.jsonl"))
    assert out == "M1\n" and err.startswith("imported ") and err.count("\n") == 1


def test_the_demo_counts_what_it_builds_and_writes(tmp_path: Path, terminal: None) -> None:
    out, err = said(tmp_path / "d.db", "demo", "--no-pdf")
    examples = len(list(EXAMPLES.glob("*.jsonl")))
    assert f"{3 + examples}/{3 + examples}" in err and "building the demo" in err
    assert "writing its sheets" in err and "Demo database" in out
    out, err = said(tmp_path / "d.db", "demo", "--no-pdf", "--json")  # built again, quietly
    assert json.loads(out)["standings"] and err == ""


def test_a_real_pipe_shows_no_bar(tmp_path: Path) -> None:
    """The program itself, its stderr a pipe: no bar, no control codes."""
    db = tmp_path / "t.db"
    done = subprocess.run(
        [sys.executable, "-m", "tournament", "--db", str(db), "simulate", "--players", "4"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stderr == "" and "\x1b" not in done.stderr
