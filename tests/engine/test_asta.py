"""L'asta lessicale random (AST-1..AST-5), EQ-3 and the rulings of REF-1."""

from __future__ import annotations

import pytest

from engine.errors import NotAllowedNow, RuleViolation
from engine.games.asta import JOLLY_SLOT, fits
from tests.support import choose, out, pass_, play, roll, ruling, timeout, winners, word

GB = ["giallo", "blu"]
GBV = ["giallo", "blu", "verde"]


def base(vowels=("E", "A"), consonant="C") -> list[dict]:
    return [roll("giallo", "vowel", *vowels), roll("giallo", "consonant", consonant)]


def turn(by: str, consonant: str, vowel: str) -> list[dict]:
    return [roll(by, "consonant", consonant), roll(by, "vowel", vowel)]


def test_ast1_base_is_two_vowels_and_a_consonant() -> None:
    with pytest.raises(RuleViolation, match="2 vowel dice"):
        play("asta", GB, [roll("giallo", "vowel", "E")])
    replay = play("asta", GB, base())
    assert replay.state.base == ("E", "A", "C")
    assert replay.turns[0].dice == (("vowel", 1), ("consonant", 1))


def test_ast2_one_more_letter_from_the_two_new_ones() -> None:
    replay = play("asta", GB, base() + turn("giallo", "P", "I") + [word("giallo", "pace")])
    assert replay.state.last_word == "pace"
    assert replay.turns[0].player == "blu"


def test_ast2_using_both_new_letters_fails() -> None:
    replay = play("asta", GB, base() + turn("giallo", "P", "I") + [word("giallo", "picea")])
    assert replay.state.last_word is None
    assert "does not add exactly one" in replay.notes[-1].text


def test_ast3_jolly_stands_for_any_letter_and_must_match_what_is_said() -> None:
    assert fits("pecca", [frozenset(c) for c in "pace"] + [JOLLY_SLOT])
    assert not fits("pecca", [frozenset(c) for c in "pace"] + [JOLLY_SLOT], jolly="t")
    events = base() + turn("giallo", "P", "I") + [word("giallo", "pace")] + turn("blu", "Z", "O")
    assert play("asta", GB, events + [word("blu", "pecca", jolly="c")]).state.last_word == "pecca"
    replay = play("asta", GB, events + [word("blu", "pecca", jolly="t")])
    assert out(replay) == ["blu"]


def test_eq3_choose_on_a_u_face() -> None:
    events = base(vowels=("E", "U/A")) + turn("giallo", "P", "I")
    replay = play("asta", GB, events)
    assert "choose" in replay.turns[0].events
    assert play("asta", GB, events + [word("giallo", "pace")]).state.last_word == "pace"
    replay = play("asta", GB, events + [choose("giallo", "u"), word("giallo", "pace")])
    assert replay.state.last_word is None


def test_ast4_out_and_the_next_goes_on_from_the_last_valid_word() -> None:
    events = base() + turn("giallo", "P", "I") + [word("giallo", "pace")]
    events += turn("blu", "Z", "A") + [word("blu", "pecca", jolly="c")]
    events += turn("verde", "T", "O") + [timeout("verde")]
    replay = play("asta", GBV, events)
    assert out(replay) == ["verde"]
    assert replay.out[0].rule == "AST-4"
    assert replay.state.last_word == "pecca"
    assert replay.turns[0].player == "giallo"


def test_ast4_simple_challenge_the_one_who_fails_loses() -> None:
    events = base() + turn("giallo", "P", "I") + [word("giallo", "pace")]
    replay = play("asta", GB, events + turn("blu", "D", "O") + [pass_("blu")])
    assert winners(replay) == ("giallo",)


def test_ast5_opponent_wins_with_a_four_letter_word_from_the_base() -> None:
    events = base() + turn("giallo", "B", "O") + [pass_("giallo")]
    replay = play("asta", GB, events)
    assert out(replay) == []
    assert replay.turns[0].player == "blu" and replay.turns[0].rule == "AST-5"
    replay = play("asta", GB, events + turn("blu", "P", "O") + [word("blu", "pace")])
    assert winners(replay) == ("blu",)


def test_ast5_otherwise_back_to_the_challenger_from_the_base() -> None:
    events = base() + turn("giallo", "B", "O") + [pass_("giallo")]
    events += turn("blu", "T", "U/O") + [pass_("blu")]
    replay = play("asta", GB, events)
    assert replay.turns[0].player == "giallo" and out(replay) == []
    replay = play("asta", GB, events + turn("giallo", "P", "I") + [word("giallo", "pace")])
    assert replay.state.last_word == "pace"
    assert replay.turns[0].player == "blu"


def test_ref1_ruling_accepts_a_word_the_lexicon_lacks() -> None:
    events = base() + turn("giallo", "P", "I") + [word("giallo", "pace")]
    events += turn("blu", "T", "O") + [word("blu", "capet")]
    assert out(play("asta", GB, events)) == ["blu"]
    replay = play("asta", GB, events + [ruling(len(events), True)])
    assert out(replay) == [] and replay.state.last_word == "capet"


def test_ref1_ruling_after_the_derived_out_reopens_play() -> None:
    events = base() + turn("giallo", "P", "I") + [word("giallo", "pace")]
    events += turn("blu", "T", "O") + [word("blu", "capet")]
    replay = play(
        "asta",
        GB,
        events
        + [
            {"type": "out", "player": "blu", "reason": "x"},
            {"type": "end", "winners": ["giallo"], "points": {"giallo": 1, "blu": 0}},
            ruling(len(events), True),
        ],
    )
    assert replay.outcome is None
    assert replay.turns[0].player == "giallo"
    assert replay.pending_derived() == []


def test_ast1_ch4_the_base_cannot_time_out() -> None:
    # The base is rolled, not played: its turn has no time limit, which CH-4 breaks (#23).
    with pytest.raises(NotAllowedNow) as e:
        play("asta", GB, [roll("giallo", "consonant", "B"), timeout("giallo")])
    assert e.value.rule == "CH-4" and "no time limit" in e.value.message


def test_ref1_eq4_a_word_the_referee_rejected_stays_rejected_in_the_ast5_rescue() -> None:
    events = base() + turn("giallo", "P", "I") + [word("giallo", "pace"), ruling(5, False)]
    rescue = turn("blu", "P", "O") + [word("blu", "pace")]
    replay = play("asta", GB, events + rescue)
    # AST-5: blu would win with a 4-letter word from the base, but the ruling on pace holds.
    assert winners(replay) is None
    assert replay.notes[-1].text == "pace is not admitted"
    assert replay.turns[0].player == "giallo" and replay.turns[0].rule == "AST-2"
