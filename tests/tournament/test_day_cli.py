"""The organizer's day from the command line alone."""

from __future__ import annotations

import json
from pathlib import Path

from tests.tournament.test_match_cli import ok, refused


def record_tiro(db: Path, match: str, first: str, second: str) -> None:
    ok(db, "match", "roll", match, first, "d6", "6", "6", "5", "1")
    ok(db, "match", "roll", match, second, "d6", "1", "1", "1", "1")
    ok(db, "match", "roll", match, first, "d20", "11")
    ok(db, "match", "expr", match, first, "6x(5:6+1)")
    ok(db, "match", "pass", match, second)


def test_a_whole_swiss_from_the_cli(db: str) -> None:  # on both backends (conftest)
    ok(
        db,
        "create",
        "Sera al circolo",
        "--date",
        "2026-12-13",
        "--plays",
        "tiro",
        "--rounds",
        "2",
        "--tiebreaks",
        "challenge,lot",
    )
    ok(db, "players", "add", "Giallo", "Blu", "Verde", "--by", "Anna")
    players = json.loads(ok(db, "players", "list", "--json"))
    assert [p["name"] for p in players] == ["Giallo", "Blu", "Verde"]

    round1 = json.loads(ok(db, "round", "pair", "--json"))
    byes = [t for t in round1["tables"] if t["bye"]]
    assert len(byes) == 1 and "the lowest seed" in byes[0]["why"]
    table = next(t for t in round1["tables"] if not t["bye"])
    match = ok(db, "table", "start", "1", str(table["table"]), "tiro").strip()
    assert "not decided" in refused(db, "round", "close")
    first, second = table["players"]
    record_tiro(db, match, first, second)
    status = json.loads(ok(db, "status", "--json"))
    assert all(t["decided"] for t in status["tables"])
    ok(db, "round", "close")

    standings = json.loads(ok(db, "standings", "--json"))
    points = {r["player"]: r["points"] for r in standings}
    assert points[first] == 3 and points[second] == 0 and points[byes[0]["players"][0]] == 3
    assert "Standings" in ok(db, "standings")

    ok(db, "round", "pair")
    # The referee strikes the winning expression of round 1 after the round closed: first the
    # program shows what it would change, and stores nothing ...
    out = ok(db, "match", "void", match, "4", "--reason", "written after time")
    assert "already closed: the standings are recomputed" in out
    assert f"  {first}: " in out and "nothing stored" in out
    assert {r["player"]: r["points"] for r in json.loads(ok(db, "standings", "--json"))}[first] == 3
    # ... then records it when confirmed.
    out = ok(db, "match", "void", match, "4", "--reason", "written after time", "--yes")
    assert f"{match} #7 void 4 written after time" in out
    standings = json.loads(ok(db, "standings", "--json"))
    assert {r["player"]: r["points"] for r in standings}[first] != 3


def test_day_commands_refuse_cleanly(db: str) -> None:  # on both backends (conftest)
    assert "no database" in refused(db, "standings")
    ok(db, "match", "new", "tiro", "a", "b")
    assert "no tournament" in refused(db, "standings")
    assert "unknown format" in refused(db, "create", "X", "--format", "ladder")
    assert "four numbers" in refused(db, "create", "X", "--scoring", "3,1")
    ok(db, "create", "X")
    assert "already holds a tournament" in refused(db, "create", "Y")
    assert "at least two active players" in refused(db, "round", "pair")
    assert "no round has been paired" in refused(db, "round", "show")


def test_rebuild_and_simulate_from_the_cli(tmp_path: Path) -> None:
    db = tmp_path / "sim.db"
    rows = json.loads(
        ok(db, "simulate", "--players", "6", "--rounds", "2", "--seed", "4", "--json")
    )
    assert len(rows) == 6 and rows[0]["rank"] == 1
    assert "rebuilt the read models" in ok(db, "rebuild")
    assert json.loads(ok(db, "standings", "--json")) == rows


def test_more_mistakes_are_one_sentence(tmp_path: Path) -> None:
    db = tmp_path / "club.db"
    assert "cannot be used" in refused(
        tmp_path / "missing" / "x.db", "match", "new", "tiro", "a", "b"
    )
    assert "at least one round" in refused(db, "create", "X", "--rounds", "0")
    ok(db, "match", "new", "tiro", "a", "b")
    assert "a may not write an expression now" in refused(db, "match", "expr", "M1", "a", "1")


