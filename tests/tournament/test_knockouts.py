"""Knockouts decided right (#24): final standings by the bracket, a drawn knockout table never
decided silently (a decider at the same table, or the higher seed), and a Swiss with a cut."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from engine.games.base import Outcome
from tests.tournament.test_match_cli import ok, refused
from tournament.domain import knockouts, views
from tournament.domain.pairing.bracket import is_third_place
from tournament.domain.results import current_standings, played_result, table_result
from tournament.domain.rounds import pairings_for
from tournament.domain.standings import TIEBREAKS
from tournament.domain.tournaments import Tournament
from tournament.errors import Refused
from tournament.services import day, simulate
from tournament.services import tables as round_tables
from tournament.services.matches import record_move
from tournament.storage.store import Store

SIX = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Franco"]  # seeds 1 to 6


def settings(**more: Any) -> dict[str, Any]:
    """A tournament's settings as create stores them (tournament.services.day)."""
    return {
        "name": "Coppa",
        "format": "elimination",
        "rounds": None,
        "plays": "tiro",
        "games": ["tiro"],
        "scoring": {"win": 3, "draw": 1, "loss": 0, "bye": 3},
        "placement": [],
        "tiebreaks": list(TIEBREAKS),
        "seed": "7",
        "third_place": False,
        "knockout_draw": "replay",
        "cut": None,
    } | more


# --- the bracket's standings, over every size of 5 to 16 ------------------------------------


def play_in_memory(t: Tournament, rng: random.Random, outcomes: dict[str, Outcome]) -> None:
    """Pair and play every round left (each challenge 1-0, 0-1 or drawn; a drawn knockout
    table plays deciders until one is won), as the services would, without a store."""
    number = len(t.rounds)
    while True:
        number += 1
        try:
            tables = pairings_for(t, number, outcomes.get)
        except Refused:
            return
        t.pair_round(
            number=number, tables=[tb.to_json(i) for i, tb in enumerate(tables, 1)], by="t"
        )
        for tb in views.paired(t, number).tables:
            if tb.bye:
                continue
            while not table_result(
                t, (now := views.paired(t, number).table(tb.number)), outcomes.get
            ).decided:
                played = len(now.matches)
                key = knockouts.decider_key("tiro", played) if played else "tiro"
                match = f"M{len(outcomes) + 1}"
                a, b = tb.players
                pa, pb = rng.choice([(1, 0), (0, 1), (1, 1), (0, 0)])
                outcomes[match] = Outcome((), {a: pa, b: pb})
                t.attach_match(round=number, table=tb.number, game=key, match=match, by="t")
        t.close_round(number=number, by="t")


def bracket_tournament(players: int, third_place: bool, seed: int) -> tuple[Tournament, Any]:
    t = Tournament(settings=settings(third_place=third_place, seed=str(seed)), by="t")
    for i in range(players):
        t.register(player=f"P{i + 1:02d}", by="t")
    outcomes: dict[str, Outcome] = {}
    play_in_memory(t, random.Random(seed), outcomes)
    return t, outcomes.get


def expected_groups(t: Tournament, outcome_of: Any) -> list[set[str]]:
    """The bracket's places worked out from the rounds alone: champion, runner-up, the third
    place match's winner and loser (or the semi-finals' losers together), then each earlier
    round's losers, later rounds first."""

    def split(tb: views.Table) -> tuple[str, str]:
        points = played_result(t, tb, outcome_of).points
        assert points is not None
        a, b = sorted(tb.players, key=lambda p: -points[p])
        assert points[a] > points[b], "a decided knockout table has a winner alone"
        return a, b

    rounds = views.rounds(t)
    final = [tb for tb in rounds[-1].tables if not is_third_place(tb.why)]
    third = [tb for tb in rounds[-1].tables if is_third_place(tb.why)]
    assert len(final) == 1
    champion, runner_up = split(final[0])
    groups = [{champion}, {runner_up}]
    if third:
        won, lost = split(third[0])
        groups += [{won}, {lost}]
    for r in reversed(rounds[:-1]):
        losers = {split(tb)[1] for tb in r.tables if not tb.bye}
        if third and r is rounds[-2]:
            continue  # placed by the third-place match
        groups.append(losers)
    return groups


