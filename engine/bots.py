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
from string import ascii_lowercase
from typing import Any

from engine.arithmetic import BinOp, Node, Num, judge, to_text
from engine.dice import NUMERIC_DICE
from engine.errors import RuleViolation
from engine.events import JUDGED, parse_event
from engine.games.asta import previous_slots, slot
from engine.games.base import Turn
from engine.games.catena import letters_of
from engine.games.hidden_words import guessed, seal
from engine.games.texas import available
from engine.match import Replay
from engine.solve import asta_words, roulette_word, texas_best

# A few real words of every length the games ask for; the rest come from the dice at random.
VOCABULARY = (
    "casa rasa resa rese rete reti remi gemi geme seme sete rate rase case cane pane pace "
    "pena vena vela mela mare male sale sano onta orso pecca capace sonata incasso satanico "
    "passamontagna pasta tana lana nave neve dado dato data tela"
).split()
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

    ``secrets`` keeps the words the bots sealed in La parola nascosta (word, salt), which the
    log itself never holds before they are revealed.
    """
    turn = rng.choice(replay.turns)
    kind = _kind(turn, rng)
    by = turn.player
    event: dict[str, Any] = {"type": kind, "by": by}
    if replay.header.game == "parola_nascosta":
        return _parola_event(replay, kind, by, rng, {} if secrets is None else secrets)
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
        found = WORD_FINDERS.get(replay.header.game, lambda *_: None)(replay, by, rng)
        if found is None:
            event["word"] = rng.choice(VOCABULARY)
        else:
            event |= found
    elif kind == "chain":
        four = [w for w in VOCABULARY if len(w) == 4]
        event["words"] = rng.sample(four, rng.randint(2, 8))
    elif kind == "expression":
        aims: set[Fraction] = set()
        if replay.header.game == "tiro":
            aims = {Fraction(replay.state.target)}
        else:
            out = {o.player for o in replay.out}
            enemies = [p for p in replay.header.players if p != by and p not in out]
            enemy = rng.choice(enemies)
            aims = {Fraction(v) for v in replay.state.ships[enemy]}
            if not replay.header.simple:
                event["target"] = enemy
        event["expr"] = aimed_expression(turn.numbers, aims, rng)
    return event


def aimed_expression(numbers: Sequence[int], aims: set[Fraction], rng: random.Random) -> str:
    """A random expression that hits one of ``aims`` if one of a few dozen tries does."""
    text = random_expression(numbers, rng)
    for _ in range(60):
        if judge(text, numbers).value in aims:
            return text
        text = random_expression(numbers, rng)
    return text


def _parola_event(
    replay: Replay, kind: str, by: str, rng: random.Random, secrets: dict[str, tuple[str, str]]
) -> dict[str, Any]:
    """La parola nascosta: deal, seal a word, guess, and answer, hint and reveal truthfully."""
    state = replay.state
    if kind == "card":
        missing = [p for p in (*replay.header.players, "table") if p not in state.cards]
        free = [c for c in state.deck if c not in state.cards.values()]
        return {"type": "card", "to": rng.choice(missing), "card": rng.choice(free)}
    if kind == "start":
        return {"type": "start", "by": "referee", "player": rng.choice(replay.header.players)}
    if kind == "seal":
        word, salt = rng.choice(VOCABULARY), f"{rng.getrandbits(64):016x}"
        secrets[by] = (word, salt)
        return {"type": "seal", "by": by, "commitment": seal(word, salt)}
    if kind == "guess":
        out = {o.player for o in replay.out}
        others = [p for p in replay.header.players if p != by and p not in out]
        return {
            "type": "guess",
            "by": by,
            "target": rng.choice(others),
            "word": rng.choice(VOCABULARY),
        }
    word, salt = secrets[by]
    if kind == "answer":
        return {"type": "answer", "by": by, "right": guessed(state.pending.word, word)}
    if kind == "hint":
        return {"type": "hint", "by": by, "letter": word[0] if state.silent == 1 else word[-1]}
    return {"type": "reveal", "by": by, "word": word, "salt": salt}


# --- words: where a bot can find a real one cheaply, it does ------------------------------------


def _catena_word(replay: Replay, by: str, rng: random.Random) -> dict[str, Any] | None:
    anchor = replay.state.anchors[by]
    firsts, lasts = letters_of(anchor, "consonant"), letters_of(anchor, "vowel")
    found = [
        w
        for f in firsts
        for x in ascii_lowercase
        for y in ascii_lowercase
        for z in lasts
        if (w := f + x + y + z) in replay.lexicon
    ]
    return {"word": rng.choice(found)} if found else None


def _asta_word(replay: Replay, by: str, rng: random.Random) -> dict[str, Any] | None:
    """One of the legal words (AST-2), the jolly said where one is used (AST-3)."""
    state = replay.state
    legal = asta_words(
        replay.lexicon, previous_slots(state), [slot(f, state.chosen) for f in state.new]
    )
    if not legal:
        return None
    word, jolly = rng.choice(legal)
    return {"word": word, "jolly": jolly} if jolly else {"word": word}


def _texas_word(replay: Replay, by: str, rng: random.Random) -> dict[str, Any] | None:
    best = texas_best(replay.lexicon, list(available(replay.state, by).elements()))
    return {"word": best[0]} if best else None


def _roulette_word(replay: Replay, by: str, rng: random.Random) -> dict[str, Any] | None:
    found = roulette_word(replay.lexicon, [c for c, _ in replay.state.consonants], extra=1)
    return {"word": found} if found else None


WORD_FINDERS = {
    "catena": _catena_word,
    "asta": _asta_word,
    "texas": _texas_word,
    "roulette_russa": _roulette_word,
}


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
