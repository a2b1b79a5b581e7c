"""A player withdrawn while seated at an open table forfeits its challenges not yet ended (#24).

The issue's case: Nicolo withdrawn during round 1 left his table "playing" and `round close`
refused until the organizer found `amend`; a season then gave him a participation point. Now the
withdrawal records a forfeit (an event with its reason): at a duel the opponent wins the table
and the round closes; at a table of three or more the others play on without the player, who is
placed last. A player who played no challenge to its end gets no season points.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from exports.i18n import say
from tests.tournament.test_match_cli import ok, refused
from tests.web.conftest import build, log_in, make_client
from tournament.domain import views
from tournament.domain.tournaments import TOURNAMENT_ID
from tournament.errors import Refused
from tournament.season import service
from tournament.services import day, tables
from tournament.services.matches import record_move
from tournament.storage.store import Store


def test_a_duel_forfeited_by_a_withdrawal_is_decided_and_its_round_closes(tmp_path: Path) -> None:
    db = tmp_path / "sera.db"
    store = Store(db)  # the evening up to the withdrawal, through the services (faster)
    day.create(store, "Sera", plays="tiro", rounds=2)
    day.add_players(store, ["Anna", "Bruno", "Carla", "Nicolo", "Elena", "Franco"])
    outcome_of = day.replayed_outcome(store)
    day.pair_next_round(store, outcome_of)  # Anna - Bruno, Carla - Nicolo, Elena - Franco
    m1 = tables.start_match(store, 1, 1, "tiro").number
    for move in ("roll Anna d6 6 6 5 1", "roll Bruno d6 1 1 1 1", "roll Anna d20 11"):
        record_move(store, m1, move)
    record_move(store, m1, "expr Anna 6x(5:6+1)")
    record_move(store, m1, "pass Bruno")
    m2 = tables.start_match(store, 1, 2, "tiro").number
    record_move(store, m2, "roll Carla d6 6 6 5 1")  # in play, Nicolo to roll
    said = ok(db, "players", "withdraw", "nicolo", "--reason", "train")
    assert said.splitlines() == [
        "Nicolo dropped",
        "Nicolo forfeits the challenges of table 2 (round 1) not yet ended: Carla wins the table",
    ]
    said = json.loads(ok(db, "players", "withdraw", "franco", "--json"))  # before his match
    assert said["forfeits"] == {"round": 1, "table": 3}
    assert "Franco withdrew from table 3: the forfeit decided it" in refused(
        db, "table", "start", "1", "3", "tiro"
    )
    shown = json.loads(ok(db, "status", "--json"))["tables"]
    assert [tb["decided"] for tb in shown] == [True, True, True]
    assert shown[1]["forfeits"] == [{"player": "Nicolo", "reason": "train", "by": "organizer"}]
    assert "Nicolo withdrew: forfeit (train)" in ok(db, "status")
    kinds = [type(e).__name__ for e in store.events.get(TOURNAMENT_ID)]
    assert kinds.count("TableForfeited") == 2
    assert ok(db, "round", "close") == "round 1 closed\n"
    rows = {r["player"]: r for r in json.loads(ok(db, "standings", "--json"))}
    assert rows["Carla"]["points"] == 3 and rows["Nicolo"]["points"] == 0
    assert rows["Elena"]["points"] == 3 and rows["Franco"]["points"] == 0
    assert "Nicolo" not in ok(db, "round", "pair")  # dropped out: not paired again
    ok(db, "verify")
    with make_client(store) as client:  # the round's page shows the forfeit, in both languages
        assert "ritiro di Nicolo: forfait (train)" in client.get("/rounds/1").text
        client.cookies.set("lang", "en")
        assert "Nicolo withdrew: forfeit (train)" in client.get("/rounds/1").text
    store.close()
    ok(db, "export", "pairings", "2", "--format", "html", "--out", str(tmp_path / "out"))
    sheet = (tmp_path / "out" / "pairings-2.html").read_text(encoding="utf-8")
    assert "ritiro di Nicolo: forfait (train)" in sheet  # round 1's results, on the sheet

    season = tmp_path / "season.toml"
    season.write_text('name = "S"\ntournaments = ["sera.db"]\n', encoding="utf-8")
    places = service.open_season(season, jobs=0).places()[0]
    # Only Anna and Bruno played a challenge to its end: Nicolo and Franco withdrew first, and
    # Carla and Elena won by their forfeits. The others have no place: no season points.
    assert places == {"Anna": 1, "Bruno": 4}


def test_at_a_table_of_three_the_others_play_on(tmp_path: Path) -> None:
    store = Store(tmp_path / "pods.db")
    day.create(store, "Pods", format="pods", plays="tiro", table_size=3)
    day.add_players(store, ["Anna", "Bruno", "Carla"])
    outcome_of = day.replayed_outcome(store)
    day.pair_next_round(store, outcome_of)
    t = day.withdraw(store, "Carla", "ill", outcome_of=outcome_of)
    assert say(day.forfeit_said(t, "Carla"), "en") == (
        "Carla forfeits the challenges of table 1 (round 1) not yet ended: Anna, Bruno play on "
        "without them"
    )
    with pytest.raises(Refused, match="not decided"):
        day.close_round(store, outcome_of)
    match = tables.start_match(store, 1, 1, "tiro")
    assert json.loads(match.header)["players"] == ["Anna", "Bruno"]
    for move in ("roll Anna d6 6 6 5 1", "roll Bruno d6 1 1 1 1", "roll Anna d20 11"):
        record_move(store, match.number, move)
    record_move(store, match.number, "expr Anna 6x(5:6+1)")
    record_move(store, match.number, "pass Bruno")
    day.close_round(store, outcome_of)
    rows = {r.player: r for r in day.current_standings(day.get_tournament(store), outcome_of)}
    # Placement points of a table of three (2, 1, 0): the one who withdrew is placed last.
    assert (rows["Anna"].points, rows["Bruno"].points, rows["Carla"].points) == (2, 1, 0)
    assert (rows["Anna"].challenges, rows["Carla"].challenges) == (1, 0)
    store.close()


def test_the_organizers_page_says_what_a_withdrawal_did(tmp_path: Path) -> None:
    store = build(tmp_path / "t.db", ("Giallo", "Blu"), plays="tiro")
    day.pair_next_round(store, day.replayed_outcome(store))
    with make_client(store) as client:
        token = log_in(client)
        r = client.post("/organizer/players/withdraw", data={"csrf": token, "player": "blu"})
        assert "Blu perde a tavolino le sfide del tavolo 1 (turno 1)" in r.text
        assert "il tavolo va a Giallo" in r.text
    assert views.paired(day.get_tournament(store), 1).tables[0].forfeited == ("Blu",)
    store.close()
