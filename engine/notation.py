"""One notation for moves: every event of a match log as one short line of text.

As python-chess reads SAN, a line is read in steps: its syntax alone (a verb, then words, numbers
and quoted strings: :class:`MalformedMove`), then against the match (who acts, which die:
:class:`IllegalMove` when the rules refuse it, :class:`AmbiguousMove` when it has two readings).
Input is lenient (case, accents, spacing; the player left out when only one may act; player
names matched regardless of case); :func:`format` writes the one canonical form, and
``parse(format(e), replay) == e`` for every event the replay allows. A quoted string is taken
exactly as written: that is how the canonical form keeps a value the lenient reading would change.

>>> format(Roll("blu", "d6", (5, 4)))
'roll blu d6 5 4'
>>> format(Ruling("referee", 4, False, "after time"))
'rule 4 reject after time'
>>> format(Expression("giallo", "6 x (5:6+1)"))
'expr giallo 6 x (5:6+1)'
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.dice import check_roll, digital_roll
from engine.errors import MalformedEvent, RuleViolation
from engine.events import (
    EVENT_TYPES,
    REFEREE,
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
    parse_event,
    type_name,
)
from engine.match import Replay
from engine.text import fold

__all__ = ["AmbiguousMove", "IllegalMove", "MalformedMove", "NotationError", "format", "parse"]


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


# --- words and quoted strings -----------------------------------------------------------------


@dataclass(frozen=True)
class Token:
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
                    "a quotation mark is not closed (or has a bad escape)"
                ) from None
            if end < n and not text[end].isspace():
                raise MalformedMove(f"put a space after the quoted {value!r}")
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


def _lit(value: str, reads: Callable[[str], Any] = str) -> str:
    """``value`` bare when the lenient reading of it gives it back, else quoted."""
    written = token(value)
    if written == value and reads(value) != value:
        return json.dumps(value, ensure_ascii=False)
    return written


def _free(value: str) -> str:
    """Free text that runs to the end of the line (a note, a reason, an expression)."""
    words = value.split()
    if words and " ".join(words) == value and all(token(w) == w for w in words):
        return value
    return json.dumps(value, ensure_ascii=False)


def _rest(toks: Sequence[Token]) -> str:
    if len(toks) == 1 and toks[0].quoted:
        return toks[0].text
    return " ".join(t.text for t in toks)


def _word(t: Token) -> str:
    """A bare word folded (case, accents) for keywords; a quoted one never is a keyword."""
    return "" if t.quoted else fold(t.text)


def _int(t: Token, what: str) -> int:
    text = t.text.lstrip("#") if not t.quoted else ""
    if not re.fullmatch(r"-?\d+", text):
        raise MalformedMove(f"{what} must be a whole number, not {t.text!r}")
    return int(text)


def _number_or(t: Token, other: Callable[[str], Any]) -> Any:
    if t.quoted:
        return t.text
    return int(t.text) if re.fullmatch(r"-?\d+", t.text) else other(t.text)


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


@dataclass(frozen=True)
class Draft:
    """A line read without the match: the event type and the words after the verb."""

    kind: str
    args: tuple[Token, ...]
    rest: str  # the raw text after the verb (for kinds written as JSON)


def read(text: str) -> Draft:
    """The syntax alone: the verb and its words (raises :class:`MalformedMove`)."""
    parts = text.strip().split(None, 1)
    if not parts:
        raise MalformedMove("an empty line is not a move")
    rest = parts[1] if len(parts) > 1 else ""
    verb = _word(tokens(parts[0])[0]).replace("_", "-")
    kind = ALIASES.get(verb, verb)
    if kind not in EVENT_TYPES:
        raise MalformedMove(f"unknown move {parts[0]!r}: the moves are {', '.join(VERBS)}")
    return Draft(kind, () if rest.startswith("{") else tokens(rest), rest)


# --- reading against the match ----------------------------------------------------------------


@dataclass(frozen=True)
class _Ctx:
    replay: Replay
    seed: str | None
    sealer: Callable[[str], str] | None

    @property
    def names(self) -> tuple[str, ...]:
        return self.replay.header.everyone


def _matches(text: str, names: Sequence[str]) -> list[str]:
    exact = [n for n in names if n == text]
    return exact or [n for n in names if fold(n) == fold(text)]


def _take_name(toks: Sequence[Token], names: Sequence[str]) -> tuple[str, int] | None:
    """The player named by the first words (the longest run that is a name), and how many."""
    if not toks:
        return None
    if toks[0].quoted:
        runs = [1]
    else:
        runs = [j for j in range(len(toks), 0, -1) if not any(t.quoted for t in toks[:j])]
    for j in runs:
        text = toks[0].text if toks[0].quoted else " ".join(t.text for t in toks[:j])
        found = _matches(text, names)
        if len(found) > 1:
            raise AmbiguousMove(f"{text!r} may be {' or '.join(found)}: write the name exactly")
        if found:
            return found[0], j
    return None


def _name_or_text(toks: Sequence[Token], names: Sequence[str]) -> tuple[str, int]:
    taken = _take_name(toks, names)
    return taken if taken else (toks[0].text, 1)


def _count(toks: Sequence[Token], low: int, high: int, kind: str, shape: str) -> None:
    if not low <= len(toks) <= high:
        raise MalformedMove(f"a {kind} is written: {shape}")


def _open(replay: Replay) -> None:
    if replay.outcome is not None:
        raise IllegalMove("the challenge is over: only a ruling or a void may come now", "CH-2")


def _who(kind: str, replay: Replay) -> str:
    """The player left out of a move: the only one who may make it now."""
    _open(replay)
    turns = [t for t in replay.turns if t.player != REFEREE]
    can = list(dict.fromkeys(t.player for t in turns if kind in t.events))
    if len(can) > 1:
        raise AmbiguousMove(f"name the player: {' or '.join(can)} may record a {kind} now")
    acting = list(dict.fromkeys(t.player for t in turns))
    if can or len(acting) == 1:
        return (can or acting)[0]  # a single player acting: the rules say what they may do
    expected = "; ".join(f"{t.player}: {t.say}" for t in replay.turns)
    raise IllegalMove(f"nobody may record a {kind} now; expected: {expected}")


def _faces(t: Token) -> list[Any]:
    if t.quoted:
        return [t.text]
    if _word(t) in DIE_NAMES or re.fullmatch(r"d\d+", _word(t)):
        raise MalformedMove(f"the die comes before the faces, not after ({t.text!r})")
    return [_number_or(Token(v), lambda s: fold(s).upper()) for v in t.text.split(",") if v]


def _roll(args: Sequence[Token], ctx: _Ctx, who: str | None) -> dict[str, Any]:
    toks = list(args)
    digital = FLAGS.get(_word(toks[-1])) if toks else None
    if digital is not None:
        toks.pop()
    die = None
    if toks and not toks[0].quoted and re.fullmatch(r"d\d+", _word(toks[0])):
        if _word(toks[0]) not in DIE_NAMES:
            raise MalformedMove(f"unknown die {toks[0].text!r}: d6, d20, consonant or vowel")
    if toks and (
        toks[0].quoted and toks[0].text in DIE_NAMES.values() or _word(toks[0]) in DIE_NAMES
    ):
        die = toks[0].text if toks[0].quoted else DIE_NAMES[_word(toks[0])]
        toks = toks[1:]
    values = [v for t in toks for v in _faces(t)]
    if who is None:
        return {"die": die, "values": values, "digital": digital}  # syntax checked
    replay = ctx.replay
    _open(replay)
    due = [d for t in replay.turns if t.player == who for d in t.dice]
    if die is None:
        fit = list(dict.fromkeys(d for d, n in due if not values or _fits(d, n, values, replay)))
        if len(fit) > 1:
            raise AmbiguousMove(f"say which die {who} rolls: {' or '.join(fit)}")
        if not fit and not due:
            raise IllegalMove(f"{who} has no dice to roll now")
        die = fit[0] if fit else due[0][0]  # faces that fit no die: the rules say why
    if not values:
        count = next((n for d, n in due if d == die), None)
        if ctx.seed is None:
            raise MalformedMove("a roll is written with the faces that fell, e.g. roll blu d6 5 4")
        if count is None:
            raise IllegalMove(f"{who} has no {die} to roll now")
        values = list(digital_roll(ctx.seed, replay.position + 1, die, count, replay.header.dice))
        digital = True
    return {"die": die, "values": values, "digital": digital}


def _fits(die: str, count: int, values: Sequence[Any], replay: Replay) -> bool:
    try:
        check_roll(die, values, replay.header.dice)
    except RuleViolation:
        return False
    return len(values) == count


def _choose(a: Sequence[Token], ctx: _Ctx, who: str | None) -> dict[str, Any]:
    _count(a, 1, 1, "choice", "choose PLAYER VALUE (a number, or the letter of a U/A face)")
    return {"value": _number_or(a[0], fold)}


def _word_move(a: Sequence[Token], ctx: _Ctx, who: str | None) -> dict[str, Any]:
    _count(a, 1, 3, "word", "word PLAYER WORD [jolly LETTER]")
    if len(a) == 3 and _word(a[1]) != "jolly":
        raise MalformedMove("a word is written: word PLAYER WORD [jolly LETTER]")
    return {"word": a[0].text, **({"jolly": a[-1].text} if len(a) > 1 else {})}


def _chain(a: Sequence[Token], ctx: _Ctx, who: str | None) -> dict[str, Any]:
    words = [w for t in a for w in ([t.text] if t.quoted else t.text.split("-")) if w]
    if not words:
        raise MalformedMove("a chain is written: chain PLAYER WORD-WORD-...")
    return {"words": words}


def _expression(a: Sequence[Token], ctx: _Ctx, who: str | None) -> dict[str, Any]:
    at = next((i for i, t in enumerate(a) if t.at or (not t.quoted and t.text[:1] == "@")), None)
    expr, aim = (a, ()) if at is None else (a[:at], a[at:])
    if not expr:
        raise MalformedMove("an expression is written: expr PLAYER EXPRESSION [@TARGET]")
    out: dict[str, Any] = {"expr": _rest(expr)}
    if aim:
        named = list(aim) if aim[0].quoted else [Token(aim[0].text[1:]), *aim[1:]]
        named = [t for t in named if t.text or t.quoted]
        if not named or (named[0].quoted and len(named) > 1):
            raise MalformedMove("name the one player aimed at after @, at the end")
        taken = _take_name(named, ctx.names)
        out["target"] = taken[0] if taken and taken[1] == len(named) else _rest(named)
    return out


def _bare(a: Sequence[Token], ctx: _Ctx, who: str | None) -> dict[str, Any]:
    if a:
        raise MalformedMove(f"nothing follows the player here, not {_rest(a)!r}")
    return {}


def _bet(a: Sequence[Token], ctx: _Ctx, who: str | None) -> dict[str, Any]:
    _count(a, 1, 1, "bet", "bet PLAYER up|down")
    return {"call": a[0].text if a[0].quoted else CALLS.get(fold(a[0].text), fold(a[0].text))}


def _dice_list(t: Token) -> list[int]:
    if t.quoted or not re.fullmatch(r"\d+(,\d+)*", t.text):
        raise MalformedMove(f"{t.text!r} must be dice values such as 2,1,3")
    return [int(v) for v in t.text.split(",")]


def _reroll(a: Sequence[Token], ctx: _Ctx, who: str | None) -> dict[str, Any]:
    _count(a, 2, 2, "reroll", "reroll PLAYER DICE VALUES, e.g. reroll M 2,1,3 5,2,6")
    return {"dice": _dice_list(a[0]), "values": _dice_list(a[1])}


def _seal(a: Sequence[Token], ctx: _Ctx, who: str | None) -> dict[str, Any]:
    _count(a, 0, 1, "seal", "seal PLAYER COMMITMENT (64 hex digits: sha256 of salt:word)")
    if a:
        return {"commitment": a[0].text if a[0].quoted else a[0].text.lower()}
    if who is not None and ctx.sealer is None:
        raise MalformedMove("a seal is written with its commitment (sha256 of salt:word)")
    return {"commitment": ctx.sealer(who) if who is not None and ctx.sealer else None}


def _guess(a: Sequence[Token], ctx: _Ctx, who: str | None) -> dict[str, Any]:
    if len(a) < 2:
        raise MalformedMove("a guess is written: guess PLAYER TARGET WORD")
    target, used = _name_or_text(a[:-1], ctx.names)
    _count(a[used:], 1, 1, "guess", "guess PLAYER TARGET WORD")
    return {"target": target, "word": a[-1].text}


def _answer(a: Sequence[Token], ctx: _Ctx, who: str | None) -> dict[str, Any]:
    _count(a, 1, 1, "answer", "answer PLAYER right|wrong")
    if _word(a[0]) not in ANSWERS:
        raise MalformedMove(f"the answer is right or wrong, not {a[0].text!r}")
    return {"right": ANSWERS[_word(a[0])]}


def _reveal(a: Sequence[Token], ctx: _Ctx, who: str | None) -> dict[str, Any]:
    _count(a, 2, 2, "reveal", "reveal PLAYER WORD SALT")
    return {"word": a[0].text, "salt": a[1].text}


def _hint(a: Sequence[Token], ctx: _Ctx, who: str | None) -> dict[str, Any]:
    _count(a, 1, 1, "hint", "hint PLAYER LETTER")
    return {"letter": a[0].text}


PLAYER_MOVES: dict[str, Callable[[Sequence[Token], _Ctx, str | None], dict[str, Any]]] = {
    "roll": _roll, "choose": _choose, "word": _word_move, "chain": _chain,
    "expression": _expression, "doubt": _bare, "bet": _bet, "pass": _bare, "timeout": _bare,
    "reroll": _reroll, "stand": _bare, "seal": _seal, "guess": _guess, "answer": _answer,
    "reveal": _reveal, "hint": _hint,
}  # fmt: skip


def _player_move(kind: str, args: Sequence[Token], ctx: _Ctx) -> dict[str, Any]:
    """The player first (or left out when only one may act), then the move's own words."""
    fields = PLAYER_MOVES[kind]
    taken = _take_name(args, ctx.names)
    who, rest = (taken[0], args[taken[1] :]) if taken else (None, args)
    try:
        fields(rest, ctx, None)  # the words alone, before anything is inferred
    except MalformedMove:
        if taken is None and args and not args[0].quoted:
            try:
                fields(args[1:], ctx, None)
            except MalformedMove:
                pass
            else:
                players = ", ".join(ctx.names)
                raise MalformedMove(
                    f"{args[0].text!r} is not a player of this match ({players})"
                ) from None
        raise
    by = who or _who(kind, ctx.replay)
    return {"by": by, **fields(rest, ctx, by)}


