"""La Roulette Alphatiana (ALP-1..ALP-6), with the seed's examples as turns."""

from __future__ import annotations

import pytest

from engine.errors import BadHeader, NotAllowedNow, NotYourTurn, RuleViolation
from engine.games.alphatiana import damage_if_defended, damage_if_failed
from tests.support import choose, out, play, roll, winners

MR = ["M", "R"]


def reroll(by: str, dice: list[int], values: list[int]) -> dict:
    return {"type": "reroll", "by": by, "dice": dice, "values": values}


def stand(by: str) -> dict:
    return {"type": "stand", "by": by}


# The seed's first example: M throws 2 1 6 3 5, keeps 6 and 5, throws 2 1 3 again (5 2 6),
# then the 2 alone (3): the attack is 6 6 5 5 3.
SEED_ATTACK = [
    roll("M", "d6", 2, 1, 6, 3, 5),
    reroll("M", [2, 1, 3], [5, 2, 6]),
    reroll("M", [2], [3]),
    stand("M"),
]


def test_alp1_two_players_start_at_zero() -> None:
    assert play("alphatiana", MR, []).state.damage == {"M": 0, "R": 0}
    with pytest.raises(BadHeader) as e:
        play("alphatiana", ["M", "R", "V"], [])
    assert e.value.rule == "ALP-1"


def test_alp2_by_agreement_the_first_listed_attacks() -> None:
    assert play("alphatiana", MR, []).turns[0].player == "M"


def test_alp2_roll_off_most_sixes_starts_equal_rolls_again() -> None:
    events = [roll("M", "d6", 6, 6, 1, 2, 3), roll("R", "d6", 6, 1, 1, 6, 2)]
    replay = play("alphatiana", MR, events, start="roll-off")
    assert replay.state.attacker is None and {t.player for t in replay.turns} == {"M", "R"}
    replay = play(
        "alphatiana",
        MR,
        events + [roll("R", "d6", 6, 6, 6, 1, 1), roll("M", "d6", 6, 1, 1, 1, 1)],
        start="roll-off",
    )
    assert replay.state.attacker == "R"


def test_seed_attack_6_6_5_5_3() -> None:
    replay = play("alphatiana", MR, SEED_ATTACK)
    assert sorted(replay.state.hand, reverse=True) == [6, 6, 5, 5, 3]
    assert replay.turns[0].player == "R" and replay.turns[0].choices == (6, 5, 3)


def test_alp3_reroll_only_part_of_the_last_throw() -> None:
    first = [roll("M", "d6", 2, 1, 6, 3, 5), reroll("M", [2, 1, 3], [5, 2, 6])]
    with pytest.raises(RuleViolation, match="last throw") as e:
        play("alphatiana", MR, first + [reroll("M", [6, 6], [1, 1])])  # only one 6 was rethrown
    assert e.value.rule == "ALP-3"
    with pytest.raises(RuleViolation, match="1 to 2"):
        play("alphatiana", MR, first + [reroll("M", [5, 2, 6], [1, 1, 1])])  # must keep one
    with pytest.raises(RuleViolation, match="as many dice"):
        play("alphatiana", MR, first + [reroll("M", [2], [1, 1])])


def test_alp3_at_most_five_throws() -> None:
    events = [
        roll("M", "d6", 1, 1, 1, 1, 1),
        reroll("M", [1, 1, 1, 1], [2, 2, 2, 2]),
        reroll("M", [2, 2, 2], [3, 3, 3]),
        reroll("M", [3, 3], [4, 4]),
        reroll("M", [4], [5]),
    ]
    replay = play("alphatiana", MR, events)
    assert replay.state.throws == 5 and replay.turns[0].player == "R"  # no stand needed
    with pytest.raises(NotYourTurn) as e:
        play("alphatiana", MR, events + [stand("M")])
    assert e.value.rule == "ALP-3" and "five throws" in e.value.message  # not R's ALP-4


