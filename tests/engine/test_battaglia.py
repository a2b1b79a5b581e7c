"""La battaglia dadale (BAT-1..BAT-4)."""

from __future__ import annotations

import pytest

from engine.errors import MalformedEvent, NotYourTurn, RuleViolation
from tests.support import expr, out, pass_, play, roll, ruling, winners

GB = ["giallo", "blu"]


def fleets(giallo=(13, 4), blu=(14, 15)) -> list[dict]:
    return [roll("giallo", "d20", *giallo), roll("blu", "d20", *blu)]


def test_bat1_two_ships_each_before_any_shot() -> None:
    # Giallo has his ships: blu rolls hers before any shot (NotYourTurn, BAT-1).
    with pytest.raises(NotYourTurn) as e:
        play("battaglia", GB, [roll("giallo", "d20", 13, 4), roll("giallo", "d6", 1, 2, 3)])
    assert e.value.rule == "BAT-1" and "not giallo's turn" in e.value.message
    assert play("battaglia", GB, fleets()).state.ships == {"giallo": (13, 4), "blu": (14, 15)}


def test_bat2_each_number_once() -> None:
    replay = play(
        "battaglia", GB, fleets() + [roll("giallo", "d6", 3, 5, 1), expr("giallo", "3x5")]
    )
    assert replay.state.ships["blu"] == (14, 15)
    assert "uses" in replay.notes[-1].text


def test_bat2_a_miss_is_judged() -> None:
    replay = play(
        "battaglia", GB, fleets() + [roll("giallo", "d6", 3, 5, 1), expr("giallo", "3+5+1")]
    )
    assert "no ship" in replay.notes[-1].text
    assert replay.turns[0].player == "blu"


def test_bat3_equal_ships_need_two_hits() -> None:
    events = fleets(blu=(6, 6)) + [
        roll("giallo", "d6", 3, 2, 1),
        expr("giallo", "3x2x1"),
        roll("blu", "d6", 1, 1, 1),
        pass_("blu"),
    ]
    replay = play("battaglia", GB, events)
    assert replay.state.ships["blu"] == (6,)
    replay = play(
        "battaglia", GB, events + [roll("giallo", "d6", 3, 2, 1), expr("giallo", "3+2+1")]
    )
    assert winners(replay) == ("giallo",)


def test_bat4_multiple_challenge_names_the_target() -> None:
    players = ["giallo", "blu", "verde"]
    events = [roll(p, "d20", 6, 20) for p in players] + [roll("giallo", "d6", 3, 2, 1)]
    with pytest.raises(MalformedEvent, match="must name the player aimed at") as e:
        play("battaglia", players, events + [expr("giallo", "3x2x1")])
    assert e.value.rule == "BAT-4"
    with pytest.raises(RuleViolation, match="not an enemy") as e:
        play("battaglia", players, events + [expr("giallo", "3x2x1", target="giallo")])
    assert e.value.rule == "BAT-4"
    replay = play("battaglia", players, events + [expr("giallo", "3x2x1", target="verde")])
    assert replay.state.ships["verde"] == (20,)


def test_bat4_no_ships_is_out_last_with_ships_wins() -> None:
    players = ["giallo", "blu", "verde"]
    ships = [roll("giallo", "d20", 1, 1), roll("blu", "d20", 2, 2), roll("verde", "d20", 3, 3)]
    ones = ["d6", 1, 1, 1]
    rounds = [
        roll("giallo", *ones),
        pass_("giallo"),
        roll("blu", *ones),
        expr("blu", "1x1x1", target="giallo"),
        roll("verde", *ones),
        pass_("verde"),
        roll("giallo", *ones),
        pass_("giallo"),
        roll("blu", *ones),
        expr("blu", "1x1x1", target="giallo"),
    ]
    replay = play("battaglia", players, ships + rounds)
    assert out(replay) == ["giallo"]
    assert winners(replay) is None
    assert replay.turns[0].player == "verde"


def test_ref1_ruling_rejects_a_hit() -> None:
    events = fleets() + [roll("giallo", "d6", 3, 5, 1), expr("giallo", "3x5x1"), ruling(4, False)]
    replay = play("battaglia", GB, events)
    assert replay.state.ships["blu"] == (14, 15)
