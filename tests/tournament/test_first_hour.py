"""Issue 11, a new organizer's first hour: names in any case, negative numbers, clear refusals
that leave nothing behind, and messages that read right."""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import EXAMPLES
from tests.tournament.test_match_cli import ok, refused, run


@pytest.fixture
def day(tmp_path: Path) -> Path:
    """A Swiss of Tiro with four players, round 1 paired: Giallo - Blu, Verde - Rosso (the
    seed of the lot is the name)."""
    db = tmp_path / "sera.db"
    ok(db, "create", "Sera al circolo", "--plays", "tiro")
    ok(db, "players", "add", "Giallo", "Blu", "Verde", "Rosso")
    ok(db, "round", "pair")
    tables = json.loads(ok(db, "round", "show", "--json"))["tables"]
    assert [t["players"] for t in tables] == [["Giallo", "Blu"], ["Verde", "Rosso"]]
    return db


def test_names_are_read_regardless_of_case_and_accents_and_shown_as_registered(
    day: Path,
) -> None:
    assert "giallo (as Giallo) is already registered" in refused(day, "players", "add", "giallo")
    assert "BLÙ (as Blu) is already registered" in refused(day, "players", "add", "BLÙ")
    number = ok(day, "table", "start", "1", "1", "tiro", "--outside", "VERDE").strip()
    shown = json.loads(ok(day, "match", "show", number, "--json"))
    assert shown["players"] == ["Giallo", "Blu"]
    assert "(outside: Verde)" in ok(day, "match", "show", number)
    assert "roll Giallo d6 6 6 5 1" in ok(
        day, "match", "roll", number, "giallo", "d6", "6", "6", "5", "1"
    )
    assert ok(day, "players", "withdraw", "rossò") == (  # seated at an open table (#24)
        "Rosso dropped\n"
        "Rosso forfeits the challenges of table 2 (round 1) not yet ended: Verde wins the table\n"
    )
    statuses = {p["name"]: p["status"] for p in json.loads(ok(day, "players", "list", "--json"))}
    assert statuses["Rosso"] == "dropped" and "rossò" not in statuses


def test_an_outside_player_must_be_registered(day: Path) -> None:
    message = refused(day, "table", "start", "1", "2", "tiro", "--outside", "Nessuno")
    assert "'Nessuno' is not a registered player of this tournament" in message
    assert "M1" not in ok(day, "status")


def test_a_new_match_names_each_player_once_in_any_case(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    assert "giallo and Giallo are one player" in refused(
        db, "match", "new", "tiro", "Giallo", "giallo"
    )
    assert not db.exists()  # refused before anything was made
    message = refused(db, "match", "new", "tiro", "giallo")  # one player is too few for a duel
    assert not message.startswith("error: line 1:")  # no file is involved
    assert not db.exists()


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["round", "show", "-1"], "there is no round -1"),
        (["round", "show", "0"], "there is no round 0"),
        (["match", "rule", "M1", "-3", "accept"], "position"),
        (["match", "roll", "M1", "Giallo", "d6", "-1", "6", "5", "1"], "-1 is not a face of a d6"),
    ],
)
def test_negative_numbers_reach_the_command(day: Path, args: list[str], says: str) -> None:
    ok(day, "table", "start", "1", "1", "tiro", "--outside", "Verde")
    assert says in refused(day, *args)


def test_an_unknown_option_is_still_a_usage_error(day: Path) -> None:
    result = run(day, "round", "show", "--bogus")
    assert result.exit_code == 2 and "no such option: --bogus" in result.stderr


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["create", ""], "give the tournament a name"),
        (["create", "X", "--date", "notadate"], "is not a date"),
        (["create", "X", "--format", "bogus"], "unknown format"),
        (["simulate", "--players", "-4"], "at least two players, not -4"),
        (["simulate", "--players", "1"], "at least two players, not 1"),
        (["export", "all", "--templates", "/nonexistent"], "is not a folder of templates"),
    ],
)
def test_refused_commands_leave_no_file(tmp_path: Path, args: list[str], says: str) -> None:
    db = tmp_path / "new.db"
    assert says in refused(db, *args)
    assert list(tmp_path.iterdir()) == []


def test_a_refusal_never_removes_a_database_that_was_there(day: Path) -> None:
    refused(day, "create", "Again")
    assert day.exists() and "Sera" in ok(day, "status")


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["tiro", "6", "6", "5", "1", "99", "--target", "11"], "give 4 d6 values, not 5 (TIR-1)"),
        (["tiro", "6", "6", "5", "9", "--target", "11"], "9 is not a face of a d6"),
        (["tiro", "6", "6", "5", "1", "--target", "21"], "21 is not a face of a d20"),
        (["battaglia", "3", "5", "0", "--target", "15"], "0 is not a face of a d6"),
    ],
)
def test_solve_takes_only_numbers_a_die_shows(tmp_path: Path, args: list[str], says: str) -> None:
    assert says in refused(tmp_path / "x.db", "solve", *args)