def test_alp3_one_die_left_can_only_stand() -> None:
    replay = play("alphatiana", MR, [roll("M", "d6", 1, 2, 3, 4, 5), reroll("M", [1], [6])])
    assert replay.turns[0].events == ("stand",)


@pytest.mark.parametrize(
    "face, defence, hurt, amount",
    [
        (5, [4, 3], "R", 3),  # fails: two 6s + 1
        (5, [6, 1], "M", 2),  # succeeds: 5 - 3
        (3, [4], "M", 0),  # succeeds, deals nothing
        (6, [6, 6], "R", 3),  # defending the 6s cannot succeed (ALP-4)
    ],
)
def test_alp4_alp5_seed_defences(face: int, defence: list[int], hurt: str, amount: int) -> None:
    replay = play("alphatiana", MR, SEED_ATTACK + [choose("R", face), roll("R", "d6", *defence)])
    assert replay.state.damage[hurt] == amount
    assert replay.state.damage["M" if hurt == "R" else "R"] == 0


def test_alp4_choose_a_face_shown_and_roll_that_many() -> None:
    with pytest.raises(RuleViolation, match="not a face") as e:
        play("alphatiana", MR, SEED_ATTACK + [choose("R", 4)])
    assert e.value.rule == "ALP-4"
    with pytest.raises(RuleViolation, match="2 d6"):
        play("alphatiana", MR, SEED_ATTACK + [choose("R", 5), roll("R", "d6", 6)])


def test_alp5_second_seed_example_and_five_sixes() -> None:
    attack = [roll("M", "d6", 6, 6, 6, 5, 1), stand("M")]
    assert (
        damage_if_defended((6, 6, 6, 5, 1), 5) == 4 and damage_if_defended((6, 6, 6, 5, 1), 1) == 0
    )
    replay = play("alphatiana", MR, attack + [choose("R", 5), roll("R", "d6", 6)])
    assert replay.state.damage["M"] == 4
    assert damage_if_failed((6, 6, 6, 6, 6)) == 6


def test_alp6_roles_swap_and_alp1_ten_damage_loses() -> None:
    sixes = [
        roll("M", "d6", 6, 6, 6, 6, 6),
        stand("M"),
        choose("R", 6),
        roll("R", "d6", 1, 1, 1, 1, 1),
    ]
    replay = play("alphatiana", MR, sixes)
    assert replay.state.damage["R"] == 6 and replay.turns[0].player == "R"
    back = [roll("R", "d6", 1, 1, 1, 1, 2), stand("R"), choose("M", 1), roll("M", "d6", 2, 2, 2, 2)]
    replay = play("alphatiana", MR, sixes + back + sixes)
    assert out(replay) == ["R"] and winners(replay) == ("M",)
    assert replay.out[0].rule == "ALP-1"


def test_no_defence_before_the_attack_ends() -> None:
    with pytest.raises(NotYourTurn) as e:
        play("alphatiana", MR, [roll("M", "d6", 1, 2, 3, 4, 5), choose("R", 5)])
    assert e.value.rule == "ALP-3"  # the attack goes on
    with pytest.raises(NotAllowedNow) as e:
        play("alphatiana", MR, [roll("M", "d6", 1, 2, 3, 4, 5), choose("M", 5)])
    assert e.value.rule == "ALP-4" and "the defender, R, chooses" in e.value.message


def test_alp3_after_a_one_die_throw_the_attacker_is_told_to_stand_only() -> None:
    """#28: a reroll was refused while the turn said "reroll or stand"."""
    from exports.i18n import say

    attack = SEED_ATTACK[:3]  # the 2 alone rethrown (3): no reroll keeps one of one die
    turn = play("alphatiana", MR, attack).turns[0]
    assert turn.events == ("stand",)
    assert "reroll or stand" not in say(turn.expects.text(), "en")
    said = say(turn.expects.text(), "en")
    assert said.startswith("attack 6 6 5 5 3: stand (the last throw was one die")
    with pytest.raises(RuleViolation, match="stand"):
        play("alphatiana", MR, attack + [reroll("M", [3], [4])])
