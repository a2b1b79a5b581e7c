"""Standings and tie-breaks against tables computed by hand."""

from __future__ import annotations

import pytest

from tournament.domain.standings import Scoring, TableResult, lot, match_points, standings


def t(a: str, b: str, pa: int, pb: int) -> TableResult:
    return TableResult((a, b), points={a: pa, b: pb})


# Two rounds among four players (challenge points of a partita, out of 4):
#   round 1: A 3-1 B, C 2-2 D        round 2: A 2-2 C, B 4-0 D
# Match points (3/1/0): A 3+1 = 4, B 0+3 = 3, C 1+1 = 2, D 1+0 = 1.
# Challenge points: A 5, B 5, C 4, D 2.
# Buchholz: A (B 3 + C 2) = 5; B (A 4 + D 1) = 5; C (D 1 + A 4) = 5; D (C 2 + B 3) = 5.
# Cut-1: A 5-2 = 3; B 5-1 = 4; C 5-1 = 4; D 5-2 = 3.
# Sonneborn-Berger: A 1*3 (beat B) + 0.5*2 (drew C) = 4; B 0*4 + 1*1 = 1;
#   C 0.5*1 + 0.5*4 = 2.5; D 0.5*2 + 0 = 1.
ROUNDS = [[t("A", "B", 3, 1), t("C", "D", 2, 2)], [t("A", "C", 2, 2), t("B", "D", 4, 0)]]


def test_hand_computed_table() -> None:
    rows = standings(["A", "B", "C", "D"], ROUNDS)
    assert [(r.rank, r.player, r.points) for r in rows] == [
        (1, "A", 4),
        (2, "B", 3),
        (3, "C", 2),
        (4, "D", 1),
    ]
    values = {r.player: r.values for r in rows}
    assert values["A"]["challenge"] == 5 and values["D"]["challenge"] == 2
    assert {p: v["buchholz"] for p, v in values.items()} == {"A": 5, "B": 5, "C": 5, "D": 5}
    assert {p: v["buchholz_cut1"] for p, v in values.items()} == {"A": 3, "B": 4, "C": 4, "D": 3}
    assert {p: v["sonneborn_berger"] for p, v in values.items()} == {
        "A": 4,
        "B": 1,
        "C": 2.5,
        "D": 1,
    }


def test_tie_breaks_apply_in_the_configured_order() -> None:
    # All draws: everyone on 2 points; challenge points separate them.
    rounds = [[t("A", "B", 2, 2), t("C", "D", 1, 1)], [t("A", "C", 1, 1), t("B", "D", 3, 3)]]
    rows = standings(["A", "B", "C", "D"], rounds, tiebreaks=["challenge", "lot"], seed="s")
    assert [r.player for r in rows] == ["B", "D", "A", "C"]
    assert [r.rank for r in rows] == [1, 2, 3, 4]
    # Without a lot, the fully tied share the rank.
    rows = standings(["A", "B"], [[t("A", "B", 2, 2)]], tiebreaks=["challenge"])
    assert [r.rank for r in rows] == [1, 1]


def test_head_to_head_counts_only_games_between_the_tied() -> None:
    # A and B both on 3 points; B beat A directly.
    rounds = [[t("A", "B", 1, 3), t("C", "D", 3, 1)], [t("A", "D", 3, 1), t("B", "C", 1, 3)]]
    rows = standings(["A", "B", "C", "D"], rounds, tiebreaks=["head_to_head", "lot"], seed="x")
    assert [r.player for r in rows][:3] == ["C", "B", "A"]
    assert {r.player: r.values.get("head_to_head") for r in rows}["B"] == 1


def test_the_lot_is_recorded_and_recomputable() -> None:
    rows = standings(["A", "B", "C"], [], tiebreaks=["lot"], seed="2026")
    expected = sorted(["A", "B", "C"], key=lambda p: lot("2026", p))
    assert [r.player for r in rows] == expected


def test_rows_the_lot_ordered_say_so() -> None:
    # A 2-2 B, C 1-1 D, E 3-0 F: everyone but E and F on 1 point; challenge points part A and
    # B (2) from C and D (1); the lot alone orders A against B, and C against D.
    rounds = [[t("A", "B", 2, 2), t("C", "D", 1, 1), t("E", "F", 3, 0)]]
    rows = standings(list("ABCDEF"), rounds, tiebreaks=["challenge", "lot"], seed="s")
    assert [r.player for r in rows][0] == "E" and [r.player for r in rows][-1] == "F"
    assert {r.player: r.by_lot for r in rows} == {
        "A": True, "B": True, "C": True, "D": True, "E": False, "F": False,
    }  # fmt: skip
    assert {r.player for r in rows[1:3]} == {"A", "B"}
    assert [r.rank for r in rows] == [1, 2, 3, 4, 5, 6]
    # A 3-1 B, C without a game: B and C level on 0 points, the lot parts them, never A.
    rows = standings(["A", "B", "C"], [[t("A", "B", 3, 1)]], tiebreaks=["lot"], seed="s")
    assert {r.player: r.by_lot for r in rows} == {"A": False, "B": True, "C": True}
    # Nothing recorded yet: the lot orders everyone, but it parted nobody: no mark.
    rows = standings(["A", "B", "C"], [], tiebreaks=["lot"], seed="s")
    assert [r.rank for r in rows] == [1, 2, 3] and not any(r.by_lot for r in rows)
    # Without a lot among the tie-breaks, the level share a rank and nothing is drawn.
    rows = standings(["A", "B"], [[t("A", "B", 2, 2)]], tiebreaks=["challenge"])
    assert [r.rank for r in rows] == [1, 1] and not any(r.by_lot for r in rows)


def test_byes_and_configurable_scoring() -> None:
    scoring = Scoring(win=2, draw=1, loss=0, bye=1)
    assert match_points(TableResult(("A",), bye=True), scoring) == {"A": 1}
    assert match_points(t("A", "B", 3, 1), scoring) == {"A": 2, "B": 0}
    rows = standings(["A", "B", "C"], [[t("A", "B", 3, 1), TableResult(("C",), bye=True)]], scoring)
    assert {r.player: r.points for r in rows} == {"A": 2, "B": 0, "C": 1}


def test_tables_of_several_score_placement_points() -> None:
    table = TableResult(("A", "B", "C", "D"), points={"A": 2, "B": 3, "C": 2, "D": 0})
    assert match_points(table, Scoring()) == {"B": 3, "A": 2, "C": 2, "D": 0}
    assert match_points(table, Scoring(placement=(5, 3, 1))) == {"B": 5, "A": 3, "C": 3, "D": 0}


def test_undecided_tables_do_not_count() -> None:
    rows = standings(["A", "B"], [[TableResult(("A", "B"))]])
    assert all(r.points == 0 and r.played == 0 for r in rows)


def test_unknown_tie_break() -> None:
    with pytest.raises(ValueError, match="unknown tie-break"):
        standings(["A"], [], tiebreaks=["elo"])