def _position(a: Sequence[Token], kind: str, shape: str) -> int:
    if not a:
        raise MalformedMove(f"a {kind} is written: {shape}")
    return _int(a[0], f"the position of a {kind}")


def _referee_move(kind: str, a: Sequence[Token], ctx: _Ctx) -> dict[str, Any]:
    if kind == "ruling":
        shape = "rule POSITION accept|reject [NOTE]"
        on = _position(a, "ruling", shape)
        if len(a) < 2 or _word(a[1]) not in DECISIONS:
            raise MalformedMove(f"a ruling is written: {shape}")
        note = {"note": _rest(a[2:])} if a[2:] else {}
        return {"by": REFEREE, "on": on, "accept": DECISIONS[_word(a[1])], **note}
    if kind == "void":
        on = _position(a, "void", "void POSITION REASON")
        if len(a) < 2:
            raise MalformedMove("a void says why: void POSITION REASON")
        return {"by": REFEREE, "on": on, "reason": _rest(a[1:])}
    if kind in ("dice-commit", "dice-reveal"):
        _count(a, 1, 1, kind, f"{kind} {'COMMITMENT' if kind == 'dice-commit' else 'SEED'}")
        field = "commitment" if kind == "dice-commit" else "seed"
        return {"by": REFEREE, field: a[0].text}
    if kind == "card":
        if len(a) < 2:
            raise MalformedMove("a card is written: card PLAYER|table CARD")
        to, used = ("table", 1) if _word(a[0]) == "table" else _name_or_text(a[:-1], ctx.names)
        _count(a[used:], 1, 1, "card", "card PLAYER|table CARD")
        return {"to": to, "card": a[-1].text}
    if kind == "start":
        if not a:
            raise MalformedMove("a start is written: start PLAYER")
        player, used = _name_or_text(a, ctx.names)
        _count(a[used:], 0, 0, "start", "start PLAYER")
        return {"by": REFEREE, "player": player}
    raise AssertionError(kind)  # pragma: no cover


