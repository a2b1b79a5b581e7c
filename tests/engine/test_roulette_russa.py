"""La roulette russa (RR-1..RR-6), with the seed's counterfactual."""

from __future__ import annotations

import pytest

from engine.errors import NotAllowedNow
from engine.events import Pass, Roll
from tests.support import doubt, example, out, pass_, play, roll, timeout, winners, word

FOUR = ["giallo", "blu", "verde", "rosso"]


def c(by: str, letter: str) -> dict:
    return roll(by, "consonant", letter)


def seed_until_giallo_writes() -> list[dict]:
    """The seed up to Giallo's call to write (position 16), without its derived events."""
    _, events = example("roulette_russa-seed.jsonl")
    return [e for e in events if e["type"] not in ("out", "end")][:15]


def test_rr1_first_turn_is_a_roll() -> None:
    with pytest.raises(NotAllowedNow) as e:
        play("roulette_russa", ["giallo", "blu"], [doubt("giallo")])
    assert e.value.rule == "RR-1"


def test_rr1_z_is_a_plain_letter() -> None:
    replay = play("roulette_russa", ["giallo", "blu"], [c("giallo", "Z")])
    assert replay.state.consonants == (("z", "giallo"),)


def test_rr2_doubt_is_aimed_at_the_last_roller() -> None:
    replay = play("roulette_russa", FOUR, [c("giallo", "S"), c("blu", "T"), doubt("verde")])
    assert replay.state.doubts == frozenset({("verde", "blu")})


def test_rr3_every_other_player_doubting_calls_l_to_write() -> None:
    replay = play("roulette_russa", FOUR, seed_until_giallo_writes())
    assert replay.turns[0].player == "giallo"
    assert replay.turns[0].events == ("word", "pass", "timeout")


def test_rr3_consonants_count_with_multiplicity() -> None:
    replay = play(
        "roulette_russa", FOUR, seed_until_giallo_writes() + [word("giallo", "pastamongna")]
    )
    # "pastamongna" is no word, and it has one S where two are listed.
    assert out(replay) == ["rosso", "giallo"]


def test_rr4_counterfactual_blu_must_write_then_verde_wins() -> None:
    """The seed: had Giallo failed, the M is struck and Blu (doubted by Verde) must write."""
    replay = play("roulette_russa", FOUR, seed_until_giallo_writes() + [timeout("giallo")])
    assert [ch for ch, _ in replay.state.consonants] == list("sstpgn")
    assert replay.turns[0].player == "blu" and replay.turns[0].rule == "RR-3"
    replay = replay.apply(Pass("blu"))
    assert winners(replay) == ("verde",)


def test_rr4_play_goes_on_after_l_as_if_l_never_played() -> None:
    events = [
        c("giallo", "S"),
        c("blu", "T"),
        c("verde", "N"),
        doubt("rosso"),
        doubt("giallo"),
        doubt("blu"),
        pass_("verde"),
    ]
    replay = play("roulette_russa", FOUR, events)
    assert out(replay) == ["verde"]
    assert [ch for ch, _ in replay.state.consonants] == ["s", "t"]
    assert replay.turns[0].player == "rosso"


def test_rr5_a_doubter_may_not_roll_until_the_doubted_is_out() -> None:
    events = [
        c("giallo", "S"),
        c("blu", "S"),
        doubt("verde"),
        c("rosso", "P"),
        c("giallo", "G"),
        c("blu", "N"),
    ]
    replay = play("roulette_russa", FOUR, events)
    assert replay.turns[0].player == "verde" and replay.turns[0].events == ("doubt",)
    with pytest.raises(NotAllowedNow) as e:
        replay.apply(Roll("verde", "consonant", ("T",)))
    assert e.value.rule == "RR-5"


def test_rr6_simple_challenge_a_doubt_forces_l_to_write() -> None:
    replay = play(
        "roulette_russa", ["giallo", "blu"], [c("giallo", "S"), c("blu", "T"), doubt("giallo")]
    )
    assert replay.turns[0].player == "blu"
    replay = play(
        "roulette_russa",
        ["giallo", "blu"],
        [c("giallo", "S"), c("blu", "T"), doubt("giallo"), word("blu", "pasta")],
    )
    assert winners(replay) == ("blu",)
    replay = play(
        "roulette_russa",
        ["giallo", "blu"],
        [c("giallo", "S"), c("blu", "T"), doubt("giallo"), pass_("blu")],
    )
    assert winners(replay) == ("giallo",)
