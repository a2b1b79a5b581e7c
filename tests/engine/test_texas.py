"""Texas Word'em (TEX-1..TEX-4) and EQ-3's U-only reading."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.errors import NotYourTurn, RuleViolation
from engine.games.texas import score
from tests.support import pass_, play, roll, ruling, winners, word

GB = ["giallo", "blu"]


def opening(giallo=("S", "N"), blu=("T", "N"), vowels=("O", "A")) -> list[dict]:
    return [
        roll("giallo", "consonant", *giallo),
        roll("blu", "consonant", *blu),
        roll("verde", "vowel", *vowels),
    ]


def later(consonant: str, vowel: str) -> list[dict]:
    return [roll("verde", "consonant", consonant), roll("verde", "vowel", vowel)]


def test_tex1_two_personal_consonants() -> None:
    with pytest.raises(RuleViolation, match="2 consonant"):
        play("texas", GB, [roll("giallo", "consonant", "S")], outside=["verde"])


def test_tex2_common_letters_rolled_by_the_outside_player() -> None:
    with pytest.raises(NotYourTurn):
        play("texas", GB, opening()[:2] + [roll("giallo", "vowel", "O", "A")], outside=["verde"])
    replay = play(
        "texas",
        GB,
        opening() + [word("giallo", "sano"), word("blu", "onta")] + later("S", "A"),
        outside=["verde"],
    )
    assert replay.state.common == ("o", "a", "s", "a")


def test_tex3_score_length_plus_bonus_for_every_letter() -> None:
    assert score("sano", Counter("snoa"), True)[0] == 5
    assert score("sano", Counter("snoasa"), True)[0] == 4
    assert score("sasso", Counter("snoa"), True)[0] == 0  # needs letters not available
    assert score("snoa", Counter("snoa"), False)[0] == 0  # not admitted


def test_tex3_word_not_admitted_scores_zero() -> None:
    replay = play("texas", GB, opening() + [word("giallo", "snao")], outside=["verde"])
    assert replay.state.scores["giallo"] == (0,)


def test_eq3_u_faces_count_as_u_in_texas() -> None:
    replay = play("texas", GB, opening(vowels=("U/A", "U/O")), outside=["verde"])
    assert replay.state.common == ("u", "u")
    assert "choose" not in replay.turns[0].events


def test_tex4_highest_total_wins_and_equal_totals_draw() -> None:
    rounds = (
        opening()
        + [word("giallo", "sano"), word("blu", "onta")]
        + later("S", "A")
        + [pass_("giallo"), pass_("blu")]
        + later("C", "I")
        + [pass_("giallo"), pass_("blu")]
    )
    replay = play("texas", GB, rounds, outside=["verde"])
    assert winners(replay) == ("giallo", "blu")


def test_ref1_eq4_a_word_the_referee_admitted_scores_in_a_later_round_too() -> None:
    events = opening() + [word("giallo", "snoa"), word("blu", "onta")]  # snoa is position 4
    events += [ruling(4, True)] + later("S", "A") + [pass_("giallo"), word("blu", "snoa")]
    replay = play("texas", GB, events, outside=["verde"])
    # Round 1: each uses all four letters: 5. Round 2: blu's N with S O A of the common: 4.
    assert replay.state.scores == {"giallo": (5, 0), "blu": (5, 4)}


def test_tex4_a_total_of_0_wins_nothing_even_when_every_total_is_0() -> None:
    rounds = opening() + [pass_("giallo"), pass_("blu")]
    rounds += later("S", "A") + [pass_("giallo"), word("blu", "xxxx")]
    rounds += later("C", "I") + [pass_("giallo"), pass_("blu")]
    replay = play("texas", GB, rounds, outside=["verde"])
    assert replay.state.scores == {"giallo": (0, 0, 0), "blu": (0, 0, 0)}
    assert winners(replay) == () and dict(replay.outcome.points) == {"giallo": 0, "blu": 0}
