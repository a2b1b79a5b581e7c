"""``db copy`` counts its events and snapshots in the catalogue's plural forms: one event is
"1 evento" in Italian, not "1 eventi" (#27)."""

from __future__ import annotations

from pathlib import Path

from tests.tournament.test_match_cli import ok


def test_db_copy_says_one_event_and_many_in_their_own_forms(tmp_path: Path) -> None:
    source = tmp_path / "one.db"
    ok(source, "match", "new", "tiro", "a", "b")  # one event: the match's start
    said = ok(source, "--lang", "it", "db", "copy", str(source), str(tmp_path / "copy.db"))
    assert f"letto 1 evento e 0 istantanee da {source}" in said, said
    assert "  1 evento scritto\n" in said, said
    ok(source, "match", "move", "M1", "roll a d6 6 6 5 1")
    said = ok(source, "db", "copy", str(source), str(tmp_path / "again.db"))
    assert f"read 2 events and 0 snapshots from {source}" in said, said
    assert "  2 events written\n" in said, said


def test_db_copy_says_what_it_copied_matches_alone_or_a_tournament(tmp_path: Path) -> None:
    source = tmp_path / "one.db"
    ok(source, "match", "new", "tiro", "a", "b")  # a match alone: no tournament in the store
    said = ok(source, "--lang", "it", "db", "copy", str(source), str(tmp_path / "copy.db"))
    assert "copiato 1 evento (1 partita) da " in said and "torneo" not in said, said
    tour = tmp_path / "tour.db"
    ok(tour, "create", "Coppa", "--plays", "tiro")
    ok(tour, "players", "add", "Anna", "Bruno")
    said = ok(tour, "db", "copy", str(tour), str(tmp_path / "tour2.db"))
    assert " events (0 matches and the tournament) from " in said, said
