"""Il Ventuno (VEN-1, VEN-2) and the timeout of CH-4."""

from __future__ import annotations

import pytest

from engine.errors import NotAllowedNow, NotYourTurn, RuleViolation
from tests.support import choose, out, play, roll, timeout, winners

GB = ["giallo", "blu"]


def test_ven1_double_offers_value_or_twice() -> None:
    replay = play("ventuno", GB, [roll("giallo", "d6", 3, 3)])
    assert replay.turns[0].choices == (3, 6)
    replay = play("ventuno", GB, [roll("giallo", "d6", 3, 3), choose("giallo", 6)])
    assert replay.state.total == 6


def test_ven1_choose_must_be_a_value_of_the_throw() -> None:
    with pytest.raises(RuleViolation, match="VEN-1|not a value") as e:
        play("ventuno", GB, [roll("giallo", "d6", 4, 5), choose("giallo", 6)])
    assert e.value.rule == "VEN-1"


def test_ven1_turn_order() -> None:
    with pytest.raises(NotYourTurn) as e:
        play("ventuno", GB, [roll("blu", "d6", 4, 5)])
    assert e.value.rule == "VEN-1"


def test_ven1_two_dice_only() -> None:
    with pytest.raises(RuleViolation, match="2 d6 dice together"):
        play("ventuno", GB, [roll("giallo", "d6", 4, 5, 6)])


def test_ven2_exact_21_wins() -> None:
    events = [
        roll("giallo", "d6", 6, 6),
        choose("giallo", 12),
        roll("blu", "d6", 4, 5),
        choose("blu", 5),
        roll("giallo", "d6", 4, 1),
        choose("giallo", 4),
    ]
    replay = play("ventuno", GB, events)
    assert replay.state.total == 21
    assert winners(replay) == ("giallo",)


def test_ven2_simple_challenge_bust_loses() -> None:
    events = [
        roll("giallo", "d6", 6, 6),
        choose("giallo", 12),
        roll("blu", "d6", 3, 3),
        choose("blu", 6),  # 18
        roll("giallo", "d6", 4, 5),  # every value goes over
    ]
    replay = play("ventuno", GB, events)
    assert out(replay) == ["giallo"]
    assert winners(replay) == ("blu",)


def test_ven2_choosing_over_21_is_out() -> None:
    events = [
        roll("giallo", "d6", 6, 6),
        choose("giallo", 12),
        roll("blu", "d6", 3, 3),
        choose("blu", 6),  # 18
        roll("giallo", "d6", 2, 5),
        choose("giallo", 5),  # 23, though 2 made 20
    ]
    replay = play("ventuno", GB, events)
    assert out(replay) == ["giallo"]
    assert replay.state.total == 18


def test_ven2_multiple_goes_on_from_last_total() -> None:
    players = ["giallo", "blu", "verde"]
    events = [
        roll("giallo", "d6", 6, 6),
        choose("giallo", 12),
        roll("blu", "d6", 3, 3),
        choose("blu", 6),  # 18
        roll("verde", "d6", 4, 5),  # out
        roll("giallo", "d6", 1, 1),
        choose("giallo", 2),  # 20
    ]
    replay = play("ventuno", players, events)
    assert out(replay) == ["verde"]
    assert replay.state.total == 20
    assert replay.turns[0].player == "blu"


def test_ch4_timeout_leaves_the_race() -> None:
    replay = play("ventuno", GB, [roll("giallo", "d6", 1, 2), timeout("giallo")])
    assert replay.out[0].rule == "CH-4"
    assert winners(replay) == ("blu",)


def test_no_choose_before_a_roll() -> None:
    with pytest.raises(NotAllowedNow):
        play("ventuno", GB, [choose("giallo", 3)])


def test_ven1_the_offer_names_every_value_the_refusal_does() -> None:
    """#28: the offer said "choose the value to add: 1" where 3 (over 21) may be chosen too."""
    from exports.i18n import say

    events = [roll("giallo", "d6", 6, 6), choose("giallo", 12), roll("blu", "d6", 3, 4)]
    events += [choose("blu", 4), roll("giallo", "d6", 1, 3)]  # 16; 1 makes 17, 3 makes 19
    assert say(play("ventuno", GB, events).turns[0].expects.text(), "en") == (
        "choose the value to add: 1 or 3"
    )
    events += [choose("giallo", 3), roll("blu", "d6", 1, 3)]  # 19: 3 makes 22
    turn = play("ventuno", GB, events).turns[0]
    assert turn.choices == (1, 3)
    assert say(turn.expects.text(), "en") == "choose the value to add: 1 or 3 (3 goes over 21)"
    assert say(turn.expects.text(), "it") == "scegli il valore da aggiungere: 1 o 3 (3 supera 21)"
