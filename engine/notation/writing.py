"""Writing a move: the one canonical line of each event, which :func:`parse` reads back to it."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from engine.events import (
    Answer,
    Bet,
    Card,
    Chain,
    Choose,
    DiceCommit,
    DiceReveal,
    End,
    Event,
    Expression,
    Guess,
    Hint,
    Out,
    Reroll,
    Reveal,
    Roll,
    Ruling,
    Seal,
    Start,
    Void,
    Word,
    event_to_json,
    type_name,
)
from engine.notation.reading import PLAYER_MOVES
from engine.notation.words import (
    CALLS,
    CANONICAL_VERB,
    DIE_NAMES,
    FLAGS,
    KEYWORDS,
    Token,
    free,
    lit,
    number_or,
    token,
)
from engine.text import fold


def _name(name: str) -> str:
    return lit(name, lambda s: "" if fold(s) in KEYWORDS else s)


def _faces_text(values: Sequence[Any]) -> str:
    return " ".join(
        str(v) if isinstance(v, int) and not isinstance(v, bool) else lit(str(v), _face_reads)
        for v in values
    )


def _face_reads(s: str) -> Any:
    if fold(s) in DIE_NAMES or fold(s) in FLAGS or re.fullmatch(r"d\d+", fold(s)) or "," in s:
        return None
    return number_or(Token(s), lambda x: fold(x).upper())


def _chain_text(words: Sequence[str]) -> str:
    if all(token(w) == w and "-" not in w for w in words):
        return "-".join(words)
    return " ".join(lit(w, lambda s: None if "-" in s else s) for w in words)


def format(event: Event) -> str:  # noqa: A001 - the notation's own word, as python-chess has san
    """The one canonical line for an event (what :func:`parse` reads back to the same event)."""
    kind = type_name(event)
    verb = CANONICAL_VERB.get(kind, kind)
    if isinstance(event, Roll):
        flag = {None: "", True: " digital", False: " not-digital"}[event.digital]
        return f"roll {_name(event.by)} {lit(event.die)} {_faces_text(event.values)}{flag}"
    if isinstance(event, Choose):
        value = event.value
        shown = str(value) if isinstance(value, int) else lit(value, _choice_reads)
        return f"choose {_name(event.by)} {shown}"
    if isinstance(event, Word):
        jolly = f" jolly {lit(event.jolly)}" if event.jolly is not None else ""
        return f"word {_name(event.by)} {lit(event.word)}{jolly}"
    if isinstance(event, Chain):
        return f"chain {_name(event.by)} {_chain_text(event.words)}"
    if isinstance(event, Expression):
        target = f" @{_name(event.target)}" if event.target is not None else ""
        return f"expr {_name(event.by)} {free(event.expr)}{target}"
    if isinstance(event, Bet):
        return f"bet {_name(event.by)} {lit(event.call, lambda s: CALLS.get(fold(s), fold(s)))}"
    if isinstance(event, Reroll):
        return f"reroll {_name(event.by)} {_commas(event.dice)} {_commas(event.values)}"
    if isinstance(event, Seal):
        return f"seal {_name(event.by)} {lit(event.commitment, str.lower)}"
    if isinstance(event, Guess):
        return f"guess {_name(event.by)} {_name(event.target)} {lit(event.word)}"
    if isinstance(event, Answer):
        return f"answer {_name(event.by)} {'right' if event.right else 'wrong'}"
    if isinstance(event, Reveal):
        return f"reveal {_name(event.by)} {lit(event.word)} {lit(event.salt)}"
    if isinstance(event, Hint):
        return f"hint {_name(event.by)} {lit(event.letter)}"
    if isinstance(event, Card):
        return f"card {_name(event.to) if event.to != 'table' else 'table'} {lit(event.card)}"
    if isinstance(event, Start):
        return f"start {_name(event.player)}"
    if isinstance(event, DiceCommit):
        return f"dice-commit {lit(event.commitment)}"
    if isinstance(event, DiceReveal):
        return f"dice-reveal {lit(event.seed)}"
    if isinstance(event, Ruling):
        note = f" {free(event.note)}" if event.note is not None else ""
        return f"rule {event.on} {'accept' if event.accept else 'reject'}{note}"
    if isinstance(event, Void):
        return f"void {event.on} {free(event.reason)}"
    if isinstance(event, Out):
        return f"out {_name(event.player)} {free(event.reason)}"
    if isinstance(event, End):
        winners = " ".join(map(_name, event.winners)) or "nobody"
        points = " ".join(f"{_name(p)} {n}" for p, n in sorted(event.points.items()))
        return f"end winners {winners} points {points}".rstrip()
    if kind in PLAYER_MOVES:  # doubt, pass, timeout, stand: the player alone
        return f"{verb} {_name(event.by)}"  # type: ignore[union-attr]
    fields = {k: v for k, v in event_to_json(event).items() if k != "type"}
    return f"{verb} {json.dumps(fields, ensure_ascii=False)}"


def _choice_reads(s: str) -> Any:
    return number_or(Token(s), fold)


def _commas(values: Sequence[Any]) -> str:
    return ",".join(map(str, values))
