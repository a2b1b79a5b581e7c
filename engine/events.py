"""The events of a match log, each parsed from and printed to one JSON object (FORMAT.md).

Input events record what happened at the table; ``out`` and ``end`` are derived (the engine
recomputes them and checks any that a log carries). Fields beyond those listed are allowed and
kept by the log, but the engine reads only these.

>>> parse_event({"type": "roll", "by": "blu", "die": "d6", "values": [5, 4]})
Roll(by='blu', die='d6', values=(5, 4), digital=None)
>>> parse_event({"type": "roll", "by": "blu"})
Traceback (most recent call last):
...
engine.errors.MalformedEvent: a roll needs the field 'die' (FORMAT)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from engine.errors import MalformedEvent

REFEREE = "referee"


@dataclass(frozen=True)
class Roll:
    by: str
    die: str
    values: tuple[Any, ...]
    digital: bool | None = None  # thrown by the program's auditable dice (see DiceCommit)


@dataclass(frozen=True)
class Choose:
    by: str
    value: Any


@dataclass(frozen=True)
class Word:
    by: str
    word: str
    jolly: str | None = None


@dataclass(frozen=True)
class Chain:
    by: str
    words: tuple[str, ...]


@dataclass(frozen=True)
class Expression:
    by: str
    expr: str
    target: str | None = None


@dataclass(frozen=True)
class Doubt:
    by: str


@dataclass(frozen=True)
class Bet:
    by: str
    call: str


@dataclass(frozen=True)
class Pass:
    by: str


@dataclass(frozen=True)
class Timeout:
    by: str


@dataclass(frozen=True)
class Reroll:
    by: str
    dice: tuple[int, ...]
    values: tuple[Any, ...]


@dataclass(frozen=True)
class Stand:
    by: str


@dataclass(frozen=True)
class Card:
    to: str
    card: str


@dataclass(frozen=True)
class Seal:
    by: str
    commitment: str


@dataclass(frozen=True)
class Start:
    by: str
    player: str


@dataclass(frozen=True)
class Guess:
    by: str
    target: str
    word: str


@dataclass(frozen=True)
class Answer:
    by: str
    right: bool


@dataclass(frozen=True)
class Reveal:
    by: str
    word: str
    salt: str


@dataclass(frozen=True)
class Hint:
    by: str
    letter: str


@dataclass(frozen=True)
class DiceCommit:
    """The referee seals the seed of the program's digital dice: sha256 of the seed."""

    by: str
    commitment: str


@dataclass(frozen=True)
class DiceReveal:
    """The seed of the digital dice, shown at the end: every digital roll can be recomputed."""

    by: str
    seed: str


@dataclass(frozen=True)
class Ruling:
    by: str
    on: int
    accept: bool
    note: str | None = None


@dataclass(frozen=True)
class Void:
    by: str
    on: int
    reason: str


@dataclass(frozen=True)
class Out:
    player: str
    reason: str


@dataclass(frozen=True)
class End:
    winners: tuple[str, ...]
    points: Mapping[str, int]


Event = (
    Roll
    | Choose
    | Word
    | Chain
    | Expression
    | Doubt
    | Bet
    | Pass
    | Timeout
    | Reroll
    | Stand
    | Card
    | Seal
    | Start
    | Guess
    | Answer
    | Reveal
    | Hint
    | DiceCommit
    | DiceReveal
    | Ruling
    | Void
    | Out
    | End
)

EVENT_TYPES: dict[str, type] = {
    "roll": Roll, "choose": Choose, "word": Word, "chain": Chain, "expression": Expression,
    "doubt": Doubt, "bet": Bet, "pass": Pass, "timeout": Timeout, "reroll": Reroll,
    "stand": Stand, "card": Card, "seal": Seal, "start": Start, "guess": Guess,
    "answer": Answer, "reveal": Reveal, "hint": Hint, "dice-commit": DiceCommit,
    "dice-reveal": DiceReveal, "ruling": Ruling, "void": Void,
    "out": Out, "end": End,
}  # fmt: skip
TYPE_NAMES = {cls: name for name, cls in EVENT_TYPES.items()}
DERIVED = (Out, End)
REFEREE_EVENTS = (Ruling, Void, DiceCommit, DiceReveal)
# The events that put a word, chain or expression to judgement, and so may receive a ruling (REF-1).
JUDGED = (Word, Chain, Expression, Guess)