def test_an_amended_result_shows_its_effect_before_it_is_recorded(tmp_path: Path) -> None:
    db = tmp_path / "club.db"
    ok(db, "create", "Sera", "--plays", "tiro", "--rounds", "2", "--tiebreaks", "lot")
    ok(db, "players", "add", "a", "b", "c", "d")
    round1 = json.loads(ok(db, "round", "pair", "--json"))
    for tb in round1["tables"]:
        match = ok(db, "table", "start", "1", str(tb["table"]), "tiro").strip()
        record_tiro(db, match, *tb["players"])
    ok(db, "round", "close")
    ok(db, "round", "pair")
    winner, loser = round1["tables"][0]["players"]
    before = json.loads(ok(db, "standings", "--json"))
    preview = json.loads(
        ok(
            db,
            "amend",
            "1",
            "1",
            f"{winner}=0",
            f"{loser}=1",
            "--reason",
            "score sheet misread",
            "--json",
        )
    )
    assert preview["stored"] is False
    moved = {r["player"]: r for r in preview["standings"]}
    assert moved[loser]["points"] == 3 and moved[loser]["points_before"] == 0
    assert json.loads(ok(db, "standings", "--json")) == before
    out = ok(
        db,
        "amend",
        "1",
        "1",
        f"{winner}=0",
        f"{loser}=1",
        "--reason",
        "score sheet misread",
        "--yes",
    )
    assert "result amended (score sheet misread)" in out
    points = {r["player"]: r["points"] for r in json.loads(ok(db, "standings", "--json"))}
    assert points[loser] == 3 and points[winner] == 0
    status_round1 = json.loads(ok(db, "round", "show", "1", "--json"))["tables"][0]
    assert status_round1["amendments"][0]["by"] == "organizer"
    assert "player=number" in refused(db, "amend", "1", "1", "a=x", "--reason", "r")
    assert "each once" in refused(db, "amend", "1", "1", "zz=1", "--reason", "r", "--yes")
    # A tiro table plays one challenge: a point at most each (CH-2); nothing stored.
    said = refused(db, "amend", "1", "1", f"{winner}=2", f"{loser}=0", "--reason", "r", "--yes")
    assert said == (
        "error: challenge points at a table are whole numbers from 0 to 1: "
        "a point for its one challenge won (CH-2)\n"
    )
    assert json.loads(ok(db, "round", "show", "1", "--json"))["tables"][0] == status_round1


def test_places_the_lot_decided_are_marked(db: str) -> None:
    ok(db, "create", "Sera", "--tiebreaks", "challenge,lot")
    ok(db, "players", "add", "Giallo", "Blu", "Verde", "Rosa", "Nero", "--by", "Anna")
    # Nothing recorded: the lot orders everyone, but nobody was parted by it yet, no mark.
    rows = json.loads(ok(db, "standings", "--json"))
    assert [r["rank"] for r in rows] == [1, 2, 3, 4, 5] and not any(r["by_lot"] for r in rows)
    assert "†" not in ok(db, "standings")
    # Round 1 paired: the bye is recorded at once, the four others level on 0: the lot parts them.
    ok(db, "round", "pair")
    rows = json.loads(ok(db, "standings", "--json"))
    assert [r["by_lot"] for r in rows] == [0, 1, 1, 1, 1]
    out = ok(db, "standings")
    assert out.count("†") == 5 and "† order drawn by lot" in out  # four rows and the legend
    assert "† ordine estratto a sorte" in ok(db, "--lang", "it", "standings")


def test_no_lot_no_mark(db: str) -> None:
    ok(db, "create", "Sera", "--tiebreaks", "challenge")
    ok(db, "players", "add", "Giallo", "Blu", "--by", "Anna")
    rows = json.loads(ok(db, "standings", "--json"))
    assert [r["rank"] for r in rows] == [1, 1] and not any(r["by_lot"] for r in rows)
    out = ok(db, "standings")
    assert "†" not in out and "drawn by lot" not in out
