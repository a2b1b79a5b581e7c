"""Computer players: legal moves chosen at random, for simulations and conformance tests.

A bot asks the replay who may act and what is open (``Replay.turns``), builds an event of that
kind, and lets the engine judge it: words from a vocabulary may or may not stand, expressions
built from the dice may or may not hit. Randomness lives here, in the application, never in the
engine: the bot is handed a seeded ``random.Random``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from engine.arithmetic import BinOp, Node, Num, judge, to_text
from engine.dice import NUMERIC_DICE
from engine.errors import RuleViolation
from engine.events import JUDGED, parse_event
from engine.games.base import Turn
from engine.games.contract import Seat
from engine.match import Replay

# A few real words of every length the games ask for; the rest come from the dice at random.
VOCABULARY = tuple(
    (
        "casa rasa resa rese rete reti remi gemi geme seme sete rate rase case cane pane pace "
        "pena vena vela mela mare male sale sano onta orso pecca capace sonata incasso satanico "
        "passamontagna pasta tana lana nave neve dado dato data tela"
    ).split()
)
MAIN_EVENTS = (
    "roll", "word", "chain", "expression", "choose", "bet", "doubt", "reroll", "stand",
    "card", "seal", "start", "guess", "answer", "hint",
)  # fmt: skip


def random_expression(numbers: Sequence[int], rng: random.Random) -> str:
    """An expression that uses each number exactly once, with random operators and grouping."""
    nodes: list[Node] = [Num(n) for n in numbers]
    rng.shuffle(nodes)
    while len(nodes) > 1:
        i = rng.randrange(len(nodes) - 1)
        nodes[i : i + 2] = [BinOp(rng.choice("+-*/"), nodes[i], nodes[i + 1])]
    return to_text(nodes[0])


def _kind(turn: Turn, rng: random.Random) -> str:
    main = [e for e in turn.events if e in MAIN_EVENTS]
    if main and rng.random() < 0.9:
        return rng.choice(main)
    return rng.choice(turn.events)


def random_event(
    replay: Replay, rng: random.Random, secrets: dict[str, tuple[str, str]] | None = None
) -> dict[str, Any]:
    """One input event that the rules allow now (its content may still fail, as at a table).

    The game makes it where it has a computer player of its own (the contract's
    ``computer_move``: a real word, an expression aimed at the target); ``secrets`` keeps the
    words the bots sealed in La parola nascosta (word, salt), which the log itself never holds
    before they are revealed.
    """
    turn = rng.choice(replay.turns)
    kind = _kind(turn, rng)
    by = turn.player
    seat = Seat(
        replay.header,
        replay.lexicon,
        replay.state,
        turn,
        kind,
        rng,
        {} if secrets is None else secrets,
        VOCABULARY,
    )
    made = replay.rules.computer_move(seat)  # the game's own, where it has one
    if made is not None:
        return made
    event: dict[str, Any] = {"type": kind, "by": by}
    if kind == "roll":
        die, count = rng.choice(turn.dice)
        if die in NUMERIC_DICE:
            event |= {
                "die": die,
                "values": [rng.randint(1, NUMERIC_DICE[die]) for _ in range(count)],
            }
        else:
            faces = getattr(replay.header.dice, die)
            event |= {"die": die, "values": [rng.choice(faces) for _ in range(count)]}
    elif kind == "reroll":
        back = rng.sample(list(turn.numbers), rng.randint(1, len(turn.numbers) - 1))
        event |= {"dice": back, "values": [rng.randint(1, 6) for _ in back]}
    elif kind in ("choose", "bet"):
        event["value" if kind == "choose" else "call"] = rng.choice(turn.choices)
    elif kind == "word":
        event["word"] = rng.choice(VOCABULARY)
    elif kind == "chain":
        four = [w for w in VOCABULARY if len(w) == 4]
        event["words"] = rng.sample(four, rng.randint(2, 8))
    elif kind == "expression":
        event["expr"] = random_expression(turn.numbers, rng)
    return event


def aimed_expression(numbers: Sequence[int], aims: set[Fraction], rng: random.Random) -> str:
    """A random expression that hits one of ``aims`` if one of a few dozen tries does."""
    text = random_expression(numbers, rng)
    for _ in range(60):
        if judge(text, numbers).value in aims:
            return text
        text = random_expression(numbers, rng)
    return text


def random_game(replay: Replay, rng: random.Random, limit: int = 400) -> Replay:
    """Play on until the challenge ends (or ``limit`` events), with the odd ruling and void.

    Every event goes through ``Replay.apply``; derived events are written as the recording
    commands write them, so the result reads like a log recorded at a table.
    """
    secrets: dict[str, tuple[str, str]] = {}
    while replay.outcome is None and replay.position < limit:
        obj = random_event(replay, rng, secrets)
        replay = replay.apply(parse_event(obj))
        last = replay.position
        if isinstance(replay.events[-1], JUDGED) and rng.random() < 0.1:
            ruling = {"type": "ruling", "by": "referee", "on": last, "accept": rng.random() < 0.5}
            replay = replay.apply(parse_event(ruling))
        elif rng.random() < 0.04:
            # Mostly the event just entered; now and then an earlier one, which the replay
            # refuses when later events depend on it (then the referee leaves it be).
            on = last if rng.random() < 0.7 else rng.randint(1, last)
            void = {"type": "void", "by": "referee", "on": on, "reason": "scritto per errore"}
            try:
                replay = replay.apply(parse_event(void))
            except RuleViolation:
                pass
        for derived in replay.pending_derived():
            replay = replay.apply(derived)
    return replay
