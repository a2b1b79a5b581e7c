"""The referee's name (#11): given where a table starts (or a match is made), kept in the
tournament's events beside the table (the match log's header is fixed by FORMAT.md), and
printed on the filled score sheet, the match report and the partita's sheet."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from tests.exports.test_i18n import visible
from tests.tournament.test_day_cli import record_tiro
from tests.tournament.test_match_cli import ok, refused


def started(db: Path, plays: str = "tiro") -> dict:
    ok(db, "create", "Sera al circolo", "--date", "2026-12-13", "--plays", plays, "--rounds", "1")
    ok(db, "players", "add", "Giallo", "Blu")
    return json.loads(ok(db, "round", "pair", "--json"))["tables"][0]


def test_the_referee_named_at_the_table_is_on_the_sheet_and_the_report(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    table = started(db)
    assert "referee's name" in refused(db, "table", "start", "1", "1", "tiro", "--referee", " ")
    assert json.loads(ok(db, "match", "list", "--json")) == []  # nothing stored
    match = ok(db, "table", "start", "1", "1", "tiro", "--referee", " Anna  Maria Neri ").strip()
    record_tiro(db, match, *table["players"])
    ok(db, "round", "close")
    out = tmp_path / "out"
    ok(db, "export", "scoresheet", match, "--out", str(out))
    sheet = visible((out / f"scoresheet-{match}.html").read_text())
    assert "Arbitro: Anna Maria Neri" in sheet
    assert "Sera al circolo" in sheet and "Turno del torneo: 1" in sheet and "Tavolo: 1" in sheet
    report = visible((out / f"report-{match}.html").read_text())
    assert "Arbitro: Anna Maria Neri" in report and "Sera al circolo" in report
    ok(db, "export", "scoresheet", match, "--out", str(out), "--lang", "en")
    assert "Referee: Anna Maria Neri" in visible((out / f"scoresheet-{match}.html").read_text())
    # The name is one more of the tournament's events: its chain and snapshots still verify.
    assert "every hash chain is intact" in ok(db, "verify")
    # The header stays as FORMAT.md fixes it.
    assert "Anna" not in ok(db, "match", "export", match).splitlines()[0]


def test_a_sheet_without_a_referee_keeps_the_line_to_fill(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    started(db)
    match = ok(db, "table", "start", "1", "1", "tiro").strip()
    out = tmp_path / "out"
    ok(db, "export", "scoresheet", match, "--out", str(out))
    assert "Arbitro: __________" in visible((out / f"scoresheet-{match}.html").read_text())


def test_the_partita_sheet_names_its_tables_referee(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    started(db, "partita")
    ok(db, "partita", "1", "1", "tiro", "ventuno", "updown", "texas")
    ok(db, "table", "start", "1", "1", "tiro", "--referee", "Bruno")
    later = ok(db, "table", "start", "1", "1", "ventuno").strip()  # the table's referee stays
    ok(db, "table", "start", "1", "1", "updown", "--referee", "Carla")
    out = tmp_path / "out"
    ok(db, "export", "all", "--out", str(out))
    assert "Arbitro: Bruno, Carla" in visible((out / "partita-1-1.html").read_text())
    assert "Arbitro: Bruno" in visible((out / f"scoresheet-{later}.html").read_text())


def test_match_new_names_the_referee_in_the_tournament(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    ok(db, "match", "new", "ventuno", "Giallo", "Blu")
    said = refused(db, "match", "new", "ventuno", "Giallo", "Blu", "--referee", "Anna")
    assert "no tournament" in said
    assert len(json.loads(ok(db, "match", "list", "--json"))) == 1  # nothing stored
    ok(db, "create", "Sera")
    match = ok(db, "match", "new", "ventuno", "Giallo", "Blu", "--referee", "Anna").strip()
    out = tmp_path / "out"
    ok(db, "export", "scoresheet", match, "--out", str(out))
    assert "Arbitro: Anna" in visible((out / f"scoresheet-{match}.html").read_text())


def test_a_snapshot_taken_after_referees_were_named_loads_and_verifies(tmp_path: Path) -> None:
    """The tournament is loaded from a snapshot every hundred events: the names are in it, and
    ``verify`` finds it equal to the replayed events (as for a snapshot taken before)."""
    from tournament.services import day, referees, simulate
    from tournament.services.stored import SNAPSHOT_EVERY
    from tournament.storage.store import Store

    db = tmp_path / "t.db"
    store = Store(db)
    simulate.run(store, simulate.Simulation(players=4, rounds=1, plays="tiro", seed=2))
    before = day.get_tournament(store).version
    assert before < SNAPSHOT_EVERY
    for _ in range(SNAPSHOT_EVERY - before + 1):
        referees.name_referee(store, "M1", "Anna")
    referees.name_referee(store, "M2", "Bruno")
    with sqlite3.connect(db) as conn:
        states = [bytes(r[0]) for r in conn.execute("select state from stored_snapshots")]
    assert any(b"referees" in state for state in states)  # taken after the names
    again = day.get_tournament(Store(db))
    assert again.referee_of("M1") == "Anna" and again.referee_of("M2") == "Bruno"
    assert "every hash chain is intact" in ok(db, "verify")
