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

from collections.abc import Callable, Mapping
from typing import Any

from engine.errors import MalformedEvent
from engine.jsontext import MAX_INT, JsonError, check, lone_surrogate
from engine.message import msg
from engine.record import Record

REFEREE = "referee"


class Roll(Record):
    by: str
    die: str
    values: tuple[Any, ...]
    digital: bool | None = None  # thrown by the program's auditable dice (see DiceCommit)


class Choose(Record):
    by: str
    value: Any


class Word(Record):
    by: str
    word: str
    jolly: str | None = None


class Chain(Record):
    by: str
    words: tuple[str, ...]


class Expression(Record):
    by: str
    expr: str
    target: str | None = None


class Doubt(Record):
    by: str


class Bet(Record):
    by: str
    call: str


class Pass(Record):
    by: str


class Timeout(Record):
    by: str


class Reroll(Record):
    by: str
    dice: tuple[int, ...]
    values: tuple[Any, ...]


class Stand(Record):
    by: str


class Card(Record):
    to: str
    card: str


class Seal(Record):
    by: str
    commitment: str


class Start(Record):
    by: str
    player: str


class Guess(Record):
    by: str
    target: str
    word: str


class Answer(Record):
    by: str
    right: bool


class Reveal(Record):
    by: str
    word: str
    salt: str


class Hint(Record):
    by: str
    letter: str


class DiceCommit(Record):
    """The referee seals the seed of the program's digital dice: sha256 of the seed."""

    by: str
    commitment: str


class DiceReveal(Record):
    """The seed of the digital dice, shown at the end: every digital roll can be recomputed."""

    by: str
    seed: str


class Ruling(Record):
    by: str
    on: int
    accept: bool
    note: str | None = None


class Void(Record):
    by: str
    on: int
    reason: str


class Out(Record):
    player: str
    reason: str


class End(Record):
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

