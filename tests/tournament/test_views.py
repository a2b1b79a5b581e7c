"""The typed views of a real tournament's state: the values its dicts hold, read-only, copies."""

from __future__ import annotations

import copy
import dataclasses
import json

import pytest

from tournament.domain import results, views
from tournament.domain.tournaments import Tournament, state_seal
from tournament.readside import queries, readmodels
from tournament.services import corrections, day, simulate
from tournament.storage.store import Store


@pytest.fixture
def played(store: Store) -> Tournament:
    """A Swiss of five (a bye each round) playing Tetragon partite, one table amended and one
    player dropped out after the first round."""
    simulate.run(store, simulate.Simulation(players=5, format="swiss", rounds=2, seed=4))
    t = day.get_tournament(store)
    table = next(tb for tb in t.rounds[0]["tables"] if not tb["bye"])
    a, b = table["players"]
    corrections.amend_result(t, 1, table["table"], {a: 3, b: 1}, "sheet misread", "arbitro")
    day.save(store, t)
    day.withdraw(store, t.ranked_players[-1], "train")
    readmodels.update(store, write=True)
    return day.get_tournament(store)


def test_rounds_and_tables_hold_what_the_state_holds(played: Tournament) -> None:
    got = views.rounds(played)
    assert [r.number for r in got] == [1, 2] and all(r.closed for r in got)
    for r, stored in zip(got, played.rounds, strict=True):
        assert len(r.tables) == len(stored["tables"])
        for tb, raw in zip(r.tables, stored["tables"], strict=True):
            assert (tb.round, tb.number) == (stored["number"], raw["table"])
            assert tb.players == tuple(raw["players"]) and tb.bye == raw["bye"]
            assert tb.why == raw["why"]
            assert [dict(code) for code in tb.reasons] == raw.get("reasons", [])
            assert tb.games == tuple(raw.get("games", ()))
            assert dict(tb.matches) == raw.get("matches", {})
            assert [a.to_json() for a in tb.amendments] == raw.get("amendments", [])
            assert r.table(tb.number) is tb
    byes = [tb for tb in views.tables(played) if tb.bye]
    assert len(byes) == 2 and all(len(tb.players) == 1 and not tb.matches for tb in byes)
    played_tables = [tb for tb in views.tables(played) if not tb.bye]
    assert all(len(tb.games) == 4 and set(tb.matches) == set(tb.games) for tb in played_tables)


def test_the_amendment_and_the_players(played: Tournament) -> None:
    amended = [tb for tb in views.tables(played) if tb.amended is not None]
    assert len(amended) == 1
    a = amended[0].amended
    assert a is not None and (a.reason, a.by) == ("sheet misread", "arbitro")
    assert sorted(a.points.values()) == [1, 3]
    people = views.players(played)
    assert list(people) == list(played.players)
    gone = people[played.ranked_players[-1]]
    assert (gone.status, gone.until, gone.reason) == ("dropped", 2, "train")
    assert [p.seed for p in people.values()] == [1, 2, 3, 4, 5]
    assert all(p.since == 1 for p in people.values())
    assert sum(p.status == "active" for p in people.values()) == 4


def test_a_player_and_the_open_round_as_stored(played: Tournament) -> None:
    """A player's view gives back the stored dict, key for key and in order (what ``players
    withdraw --json`` prints); the open round is the last one while it is not closed."""
    for name, p in views.players(played).items():
        assert list(p.to_json().items()) == list(played.players[name].items())
    assert views.open_round(played) is None  # both rounds are closed
    reopened = copy.deepcopy(played)
    reopened.rounds[-1]["closed"] = False
    assert views.open_round(reopened) == views.paired(reopened, 2)


def test_table_of_finds_a_match_and_pairing_is_the_rules_table(played: Tournament) -> None:
    tb = next(tb for tb in views.tables(played) if tb.matches)
    number = next(iter(tb.matches.values()))
    assert views.table_of(played, number) == tb and tb.plays(number)
    assert views.table_of(played, "M9999") is None
    assert tb.pairing.players == tb.players and tb.pairing.bye is False
    assert views.paired(played, 2) == views.last_round(played) == views.rounds(played)[1]