@pytest.mark.parametrize("players", range(5, 17))
def test_every_bracket_of_5_to_16_ranks_by_the_bracket(players: int) -> None:
    t, outcome_of = bracket_tournament(players, third_place=players % 2 == 0, seed=players)
    rows = current_standings(t, outcome_of)
    assert sorted(r.player for r in rows) == sorted(t.players)
    at = 0
    for group in expected_groups(t, outcome_of):
        found = rows[at : at + len(group)]
        assert {r.player for r in found} == group, (players, at, [r.player for r in rows])
        # each group in the order of the tie-breaks (challenge points first)
        assert [r.values["challenge"] for r in found] == sorted(
            (r.values["challenge"] for r in found), reverse=True
        )
        at += len(group)
    assert at == players
    assert [r.rank for r in rows] == sorted(r.rank for r in rows) and rows[0].rank == 1


@pytest.mark.parametrize("players", [5, 12])
def test_simulate_ranks_a_bracket_by_the_bracket(tmp_path: Path, players: int) -> None:
    db = tmp_path / "t.db"
    args = ("--players", str(players), "--seed", str(players), "--third-place", "--json")
    printed = json.loads(ok(db, "simulate", "--format", "elimination", "--plays", "tiro", *args))
    store = Store(db)
    t = day.get_tournament(store)
    rows = [r["player"] for r in printed]
    at = 0
    for group in expected_groups(t, day.replayed_outcome(store)):
        assert set(rows[at : at + len(group)]) == group
        at += len(group)
    assert at == players
    store.close()


# --- by hand, through the services ----------------------------------------------------------


def tiro(store: Store, rnd: int, table: int, winner: str | None, by_nobody: bool = False) -> str:
    """Start a table's Tiro (or its decider) and record it by hand: ``winner`` hits 11 and the
    other passes; None: both hit it alike (a draw, TIR-3), or nobody does (``by_nobody``)."""
    started = round_tables.start_match(store, rnd, table, "tiro")
    match = started.number
    a, b = json.loads(started.header)["players"]  # seats rotate from one challenge to the next
    record_move(store, match, f"roll {a} d6 6 6 5 1")
    record_move(store, match, f"roll {b} d6 6 6 5 1")
    record_move(store, match, f"roll {a} d20 11")
    for p in (a, b):
        if by_nobody or (winner is not None and p != winner):
            record_move(store, match, f"pass {p}")
        else:
            record_move(store, match, f"expr {p} 6x(5:6+1)")
    return match


def knockout(store: Store, **more: Any) -> None:
    day.create(store, "Coppa", format="elimination", plays="tiro", seed="7", **more)
    day.add_players(store, SIX)


def standings_of(store: Store) -> list[str]:
    t = day.get_tournament(store)
    return [r.player for r in current_standings(t, day.replayed_outcome(store))]


def test_the_issues_six_players_rank_by_the_bracket(store: Store) -> None:
    # Anna lost the final, Bruno won the third-place match (#24): Franco, Anna, Bruno, Elena.
    knockout(store, third_place=True)
    outcome_of = day.replayed_outcome(store)
    first = day.pair_next_round(store, outcome_of)
    assert [tb["players"] for tb in first["tables"]] == [
        ["Anna"],
        ["Dario", "Elena"],
        ["Bruno"],
        ["Carla", "Franco"],
    ]
    tiro(store, 1, 2, "Elena")
    tiro(store, 1, 4, "Franco")
    day.close_round(store, outcome_of)
    semis = day.pair_next_round(store, outcome_of)
    assert [tb["players"] for tb in semis["tables"]] == [["Anna", "Elena"], ["Bruno", "Franco"]]
    tiro(store, 2, 1, "Anna")
    tiro(store, 2, 2, "Franco")
    day.close_round(store, outcome_of)
    final = day.pair_next_round(store, outcome_of)
    assert [tb["players"] for tb in final["tables"]] == [["Anna", "Franco"], ["Elena", "Bruno"]]
    tiro(store, 3, 1, "Franco")
    tiro(store, 3, 2, "Bruno")
    day.close_round(store, outcome_of)
    assert standings_of(store)[:4] == ["Franco", "Anna", "Bruno", "Elena"]
    assert set(standings_of(store)[4:]) == {"Carla", "Dario"}


def semi_final_drawn(store: Store, rule: str, by_nobody: bool = False) -> None:
    """Four players; the first semi-final's Tiro drawn (both hit alike, or nobody does)."""
    day.create(store, "Coppa", format="elimination", plays="tiro", knockout_draw=rule)
    day.add_players(store, SIX[:4])
    outcome_of = day.replayed_outcome(store)
    day.pair_next_round(store, outcome_of)  # Anna - Dario, Bruno - Carla
    tiro(store, 1, 1, None, by_nobody)
    tiro(store, 1, 2, "Carla")