# Each type by its name; none has a subclass, so an event's type names it (the replay reads
# ``type(event)`` where isinstance would cost more, #15).
EVENT_TYPES: dict[str, type[Record]] = {
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
        raise MalformedEvent(
            msg("a %(kind)s's %(name)r must be a non-empty string", kind=kind, name=name)
        )
    if not value.isascii():  # (ASCII, the common case, holds no surrogate)
        _unicode(kind, name, value)
    return value


def _unicode(kind: str, name: str, value: str) -> None:
    # A lone surrogate (from a JSON escape, or a command-line byte that is not UTF-8) cannot be
    # stored, hashed or printed as UTF-8: refused here, before anything is stored.
    if bad := lone_surrogate(value):
        raise MalformedEvent(
            msg(
                "a %(kind)s's %(name)r is not Unicode text (a lone surrogate %(bad)r)",
                kind=kind,
                name=name,
                bad=bad,
            )
        )


def _whole(value: Any) -> bool:
    """A whole number within what every JSON reader holds exactly (I-JSON, engine.jsontext)."""
    return isinstance(value, int) and not isinstance(value, bool) and -MAX_INT <= value <= MAX_INT


def _number_or_letter(kind: str, name: str, value: Any) -> bool:
    if isinstance(value, str):
        _unicode(kind, name, value)
        return True
    return _whole(value)


def _commitment(kind: str, name: str, value: Any) -> str:
    if not (
        isinstance(value, str) and len(value) == 64 and all(c in "0123456789abcdef" for c in value)
    ):
        raise MalformedEvent(
            msg("a %(kind)s's commitment must be 64 lowercase hex digits (sha256)", kind=kind)
        )
    return value


def _position(kind: str, name: str, value: Any) -> Any:
    if not _whole(value) or value < 1:
        raise MalformedEvent(
            msg("a %(kind)s's 'on' must be a position (a whole number from 1)", kind=kind)
        )
    return value


def _flag(kind: str, name: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise MalformedEvent(
            msg("a %(kind)s's %(name)r must be true or false", kind=kind, name=name)
        )
    return value


def _value(kind: str, name: str, value: Any) -> Any:
    if not _number_or_letter(kind, name, value):
        raise MalformedEvent(msg("a %(kind)s's 'value' must be a number or a letter", kind=kind))
    return value


def _dice(kind: str, name: str, value: Any) -> tuple[int, ...]:
    if not isinstance(value, list) or not value or not all(_whole(v) for v in value):
        raise MalformedEvent(
            msg("a %(kind)s's 'dice' must be a non-empty list of numbers", kind=kind)
        )
    return tuple(value)


def _list(kind: str, name: str, value: Any) -> tuple[Any, ...]:
    if not isinstance(value, list) or (name != "winners" and not value):
        raise MalformedEvent(
            msg("a %(kind)s's %(name)r must be a non-empty list", kind=kind, name=name)
        )
    if name == "values":
        for v in value:
            if type(v) is int and -MAX_INT <= v <= MAX_INT:
                continue  # a die's number, the common case: what _whole says, said faster
            if not _number_or_letter(kind, name, v):
                raise MalformedEvent(
                    msg("a %(kind)s's values must be numbers or letters", kind=kind)
                )
    else:
        for v in value:
            _text(kind, name, v)
    return tuple(value)


def _points(kind: str, name: str, value: Any) -> dict[str, int]:
    if not isinstance(value, dict) or not all(
        isinstance(k, str) and not lone_surrogate(k) and _whole(v) for k, v in value.items()
    ):
        raise MalformedEvent(f"an {kind}'s 'points' must map each player to a whole number")
    return dict(value)


# How each field is type-checked, by its name: the same field name means the same type everywhere.
_CHECKS: dict[str, Callable[[str, str, Any], Any]] = {
    **dict.fromkeys(
        (
            "by", "die", "word", "expr", "reason", "player", "call", "target", "jolly", "note",
            "to", "card", "salt", "letter", "seed",
        ),
        _text,
    ),
    "commitment": _commitment,
    "on": _position,
    **dict.fromkeys(("accept", "right", "digital"), _flag),
    "value": _value,
    "dice": _dice,
    **dict.fromkeys(("values", "words", "winners"), _list),
    "points": _points,
}  # fmt: skip

# Each kind's fields, worked out once: (name, required, check), in the Record's order.
_SHAPES: dict[
    str, tuple[type[Record], tuple[tuple[str, bool, Callable[[str, str, Any], Any]], ...]]
] = {
    kind: (cls, tuple((n, n not in cls._defaults, _CHECKS[n]) for n in cls._fields))
    for kind, cls in EVENT_TYPES.items()
}


def parse_event(obj: Any) -> Event:
    """Read one event from its JSON object, checking every field the engine uses."""
    if not isinstance(obj, Mapping):
        raise MalformedEvent("an event must be a JSON object")
    kind: Any = obj.get("type")
    shape = _SHAPES.get(kind) if isinstance(kind, str) else None
    if shape is None:
        known = ", ".join(EVENT_TYPES)
        raise MalformedEvent(f"unknown event type {kind!r} (known: {known})")
    cls, fields = shape
    values = {}
    for name, required, check_field in fields:
        value = obj.get(name)
        if value is None:
            if name not in obj:
                if required:
                    raise MalformedEvent(
                        msg("a %(kind)s needs the field %(name)r", kind=kind, name=name)
                    )
                continue
            if not required:  # an optional field given as null is unset
                continue
        values[name] = check_field(kind, name, value)  # a required null: the check says why
    if len(obj) > len(values) + 1:  # fields the engine does not read: kept, so they must be JSON
        extra = {k: v for k, v in obj.items() if k != "type" and k not in values}
        try:
            check(extra)
        except JsonError as e:
            raise MalformedEvent(f"a {kind} {e.message}") from None
    return cls._make(values)  # type: ignore[return-value]  # every Record here is an Event


def event_to_json(event: Event) -> dict[str, Any]:
    """The JSON object of an event, with ``type`` first and optional fields left out when unset.

    >>> event_to_json(Word("blu", "pecca", jolly="c"))
    {'type': 'word', 'by': 'blu', 'word': 'pecca', 'jolly': 'c'}
    """
    out: dict[str, Any] = {"type": type_name(event)}
    for name in event._fields:
        value = getattr(event, name)
        if value is None:
            continue
        out[name] = list(value) if isinstance(value, tuple) else value
    return out
