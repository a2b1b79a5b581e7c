"""The words of the notation of moves: its errors, words and quoted strings, verbs and keywords,
and the first step of reading a line (its syntax alone, :func:`read`)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from typing import Any

from engine.events import EVENT_TYPES
from engine.message import msg
from engine.record import NamedTuple
from engine.text import fold


class NotationError(ValueError):
    """A line of notation that cannot be recorded; the message is one sentence for the referee."""

    def __init__(self, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule

    def __str__(self) -> str:
        return f"{self.message} ({self.rule})" if self.rule else self.message


class MalformedMove(NotationError):
    """Not a move at all: an unknown verb, a missing word, a number where a letter goes."""


class IllegalMove(NotationError):
    """A well-formed move the rules refuse now (not this player's turn, a face not on the die)."""


class AmbiguousMove(NotationError):
    """A move with two readings (two players may act, two dice fit the faces): say which."""


for _error in (NotationError, MalformedMove, IllegalMove, AmbiguousMove):
    _error.__module__ = "engine.notation"  # where callers import them from


# --- words and quoted strings -----------------------------------------------------------------


class Token(NamedTuple):  # a tuple: no generated code at import
    text: str
    quoted: bool = False  # written in quotes: taken exactly as written
    at: bool = False  # written @"...": the player aimed at


_DECODER = json.JSONDecoder()


def tokens(text: str) -> tuple[Token, ...]:
    """Split a line into words and quoted strings (JSON escapes inside the quotes)."""
    out: list[Token] = []
    i, n = 0, len(text)
    while i < n:
        if text[i].isspace():
            i += 1
            continue
        at = text.startswith('@"', i)
        if text[i] == '"' or at:
            try:
                value, end = _DECODER.raw_decode(text, i + 1 if at else i)
            except ValueError:
                raise MalformedMove(
                    msg("a quotation mark is not closed (or has a bad escape)")
                ) from None
            if end < n and not text[end].isspace():
                raise MalformedMove(msg("put a space after the quoted %(text)r", text=value))
            out.append(Token(value, True, at))
            i = end
        else:
            j = i
            while j < n and not text[j].isspace():
                j += 1
            out.append(Token(text[i:j]))
            i = j
    return tuple(out)


def token(value: str) -> str:
    """One value as a word of the notation: bare when it reads back as itself, else quoted.

    >>> token("casa"), token("due parole"), token('"')
    ('casa', '"due parole"', '"\\\\""')
    """
    bare = (
        value
        and value.isprintable()
        and not any(c.isspace() or c == '"' for c in value)
        and value[0] not in "@#{"
    )
    return value if bare else json.dumps(value, ensure_ascii=False)


def lit(value: str, reads: Callable[[str], Any] = str) -> str:
    """``value`` bare when the lenient reading of it gives it back, else quoted."""
    written = token(value)
    if written == value and reads(value) != value:
        return json.dumps(value, ensure_ascii=False)
    return written


def free(value: str) -> str:
    """Free text that runs to the end of the line (a note, a reason, an expression)."""
    words = value.split()
    if words and " ".join(words) == value and all(token(w) == w for w in words):
        return value
    return json.dumps(value, ensure_ascii=False)


def rest_text(toks: Sequence[Token]) -> str:
    if len(toks) == 1 and toks[0].quoted:
        return toks[0].text
    return " ".join(t.text for t in toks)


def keyword(t: Token) -> str:
    """A bare word folded (case, accents) for keywords; a quoted one never is a keyword."""
    return "" if t.quoted else fold(t.text)


# A number of the notation: at most 4,000 digits, which Python reads (it refuses one of over
# 4,300 digits, in English); the event's own checks then say when it is too large.
NUMBER = r"-?\d{1,4000}"


def whole_number(t: Token, what: str) -> int:
    """The number a token says; ``what`` names it in the refusal (a message)."""
    text = t.text.lstrip("#") if not t.quoted else ""
    if not re.fullmatch(NUMBER, text):
        raise MalformedMove(
            msg("%(what)s must be a whole number, not %(text)r", what=what, text=t.text)
        )
    return int(text)


def number_or(t: Token, other: Callable[[str], Any]) -> Any:
    if t.quoted:
        return t.text
    return int(t.text) if re.fullmatch(NUMBER, t.text) else other(t.text)


# --- the verbs --------------------------------------------------------------------------------

CANONICAL_VERB = {"expression": "expr", "ruling": "rule"}
ALIASES = {"expr": "expression", "rule": "ruling", "dice-seal": "dice-commit"}
DIE_NAMES = {"d6": "d6", "d20": "d20", "consonant": "consonant", "vowel": "vowel",
             "consonante": "consonant", "vocale": "vowel"}  # fmt: skip
CALLS = {"up": "up", "down": "down", "su": "up", "giu": "down"}
ANSWERS = {"right": True, "wrong": False, "yes": True, "no": False, "si": True}
DECISIONS = {"accept": True, "accepted": True, "reject": False, "rejected": False}
FLAGS = {"digital": True, "not-digital": False}
KEYWORDS = {"table", "winners", "points", "nobody", "jolly"}


VERBS = tuple(dict.fromkeys(CANONICAL_VERB.get(k, k) for k in EVENT_TYPES))


class Draft(NamedTuple):
    """A line read without the match: the event type and the words after the verb."""

    kind: str
    args: tuple[Token, ...]
    rest: str  # the raw text after the verb (for kinds written as JSON)


def read(text: str) -> Draft:
    """The syntax alone: the verb and its words (raises :class:`MalformedMove`)."""
    parts = text.strip().split(None, 1)
    if not parts:
        raise MalformedMove(msg("an empty line is not a move"))
    rest = parts[1] if len(parts) > 1 else ""
    verb = keyword(tokens(parts[0])[0]).replace("_", "-")
    kind = ALIASES.get(verb, verb)
    if kind not in EVENT_TYPES:
        raise MalformedMove(
            msg("unknown move %(verb)r: the moves are %(verbs)s", verb=parts[0], verbs=VERBS)
        )
    return Draft(kind, () if rest.startswith("{") else tokens(rest), rest)


def faces(t: Token) -> list[Any]:
    """The faces a roll's word names (``5,4``, ``A,U/O``, or one quoted face)."""
    if t.quoted:
        return [t.text]
    if keyword(t) in DIE_NAMES or re.fullmatch(r"d\d+", keyword(t)):
        raise MalformedMove(
            msg("the die comes before the faces, not after (%(text)r)", text=t.text)
        )
    return [number_or(Token(v), lambda s: fold(s).upper()) for v in t.text.split(",") if v]


def dice_list(t: Token) -> list[int]:
    """Dice values such as ``2,1,3`` (a reroll's dice and faces)."""
    if t.quoted or not re.fullmatch(r"\d{1,4000}(,\d{1,4000})*", t.text):
        raise MalformedMove(msg("%(text)r must be dice values such as 2,1,3", text=t.text))
    return [int(v) for v in t.text.split(",")]
