"""A refused move cites the rule it breaks, not the rule of the move expected (#23).

Each case is a move of a kind the game never accepts, or accepts only at another moment, made
after a few events of a real match; the test asserts the class of the refusal, the rule id it
cites (RULES.md) and the words that tell the referee what is wrong. The first cases are the
issue's (ALP-3, CH-4, EQ-3); the rest are the others checked game by game, the wrong ones
fixed, the right ones kept as they were (they say so in their id).
"""

from __future__ import annotations

import pytest

from engine.errors import NotAllowedNow, NotYourTurn, RuleViolation
from engine.events import parse_event
from tests.support import chain, choose, doubt, expr, pass_, play, roll, timeout, word


def reroll(by: str, dice: list[int], values: list[int]) -> dict:
    return {"type": "reroll", "by": by, "dice": dice, "values": values}


def stand(by: str) -> dict:
    return {"type": "stand", "by": by}


MR = ["M", "R"]
GB = ["giallo", "blu"]
GBV = ["giallo", "blu", "verde"]

# La Roulette Alphatiana: M's attack, thrown five times (ALP-3: the attack is then over).
FIVE_THROWS = [
    roll("M", "d6", 1, 1, 1, 1, 1),
    reroll("M", [1, 1, 1, 1], [2, 2, 2, 2]),
    reroll("M", [2, 2, 2], [3, 3, 3]),
    reroll("M", [3, 3], [4, 4]),
    reroll("M", [4], [5]),
]
ATTACK = [roll("M", "d6", 6, 6, 5, 5, 3)]
STOOD = [*ATTACK, stand("M")]

# Texas Word'em: the personal consonants and the first common letters (TEX-1, TEX-2).
TEXAS_ROLLED = [
    roll("giallo", "consonant", "S", "N"),
    roll("blu", "consonant", "T", "N"),
    roll("verde", "vowel", "O", "A"),
]

# L'asta: the base E A C (AST-1), then giallo's letters P and I (AST-2).
ASTA_BASE = [roll("giallo", "vowel", "E", "A"), roll("giallo", "consonant", "C")]
ASTA_TURN = [*ASTA_BASE, roll("giallo", "consonant", "P"), roll("giallo", "vowel", "I")]

# La catena: giallo's anchor dice C and A, with no double face (CAT-1).
CATENA_ROLLED = [roll("giallo", "consonant", "C"), roll("giallo", "vowel", "A")]
CATENA_ANCHORS = [
    *CATENA_ROLLED,
    roll("blu", "consonant", "R"),
    roll("blu", "vowel", "E"),
    roll("verde", "consonant", "G"),
    roll("verde", "vowel", "E"),
    word("giallo", "casa"),
    word("blu", "rete"),
    word("verde", "geme"),
]

