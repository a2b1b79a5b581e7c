"""Up or down (UPD-1..UPD-4)."""

from __future__ import annotations

import pytest

from engine.errors import MalformedEvent, NotAllowedNow
from engine.games.updown import number
from tests.support import bet, out, play, roll, timeout, winners

GBV = ["giallo", "blu", "verde"]


def test_upd1_largest_number() -> None:
    assert number([1, 5, 4]) == 541
    assert number([2, 1, 6]) == 621
    assert play("updown", GBV, [roll("giallo", "d6", 1, 5, 4)]).state.last_number == 541


def test_upd2_bet_comes_before_the_roll() -> None:
    with pytest.raises(NotAllowedNow) as e:
        play("updown", GBV, [roll("giallo", "d6", 1, 5, 4), roll("blu", "d6", 1, 1, 1)])
    assert e.value.rule == "UPD-2"


def test_upd2_call_must_be_up_or_down() -> None:
    with pytest.raises(MalformedEvent):
        play("updown", GBV, [roll("giallo", "d6", 1, 5, 4), bet("blu", "sideways")])


def test_upd2_wrong_call_is_out() -> None:
    replay = play(
        "updown", GBV, [roll("giallo", "d6", 5, 5, 4), bet("blu", "up"), roll("blu", "d6", 1, 1, 1)]
    )
    assert out(replay) == ["blu"]


def test_upd2_equal_number_puts_previous_out_whatever_the_call() -> None:
    replay = play(
        "updown",
        GBV,
        [roll("giallo", "d6", 5, 1, 4), bet("blu", "down"), roll("blu", "d6", 4, 1, 5)],
    )
    assert out(replay) == ["giallo"]


def test_upd3_number_to_beat_is_the_last_rolled_even_if_its_roller_went_out() -> None:
    events = [
        roll("giallo", "d6", 5, 1, 4),
        bet("blu", "up"),
        roll("blu", "d6", 1, 1, 1),  # out
        bet("verde", "down"),
        roll("verde", "d6", 2, 1, 1),
    ]  # 211 < 111? no: 211 > 111
    replay = play("updown", GBV, events)
    assert out(replay) == ["blu", "verde"]
    assert winners(replay) == ("giallo",)


def test_upd3_equal_to_an_out_roller_puts_nobody_else_out() -> None:
    events = [
        roll("giallo", "d6", 5, 1, 4),
        bet("blu", "up"),
        roll("blu", "d6", 1, 1, 1),  # out
        bet("verde", "up"),
        roll("verde", "d6", 1, 1, 1),
    ]
    replay = play("updown", GBV, events)
    assert out(replay) == ["blu"]
    assert replay.turns[0].player == "giallo"


def test_upd4_last_in_wins_and_timeout_is_out() -> None:
    replay = play("updown", ["giallo", "blu"], [roll("giallo", "d6", 5, 1, 4), timeout("blu")])
    assert winners(replay) == ("giallo",)
    assert replay.out[0].rule == "CH-4"


def test_timeout_before_the_first_roll_hands_the_first_roll_on() -> None:
    replay = play("updown", GBV, [timeout("giallo")])
    assert replay.turns[0].player == "blu" and replay.turns[0].events == ("roll", "timeout")
    assert (
        play("updown", GBV, [timeout("giallo"), roll("blu", "d6", 1, 2, 3)]).state.last_number
        == 321
    )
