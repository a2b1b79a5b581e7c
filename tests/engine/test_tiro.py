"""Tiro di precisione (TIR-1..TIR-3) and CH-2's draw and no-point cases."""

from __future__ import annotations

import pytest

from engine.errors import NotAllowedNow, NotYourTurn, RuleViolation
from tests.support import expr, pass_, play, roll, winners

GB = ["giallo", "blu"]


def rolled(giallo: list[int], blu: list[int], target: int) -> list[dict]:
    return [roll("giallo", "d6", *giallo), roll("blu", "d6", *blu), roll("verde", "d20", target)]


def shoot(giallo: str, blu: str, dice=([6, 6, 5, 1], [5, 4, 2, 1]), target: int = 11):
    events = rolled(*dice, target) + [expr("giallo", giallo), expr("blu", blu)]
    return play("tiro", GB, events, outside=["verde"])


def test_tir1_target_rolled_by_the_outside_player() -> None:
    with pytest.raises(NotAllowedNow, match="blu cannot roll the d20 now") as e:
        play("tiro", GB, [roll("blu", "d20", 11)], outside=["verde"])
    assert e.value.rule == "TIR-1"
    replay = play("tiro", GB, rolled([6, 6, 5, 1], [5, 4, 2, 1], 11), outside=["verde"])
    assert replay.state.target == 11


def test_tir1_without_outside_the_challenger_rolls_the_target() -> None:
    replay = play("tiro", GB, [roll("giallo", "d20", 7), roll("giallo", "d6", 1, 2, 3, 4)])
    assert replay.state.target == 7


def test_tir1_four_dice_each() -> None:
    with pytest.raises(RuleViolation, match="4 d6"):
        play("tiro", GB, [roll("giallo", "d6", 1, 2, 3)], outside=["verde"])


def test_tir2_no_expression_before_every_roll() -> None:
    with pytest.raises(NotYourTurn) as e:
        play(
            "tiro",
            GB,
            [roll("giallo", "d6", 1, 2, 3, 4), expr("giallo", "1+2+3+4")],
            outside=["verde"],
        )
    assert e.value.rule == "TIR-1"


@pytest.mark.parametrize(
    "text, why",
    [
        ("66 - 5 x 1", "joins digits"),
        ("-6 + 6 + 5 + 1", "no unary minus"),
        ("6 / (6 - 6) + 5", "divides by zero"),
        ("6 + 5", "uses"),
        ("6 x 6 - 5 x 5", "uses"),
        ("6 + (6", "not closed"),
    ],
)
def test_tir2_invalid_expressions_are_judged_not_refused(text: str, why: str) -> None:
    replay = shoot(text, "(5+4+2):1")
    note = next(n for n in replay.notes if n.player == "giallo")
    assert not note.ok and why in note.text
    assert winners(replay) == ("blu",)


def test_tir2_exact_fractions() -> None:
    assert winners(shoot("6*(5/6+1)", "5+4+2*1")) == ("giallo",)


def test_tir3_divisions_then_multiplications_then_subtractions() -> None:
    # Both hit 11; Giallo 1 div 1 mul, Blu 1 div: the seed.
    assert winners(shoot("6 x (5:6+1)", "(5+4+2):1")) == ("giallo",)
    dice = ([6, 5, 1, 1], [6, 5, 1, 1])
    # No divisions: the multiplications decide.
    assert winners(shoot("6+5+1-1", "6+5*1*1", dice)) == ("blu",)
    # Same divisions and multiplications: the subtractions decide.
    assert winners(shoot("6+5-(1-1)", "6+5-1+1", dice)) == ("giallo",)


def test_ch2_equal_keys_draw_both_score() -> None:
    replay = shoot("6+5*1*1", "6+5*1*1", ([6, 5, 1, 1], [6, 5, 1, 1]))
    assert winners(replay) == ("giallo", "blu")
    assert replay.outcome.points == {"giallo": 1, "blu": 1}


def test_ch2_nobody_hits_no_point() -> None:
    events = rolled([1, 1, 1, 1], [1, 1, 1, 1], 20) + [pass_("giallo"), expr("blu", "1+1+1+1")]
    replay = play("tiro", GB, events, outside=["verde"])
    assert winners(replay) == ()
    assert replay.outcome.points == {"giallo": 0, "blu": 0}
