"""Check-in from the command line (#24): `create --check-in`, `players checkin` / `checkout`,
and `round pair` pairing only those checked in and listing the others; check-ins reset each
round. Without the setting nothing changes (the tests of every other tournament say so)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.tournament.test_match_cli import ok, refused
from tournament.domain.tournaments import TOURNAMENT_ID
from tournament.errors import Refused
from tournament.services import day
from tournament.storage.store import Store


def test_a_round_pairs_only_who_checked_in_and_lists_the_others(tmp_path: Path) -> None:
    db = tmp_path / "sera.db"
    ok(db, "create", "Sera", "--plays", "tiro", "--check-in")
    ok(db, "players", "add", "Anna", "Bruno", "Carla", "Dario", "Elena")
    assert "0 players checked in for round 1: at least two are needed" in refused(
        db, "round", "pair"
    )
    assert ok(db, "players", "checkin", "anna", "Bruno", "DARIO", "Elena").splitlines() == [
        "Checked in for round 1: Anna, Bruno, Dario, Elena.",
        "Not checked in yet: Carla.",
    ]
    assert ok(db, "players", "checkout", "elena").splitlines()[0] == (
        "Checked in for round 1: Anna, Bruno, Dario."
    )
    state = json.loads(ok(db, "players", "checkin", "--json"))  # no names: who is in
    assert state["checked_in"] == ["Anna", "Bruno", "Dario"]
    assert state["missing"] == ["Carla", "Elena"]
    assert "Nessuno is not an active player" in refused(db, "players", "checkin", "Nessuno")
    out = ok(db, "round", "pair")
    assert "Anna - Bruno" in out and "Dario (bye)" in out
    assert out.rstrip().endswith("Not checked in, not paired: Carla, Elena.")
    # Check-ins reset each round: round 2 starts with nobody checked in.
    assert ok(db, "players", "checkin", "--json").count('"checked_in": []') == 1
    store = Store(db)
    t = day.get_tournament(store)
    assert [tb["players"] for tb in t.rounds[0]["tables"]] == [["Anna", "Bruno"], ["Dario"]]
    kinds = [type(e).__name__ for e in store.events.get(TOURNAMENT_ID)]
    assert (kinds.count("PlayerCheckedIn"), kinds.count("PlayerCheckedOut")) == (4, 1)
    store.close()
    ok(db, "verify")


def test_check_in_is_a_setting_of_swiss_and_pods_only(tmp_path: Path) -> None:
    store = Store(tmp_path / "t.db")
    with pytest.raises(Refused, match="check-in is for Swiss and pods tournaments"):
        day.create(store, "RR", format="round_robin", check_in=True)
    day.create(store, "Sera", plays="tiro")
    day.add_players(store, ["Anna", "Bruno"])
    assert "check_in" not in day.get_tournament(store).settings  # off: settings as before
    with pytest.raises(Refused, match="does not ask for check-in"):
        day.check_in(store, ["Anna"])
    store.close()


def test_the_players_list_says_who_is_checked_in_for_the_next_round(tmp_path: Path) -> None:
    db = tmp_path / "sera.db"
    ok(db, "create", "Sera", "--plays", "tiro", "--check-in")
    ok(db, "players", "add", "Anna", "Bruno", "Carla")
    ok(db, "players", "checkin", "Anna", "Carla")
    ok(db, "players", "withdraw", "Bruno")
    rows = json.loads(ok(db, "players", "list", "--json"))
    assert {r["name"]: r["checked_in"] for r in rows} == {
        "Anna": True, "Bruno": None, "Carla": True,
    }  # fmt: skip
    table = ok(db, "players", "list")
    assert "checked in for round 1" in table
    line = {name: next(x for x in table.splitlines() if name in x) for name in ("Anna", "Bruno")}
    assert "yes" in line["Anna"] and "yes" not in line["Bruno"]
    ok(db, "players", "checkout", "Carla")
    assert "not yet" in next(x for x in ok(db, "players", "list").splitlines() if "Carla" in x)
    italian = ok(db, "--lang", "it", "players", "list")
    assert "presente al turno 1" in italian and "non ancora" in italian


def test_without_check_in_the_players_list_is_as_before(tmp_path: Path) -> None:
    db = tmp_path / "club.db"
    ok(db, "create", "Club", "--plays", "tiro")
    ok(db, "players", "add", "Anna", "Bruno")
    rows = json.loads(ok(db, "players", "list", "--json"))
    assert all("checked_in" not in r for r in rows)
    assert "checked in" not in ok(db, "players", "list")


def test_the_printed_pairings_name_who_did_not_check_in(tmp_path: Path) -> None:
    db = tmp_path / "sera.db"
    ok(db, "create", "Sera", "--plays", "tiro", "--check-in")
    ok(db, "players", "add", "Anna", "Bruno", "Carla", "Dario")
    ok(db, "players", "checkin", "Anna", "Bruno", "Dario")
    ok(db, "round", "pair")
    out = tmp_path / "out"
    ok(db, "export", "pairings", "1", "--format", "html,md", "--out", str(out), "--lang", "en")
    html, md = (out / "pairings-1.html").read_text(), (out / "pairings-1.md").read_text()
    assert "Not checked in, not paired: Carla" in html
    assert md.rstrip().endswith("Not checked in, not paired: Carla")
    ok(db, "export", "pairings", "1", "--format", "html", "--out", str(out))  # the tournament's
    assert "Non presenti, non abbinati: Carla" in (out / "pairings-1.html").read_text()