@pytest.mark.parametrize("by_nobody", [False, True], ids=["both hit", "nobody hits"])
def test_a_drawn_semi_final_stays_undecided_until_a_decider(store: Store, by_nobody: bool) -> None:
    semi_final_drawn(store, "replay", by_nobody)
    outcome_of = day.replayed_outcome(store)
    t = day.get_tournament(store)
    table = views.paired(t, 1).table(1)
    assert played_result(t, table, outcome_of).points == (
        {"Anna": 0, "Dario": 0} if by_nobody else {"Anna": 1, "Dario": 1}
    )
    assert not table_result(t, table, outcome_of).decided
    with pytest.raises(Refused, match=r"table 1 is drawn .* play a decider .*table start 1 1 tiro"):
        day.close_round(store, outcome_of)
    assert not day.get_tournament(store).rounds[0]["closed"]  # nothing stored
    decider = tiro(store, 1, 1, "Dario")  # a further challenge at the same table
    t = day.get_tournament(store)
    assert views.paired(t, 1).table(1).matches["tiro #2"] == decider
    day.close_round(store, outcome_of)
    final = day.pair_next_round(store, outcome_of)
    assert final["tables"][0]["players"] == ["Dario", "Carla"]


def test_a_decider_only_where_a_knockout_table_is_drawn(store: Store) -> None:
    semi_final_drawn(store, "replay")
    with pytest.raises(Refused, match="tiro of table 2 is already M2"):
        round_tables.start_match(store, 1, 2, "tiro")


def test_by_seed_the_higher_seed_goes_through(store: Store) -> None:
    semi_final_drawn(store, "seed")
    outcome_of = day.replayed_outcome(store)
    t = day.get_tournament(store)
    state = day.status(t, outcome_of)["tables"][0]
    assert state["decided"] and state["by_seed"] and state["points"] == {"Anna": 1, "Dario": 1}
    with pytest.raises(Refused, match="already M1"):  # no decider: the seeds decide
        round_tables.start_match(store, 1, 1, "tiro")
    day.close_round(store, outcome_of)
    final = day.pair_next_round(store, outcome_of)
    assert final["tables"][0]["players"] == ["Anna", "Carla"]  # Anna is seed 1, Dario seed 4


def test_a_tournament_stored_before_the_rule_keeps_the_lot() -> None:
    # An old store's settings have no knockout_draw: a drawn table went to the seeded lot, and
    # replays so (tests/fixtures/history hold such brackets).
    old = {k: v for k, v in settings().items() if k not in ("knockout_draw", "cut")}
    t = Tournament(settings=old, by="t")
    for p in SIX[:4]:
        t.register(player=p, by="t")
    t.pair_round(
        number=1,
        tables=[tb.to_json(i) for i, tb in enumerate(pairings_for(t, 1, {}.get), 1)],
        by="t",
    )
    t.attach_match(round=1, table=1, game="tiro", match="M1", by="t")
    drawn = {"M1": Outcome(("Anna", "Dario"), {"Anna": 1, "Dario": 1})}
    table = views.paired(t, 1).table(1)
    assert knockouts.draw_rule(t) == "lot"
    result = table_result(t, table, drawn.get)
    assert result.decided
    from tournament.domain.standings import lot

    assert knockouts.winner(t, 1, result) == min(["Anna", "Dario"], key=lambda p: lot("7", p))


def test_the_draw_rule_and_the_cut_are_checked(store: Store) -> None:
    with pytest.raises(Refused, match="decided by replay or seed"):
        day.create(store, "Coppa", format="elimination", knockout_draw="coin")
    with pytest.raises(Refused, match="a cut follows the rounds of a Swiss"):
        day.create(store, "Coppa", format="elimination", cut=4)
    with pytest.raises(Refused, match="at least the top 2"):
        day.create(store, "Coppa", format="swiss", rounds=3, cut=1)


# --- a Swiss with a cut --------------------------------------------------------------------


def test_a_swiss_with_a_cut_seeds_its_top_into_a_bracket(store: Store) -> None:
    simulate.run(
        store,
        simulate.Simulation(
            players=10,
            format="swiss",
            rounds=3,
            plays="tiro",
            seed=4,
            knockout={"cut": 6, "third_place": True},
        ),
    )
    t = day.get_tournament(store)
    outcome_of = day.replayed_outcome(store)
    swiss = [r.player for r in current_standings(t, outcome_of, 3)]
    # round 4: the top 6 of the Swiss, seeded 1-6, byes to seeds 1 and 2 (quarter-finals)
    fourth = views.paired(t, 4)
    assert [tb.players for tb in fourth.tables] == [
        (swiss[0],),
        (swiss[3], swiss[4]),
        (swiss[1],),
        (swiss[2], swiss[5]),
    ]
    assert len(t.rounds) == 6  # quarter-finals, semi-finals, final and third place
    final = [r.player for r in current_standings(t, outcome_of)]
    assert set(final[:6]) == set(swiss[:6])
    assert final[6:] == swiss[6:]  # those left out keep their Swiss order
    with pytest.raises(Refused, match="bracket is complete"):
        day.pair_next_round(store, outcome_of)