def type_name(event: Event) -> str:
    """The ``type`` field of an event: ``type_name(Pass("blu"))`` is ``'pass'``."""
    return TYPE_NAMES[type(event)]


def actor(event: Event) -> str | None:
    """Who acts in an input event: ``by``, the referee for a card dealt, ``None`` when derived."""
    if isinstance(event, Card):
        return REFEREE
    return getattr(event, "by", None)


def _text(kind: str, name: str, value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise MalformedEvent(f"a {kind}'s {name!r} must be a non-empty string")
    return value


def _check(kind: str, name: str, value: Any) -> Any:
    """Type-check one field by its name: the same field name means the same type everywhere."""
    if name in (
        "by",
        "die",
        "word",
        "expr",
        "reason",
        "player",
        "call",
        "target",
        "jolly",
        "note",
        "to",
        "card",
        "salt",
        "letter",
        "seed",
    ):
        return _text(kind, name, value)
    if name == "commitment":
        if not (
            isinstance(value, str)
            and len(value) == 64
            and all(c in "0123456789abcdef" for c in value)
        ):
            raise MalformedEvent(f"a {kind}'s commitment must be 64 lowercase hex digits (sha256)")
        return value
    if name == "on":
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise MalformedEvent(f"a {kind}'s 'on' must be a position (a whole number from 1)")
        return value
    if name in ("accept", "right", "digital"):
        if not isinstance(value, bool):
            raise MalformedEvent(f"a {kind}'s {name!r} must be true or false")
        return value
    if name == "value":
        if isinstance(value, bool) or not isinstance(value, (int, str)):
            raise MalformedEvent(f"a {kind}'s 'value' must be a number or a letter")
        return value
    if name == "dice":
        if (
            not isinstance(value, list)
            or not value
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
        ):
            raise MalformedEvent(f"a {kind}'s 'dice' must be a non-empty list of numbers")
        return tuple(value)
    if name in ("values", "words", "winners"):
        if not isinstance(value, list) or (name != "winners" and not value):
            raise MalformedEvent(f"a {kind}'s {name!r} must be a non-empty list")
        if name == "values":
            for v in value:
                if isinstance(v, bool) or not isinstance(v, (int, str)):
                    raise MalformedEvent(f"a {kind}'s values must be numbers or letters")
        else:
            for v in value:
                _text(kind, name, v)
        return tuple(value)
    if name == "points":
        if not isinstance(value, dict) or not all(
            isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool)
            for k, v in value.items()
        ):
            raise MalformedEvent(f"an {kind}'s 'points' must map each player to a whole number")
        return dict(value)
    raise AssertionError(f"no type for field {name}")  # pragma: no cover - a bug in this module


def parse_event(obj: Any) -> Event:
    """Read one event from its JSON object, checking every field the engine uses."""
    if not isinstance(obj, Mapping):
        raise MalformedEvent("an event must be a JSON object")
    kind = obj.get("type")
    if not isinstance(kind, str) or kind not in EVENT_TYPES:
        known = ", ".join(EVENT_TYPES)
        raise MalformedEvent(f"unknown event type {kind!r} (known: {known})")
    cls = EVENT_TYPES[kind]
    values = {}
    for f in fields(cls):
        required = f.default is f.default_factory  # both MISSING: the field has no default
        if f.name not in obj or (obj[f.name] is None and not required):
            if required:
                raise MalformedEvent(f"a {kind} needs the field {f.name!r}")
            continue
        values[f.name] = _check(kind, f.name, obj[f.name])
    return cls(**values)


def event_to_json(event: Event) -> dict[str, Any]:
    """The JSON object of an event, with ``type`` first and optional fields left out when unset.

    >>> event_to_json(Word("blu", "pecca", jolly="c"))
    {'type': 'word', 'by': 'blu', 'word': 'pecca', 'jolly': 'c'}
    """
    out: dict[str, Any] = {"type": type_name(event)}
    for f in fields(event):
        value = getattr(event, f.name)
        if value is None:
            continue
        out[f.name] = list(value) if isinstance(value, tuple) else value
    return out
