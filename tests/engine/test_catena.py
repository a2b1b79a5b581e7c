"""La catena (CAT-1..CAT-4) and EQ-3's choice on U/A faces."""

from __future__ import annotations

import pytest

from engine.errors import BadHeader
from engine.games.catena import check_chain
from tests.support import chain, choose, pass_, play, roll, ruling, winners, word

GB = ["giallo", "blu"]
GIALLO = ["casa", "rasa", "resa", "rese", "rete", "reti", "remi", "gemi", "geme"]
BLU = ["geme", "seme", "sete", "rete", "rate", "rase", "case", "casa"]


def admit_all(word: str) -> bool:
    return True


def anchors(words=("casa", "rete", "geme")) -> list[dict]:
    events = []
    for player, w in zip(["giallo", "blu", "verde"], words, strict=True):
        events += [roll(player, "consonant", w[0].upper()), roll(player, "vowel", w[-1].upper())]
    return events + [word(p, w) for p, w in zip(["giallo", "blu", "verde"], words, strict=True)]


def test_cat1_simple_challenge_needs_a_third_player() -> None:
    with pytest.raises(BadHeader) as e:
        play("catena", GB, [])
    assert e.value.rule == "CAT-1"


def test_cat1_multiple_challenge_third_anchor_from_a_player_in_it() -> None:
    replay = play("catena", ["giallo", "blu", "verde"], anchors())
    assert [t.player for t in replay.turns] == ["giallo", "blu", "verde"]
    assert replay.turns[0].events == ("chain", "pass", "timeout")


def test_cat1_anchor_that_breaks_the_rule_is_rejected_and_written_again() -> None:
    events = anchors()[:6] + [word("giallo", "cena")]  # any C...A word of 4 letters
    replay = play("catena", GB, events, outside=["verde"])
    assert replay.state.anchors["giallo"].word == "cena"
    events = anchors()[:6] + [word("giallo", "rosa")]
    replay = play("catena", GB, events, outside=["verde"])
    assert replay.state.anchors["giallo"].word is None
    assert "does not start with C" in replay.notes[-1].text
    replay = play("catena", GB, events + [word("giallo", "casa")], outside=["verde"])
    assert replay.state.anchors["giallo"].word == "casa"


def test_cat1_anchor_not_admitted_is_rejected_unless_the_referee_accepts() -> None:
    events = anchors()[:6] + [word("giallo", "cxxa")]
    replay = play("catena", GB, events, outside=["verde"])
    assert replay.state.anchors["giallo"].word is None
    replay = play("catena", GB, events + [ruling(7, True)], outside=["verde"])
    assert replay.state.anchors["giallo"].word == "cxxa"


def test_eq3_choose_the_letter_of_a_u_face() -> None:
    events = [roll("giallo", "consonant", "C"), roll("giallo", "vowel", "U/O")]
    replay = play("catena", GB, events, outside=["verde"])
    assert replay.turns[-1].choices == ("u", "o")
    replay = play(
        "catena", GB, events + [choose("giallo", "o"), word("giallo", "cubu")], outside=["verde"]
    )
    assert "does not end with O" in replay.notes[-1].text


def test_cat2_chain_rules() -> None:
    anchors_ = ["casa", "rete", "geme"]
    assert check_chain(GIALLO, anchors_, admit_all) is None
    assert "casa-rese changes 3 letters" in check_chain(["casa", "rese"], ["casa"], admit_all)
    assert "does not pass through geme" in check_chain(GIALLO[:5], anchors_, admit_all)
    assert "letters" in check_chain(["casa", "casse"], ["casa"], admit_all)


def test_cat2_word_not_admitted_breaks_the_chain(lexicon) -> None:
    assert check_chain(["casa", "cxsa"], ["casa"], lexicon.__contains__) == "cxsa is not admitted"


# "zasa" is not in the lexicon; its neighbour "rasa" is.
ZASA_GIALLO = ["zasa", *GIALLO[1:]]  # 9 words
ZASA_BLU = [*BLU[:6], "rasa", "zasa"]  # 8 words


def test_eq4_ref1_cat2_a_ruled_anchor_word_holds_in_every_chain() -> None:
    events = anchors(("zasa", "rete", "geme"))  # giallo's anchor word is position 7
    chains = [chain("giallo", *ZASA_GIALLO), chain("blu", *ZASA_BLU)]
    # Without a ruling, zasa is no anchor (CAT-1) and the challenge cannot go on.
    assert play("catena", GB, events, outside=["verde"]).state.anchors["giallo"].word is None
    # REF-1: the referee admits it; the ruling holds where the word is used again (EQ-4).
    replay = play("catena", GB, events + [ruling(7, True), *chains], outside=["verde"])
    assert replay.state.chains == {"giallo": 9, "blu": 8}
    assert winners(replay) == ("blu",)


def test_eq4_ref1_cat2_a_word_ruled_out_stays_out_of_the_chains() -> None:
    events = anchors()  # blu's anchor word "rete" is position 8
    # REF-1: the referee rejects rete; blu writes another R...E word (CAT-1).
    events += [ruling(8, False), word("blu", "rese")]
    blu = ["casa", "rasa", "resa", "rese", "tese", "teme", "geme"]
    replay = play(
        "catena", GB, events + [chain("giallo", *GIALLO), chain("blu", *blu)], outside=["verde"]
    )
    assert replay.state.anchors["blu"].word == "rese"
    # Giallo's chain passes through rete, which the lexicon holds but the ruling rejected (EQ-4).
    assert replay.state.chains == {"giallo": None, "blu": 7}
    assert "rete is not admitted" in replay.notes[-2].text
    assert winners(replay) == ("blu",)


def test_cat3_length_counts_words() -> None:
    replay = play(
        "catena", GB, anchors() + [chain("giallo", *GIALLO), chain("blu", *BLU)], outside=["verde"]
    )
    assert replay.state.chains == {"giallo": 9, "blu": 8}


def test_cat4_equal_lengths_draw() -> None:
    replay = play(
        "catena", GB, anchors() + [chain("giallo", *BLU), chain("blu", *BLU)], outside=["verde"]
    )
    assert winners(replay) == ("giallo", "blu")


def test_cat4_no_valid_chain_no_point() -> None:
    replay = play(
        "catena", GB, anchors() + [pass_("giallo"), chain("blu", "casa", "rete")], outside=["verde"]
    )
    assert winners(replay) == ()


def test_ch4_an_anchor_player_without_a_word_rolls_again() -> None:
    events = [
        roll("giallo", "consonant", "S"),
        roll("giallo", "vowel", "U/A"),
        choose("giallo", "u"),
    ]
    replay = play("catena", GB, events + [pass_("giallo")], outside=["verde"])
    giallo = next(t for t in replay.turns if t.player == "giallo")
    assert giallo.events == ("roll",) and giallo.dice == (("consonant", 1), ("vowel", 1))
    replay = play(
        "catena",
        GB,
        events + [pass_("giallo")] + anchors()[:2] + [word("giallo", "casa")],
        outside=["verde"],
    )
    assert replay.state.anchors["giallo"].word == "casa"