def test_a_cut_larger_than_the_field_is_refused_at_the_cut(store: Store) -> None:
    day.create(store, "Sera", format="swiss", rounds=1, plays="tiro", cut=8)
    day.add_players(store, SIX)
    outcome_of = day.replayed_outcome(store)
    day.pair_next_round(store, outcome_of)
    for tb in (1, 2, 3):
        tiro(store, 1, tb, None)
    day.close_round(store, outcome_of)
    with pytest.raises(Refused, match="the cut takes the top 8, but only 6 players are active"):
        day.pair_next_round(store, outcome_of)


# --- from the command line -------------------------------------------------------------------


def test_cut_and_draw_rule_from_the_command_line(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    assert "a cut follows the rounds of a Swiss" in refused(
        db, "create", "Coppa", "--format", "elimination", "--cut", "4"
    )
    assert "decided by replay or seed, not 'coin'" in refused(
        db, "create", "Coppa", "--knockout-draw", "coin"
    )
    made = ok(db, "create", "Sera", "--rounds", "1", "--cut", "2", "--plays", "tiro", "--json")
    assert json.loads(made)["cut"] == 2 and json.loads(made)["knockout_draw"] == "replay"
    ok(db, "players", "add", "Anna", "Bruno", "Carla")
    ok(db, "round", "pair")  # the Swiss's round 1
    store = Store(db)
    first = views.paired(day.get_tournament(store), 1)
    for tb in first.tables:
        if not tb.bye:
            tiro(store, 1, tb.number, tb.players[1])
    ok(db, "round", "close")
    swiss = [r["player"] for r in json.loads(ok(db, "standings", "--json"))]
    final = json.loads(ok(db, "round", "pair", "--json"))  # round 2: the cut's final
    assert [tb["players"] for tb in final["tables"]] == [swiss[:2]]
    assert final["tables"][0]["why"] == "seed 1 - seed 2"
    assert "Round 2: final" in ok(db, "round", "show", "2")
    tiro(store, 2, 1, None)  # drawn
    said = refused(db, "round", "close")
    assert "table 1 is drawn" in said and "table start 2 1 tiro" in said
    assert "a decider is to be played at the table (table start 2 1 tiro)" in ok(db, "status")
    both = ok(db, "standings")  # the Swiss's table, then the final standings
    assert both.index("The Swiss: the standings after round 1") < both.index("The final standings")
    tiro(store, 2, 1, swiss[1])  # the decider, at the same table
    ok(db, "round", "close")
    ok(db, "export", "pairings", "2", "--out", str(tmp_path / "out"))
    assert "Turno 2: finale</h1>" in (tmp_path / "out" / "pairings-2.html").read_text()
    ok(db, "export", "standings", "--out", str(tmp_path / "out"))
    sheet = (tmp_path / "out" / "standings.html").read_text()  # Italian, as the tournament
    assert sheet.index("Lo svizzero: la classifica dopo il turno 1") < sheet.index(
        "La classifica finale: il tabellone, poi lo svizzero"
    )
    assert [r["player"] for r in json.loads(ok(db, "standings", "--json"))][:2] == [
        swiss[1],
        swiss[0],
    ]
    store.close()


def test_a_knockout_table_amended_to_a_draw_is_amended_again(store: Store) -> None:
    from tournament.services import corrections

    semi_final_drawn(store, "replay")
    outcome_of = day.replayed_outcome(store)
    corrections.amend(store, 1, 1, {"Anna": 1, "Dario": 1}, "a typo at the table", confirmed=True)
    with pytest.raises(Refused, match="table 1 is amended to a draw.*amend it with one"):
        day.close_round(store, outcome_of)
    with pytest.raises(Refused, match="already M1"):  # a decider would not count
        round_tables.start_match(store, 1, 1, "tiro")
    corrections.amend(store, 1, 1, {"Anna": 1, "Dario": 0}, "the right result", confirmed=True)
    day.close_round(store, outcome_of)