def _out(a: Sequence[Token], ctx: _Ctx) -> dict[str, Any]:
    if len(a) < 2:
        raise MalformedMove("an out is written: out PLAYER REASON")
    player, used = _name_or_text(a[:-1], ctx.names)
    return {"player": player, "reason": _rest(a[used:])}


def _end(a: Sequence[Token], ctx: _Ctx) -> dict[str, Any]:
    shape = "end winners PLAYER... points PLAYER N ..."
    keys = [_word(t) for t in a]
    if not a or keys[0] != "winners" or "points" not in keys:
        raise MalformedMove(f"an end is written: {shape}")
    split = keys.index("points")
    named, scored = list(a[1:split]), list(a[split + 1 :])
    winners: list[str] = []
    if [_word(t) for t in named] != ["nobody"]:
        while named:
            name, used = _name_or_text(named, ctx.names)
            winners.append(name)
            named = named[used:]
    points: dict[str, int] = {}
    while scored:
        if len(scored) < 2:
            raise MalformedMove(f"an end is written: {shape}")
        name, used = _name_or_text(scored[:-1], ctx.names)
        points[name] = _int(scored[used], f"{name}'s points")
        scored = scored[used + 1 :]
    return {"winners": winners, "points": points}


REFEREE_MOVES = ("ruling", "void", "dice-commit", "dice-reveal", "card", "start")
SHORT_FORMS = (*PLAYER_MOVES, *REFEREE_MOVES, "out", "end")


