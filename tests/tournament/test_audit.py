"""tournament audit: the timeline, best play beside what was played, and what-ifs."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support import EXAMPLES
from tests.tournament.test_day_cli import record_tiro
from tests.tournament.test_match_cli import ok, refused


def imported(tmp_path: Path, name: str) -> Path:
    db = tmp_path / "a.db"
    ok(db, "match", "import", str(EXAMPLES / name))
    return db


def test_timeline_of_the_tiro_seed(tmp_path: Path) -> None:
    db = imported(tmp_path, "tiro-seed.jsonl")
    audit = json.loads(ok(db, "audit", "M1", "--json"))
    rows = audit["timeline"]
    assert [r["position"] for r in rows] == [1, 2, 3, 4, 5, 6]
    assert rows[2]["state"].startswith("target 11")
    assert rows[3]["rules"] == ["TIR-2"] and "hits 11" in rows[3]["judged"][0]
    # Beside what was played, the best play: Blu could have won with two divisions.
    assert rows[4]["best"].startswith("best: ") and "key (2, 0, 0)" in rows[4]["best"]
    assert rows[4]["what"] == "expr blu (5+4+2):1"  # each move in the notation (docs/format.md)
    assert rows[5]["what"] == "end winners giallo points blu 0 giallo 1"
    assert rows[5]["rules"] == ["CH-2"]
    assert audit["outcome"] == {"winners": ["giallo"], "points": {"giallo": 1, "blu": 0}}
    assert "M1 after position 3: target 11" in ok(db, "audit", "M1", "--at", "3")
    assert "positions 0 to 6" in refused(db, "audit", "M1", "--at", "9")
    assert "Tiro di precisione" in ok(db, "audit", "M1")


def test_rulings_and_voids_are_marked_and_the_original_stays(tmp_path: Path) -> None:
    db = imported(tmp_path, "tiro-seed.jsonl")
    ok(db, "match", "rule", "M1", "4", "reject", "--note", "after time")
    ok(db, "match", "void", "M1", "7", "--reason", "wrong match")
    rows = json.loads(ok(db, "audit", "M1", "--json"))["timeline"]
    assert rows[3]["ruling"] == {"at": 7, "accept": False, "note": "after time"}
    assert rows[6]["voided_by"] == 9 and rows[6]["rules"] == ["REF-1"]
    assert rows[8]["rules"] == ["REF-2"]
    assert "the referee rejects" not in " ".join(rows[3]["judged"])  # the ruling is void


def test_battaglia_seed_shows_what_could_have_been_sunk(tmp_path: Path) -> None:
    db = imported(tmp_path, "battaglia-seed.jsonl")
    rows = json.loads(ok(db, "audit", "M1", "--json"))["timeline"]
    assert rows[5]["best"] == "no ship could be sunk"  # Blu's 2-5-5
    assert "giallo's 13 with" in rows[9]["best"]  # Blu's 4-5-4 could have sunk the 13 too


def test_what_if_void_and_replace(tmp_path: Path) -> None:
    db = imported(tmp_path, "tiro-seed.jsonl")
    result = json.loads(ok(db, "audit", "M1", "--what-if", "void:4", "--json"))
    assert result["possible"] and result["outcome_after"] is None  # Giallo must write again
    better = '{"type": "expression", "by": "blu", "expr": "1+4/(2/5)"}'
    result = json.loads(ok(db, "audit", "M1", "--what-if", f"replace:5={better}", "--json"))
    assert result["outcome_after"]["winners"] == ["blu"]
    bad = '{"type": "roll", "by": "blu", "die": "d6", "values": [9, 1, 1, 1]}'
    result = json.loads(ok(db, "audit", "M1", "--what-if", f"replace:2={bad}", "--json"))
    assert not result["possible"] and "9 is not a face" in result["why"]
    # The same in the notation of moves, read against the match before the position replaced.
    result = json.loads(
        ok(db, "audit", "M1", "--what-if", "replace:5=expr blu 1+4/(2/5)", "--json")
    )
    assert result["outcome_after"]["winners"] == ["blu"]
    result = json.loads(
        ok(db, "audit", "M1", "--what-if", "replace:2=roll blu d6 9 1 1 1", "--json")
    )
    assert not result["possible"] and "9 is not a face" in result["why"]
    assert "unknown move 'fly'" in refused(db, "audit", "M1", "--what-if", "replace:2=fly blu")
    assert json.loads(ok(db, "match", "show", "M1", "--json"))["events"] == 6  # nothing stored
    assert "a what-if is void:N" in refused(db, "audit", "M1", "--what-if", "undo")


def test_what_if_shows_the_standings_it_would_give(tmp_path: Path) -> None:
    db = tmp_path / "club.db"
    ok(db, "create", "Sera", "--plays", "tiro", "--rounds", "1", "--tiebreaks", "lot")
    ok(db, "players", "add", "a", "b")
    table = json.loads(ok(db, "round", "pair", "--json"))["tables"][0]
    match = ok(db, "table", "start", "1", "1", "tiro").strip()
    first, second = table["players"]
    record_tiro(db, match, first, second)
    result = json.loads(ok(db, "audit", match, "--what-if", "void:4", "--json"))
    rows = {r["player"]: r for r in result["standings"]}
    assert rows[first]["points_before"] == 3 and rows[first]["points"] == 0


def test_audit_of_word_games_shows_what_was_possible(tmp_path: Path) -> None:
    db = imported(tmp_path, "asta-seed.jsonl")
    rows = json.loads(ok(db, "audit", "M1", "--json"))["timeline"]
    assert rows[10]["best"] == "no legal word existed"  # Verde, PECCA + T or O
    ok(db, "match", "import", str(EXAMPLES / "roulette_russa-seed.jsonl"))
    rows = json.loads(ok(db, "audit", "M2", "--json"))["timeline"]
    assert rows[11]["best"].startswith("a word that covers them: ")  # Rosso had one
    assert json.loads(ok(db, "solve", "asta", "pecca", "T", "O", "--json")) == []
    assert json.loads(ok(db, "solve", "texas", "TNOASACI", "--json"))["score"] == 9
    assert json.loads(ok(db, "solve", "roulette_russa", "SSTPGNM", "--json"))["word"]