def test_round_show_zero_is_no_round(day: Path) -> None:
    assert "there is no round 0 (rounds 1 to 1)" in refused(day, "round", "show", "0")


def test_status_and_counts_read_right(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    ok(db, "create", "Sera")
    assert (
        ok(db, "status") == "Sera: 0 active players, no round paired yet (tournament round pair)\n"
    )
    assert ok(db, "players", "add", "Giallo") == "1 active player\n"
    assert ok(db, "players", "add", "Blu") == "2 active players\n"
    assert refused(db, "players", "withdraw", "") == "error: name the player to withdraw\n"


def test_the_same_log_imported_twice_asks_for_again(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    log = str(EXAMPLES / "tiro-seed.jsonl")
    assert ok(db, "match", "import", log) == "M1\n"
    message = refused(db, "match", "import", log)
    assert "already stored as M1" in message and "--again" in message
    exported = tmp_path / "m1.jsonl"
    exported.write_text(ok(db, "match", "export", "M1"))
    assert "already stored as M1" in refused(db, "match", "import", str(exported))
    assert ok(db, "match", "import", log, "--again") == "M2\n"


def test_match_show_prints_what_is_legal_and_the_running_total(tmp_path: Path) -> None:
    db = tmp_path / "v.db"
    ok(db, "match", "new", "ventuno", "giallo", "blu")
    # rich read "[roll/timeout]" as a style and printed "roll d6 x2  (VEN-1)"
    assert "next: giallo: roll d6 x2 [roll/timeout] (VEN-1)" in ok(db, "match", "show", "M1")
    ok(db, "match", "roll", "M1", "giallo", "d6", "4", "5")
    assert "state: total 5\n" in ok(db, "match", "choose", "M1", "giallo", "5")
    assert "state: total 5\n" in ok(db, "match", "show", "M1")
    assert json.loads(ok(db, "match", "show", "M1", "--json"))["state"] == "total 5"


def test_a_move_out_of_place_reads_as_english(tmp_path: Path) -> None:
    db = tmp_path / "v.db"
    ok(db, "match", "new", "ventuno", "giallo", "blu")
    message = refused(db, "match", "choose", "M1", "giallo", "5")
    assert message.startswith("error: giallo may not choose now; expected: roll d6 x2")


def test_a_log_whose_end_disagrees_is_told_without_python_reprs(tmp_path: Path) -> None:
    lines = (EXAMPLES / "tiro-seed.jsonl").read_text().splitlines()
    end = json.loads(lines[-1])
    assert end["type"] == "end"
    end["winners"] = [p for p in end["points"] if p not in end["winners"]]
    log = tmp_path / "bad.jsonl"
    log.write_text("\n".join([*lines[:-1], json.dumps(end)]) + "\n")
    message = refused(tmp_path / "t.db", "match", "import", str(log))
    assert "[" not in message and "{" not in message and "the log says winners" in message


def test_verify_of_a_match_that_is_not_there_is_no_tampering(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    ok(db, "match", "import", str(EXAMPLES / "tiro-seed.jsonl"))
    message = refused(db, "verify", "M999")
    assert message.startswith("error: there is no match M999") and "FAILED" not in message


def test_seal_from_a_script_reads_standard_input_or_a_word_file(tmp_path: Path) -> None:
    db = tmp_path / "p.db"
    ok(db, "match", "new", "parola_nascosta", "giallo", "blu")
    for to, card in (("giallo", "01"), ("blu", "02"), ("table", "04")):
        ok(db, "match", "card", "M1", to, card)
    words = tmp_path / "word.txt"
    words.write_text("martello\n")
    result = run(db, "match", "seal", "M1", "blu", "--word-file", str(words))
    assert result.exit_code == 0 and "martello" not in result.stdout, result.stderr
    # A real process with a pipe for standard input: no terminal, as from a script.
    done = subprocess.run(
        [sys.executable, "-m", "tournament", "--db", str(db), "match", "seal", "M1", "giallo"],
        input="casa\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "Warning" not in done.stderr and "casa" not in done.stdout + done.stderr
    assert "keep this salt private" in done.stdout


class FakeClock:
    """The console's clock, moved by hand: each prompt takes ``step`` seconds to answer."""

    def __init__(self, step: float) -> None:
        self.now = 1000.0
        self.step = step

    def __call__(self) -> float:
        return self.now


def test_resume_gives_back_the_time_that_was_left(tmp_path: Path) -> None:
    from tournament.cli.console import Console
    from tournament.storage.store import Store

    db = tmp_path / "t.db"
    ok(db, "match", "new", "ventuno", "giallo", "blu")
    clock = FakeClock(step=4)
    answers = iter(["help", "pause", "resume", "roll giallo d6 4 5", "quit"])
    seen: list[float | None] = []

    def read(prompt: str, seconds: float | None, hidden: bool) -> str | None:
        seen.append(seconds)
        clock.now += clock.step  # the referee takes four seconds to type each line
        return next(answers)

    Console(Store(db), "M1", read, lambda _: None, clock=clock).run()
    # 15 s a turn (VEN-1's CH-4): help does not restart it, the pause stops it, resume gives
    # back what was left; a new turn has its whole time again.
    assert seen == [15, 11, None, 7, 15]


def test_a_typo_in_the_move_that_ends_the_match_can_be_undone(tmp_path: Path) -> None:
    from tournament.cli.console import Console
    from tournament.storage.store import Store

    db = tmp_path / "t.db"
    ok(db, "match", "new", "tiro", "giallo", "blu", "--outside", "verde")
    for move in ("roll giallo d6 6 6 5 1", "roll blu d6 5 4 2 1", "roll verde d20 11"):
        ok(db, "match", "move", "M1", *move.split())
    ok(db, "match", "move", "M1", "expr", "giallo", "6 x (5:6+1)")
    lines = iter(["expr blu (5+4+2)+1", "undo typo: it was (5+4+2):1", "expr blu (5+4+2):1", ""])
    prompts: list[str] = []
    said: list[str] = []

    def read(prompt: str, seconds: float | None, hidden: bool) -> str | None:
        prompts.append(prompt)
        return next(lines)

    Console(Store(db), "M1", read, said.append, timers=False).run()
    # The finished match's hint is said on a line of its own, the prompt stays short (#28).
    assert sum("partita finita: `annulla MOTIVO`" in s for s in said) == 2, said
    assert all(len(p) < 40 for p in prompts), prompts
    info = json.loads(ok(db, "match", "show", "M1", "--json"))
    assert info["status"] == "finished" and info["winners"] == ["giallo"]
    assert 5 in info["voided"]  # the mistyped expression, struck; the right one follows


def test_help_lists_the_commands_in_the_organizers_order() -> None:
    from tests.tournament.test_match_cli import app, runner

    text = runner.invoke(app, ["--help"], terminal_width=100).stdout
    panels = ["The day", "Recording at the table", "Reading and trying", "Printing", "Disputes"]
    at = [text.index(f"─ {p} ") for p in panels]
    assert at == sorted(at)
    order = [
        text.index(f"│ {c} ") for c in ("create", "players", "round", "play", "export", "verify")
    ]
    assert order == sorted(order)
    assert "─ Referee " in runner.invoke(app, ["match", "--help"], terminal_width=100).stdout


def test_help_lists_the_games_where_a_game_is_asked() -> None:
    from engine.games import GAMES, TETRAGON
    from tests.tournament.test_match_cli import app, runner
    from tournament.cli.helptext import filled

    assert filled()["tetragon"].split(", ") == list(TETRAGON)
    assert filled()["games"].split(", ") == list(GAMES)
    shown = runner.invoke(app, ["--lang", "en", "table", "start", "--help"]).stdout
    assert "%(" not in shown and all(g in " ".join(shown.split()) for g in GAMES)


def test_simulate_is_quiet_when_piped_and_draws_a_bar_on_a_terminal(tmp_path: Path) -> None:
    args = [sys.executable, "-m", "tournament", "--db"]
    rest = ["simulate", "--players", "4", "--rounds", "1", "--plays", "tiro"]
    piped = subprocess.run(
        [*args, str(tmp_path / "a.db"), *rest], capture_output=True, text=True, timeout=120
    )
    assert piped.returncode == 0 and piped.stderr == "" and "round 1" not in piped.stdout
    if shutil.which("script") is None:
        return  # util-linux's script gives the terminal below; the piped half above stands
    command = shlex.join([*args, str(tmp_path / "b.db"), *rest])
    shown = subprocess.run(
        ["script", "-qec", command, "/dev/null"], capture_output=True, text=True, timeout=120
    )
    assert shown.returncode == 0, shown.stdout
    assert "simulating" in shown.stdout and "1/1" in shown.stdout  # the bar, with its count


def test_a_reader_that_goes_away_stops_the_output_quietly(tmp_path: Path) -> None:
    """``tournament match list --json | head``: the pipe closes, the program stops without a
    word on stderr and with the shell's SIGPIPE status, as any Unix tool."""
    db = tmp_path / "t.db"
    for log in sorted(EXAMPLES.glob("*.jsonl")):
        ok(db, "match", "import", str(log))
    process = subprocess.Popen(
        [sys.executable, "-m", "tournament", "--db", str(db), "match", "list", "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()  # before the program writes: its first write meets a closed pipe
    err = process.stderr.read()
    assert process.wait(timeout=60) == 141
    assert err == b""