def _json_fields(draft: Draft) -> dict[str, Any]:
    """The fields of an event as a JSON object: ``pass {"by": "blu"}``; the form a kind
    without a short form yet is written in."""
    try:
        fields = json.loads(draft.rest or "{}")
    except ValueError:
        fields = None
    if not isinstance(fields, dict) or "type" in fields:
        raise MalformedMove(f'a {draft.kind} is written: {draft.kind} {{"field": value, ...}}')
    return fields


def parse(
    text: str,
    replay: Replay,
    *,
    seed: str | None = None,
    sealer: Callable[[str], str] | None = None,
) -> Event:
    """The event a line of notation records at this point of the match.

    ``seed`` (the console's digital dice) gives the faces of a roll written without them;
    ``sealer`` is asked for the commitment of a ``seal`` written without one (the console
    reads the word unseen). Raises :class:`MalformedMove`, :class:`IllegalMove` or
    :class:`AmbiguousMove`, whose message is one sentence for the referee.
    """
    draft = read(text)
    ctx = _Ctx(replay, seed, sealer)
    kind = draft.kind
    if draft.rest.startswith("{") or kind not in SHORT_FORMS:
        fields = _json_fields(draft)  # any kind may be written as its JSON fields
    elif kind in PLAYER_MOVES:
        fields = _player_move(kind, draft.args, ctx)
    elif kind == "out":
        fields = _out(draft.args, ctx)
    elif kind == "end":
        fields = _end(draft.args, ctx)
    else:
        fields = _referee_move(kind, draft.args, ctx)
    try:
        event = parse_event({"type": kind, **{k: v for k, v in fields.items() if v is not None}})
    except MalformedEvent as v:
        raise MalformedMove(v.message, v.rule) from None
    try:
        replay.apply(event)
    except MalformedEvent as v:
        raise MalformedMove(v.message, v.rule) from None
    except RuleViolation as v:
        raise IllegalMove(v.message, v.rule) from None
    return event


