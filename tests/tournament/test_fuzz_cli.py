"""No input or argument ever produces a traceback: one sentence, a non-zero exit, nothing stored
(issue 10). Fuzzed through the command line, so that the tests hold whatever parses the text.

Bounded and seeded (``derandomize``): a few hundred calls, a few seconds. For a larger tally,
``python -m tests.fuzzing 2000``.
"""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import typer.main
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from tests import fuzzing
from tests.support import EXAMPLES
from tournament import cli
from tournament.cli import full_app

app = full_app()
runner = CliRunner()
FUZZ = settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict[str, list[str]]]]:
    """A database with every example match stopped half-way, and who acts next in each; the
    fuzz tests that use it share one built command (see ``fuzzing.built_once``)."""
    db = tmp_path_factory.mktemp("fuzz") / "t.db"
    with fuzzing.built_once(app):
        yield db, fuzzing.seeded_db(db, runner, app)


def invoke(db: Path, *args: str):
    return runner.invoke(app, ["--db", str(db), *args])


def assert_clean(result, before: list[str], db: Path) -> None:
    """Success, or a refusal: exit 1 (2 for a usage error), one line on stderr, nothing stored."""
    assert not fuzzing.is_traceback(result), result.exception
    assert "Traceback" not in result.stderr
    if result.exit_code == 0:
        return
    assert result.exit_code in (1, 2), (result.exit_code, result.stderr)
    assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1, result.stderr
    assert fuzzing.snapshot(db) == before


@settings(FUZZ, max_examples=80)
@given(rng=st.randoms(use_true_random=False))
def test_match_import_and_verify_file_of_mutated_logs(seeded, tmp_path_factory, rng) -> None:
    db, _ = seeded
    log = tmp_path_factory.getbasetemp() / "mutated.jsonl"
    log.write_bytes(fuzzing.mutated_log(rng))
    before = fuzzing.snapshot(db)
    imported = invoke(db, "match", "import", str(log))
    assert_clean(imported, before, db)
    if imported.exit_code == 0:  # the mutation left a legal log: it prints the new id alone
        assert re.fullmatch(r"M\d+\n", imported.stdout)
        before = fuzzing.snapshot(db)
    assert_clean(invoke(db, "verify", "--file", str(log)), before, db)


@settings(FUZZ, max_examples=150)
@given(rng=st.randoms(use_true_random=False))
def test_recording_verbs_with_hostile_arguments(seeded, rng) -> None:
    db, matches = seeded
    command = fuzzing.hostile_command(rng, matches)
    before = fuzzing.snapshot(db)
    result = invoke(db, *command)
    if command[:2] == ["words", "check"] and result.exit_code == 1 and not result.stderr:
        assert result.stdout.endswith(": no\n")  # the answer, not an error
        return
    assert_clean(result, before, db)


def test_each_cause_of_the_measured_tracebacks_is_one_sentence(tmp_path: Path) -> None:
    """The four causes issue 10 measured, each through import, verify --file and a verb."""
    db = tmp_path / "t.db"
    assert invoke(db, "match", "import", str(EXAMPLES / "tiro-seed.jsonl")).stdout == "M1\n"
    header = (EXAMPLES / "tiro-seed.jsonl").read_text().splitlines()[0]
    cases = {
        "deep": ('{"type": "pass", "by": "giallo", "x": ' + "[" * 100_000 + "]" * 100_000 + "}",
                 "line 2: nests lists or objects deeper than 32 levels (FORMAT)"),
        "huge": ('{"type": "roll", "by": "giallo", "die": "d6", "values": [' + "9" * 4_400 + "]}",
                 "line 2: holds the number 999999999999…(4400 characters), beyond"),
        "surrogate": ('{"type": "word", "by": "\\ud800", "word": "x"}',
                      "line 2: holds text that is not Unicode: a lone surrogate '\\ud800'"),
        "header": (header.replace('"blu"', '"bl\\udcffu"'),
                   "line 1: holds text that is not Unicode: a lone surrogate '\\udcff'"),
    }  # fmt: skip
    before = fuzzing.snapshot(db)
    for name, (line, message) in cases.items():
        log = tmp_path / f"{name}.jsonl"
        log.write_text(line + "\n" if name == "header" else f"{header}\n{line}\n")
        for args in (["match", "import"], ["verify", "--file"]):
            result = invoke(db, *args, str(log))
            assert_clean(result, before, db)
            if args[0] == "match" or name == "header":  # verify --file first wants a hash
                assert result.stderr.startswith(f"error: {message}"), result.stderr
    for args, message in [
        (["match", "show", "M" + "1" * 4_400], "holds a number of 4,400 digits"),
        (["match", "roll", "M1", "giallo", "d6", "9" * 4_400], "holds a number of 4,400 digits"),
        (["match", "choose", "M1", "giallo", "9" * 4_000], "'value' must be a number or a"),
        (
            ["match", "new", "tiro", "gi\udcffallo", "blu"],
            "the argument 'gi\\xffallo' is not UTF-8",
        ),
        (["words", "check", "ca\udcffsa"], "the argument 'ca\\xffsa' is not UTF-8 text"),
        (["match", "word", "M1", "giallo", "\ud800"], "the argument '\\ud800' is not UTF-8 text"),
        (["match", "rule", "M1", "9" * 30, "accept"], "'on' must be a position"),
    ]:
        result = invoke(db, *args)
        assert_clean(result, before, db)
        assert result.exit_code == 1 and message in result.stderr, result.stderr


