"""Pairings on small fields with known correct answers."""

from __future__ import annotations

from itertools import combinations

import pytest

from tournament.domain.pairing import (
    History,
    Reason,
    Table,
    berger,
    bracket_order,
    first_elimination_round,
    next_elimination_round,
    pods,
    swiss,
    table_sizes,
)

# FIDE Berger tables (Handbook C.05, Annex 1), first named plays first.
BERGER_4 = [["1-4", "2-3"], ["4-3", "1-2"], ["2-4", "3-1"]]
BERGER_6 = [
    ["1-6", "2-5", "3-4"],
    ["6-4", "5-3", "1-2"],
    ["2-6", "3-1", "4-5"],
    ["6-5", "1-4", "2-3"],
    ["3-6", "4-2", "5-1"],
]


@pytest.mark.parametrize("table", [BERGER_4, BERGER_6])
def test_berger_tables_match_fide(table: list[list[str]]) -> None:
    players = [str(i) for i in range(1, len(table) + 2)]
    for r, expected in enumerate(table, 1):
        assert ["-".join(t.players) for t in berger(players, r)] == expected


def test_round_robin_of_an_odd_number_gives_each_one_bye_and_every_pair_once() -> None:
    players = ["a", "b", "c", "d", "e"]
    byes, pairs = [], []
    for r in range(1, 6):
        tables = berger(players, r)
        byes += [t.players[0] for t in tables if t.bye]
        pairs += [frozenset(t.players) for t in tables if not t.bye]
    assert sorted(byes) == players
    assert sorted(pairs, key=sorted) == sorted(map(frozenset, combinations(players, 2)), key=sorted)


def test_swiss_first_round_pairs_neighbours_in_the_ranking() -> None:
    tables = swiss(["a", "b", "c", "d"], {}, History())
    assert [t.players for t in tables] == [("a", "b"), ("c", "d")]


def test_swiss_bye_goes_to_the_lowest_ranked_without_one() -> None:
    ranked = ["a", "b", "c", "d", "e"]
    tables = swiss(ranked, {}, History())
    bye = Reason("bye", {"player": "e", "score": "0"})
    assert tables[-1] == Table(
        ("e",), bye=True, why="bye: e, lowest ranked without a bye (0 points)", reasons=(bye,)
    )
    assert tables[-1].to_json(3)["reasons"] == [{"code": "bye", "params": bye.params}]
    tables = swiss(ranked, {}, History(byes=frozenset({"e"})))
    assert tables[-1].players == ("d",) and "without a bye" in tables[-1].why


def test_swiss_bye_passes_over_a_player_whose_bye_would_force_a_rematch() -> None:
    met = History(opponents={"a": frozenset("b"), "b": frozenset("a")})
    tables = swiss(["a", "b", "c"], {}, met)
    assert [t.players for t in tables] == [("a", "c"), ("b",)]
    assert tables[-1].reasons[0].code == "bye_rules" and "without a rematch" in tables[-1].why


def test_swiss_no_rematch_and_score_groups() -> None:
    ranked = ["a", "b", "c", "d"]
    scores = {"a": 3, "b": 3, "c": 0, "d": 0}
    met = History(opponents={"a": frozenset("b"), "b": frozenset("a")})
    tables = swiss(ranked, scores, met)
    assert frozenset("ab") not in {frozenset(t.players) for t in tables}
    assert all(sorted(scores[p] for p in t.players) == [0, 3] for t in tables)
    assert all([r.code for r in t.reasons][:2] == ["float_rules", "float_up"] for t in tables)
    assert all("could not be paired among themselves" in t.why for t in tables)
    tables = swiss(ranked, scores, History())
    assert {frozenset(t.players) for t in tables} == {frozenset("ab"), frozenset("cd")}


def test_swiss_allows_a_rematch_only_when_nothing_else_is_left() -> None:
    everyone = {p: frozenset("ab") - {p} for p in "ab"}
    tables = swiss(["a", "b"], {}, History(opponents=everyone))
    assert tables[0].players in (("a", "b"), ("b", "a")) and "rematch" in tables[0].why


def test_swiss_challenger_is_who_sat_first_less_often() -> None:
    tables = swiss(["a", "b"], {}, History(seats={"a": "FSF", "b": "SFS"}))
    assert tables[0].players == ("b", "a")
    assert tables[0].reasons[-1] == Reason("seat_balance", {"player": "b"})
    assert tables[0].why == "b (0) - a (0): same score; b first: fewer first seats so far"
    # A history that counts first seats only (tables of several) still balances them.
    tables = swiss(["a", "b"], {}, History(first_seats={"a": 2, "b": 1}))
    assert tables[0].players == ("b", "a")