# (id, game, players, outside, header extras, events before, the move, class, rule, words)
CASES = [
    # --- the three ---------------------------------------------------------------
    (
        "alphatiana-stand-after-five-throws",
        "alphatiana", MR, (), {}, FIVE_THROWS, stand("M"),
        NotYourTurn, "ALP-3", ["five throws", "the attack is over"],
    ),
    (
        "alphatiana-timeout-no-time-limit",
        "alphatiana", MR, (), {}, [], timeout("M"),
        NotAllowedNow, "CH-4", ["La Roulette Alphatiana has no time limit"],
    ),
    (
        "texas-choose-u-only",
        "texas", GB, ["verde"], {}, TEXAS_ROLLED, choose("giallo", "u"),
        NotAllowedNow, "EQ-3", ["counts as U only", "nothing to choose"],
    ),
    # --- La Roulette Alphatiana, further --------------------------------------------------
    (
        "alphatiana-reroll-after-five-throws",
        "alphatiana", MR, (), {}, FIVE_THROWS, reroll("M", [5], [6]),
        NotYourTurn, "ALP-3", ["five throws", "the attack is over"],
    ),
    (
        "alphatiana-reroll-after-standing",
        "alphatiana", MR, (), {}, STOOD, reroll("M", [3], [6]),
        NotYourTurn, "ALP-3", ["M stood", "the attack is over"],
    ),
    (
        "alphatiana-roll-after-standing",
        "alphatiana", MR, (), {}, STOOD, roll("M", "d6", 1, 2, 3, 4, 5),
        NotYourTurn, "ALP-3", ["the attack is over"],
    ),
    (
        "alphatiana-timeout-while-rerolling",
        "alphatiana", MR, (), {}, ATTACK, timeout("M"),
        NotAllowedNow, "CH-4", ["no time limit"],
    ),
    (
        "alphatiana-timeout-of-the-defender",
        "alphatiana", MR, (), {}, STOOD, timeout("R"),
        NotAllowedNow, "CH-4", ["no time limit"],
    ),
    (
        "alphatiana-timeout-of-the-player-not-defending",
        "alphatiana", MR, (), {}, ATTACK, timeout("R"),
        NotAllowedNow, "CH-4", ["no time limit"],
    ),
    (
        "alphatiana-timeout-in-the-roll-off",
        "alphatiana", MR, (), {"start": "roll-off"}, [], timeout("R"),
        NotAllowedNow, "CH-4", ["no time limit"],
    ),
    (
        "alphatiana-the-attacker-chooses-a-face",
        "alphatiana", MR, (), {}, ATTACK, choose("M", 5),
        NotAllowedNow, "ALP-4", ["the defender, R, chooses"],
    ),
    (
        "alphatiana-stand-before-the-attack-kept",
        "alphatiana", MR, (), {}, [], stand("M"),
        NotAllowedNow, "ALP-3", ["may not stand now", "attack: roll d6 x5"],
    ),
    (
        "alphatiana-defence-during-the-attack-kept",
        "alphatiana", MR, (), {}, ATTACK, choose("R", 5),
        NotYourTurn, "ALP-3", ["not R's turn"],
    ),
    # --- Texas Word'em, further -----------------------------------------------------------
    (
        "texas-choose-while-rolling",
        "texas", GB, ["verde"], {}, [], choose("giallo", "u"),
        NotAllowedNow, "EQ-3", ["counts as U only"],
    ),
    (
        "texas-choose-of-the-outside-roller",
        "texas", GB, ["verde"], {}, TEXAS_ROLLED[:2], choose("verde", "a"),
        NotAllowedNow, "EQ-3", ["counts as U only"],
    ),
    (
        "texas-timeout-of-a-roll",
        "texas", GB, ["verde"], {}, [], timeout("giallo"),
        NotAllowedNow, "CH-4", ["no time limit"],
    ),
    (
        "texas-a-second-word-in-a-round-kept",
        "texas", GB, ["verde"], {}, [*TEXAS_ROLLED, word("giallo", "sano")], word("giallo", "so"),
        NotYourTurn, "TEX-3", ["not giallo's turn"],
    ),
    # --- L'asta ---------------------------------------------------------------------------
    (
        "asta-choose-without-a-double-face",
        "asta", GBV, (), {}, ASTA_TURN, choose("giallo", "u"),
        NotAllowedNow, "EQ-3", ["no U/A or U/O face"],
    ),
    (
        "asta-choose-before-the-letters",
        "asta", GBV, (), {}, ASTA_BASE, choose("giallo", "u"),
        NotAllowedNow, "EQ-3", ["no U/A or U/O face"],
    ),
    (
        "asta-timeout-of-the-base",
        "asta", GBV, (), {}, [], timeout("giallo"),
        NotAllowedNow, "CH-4", ["no time limit"],
    ),
    (
        "asta-word-before-the-letters-kept",
        "asta", GBV, (), {}, ASTA_BASE, word("giallo", "pace"),
        NotAllowedNow, "AST-2", ["may not write a word now"],
    ),
    # --- La catena ------------------------------------------------------------------------
    (
        "catena-choose-without-a-double-face",
        "catena", GB, ["verde"], {}, CATENA_ROLLED, choose("giallo", "u"),
        NotAllowedNow, "EQ-3", ["no U/A or U/O face"],
    ),
    (
        "catena-choose-in-the-chains",
        "catena", GB, ["verde"], {}, CATENA_ANCHORS, choose("giallo", "u"),
        NotAllowedNow, "EQ-3", ["no U/A or U/O face"],
    ),
    (
        "catena-timeout-of-an-anchor-roll",
        "catena", GB, ["verde"], {}, [], timeout("giallo"),
        NotAllowedNow, "CH-4", ["no time limit"],
    ),
    (
        "catena-chain-before-the-anchor-kept",
        "catena", GB, ["verde"], {}, CATENA_ROLLED, chain("giallo", "casa", "cosa"),
        NotAllowedNow, "CAT-1", ["may not write a chain now"],
    ),
    # --- La roulette russa ----------------------------------------------------------------
    (
        "roulette_russa-timeout-of-a-roll-under-revision-1",
        "roulette_russa", GB, (), {"rules": 1}, [], timeout("giallo"),
        NotAllowedNow, "CH-4", ["no time limit"],
    ),
    (
        "roulette_russa-doubt-on-the-first-turn-kept",
        "roulette_russa", GB, (), {}, [], doubt("giallo"),
        NotAllowedNow, "RR-1", ["may not doubt now"],
    ),
    (
        "roulette_russa-roll-of-a-doubter-kept",
        "roulette_russa", GBV, (), {},
        [roll("giallo", "consonant", "S"), roll("blu", "consonant", "T"), doubt("verde"),
         roll("giallo", "consonant", "P"), roll("blu", "consonant", "R")],
        roll("verde", "consonant", "N"),
        NotAllowedNow, "RR-5", ["may not roll now", "doubt blu again"],
    ),
    # --- Tiro di precisione, Il Ventuno, La battaglia dadale, Up or down -----------------
    (
        "tiro-timeout-of-a-roll",
        "tiro", GB, ["verde"], {}, [], timeout("giallo"),
        NotAllowedNow, "CH-4", ["no time limit"],
    ),
    (
        "tiro-expression-before-the-target-kept",
        "tiro", GB, ["verde"], {}, [roll("giallo", "d6", 1, 2, 3, 4)], expr("giallo", "1+2+3+4"),
        NotYourTurn, "TIR-1", ["not giallo's turn"],
    ),
    (
        "ventuno-choose-before-the-roll-kept",
        "ventuno", GB, (), {}, [], choose("giallo", 3),
        NotAllowedNow, "VEN-1", ["may not choose now"],
    ),
    (
        "battaglia-timeout-of-a-ship-roll",
        "battaglia", GB, (), {}, [], timeout("giallo"),
        NotAllowedNow, "CH-4", ["no time limit"],
    ),
    (
        "battaglia-pass-before-the-roll-kept",
        "battaglia", GB, (), {},
        [roll("giallo", "d20", 15, 4), roll("blu", "d20", 14, 9)], pass_("giallo"),
        NotAllowedNow, "BAT-2", ["may not pass now"],
    ),
    (
        "updown-bet-of-the-challenger-kept",
        "updown", GB, (), {}, [], {"type": "bet", "by": "giallo", "call": "up"},
        NotAllowedNow, "UPD-1", ["may not bet now"],
    ),
    (
        "updown-roll-before-the-bet-kept",
        "updown", GB, (), {}, [roll("giallo", "d6", 1, 5, 4)], roll("blu", "d6", 6, 2, 1),
        NotAllowedNow, "UPD-2", ["may not roll now"],
    ),
]  # fmt: skip


@pytest.mark.parametrize(
    "game, players, outside, extra, before, move, cls, rule, words",
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_a_refusal_cites_the_rule_broken(
    game: str,
    players: list[str],
    outside: tuple[str, ...],
    extra: dict,
    before: list[dict],
    move: dict,
    cls: type[RuleViolation],
    rule: str,
    words: list[str],
) -> None:
    replay = play(game, players, before, outside=outside, **extra)
    with pytest.raises(RuleViolation) as refused:
        replay.apply(parse_event(move))
    assert type(refused.value) is cls, refused.value
    assert refused.value.rule == rule, refused.value
    for said in words:
        assert said in refused.value.message