# --- writing ----------------------------------------------------------------------------------


def _name(name: str) -> str:
    return _lit(name, lambda s: "" if fold(s) in KEYWORDS else s)


def _faces_text(values: Sequence[Any]) -> str:
    return " ".join(
        str(v) if isinstance(v, int) and not isinstance(v, bool) else _lit(str(v), _face_reads)
        for v in values
    )


def _face_reads(s: str) -> Any:
    if fold(s) in DIE_NAMES or fold(s) in FLAGS or re.fullmatch(r"d\d+", fold(s)) or "," in s:
        return None
    return _number_or(Token(s), lambda x: fold(x).upper())


def _chain_text(words: Sequence[str]) -> str:
    if all(token(w) == w and "-" not in w for w in words):
        return "-".join(words)
    return " ".join(_lit(w, lambda s: None if "-" in s else s) for w in words)


def format(event: Event) -> str:  # noqa: A001 - the notation's own word, as python-chess has san
    """The one canonical line for an event (what :func:`parse` reads back to the same event)."""
    kind = type_name(event)
    verb = CANONICAL_VERB.get(kind, kind)
    if isinstance(event, Roll):
        flag = {None: "", True: " digital", False: " not-digital"}[event.digital]
        return f"roll {_name(event.by)} {_lit(event.die)} {_faces_text(event.values)}{flag}"
    if isinstance(event, Choose):
        value = event.value
        shown = str(value) if isinstance(value, int) else _lit(value, _choice_reads)
        return f"choose {_name(event.by)} {shown}"
    if isinstance(event, Word):
        jolly = f" jolly {_lit(event.jolly)}" if event.jolly is not None else ""
        return f"word {_name(event.by)} {_lit(event.word)}{jolly}"
    if isinstance(event, Chain):
        return f"chain {_name(event.by)} {_chain_text(event.words)}"
    if isinstance(event, Expression):
        target = f" @{_name(event.target)}" if event.target is not None else ""
        return f"expr {_name(event.by)} {_free(event.expr)}{target}"
    if isinstance(event, Bet):
        return f"bet {_name(event.by)} {_lit(event.call, lambda s: CALLS.get(fold(s), fold(s)))}"
    if isinstance(event, Reroll):
        return f"reroll {_name(event.by)} {_commas(event.dice)} {_commas(event.values)}"
    if isinstance(event, Seal):
        return f"seal {_name(event.by)} {_lit(event.commitment, str.lower)}"
    if isinstance(event, Guess):
        return f"guess {_name(event.by)} {_name(event.target)} {_lit(event.word)}"
    if isinstance(event, Answer):
        return f"answer {_name(event.by)} {'right' if event.right else 'wrong'}"
    if isinstance(event, Reveal):
        return f"reveal {_name(event.by)} {_lit(event.word)} {_lit(event.salt)}"
    if isinstance(event, Hint):
        return f"hint {_name(event.by)} {_lit(event.letter)}"
    if isinstance(event, Card):
        return f"card {_name(event.to) if event.to != 'table' else 'table'} {_lit(event.card)}"
    if isinstance(event, Start):
        return f"start {_name(event.player)}"
    if isinstance(event, DiceCommit):
        return f"dice-commit {_lit(event.commitment)}"
    if isinstance(event, DiceReveal):
        return f"dice-reveal {_lit(event.seed)}"
    if isinstance(event, Ruling):
        note = f" {_free(event.note)}" if event.note is not None else ""
        return f"rule {event.on} {'accept' if event.accept else 'reject'}{note}"
    if isinstance(event, Void):
        return f"void {event.on} {_free(event.reason)}"
    if isinstance(event, Out):
        return f"out {_name(event.player)} {_free(event.reason)}"
    if isinstance(event, End):
        winners = " ".join(map(_name, event.winners)) or "nobody"
        points = " ".join(f"{_name(p)} {n}" for p, n in event.points.items())
        return f"end winners {winners} points {points}".rstrip()
    if kind in PLAYER_MOVES:  # doubt, pass, timeout, stand: the player alone
        return f"{verb} {_name(event.by)}"  # type: ignore[union-attr]
    fields = {k: v for k, v in event_to_json(event).items() if k != "type"}
    return f"{verb} {json.dumps(fields, ensure_ascii=False)}"


def _choice_reads(s: str) -> Any:
    return _number_or(Token(s), fold)


def _commas(values: Sequence[Any]) -> str:
    return ",".join(map(str, values))


VERBS = tuple(dict.fromkeys(CANONICAL_VERB.get(k, k) for k in EVENT_TYPES))