def test_swiss_large_field_is_paired_in_windows_without_rematches() -> None:
    ranked = [f"p{i:03d}" for i in range(201)]
    tables = swiss(ranked, {p: i // 50 for i, p in enumerate(ranked)}, History())
    seated = [p for t in tables for p in t.players]
    assert sorted(seated) == sorted(ranked) and sum(t.bye for t in tables) == 1


def test_elimination_bracket_and_byes_to_top_seeds() -> None:
    assert bracket_order(4) == [1, 4, 2, 3]
    tables = first_elimination_round(["s1", "s2", "s3", "s4", "s5"])
    assert [t.players for t in tables] == [("s1",), ("s4", "s5"), ("s2",), ("s3",)]
    assert [t.bye for t in tables] == [True, False, True, True]
    semis = next_elimination_round(tables, {0: "s1", 1: "s5", 2: "s2", 3: "s3"})
    assert [t.players for t in semis] == [("s1", "s5"), ("s2", "s3")]
    final = next_elimination_round(semis, {0: "s1", 1: "s3"}, third_place=True)
    assert [t.players for t in final] == [("s1", "s3"), ("s5", "s2")]
    assert "third place" in final[1].why


@pytest.mark.parametrize(
    "count, minimum, sizes",
    [
        (3, 3, [3]),
        (8, 3, [4, 4]),
        (9, 3, [3, 3, 3]),
        (10, 3, [4, 3, 3]),
        (5, 3, [5]),
        (22, 3, [4, 4, 4, 4, 3, 3]),
    ],
)
def test_table_sizes(count: int, minimum: int, sizes: list[int]) -> None:
    assert table_sizes(count, minimum) == sizes


def test_table_sizes_refuses_too_few() -> None:
    with pytest.raises(ValueError):
        table_sizes(2, 3)


def test_pods_avoid_repeat_opponents_and_rotate_seats() -> None:
    ranked = ["a", "b", "c", "d", "e", "f"]
    met = {"a": "b", "b": "a", "c": "d", "d": "c", "e": "f", "f": "e"}
    history = History(opponents={p: frozenset(q) for p, q in met.items()}, first_seats={"a": 1})
    tables = pods(ranked, 3, history)
    assert all("met before" not in t.why for t in tables)
    for t in tables:
        assert not any(history.met(p, q) for p in t.players for q in t.players)
    first = next(t for t in tables if "a" in t.players)
    assert first.players[0] != "a"


# --- Swiss: seats and floats (issue 12) ---------------------------------------------------------


def test_swiss_never_seats_a_difference_beyond_two_even_across_groups() -> None:
    # a and b have two more first seats: they cannot meet without one of them passing 2.
    ranked = ["a", "b", "c", "d"]
    scores = {"a": 3, "b": 3, "c": 0, "d": 0}
    history = History(seats={"a": "FFSF", "b": "FFSF", "c": "SSFS", "d": "SSFS"})
    tables = swiss(ranked, scores, history)
    assert {t.players for t in tables} == {("c", "a"), ("d", "b")}
    assert all(t.reasons[0].code == "float_rules" for t in tables)


def test_swiss_avoids_a_third_equal_seat_within_the_group_even_far_in_the_ranking() -> None:
    # The top half sat first twice in a row, the bottom half second twice in a row.
    ranked = [f"p{i:02d}" for i in range(40)]
    history = History(seats={p: "SFF" if i < 20 else "FSS" for i, p in enumerate(ranked)})
    tables = swiss(ranked, {}, history)
    assert all(int(t.players[0][1:]) >= 20 > int(t.players[1][1:]) for t in tables)
    assert not any(r.code == "seat_three_in_a_row" for t in tables for r in t.reasons)


def test_swiss_triple_stays_when_the_group_cannot_avoid_it() -> None:
    history = History(seats={"a": "SFF", "b": "SFF", "c": "SFS", "d": "FSF"})
    tables = swiss(["a", "b", "c", "d"], {"a": 1, "b": 1, "c": 0, "d": 0}, history)
    assert {frozenset(t.players) for t in tables} == {frozenset("ab"), frozenset("cd")}
    said = [r for t in tables for r in t.reasons if r.code == "seat_three_in_a_row"]
    assert len(said) == 1 and "a third time in a row" in tables[0].why


def test_swiss_odd_group_floats_its_lowest_player() -> None:
    ranked = ["a", "b", "c", "d", "e", "f"]
    scores = {"a": 3, "b": 3, "c": 3, "d": 0, "e": 0, "f": 0}
    tables = swiss(ranked, scores, History())
    assert [set(t.players) for t in tables] == [{"a", "b"}, {"c", "d"}, {"e", "f"}]
    assert tables[1].reasons[0] == Reason("float_odd", {"player": "c", "score": "3"})
    assert "c floated down from 3 points because the group was odd" in tables[1].why
    # The history remembers who floated; one who floated down last round does not again.
    stored = [{"tables": [t.to_json(k) for k, t in enumerate(tables, 1)]}]
    remembered = History.from_rounds(stored)
    assert remembered.floated_down == {"c"} and remembered.floated_up == {"d"}
    assert remembered.seats["c"] + remembered.seats["d"] in ("FS", "SF")
    tables = swiss(ranked, scores, History(floated_down=frozenset({"c"})))
    assert [set(t.players) for t in tables] == [{"a", "c"}, {"b", "d"}, {"e", "f"}]
    floated = [r.params["player"] for t in tables for r in t.reasons if r.code == "float_odd"]
    assert floated == ["b"]


def test_swiss_floats_a_player_who_did_not_float_last_round_even_far_up_the_group() -> None:
    # 31 players on 3 points, the lowest 12 of them floated down last round; 10 on 0 points.
    ranked = [f"p{i:02d}" for i in range(41)]
    scores = {p: 3 if i < 31 else 0 for i, p in enumerate(ranked)}
    history = History(floated_down=frozenset(ranked[19:31]))
    tables = swiss(ranked, scores, history)
    floated = [r.params["player"] for t in tables for r in t.reasons if r.code == "float_odd"]
    assert floated == ["p18"]  # the lowest of the group who did not float down last round
    assert tables[-1].players == ("p40",) and tables[-1].bye