def test_views_are_read_only_copies(played: Tournament) -> None:
    before = state_seal(json.loads(json.dumps(vars(played), default=str)))
    tb = views.paired(played, 1).tables[0]
    with pytest.raises(dataclasses.FrozenInstanceError):
        tb.bye = True  # type: ignore[misc]
    with pytest.raises(TypeError):
        tb.matches["tiro"] = "M1"  # type: ignore[index]
    with pytest.raises(AttributeError):
        tb.players.append("intruso")  # type: ignore[attr-defined]
    amended = next(t.amended for t in views.tables(played) if t.amended)
    with pytest.raises(TypeError):
        amended.points["x"] = 1  # type: ignore[index]
    with pytest.raises(TypeError):
        views.players(played)["intruso"] = next(iter(views.players(played).values()))  # type: ignore[index]
    # A view is a copy: what it was given may change later, the view does not.
    raw = copy.deepcopy(played.rounds[0])
    r = views.round_of(raw)
    raw["tables"][0]["players"].append("intruso")
    raw["tables"][-1].setdefault("matches", {})["tiro"] = "M99"
    assert "intruso" not in r.tables[0].players and "tiro" not in r.tables[-1].matches
    # Building views leaves the aggregate's state as it was, byte for byte.
    assert state_seal(json.loads(json.dumps(vars(played), default=str))) == before


def test_results_and_queries_agree_with_the_read_models(played: Tournament, store: Store) -> None:
    known = queries.outcome_of(store)
    rows = results.current_standings(played, known)
    stored = queries.standings(store)
    assert [(r.rank, r.player, r.points) for r in rows] == [
        (s["rank"], s["player"], s["points"]) for s in stored
    ]
    amended = next(tb for tb in views.tables(played) if tb.amended)
    assert results.table_result(played, amended, known).points == dict(amended.amended.points)
    status = results.status(played, known)
    assert status["round"] == 2 and status["round_closed"] is True
    assert [tb["table"] for tb in status["tables"]] == [
        tb.number for tb in views.paired(played, 2).tables
    ]
    assert [p["name"] for p in queries.players(store)] == list(played.players)
    first = next(iter(views.paired(played, 1).tables[0].matches.values()))
    assert {m["id"] for m in queries.matches(store, round_number=1)} >= {first}
    player = views.paired(played, 1).tables[0].players[0]
    mine = queries.matches(store, player=player)
    assert mine and all(player in m["players"] for m in mine)
    assert queries.standing(store, player)["player"] == player
    assert queries.matches(store, outside_rounds=True) == []


def test_a_table_view_is_kept_by_what_the_stored_table_holds() -> None:
    """#27: a copy of the tournament (every writer's, every reader's brought forward) views
    each unchanged table with the view already made; a table changed in place, or holding the
    same keys in another order or ``1`` for ``true``, is viewed afresh."""
    stored = {"table": 1, "players": ["Anna", "Bruno"], "bye": False, "why": "",
              "matches": {"tiro": "M1"}}  # fmt: skip
    t = type("T", (), {"rounds": [{"number": 1, "closed": False, "tables": [stored]}]})()
    first = views.table(1, stored)
    assert views.table(1, copy.deepcopy(stored)) is first
    assert views.rounds(copy.deepcopy(t))[0].tables[0] is first
    assert views.rounds(copy.deepcopy(t))[0] is views.rounds(t)[0]  # (a round's too)
    stored["matches"] = {"updown": "M99", **stored["matches"]}  # in place, as events do
    changed = views.table(1, stored)
    assert views.rounds(t)[0].tables[0] is changed
    assert changed is not first and list(changed.matches) == ["updown", "tiro"]
    reordered = {**stored, "matches": {"tiro": "M1", "updown": "M99"}}
    assert list(views.table(1, reordered).matches) == ["tiro", "updown"]
    other = views.table(1, {**stored, "bye": 0})
    assert other is not changed and other == changed  # (the same values, viewed afresh)
    assert views.table(2, stored).round == 2
