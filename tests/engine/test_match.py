"""The match replay: voids (REF-2), rulings (REF-1), derived events, who may act."""

from __future__ import annotations

import pytest

from engine.errors import BadHeader, GameOver, MalformedEvent, NotAllowedNow, RuleViolation
from engine.events import Chain, Choose, Expression, Void, Word
from engine.rulings import carried_rulings
from tests.support import choose, example, expr, out, play, roll, ruling, void, winners, word

GB = ["giallo", "blu"]


def ventuno_seed() -> list[dict]:
    return example("ventuno-seed.jsonl")[1]


def test_ref2_void_skips_the_event_and_the_right_one_follows() -> None:
    events = [
        roll("giallo", "d6", 4, 5),
        void(1, "the dice showed 4 6"),
        roll("giallo", "d6", 4, 6),
    ]
    replay = play("ventuno", GB, events)
    assert replay.voided == frozenset({1})
    assert replay.turns[0].choices == (4, 6)


def test_ref2_void_after_the_end_reopens_the_challenge() -> None:
    events = ventuno_seed()  # ends at position 13 with Verde's 21
    choose_21 = len(events) - 1  # position of Verde's choose of 2
    replay = play("ventuno", ["giallo", "blu", "verde"], events + [void(choose_21)])
    assert replay.outcome is None
    assert replay.turns[0].player == "verde" and replay.turns[0].events[0] == "choose"
    assert replay.logged_end is None
    replay = replay.apply(Choose("verde", 6))
    assert out(replay) == ["blu", "verde"]
    assert winners(replay) == ("giallo",)


def test_ref2_void_that_leaves_later_events_impossible_is_refused() -> None:
    events = [roll("giallo", "d6", 4, 5), choose("giallo", 5), void(1)]
    with pytest.raises(NotAllowedNow, match="position 2 would no longer be legal") as e:
        play("ventuno", GB, events)
    assert e.value.rule == "VEN-1"  # the choice without its roll


def test_ref2_void_rules() -> None:
    with pytest.raises(MalformedEvent, match="earlier position"):
        play("ventuno", GB, [roll("giallo", "d6", 4, 5), void(2)])
    with pytest.raises(NotAllowedNow, match="only the referee"):
        play("ventuno", GB, [roll("giallo", "d6", 4, 5), {**void(1), "by": "blu"}])
    with pytest.raises(NotAllowedNow, match="cannot be voided"):
        play("ventuno", GB, [roll("giallo", "d6", 4, 5), void(1), void(2)])
    with pytest.raises(NotAllowedNow, match="already void"):
        play("ventuno", GB, [roll("giallo", "d6", 4, 5), void(1), void(1)])


def test_ref1_ruling_only_on_words_chains_expressions() -> None:
    with pytest.raises(NotAllowedNow) as e:
        play("ventuno", GB, [roll("giallo", "d6", 4, 5), ruling(1, False)])
    assert e.value.rule == "REF-1"


def test_ref1_ruling_must_come_before_the_player_acts_again() -> None:
    head, events = example("battaglia-seed.jsonl")
    # Position 4 is Giallo's 3x5x1; Giallo rolls again at position 7.
    with pytest.raises(NotAllowedNow, match="too late"):
        play("battaglia", GB, events[:7] + [ruling(4, False)])
    replay = play("battaglia", GB, events[:6] + [ruling(4, False)])
    assert replay.state.ships["blu"] == (14, 15)


def test_ruling_on_a_voided_event_is_refused() -> None:
    _, events = example("tiro-seed.jsonl")
    with pytest.raises(NotAllowedNow, match="already void"):
        play("tiro", GB, events[:4] + [void(4), ruling(4, True)], outside=["verde"])


def test_a_void_of_a_ruling_restores_the_engine_judgement() -> None:
    _, events = example("tiro-seed.jsonl")
    replay = play("tiro", GB, events[:5] + [ruling(5, False)], outside=["verde"])
    assert replay.rulings == {5: False}
    replay = replay.apply(Void("referee", 6, "x"))
    assert replay.rulings == {}
    assert winners(replay) == ("giallo",)