def test_a_usage_error_is_one_sentence_too(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    for args, message in [
        (["match", "roll", "M1"], "error: missing argument BY (see 'root match roll --help')"),
        (["match", "roll", "--bogus"], "error: no such option: --bogus (see"),
        (  # a typo far from every option: the command's options, not a poor guess
            ["export", "pairings", "--round", "7"],
            "error: no such option: --round "
            "(the options here: --format, --lang, --out, --pdf, --templates)",
        ),
        (["match", "rule", "--yse"], "error: no such option: --yse (did you mean --yes?)"),
        (["match", "rule", "M1", "x", "accept"], "error: invalid value for ON: 'x' is not a whole"),
        (["--db"], "error: --db needs a value"),
        (  # a long value is not echoed back whole
            ["match", "rule", "M1", "9" * 4_400, "accept"],
            f"error: invalid value for ON: '{'9' * 20}…' is not a whole number (see",
        ),
    ]:
        result = runner.invoke(app, args if args == ["--db"] else ["--db", str(db), *args])
        assert result.exit_code == 2 and result.stderr.startswith(message), result.stderr
        assert result.stderr.count("\n") == 1
    assert not db.exists()
    helped = runner.invoke(app, ["match"])  # a group alone still shows its help, as before
    assert "Usage:" in helped.stdout + helped.stderr


def test_an_unexpected_error_is_one_sentence_naming_it_a_bug(monkeypatch, capsys) -> None:
    def broken() -> None:
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(cli, "app", broken)
    monkeypatch.setattr(sys, "argv", ["tournament", "match", "list"])
    monkeypatch.delenv(cli.DEBUG, raising=False)
    with pytest.raises(SystemExit) as stopped:
        cli.main()
    assert stopped.value.code == 70
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("error: this is a bug in tournament (ZeroDivisionError in ")
    assert f"{cli.DEBUG}=1 shows the traceback" in err and "report it" in err
    monkeypatch.setenv(cli.DEBUG, "1")
    with pytest.raises(ZeroDivisionError):
        cli.main()


# --- real processes: bytes that are not UTF-8 in argv -------------------------------------------


def tournament(db: Path, *args: bytes | str) -> subprocess.CompletedProcess[bytes]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TOURNAMENT_")}
    env["LC_ALL"] = "C.UTF-8"  # argv is decoded as UTF-8, other bytes as surrogate escapes
    env["TOURNAMENT_LANG"] = "en"  # the sentences these tests read (C.UTF-8 names no language)
    return subprocess.run(
        [sys.executable, "-m", "tournament", "--db", str(db), *args],
        capture_output=True,
        env=env,
        timeout=60,
    )


def test_arguments_that_are_not_utf8_in_a_real_process(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    for args, message in [
        ([b"match", b"new", b"tiro", b"gi\xffallo", b"blu"], b"'gi\\xffallo' is not UTF-8 text"),
        ([b"words", b"check", b"ca\xffsa"], b"the argument 'ca\\xffsa' is not UTF-8 text"),
    ]:
        done = tournament(db, *args)
        assert done.returncode == 1 and done.stdout == b"", done.stderr
        assert done.stderr.startswith(b"error: ") and message in done.stderr, done.stderr
        assert done.stderr.count(b"\n") == 1
    assert not db.exists()  # refused before anything was opened


def test_a_file_name_that_is_not_utf8_is_still_a_file(tmp_path: Path) -> None:
    """Paths are not text: a log named in another encoding imports like any other."""
    log = tmp_path / os.fsdecode(b"partita-caf\xe9.jsonl")
    log.write_bytes((EXAMPLES / "tiro-seed.jsonl").read_bytes())
    db = tmp_path / "t.db"
    done = tournament(db, b"match", b"import", os.fsencode(log))
    assert done.returncode == 0 and done.stdout == b"M1\n", done.stderr
    out = tmp_path / b"fogli-\xe8".decode("utf-8", "surrogateescape")
    done = tournament(db, b"export", b"sheet", b"tiro", b"--out", os.fsencode(out))
    assert done.returncode == 0, done.stderr  # printed back as the same bytes
    assert done.stdout == b"wrote " + os.fsencode(out / "sheet-tiro.html") + b"\n"


def test_hostile_logs_and_numbers_in_a_real_process(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    assert tournament(db, "match", "import", str(EXAMPLES / "tiro-seed.jsonl")).returncode == 0
    before = fuzzing.snapshot(db)
    log = tmp_path / "mutated.jsonl"
    rng = random.Random(10)
    runs = [["match", "show", "M" + "7" * 4_400], ["match", "roll", "M1", "blu", "d6", "9" * 4_400]]
    for _ in range(2):
        log.write_bytes(fuzzing.nest(fuzzing.surrogate(fuzzing.LOGS[0].read_bytes(), rng), rng))
        runs.append(["match", "import", str(log)])
    for args in runs:
        done = tournament(db, *args)
        assert done.returncode == 1 and b"Traceback" not in done.stderr, done.stderr
        assert done.stderr.startswith(b"error: ") and done.stderr.count(b"\n") == 1, done.stderr
    assert fuzzing.snapshot(db) == before


def test_the_other_json_and_numbers_a_user_types(tmp_path: Path) -> None:
    """A deck file, a what-if replacement and amended points: read as strictly as a log."""
    db = tmp_path / "t.db"
    deck = tmp_path / "deck.json"
    deck.write_text("[" * 100_000 + "]" * 100_000)
    result = invoke(db, "match", "new", "parola_nascosta", "giallo", "blu", "--deck", str(deck))
    assert_clean(result, [], db)
    assert result.stderr == f"error: the deck {deck} is not a JSON list of cards\n"
    for points in ("blu=" + "9" * 30, "blu=³"):  # a huge number was stored, then broke reading
        result = invoke(db, "amend", "1", "1", points, "giallo=0", "--reason", "x", "--yes")
        assert_clean(result, [], db)
        assert result.stderr == f"error: points are written player=number, not {points!r}\n"
    assert not db.exists()
    invoke(db, "match", "import", str(EXAMPLES / "tiro-seed.jsonl"))
    before = fuzzing.snapshot(db)
    deep = 'replace:2={"type": "pass", "by": "blu", "x": ' + "[" * 50_000 + "]" * 50_000 + "}"
    result = invoke(db, "audit", "M1", "--what-if", deep)
    assert_clean(result, before, db)
    assert "the replacement is not an event: nests lists or objects deeper" in result.stderr


ROOT = typer.main.get_command(app)


@pytest.fixture(scope="module")
def elsewhere(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A working folder of its own: an export without --out writes into the current one."""
    here, folder = Path.cwd(), tmp_path_factory.mktemp("cwd")
    os.chdir(folder)
    try:
        yield folder
    finally:
        os.chdir(here)


@pytest.fixture(scope="module")
def tournament_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A Swiss tournament of four in its first round, one table started."""
    db = tmp_path_factory.mktemp("day") / "t.db"
    for args in (
        ["create", "Torneo", "--rounds", "2", "--plays", "tiro"],
        ["players", "add", "giallo", "blu", "verde", "rosso"],
        ["round", "pair"],
        ["table", "start", "1", "1", "tiro"],
    ):
        result = invoke(db, *args)
        assert result.exit_code == 0, result.stderr
    return db


@settings(FUZZ, max_examples=80)
@given(rng=st.randoms(use_true_random=False))
def test_every_command_with_hostile_arguments(seeded, tournament_db, elsewhere, rng) -> None:
    """Any command (but the interactive and long ones), each parameter given a hostile value of
    its kind: text, whole number, path."""
    command = fuzzing.any_command(rng, ROOT, fuzzing.hostile_files(elsewhere / "files"))
    before = fuzzing.snapshot(tournament_db)
    result = invoke(tournament_db, *command)
    if command[:2] == ["words", "check"] and result.exit_code == 1 and not result.stderr:
        return  # the answer "no", not an error
    assert_clean(result, before, tournament_db)
