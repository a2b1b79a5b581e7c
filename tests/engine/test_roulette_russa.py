"""La roulette russa (RR-1..RR-6), with the seed's counterfactual."""

from __future__ import annotations

import pytest

from engine.errors import NotAllowedNow
from engine.events import Pass, Roll, Word
from tests.support import doubt, example, out, pass_, play, roll, ruling, timeout, winners, word

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


def verde_bound() -> list[dict]:
    """Verde doubts blu, and blu is still in when verde's turn comes again (RR-5)."""
    return [
        c("giallo", "S"),
        c("blu", "S"),
        doubt("verde"),
        c("rosso", "P"),
        c("giallo", "G"),
        c("blu", "N"),
    ]


def test_rr5_a_doubter_may_not_roll_until_the_doubted_is_out() -> None:
    replay = play("roulette_russa", FOUR, verde_bound())
    assert replay.turns[0].player == "verde" and replay.turns[0].events == ("doubt", "timeout")
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


def test_ch4_a_timeout_on_a_roll_turn_puts_the_player_out_and_the_consonants_stay() -> None:
    replay = play("roulette_russa", FOUR, [c("giallo", "S"), c("blu", "T"), timeout("verde")])
    assert out(replay) == ["verde"] and replay.out[0].rule == "CH-4"
    assert [ch for ch, _ in replay.state.consonants] == ["s", "t"]
    assert replay.turns[0].player == "rosso"
    assert replay.turns[0].events == ("roll", "doubt", "timeout")


def test_ch4_a_timeout_on_the_first_roll_the_next_player_rolls_first() -> None:
    replay = play("roulette_russa", ["giallo", "blu", "verde"], [timeout("giallo")])
    assert out(replay) == ["giallo"]
    assert replay.turns[0].player == "blu" and replay.turns[0].events == ("roll", "timeout")


def test_ch4_a_timeout_in_a_simple_challenge_loses_it() -> None:
    replay = play("roulette_russa", ["giallo", "blu"], [c("giallo", "S"), timeout("blu")])
    assert winners(replay) == ("giallo",)


def test_ch4_a_timeout_on_a_doubt_turn_frees_nobody_but_ends_the_doubts_of_the_player() -> None:
    # RR-5: verde had to doubt again
    replay = play("roulette_russa", FOUR, [*verde_bound(), timeout("verde")])
    assert out(replay) == ["verde"]
    assert replay.state.doubts == frozenset()
    assert replay.turns[0].player == "rosso"


def test_ch4_rr3_after_a_timeout_the_players_still_in_may_all_doubt_l() -> None:
    three = ["giallo", "blu", "verde"]
    events = [c("giallo", "S"), c("blu", "T"), doubt("verde"), timeout("giallo")]
    replay = play("roulette_russa", three, events)
    # Giallo is out; verde, the only other player still in, doubts blu: blu writes at once.
    assert out(replay) == ["giallo"]
    assert replay.turns[0].player == "blu" and replay.turns[0].rule == "RR-3"
    assert winners(replay.apply(Word("blu", "pasta"))) == ("blu",)


def test_ref1_eq4_a_word_the_referee_rejected_cannot_save_the_next_writer() -> None:
    events = seed_until_giallo_writes() + [word("giallo", "passamontagna"), ruling(16, False)]
    replay = play("roulette_russa", FOUR, events)
    assert out(replay) == ["rosso", "giallo"] and replay.turns[0].player == "blu"
    # RR-4: blu must cover S-S-T-P-G-N; passamontagna would, but the ruling on it holds.
    replay = replay.apply(Word("blu", "passamontagna"))
    assert replay.notes[-1].text == "passamontagna is not admitted"
    assert winners(replay) == ("verde",)