def test_play_after_the_end_is_refused() -> None:
    with pytest.raises(GameOver):
        play("ventuno", ["giallo", "blu", "verde"], ventuno_seed() + [roll("giallo", "d6", 1, 1)])


def test_derived_events_are_checked_not_trusted() -> None:
    events = [e for e in ventuno_seed() if e["type"] not in ("out", "end")]
    with pytest.raises(RuleViolation, match="replay has them still in"):
        play(
            "ventuno",
            ["giallo", "blu", "verde"],
            events[:2] + [{"type": "out", "player": "blu", "reason": "made up"}],
        )
    with pytest.raises(RuleViolation, match="the replay gives winners"):
        play(
            "ventuno",
            ["giallo", "blu", "verde"],
            events + [{"type": "end", "winners": ["giallo"], "points": {"giallo": 1}}],
        )
    with pytest.raises(RuleViolation, match="replay has it in play"):
        play(
            "ventuno",
            ["giallo", "blu", "verde"],
            events[:2] + [{"type": "end", "winners": [], "points": {}}],
        )


def test_derived_events_may_be_left_out_and_are_then_pending() -> None:
    events = [e for e in ventuno_seed() if e["type"] not in ("out", "end")]
    replay = play("ventuno", ["giallo", "blu", "verde"], events)
    kinds = [type(e).__name__ for e in replay.pending_derived()]
    assert kinds == ["Out", "End"]


def test_strangers_and_the_referee_cannot_play() -> None:
    with pytest.raises(MalformedEvent, match="not a player"):
        play("ventuno", GB, [roll("rosso", "d6", 1, 2)])
    with pytest.raises(NotAllowedNow, match="referee cannot record a"):
        play("ventuno", GB, [roll("referee", "d6", 1, 2)])


def test_ch1_too_few_players_and_unknown_games() -> None:
    with pytest.raises(RuleViolation) as e:
        play("ventuno", ["giallo"], [])
    assert e.value.rule == "CH-1"
    with pytest.raises(BadHeader, match="unknown game"):
        play("poker", GB, [])


def test_expression_events_in_the_wrong_game_are_refused() -> None:
    with pytest.raises(NotAllowedNow):
        play("ventuno", GB, [expr("giallo", "1+1")])


def test_ref1_eq4_what_a_ruling_decides_holds_later_and_the_later_ruled_event_wins() -> None:
    events = (
        Word("giallo", "Zasa"),
        Word("blu", "zasa"),
        Chain("giallo", ("casa", "xxxx")),
        Chain("blu", ("yyyy", "casa")),
        Expression("giallo", "1+2"),
    )
    rulings = {1: True, 2: False, 3: True, 4: False, 5: True}
    assert carried_rulings(events, rulings, 1) == {}
    assert carried_rulings(events, rulings, 2) == {("word", "zasa"): True}
    # A rejected chain does not say which word failed; an expression carries nothing.
    assert carried_rulings(events, rulings, 6) == {
        ("word", "zasa"): False,
        ("word", "casa"): True,
        ("word", "xxxx"): True,
    }


def test_ref1_ref2_a_ruling_on_a_voided_word_holds_nowhere() -> None:
    anchors = [
        roll("giallo", "consonant", "Z"),
        roll("giallo", "vowel", "A"),
        word("giallo", "zasa"),
        ruling(3, True),
    ]
    replay = play("catena", GB, anchors, outside=["verde"])
    assert replay.state.anchors["giallo"].word == "zasa"
    # REF-2: the word is struck, so the ruling on it stands no more, here or later.
    replay = play("catena", GB, [*anchors, void(3), word("giallo", "zasa")], outside=["verde"])
    assert replay.state.anchors["giallo"].word is None
    assert replay.notes[-1].text == "anchor rejected: zasa is not admitted; write another"
