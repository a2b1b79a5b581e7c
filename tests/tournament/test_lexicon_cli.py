"""A tournament played with an organizer's word list (EQ-4: ``--lexicon``, TOURNAMENT_LEXICON).

Every command that replays a match replays it against the list it was recorded with, the read
models' refresh after a write or before a read too (it once replayed against the shipped list:
``table start`` stored the match, then failed); a command given another list says so in one
sentence and changes nothing.
"""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.tournament.test_day_cli import record_tiro
from tests.tournament.test_match_cli import app, refused

runner = CliRunner()


@pytest.fixture
def words(tmp_path: Path) -> Path:
    path = tmp_path / "parole.txt"
    path.write_text("casa\nrete\nmare\n", encoding="utf-8")
    return path


@pytest.fixture
def listed(monkeypatch: pytest.MonkeyPatch, words: Path) -> Path:
    """The organizer's list set for the whole day, as TOURNAMENT_LEXICON."""
    monkeypatch.setenv("TOURNAMENT_LEXICON", str(words))
    return words


def ok(db: Path, *args: str) -> str:
    result = runner.invoke(app, ["--db", str(db), *args])
    assert result.exit_code == 0, result.stderr
    return result.stdout


def started(tmp_path: Path) -> tuple[Path, str, list[str]]:
    """A Swiss of tiro, round 1 paired, table 1's match started (with the list in force)."""
    db = tmp_path / "club.db"
    ok(db, "create", "Sera", "--plays", "tiro", "--rounds", "2")
    ok(db, "players", "add", "Giallo", "Blu", "Verde", "Rosso")
    table = json.loads(ok(db, "round", "pair", "--json"))["tables"][0]
    match = ok(db, "table", "start", "1", "1", "tiro").strip()
    return db, match, table["players"]


def contents(db: Path) -> list[str]:
    """Everything the file holds, event store and read models (SQLite's companions too)."""
    with closing(sqlite3.connect(db)) as conn:
        return list(conn.iterdump())


def test_table_start_with_lexicon_and_with_the_env_var(tmp_path: Path, words: Path) -> None:
    db = tmp_path / "club.db"
    ok(db, "create", "Sera", "--plays", "tiro")
    ok(db, "players", "add", "Giallo", "Blu", "Verde", "Rosso")
    ok(db, "round", "pair")
    assert ok(db, "--lexicon", str(words), "table", "start", "1", "1", "tiro") == "M1\n"
    result = runner.invoke(
        app,
        ["--db", str(db), "table", "start", "1", "2", "tiro"],
        env={"TOURNAMENT_LEXICON": str(words)},
    )
    assert result.exit_code == 0 and result.stdout == "M2\n", result.stderr
    shown = json.loads(ok(db, "--lexicon", str(words), "match", "show", "M2", "--json"))
    assert shown["lexicon"]["name"] == "parole"


@pytest.fixture
def moved(tmp_path: Path, listed: Path) -> tuple[Path, str, list[str]]:
    """Table 1's match one move in: the file's read models are behind, a read replays it."""
    db, match, players = started(tmp_path)
    ok(db, "match", "roll", match, players[0], "d6", "6", "6", "5", "1")
    return db, match, players


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("status",), "tiro M1"),
        (("standings",), "Standings"),
        (("rebuild",), "rebuilt the read models"),
        (("table", "start", "1", "2", "tiro"), "M2"),
        (("export", "standings", "--out", "{tmp}/out"), ""),
        (("export", "all", "--out", "{tmp}/out"), ""),
        (("players", "add", "Nero"), "5 active players"),
    ],
)
def test_reading_the_tournament_replays_with_the_list(
    moved: tuple[Path, str, list[str]], tmp_path: Path, args: tuple[str, ...], says: str
) -> None:
    db, _, _ = moved
    out = ok(db, *(a.format(tmp=tmp_path) for a in args))
    assert says in out
    if args[0] == "export":
        assert list((tmp_path / "out").iterdir())


def test_a_whole_round_with_the_list(moved: tuple[Path, str, list[str]], tmp_path: Path) -> None:
    db, match, (first, second) = moved
    assert "not decided" in refused(db, "round", "close")
    ok(db, "match", "roll", match, second, "d6", "1", "1", "1", "1")
    ok(db, "match", "roll", match, first, "d20", "11")
    ok(db, "match", "expr", match, first, "6x(5:6+1)")
    ok(db, "match", "pass", match, second)
    other = ok(db, "table", "start", "1", "2", "tiro").strip()
    table2 = json.loads(ok(db, "status", "--json"))["tables"][1]["players"]
    record_tiro(db, other, *table2)
    ok(db, "round", "close")
    points = {r["player"]: r["points"] for r in json.loads(ok(db, "standings", "--json"))}
    assert points[first] == 3 and points[second] == 0
    ok(db, "round", "pair")
    # Corrections of a closed round reckon the standings from the read models.
    out = ok(db, "match", "void", match, "4", "--reason", "written after time")
    assert "already closed" in out and "nothing stored" in out
    out = ok(db, "amend", "1", "1", f"{first}=0", f"{second}=1", "--reason", "swapped")
    assert "nothing stored" in out
    what_if = json.loads(ok(db, "audit", match, "--what-if", "void:4", "--json"))
    assert what_if["possible"] and "standings" in what_if
    assert "every replay agrees" in ok(db, "verify")
    season = tmp_path / "s.toml"
    season.write_text('name = "S"\ntournaments = ["club.db"]\n', encoding="utf-8")
    rated = json.loads(ok(tmp_path / "x.db", "season", "ratings", str(season), "--json"))
    assert {r["player"] for r in rated["overall"]} >= {first, second}


def test_another_list_is_one_sentence_and_changes_nothing(
    tmp_path: Path, words: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TOURNAMENT_LEXICON", str(words))
    db, match, (first, _) = started(tmp_path)
    ok(db, "match", "roll", match, first, "d6", "6", "6", "5", "1")
    monkeypatch.delenv("TOURNAMENT_LEXICON")
    other = tmp_path / "altre.txt"
    other.write_text("casa\n", encoding="utf-8")
    stored = contents(db)
    wanted = "recorded with the word list 'parole'"
    for args in (
        ("status",),
        ("standings",),
        ("rebuild",),
        ("verify",),
        ("verify", match),
        ("match", "show", match),
        ("audit", match),
        ("match", "roll", match, first, "d20", "11"),
        ("table", "start", "1", "2", "tiro"),  # one list replays the whole tournament
    ):
        assert wanted in refused(db, *args), args  # the shipped list
        assert wanted in refused(db, "--lexicon", str(other), *args), args
    assert "not 'altre'" in refused(db, "--lexicon", str(other), "table", "start", "1", "2", "tiro")
    assert contents(db) == stored
    assert ok(db, "--lexicon", str(words), "table", "start", "1", "2", "tiro") == "M2\n"
