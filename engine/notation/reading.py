"""Reading a move: its words resolved against the match (who acts, which die), then checked
by the rules. Each kind of move has its reader; :func:`parse` is the whole of it."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from typing import Any

from engine.dice import check_roll, digital_roll
from engine.errors import MalformedEvent, RuleViolation
from engine.events import REFEREE, Event, parse_event
from engine.match import Replay
from engine.message import Msg, either, msg
from engine.notation.words import (
    ANSWERS,
    CALLS,
    DECISIONS,
    DIE_NAMES,
    FLAGS,
    AmbiguousMove,
    Draft,
    IllegalMove,
    MalformedMove,
    Token,
    dice_list,
    faces,
    keyword,
    number_or,
    read,
    rest_text,
    whole_number,
)
from engine.record import NamedTuple
from engine.text import fold


class _Ctx(NamedTuple):
    replay: Replay
    seed: str | None
    sealer: Callable[[str], str] | None

    @property
    def names(self) -> tuple[str, ...]:
        return self.replay.header.everyone


def _matches(text: str, names: Sequence[str]) -> list[str]:
    exact = [n for n in names if n == text]
    return exact or [n for n in names if fold(n) == fold(text)]


# The shapes of moves that are told in two places (a move too short, a move too long).
WORD_SHAPE = msg("word PLAYER WORD [jolly LETTER]")
GUESS_SHAPE = msg("guess PLAYER TARGET WORD")
CARD_SHAPE = msg("card PLAYER|table CARD")
START_SHAPE = msg("start PLAYER")


def _take_name(toks: Sequence[Token], names: Sequence[str]) -> tuple[str, int] | None:
    """The player named by the first words (the longest run that is a name), and how many."""
    if not toks:
        return None
    if toks[0].quoted:
        runs = [1]
    else:
        # A name of k words is tried on the first k words only: a long line costs no more.
        longest = min(len(toks), max(len(n.split()) for n in names))
        runs = [j for j in range(longest, 0, -1) if not any(t.quoted for t in toks[:j])]
    for j in runs:
        text = toks[0].text if toks[0].quoted else " ".join(t.text for t in toks[:j])
        found = _matches(text, names)
        if len(found) > 1:
            raise AmbiguousMove(
                msg(
                    "%(text)r may be %(names)s: write the name exactly",
                    text=text,
                    names=either(found),
                )
            )
        if found:
            return found[0], j
    return None


def _name_or_text(toks: Sequence[Token], names: Sequence[str]) -> tuple[str, int]:
    taken = _take_name(toks, names)
    return taken if taken else (toks[0].text, 1)


def _count(toks: Sequence[Token], low: int, high: int, kind: str, shape: Msg) -> None:
    if not low <= len(toks) <= high:
        raise MalformedMove(msg("a %(kind)s is written: %(shape)s", kind=kind, shape=shape))


def _open(replay: Replay) -> None:
    if replay.outcome is not None:
        raise IllegalMove(
            msg("the challenge is over: only a ruling or a void may come now"), "CH-2"
        )


def _who(kind: str, replay: Replay) -> str:
    """The player left out of a move: the only one who may make it now."""
    _open(replay)
    turns = [t for t in replay.turns if t.player != REFEREE]
    can = list(dict.fromkeys(t.player for t in turns if kind in t.events))
    if len(can) > 1:
        raise AmbiguousMove(
            msg(
                "name the player: %(names)s may record a %(kind)s now", names=either(can), kind=kind
            )
        )
    acting = list(dict.fromkeys(t.player for t in turns))
    if can or len(acting) == 1:
        return (can or acting)[0]  # a single player acting: the rules say what they may do
    expected = tuple(msg("%(player)s: %(say)s", player=t.player, say=t.say) for t in replay.turns)
    raise IllegalMove(
        msg(
            "nobody may record a %(kind)s now; expected: %(expected)s", kind=kind, expected=expected
        )
    )


def _roll(args: Sequence[Token], ctx: _Ctx, who: str | None) -> dict[str, Any]:
    toks = list(args)
    digital = FLAGS.get(keyword(toks[-1])) if toks else None
    if digital is not None:
        toks.pop()
    die = None
    if toks and not toks[0].quoted and re.fullmatch(r"d\d+", keyword(toks[0])):
        if keyword(toks[0]) not in DIE_NAMES:
            raise MalformedMove(
                msg("unknown die %(text)r: d6, d20, consonant or vowel", text=toks[0].text)
            )
    if toks and (
        toks[0].quoted and toks[0].text in DIE_NAMES.values() or keyword(toks[0]) in DIE_NAMES
    ):
        die = toks[0].text if toks[0].quoted else DIE_NAMES[keyword(toks[0])]
        toks = toks[1:]
    values = [v for t in toks for v in faces(t)]
    if who is None:
        return {"die": die, "values": values, "digital": digital}  # syntax checked
    replay = ctx.replay
    _open(replay)
    due = [d for t in replay.turns if t.player == who for d in t.dice]
    if die is None:
        # Without faces (the digital dice) any die owed will do: the first, as the turn lists.
        owed = [d for d, n in due if not values or _fits(d, n, values, replay)]
        fit = list(dict.fromkeys(owed if values else owed[:1]))
        if len(fit) > 1:
            raise AmbiguousMove(
                msg("say which die %(player)s rolls: %(dice)s", player=who, dice=either(fit))
            )
        # Faces that fit no die, or no die owed: the rules say why (a roll out of turn is
        # refused before its die is looked at).
        die = fit[0] if fit else due[0][0] if due else "d6"
    if not values:
        count = next((n for d, n in due if d == die), None)
        if ctx.seed is None:
            raise MalformedMove(
                msg("a roll is written with the faces that fell, e.g. roll blu d6 5 4")
            )
        if count is None:
            raise IllegalMove(msg("%(player)s has no %(die)s to roll now", player=who, die=die))
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
    _count(a, 1, 1, "choice", msg("choose PLAYER VALUE (a number, or the letter of a U/A face)"))
    return {"value": number_or(a[0], fold)}


def _word_move(a: Sequence[Token], ctx: _Ctx, who: str | None) -> dict[str, Any]:
    _count(a, 1, 3, "word", WORD_SHAPE)
    if len(a) == 3 and keyword(a[1]) != "jolly":
        raise MalformedMove(msg("a %(kind)s is written: %(shape)s", kind="word", shape=WORD_SHAPE))
    return {"word": a[0].text, **({"jolly": a[-1].text} if len(a) > 1 else {})}


def _chain(a: Sequence[Token], ctx: _Ctx, who: str | None) -> dict[str, Any]:
    words = [w for t in a for w in ([t.text] if t.quoted else t.text.split("-")) if w]
    if not words:
        raise MalformedMove(msg("a chain is written: chain PLAYER WORD-WORD-..."))
    return {"words": words}


def _expression(a: Sequence[Token], ctx: _Ctx, who: str | None) -> dict[str, Any]:
    at = next((i for i, t in enumerate(a) if t.at or (not t.quoted and t.text[:1] == "@")), None)
    expr, aim = (a, ()) if at is None else (a[:at], a[at:])
    if not expr:
        raise MalformedMove(msg("an expression is written: expr PLAYER EXPRESSION [@TARGET]"))
    out: dict[str, Any] = {"expr": rest_text(expr)}
    if aim:
        named = list(aim) if aim[0].quoted else [Token(aim[0].text[1:]), *aim[1:]]
        named = [t for t in named if t.text or t.quoted]
        if not named or (named[0].quoted and len(named) > 1):
            raise MalformedMove(msg("name the one player aimed at after @, at the end"))
        taken = _take_name(named, ctx.names)
        out["target"] = taken[0] if taken and taken[1] == len(named) else rest_text(named)
    return out


def _bare(a: Sequence[Token], ctx: _Ctx, who: str | None) -> dict[str, Any]:
    if a:
        raise MalformedMove(msg("nothing follows the player here, not %(text)r", text=rest_text(a)))
    return {}


def _bet(a: Sequence[Token], ctx: _Ctx, who: str | None) -> dict[str, Any]:
    _count(a, 1, 1, "bet", msg("bet PLAYER up|down"))
    return {"call": a[0].text if a[0].quoted else CALLS.get(fold(a[0].text), fold(a[0].text))}


def _reroll(a: Sequence[Token], ctx: _Ctx, who: str | None) -> dict[str, Any]:
    _count(a, 2, 2, "reroll", msg("reroll PLAYER DICE VALUES, e.g. reroll M 2,1,3 5,2,6"))
    return {"dice": dice_list(a[0]), "values": dice_list(a[1])}


def _seal(a: Sequence[Token], ctx: _Ctx, who: str | None) -> dict[str, Any]:
    _count(a, 0, 1, "seal", msg("seal PLAYER COMMITMENT (64 hex digits: sha256 of salt:word)"))
    if a:
        return {"commitment": a[0].text if a[0].quoted else a[0].text.lower()}
    if who is not None and ctx.sealer is None:
        raise MalformedMove(msg("a seal is written with its commitment (sha256 of salt:word)"))
    return {"commitment": ctx.sealer(who) if who is not None and ctx.sealer else None}


def _guess(a: Sequence[Token], ctx: _Ctx, who: str | None) -> dict[str, Any]:
    if len(a) < 2:
        raise MalformedMove(
            msg("a %(kind)s is written: %(shape)s", kind="guess", shape=GUESS_SHAPE)
        )
    target, used = _name_or_text(a[:-1], ctx.names)
    _count(a[used:], 1, 1, "guess", GUESS_SHAPE)
    return {"target": target, "word": a[-1].text}


def _answer(a: Sequence[Token], ctx: _Ctx, who: str | None) -> dict[str, Any]:
    _count(a, 1, 1, "answer", msg("answer PLAYER right|wrong"))
    if keyword(a[0]) not in ANSWERS:
        raise MalformedMove(msg("the answer is right or wrong, not %(text)r", text=a[0].text))
    return {"right": ANSWERS[keyword(a[0])]}


def _reveal(a: Sequence[Token], ctx: _Ctx, who: str | None) -> dict[str, Any]:
    _count(a, 2, 2, "reveal", msg("reveal PLAYER WORD SALT"))
    return {"word": a[0].text, "salt": a[1].text}


def _hint(a: Sequence[Token], ctx: _Ctx, who: str | None) -> dict[str, Any]:
    _count(a, 1, 1, "hint", msg("hint PLAYER LETTER"))
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
                players = tuple(ctx.names)
                raise MalformedMove(
                    msg(
                        "%(text)r is not a player of this match (%(players)s)",
                        text=args[0].text,
                        players=players,
                    )
                ) from None
        raise
    by = who or _who(kind, ctx.replay)
    return {"by": by, **fields(rest, ctx, by)}


def _position(a: Sequence[Token], kind: str, shape: Msg) -> int:
    if not a:
        raise MalformedMove(msg("a %(kind)s is written: %(shape)s", kind=kind, shape=shape))
    return whole_number(a[0], msg("the position of a %(kind)s", kind=kind))


def _referee_move(kind: str, a: Sequence[Token], ctx: _Ctx) -> dict[str, Any]:
    if kind == "ruling":
        shape = msg("rule POSITION accept|reject [NOTE]")
        on = _position(a, "ruling", shape)
        if len(a) < 2:
            raise MalformedMove(msg("a %(kind)s is written: %(shape)s", kind="ruling", shape=shape))
        if keyword(a[1]) not in DECISIONS:
            raise MalformedMove(
                msg("the decision must be accept or reject, not %(text)r", text=a[1].text)
            )
        note = {"note": rest_text(a[2:])} if a[2:] else {}
        return {"by": REFEREE, "on": on, "accept": DECISIONS[keyword(a[1])], **note}
    if kind == "void":
        on = _position(a, "void", msg("void POSITION REASON"))
        if len(a) < 2:
            raise MalformedMove(msg("a void says why: void POSITION REASON"))
        return {"by": REFEREE, "on": on, "reason": rest_text(a[1:])}
    if kind in ("dice-commit", "dice-reveal"):
        shape = msg("dice-commit COMMITMENT") if kind == "dice-commit" else msg("dice-reveal SEED")
        _count(a, 1, 1, kind, shape)
        field = "commitment" if kind == "dice-commit" else "seed"
        return {"by": REFEREE, field: a[0].text}
    if kind == "card":
        if len(a) < 2:
            raise MalformedMove(
                msg("a %(kind)s is written: %(shape)s", kind="card", shape=CARD_SHAPE)
            )
        to, used = ("table", 1) if keyword(a[0]) == "table" else _name_or_text(a[:-1], ctx.names)
        _count(a[used:], 1, 1, "card", CARD_SHAPE)
        return {"to": to, "card": a[-1].text}
    if kind == "start":
        if not a:
            raise MalformedMove(
                msg("a %(kind)s is written: %(shape)s", kind="start", shape=START_SHAPE)
            )
        player, used = _name_or_text(a, ctx.names)
        _count(a[used:], 0, 0, "start", START_SHAPE)
        return {"by": REFEREE, "player": player}
    raise AssertionError(kind)  # pragma: no cover


def _out(a: Sequence[Token], ctx: _Ctx) -> dict[str, Any]:
    if len(a) < 2:
        raise MalformedMove(msg("an out is written: out PLAYER REASON"))
    player, used = _name_or_text(a[:-1], ctx.names)
    return {"player": player, "reason": rest_text(a[used:])}


def _end(a: Sequence[Token], ctx: _Ctx) -> dict[str, Any]:
    shape = msg("end winners PLAYER... points PLAYER N ...")
    keys = [keyword(t) for t in a]
    if not a or keys[0] != "winners" or "points" not in keys:
        raise MalformedMove(msg("an end is written: %(shape)s", shape=shape))
    split = keys.index("points")
    # Each name is looked for in a window as wide as the longest name: a long line stays linear.
    width = max(len(n.split()) for n in ctx.names)
    winners: list[str] = []
    i = split if keys[1:split] == ["nobody"] else 1
    while i < split:
        name, used = _name_or_text(a[i : min(split, i + width)], ctx.names)
        winners.append(name)
        i += used
    points: dict[str, int] = {}
    i = split + 1
    while i < len(a):
        if len(a) - i < 2:
            raise MalformedMove(msg("an end is written: %(shape)s", shape=shape))
        name, used = _name_or_text(a[i : min(len(a) - 1, i + width)], ctx.names)
        points[name] = whole_number(a[i + used], msg("%(player)s's points", player=name))
        i += used + 1
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
        raise MalformedMove(
            msg(
                "a %(kind)s is written: %(shape)s",
                kind=draft.kind,
                shape=f'{draft.kind} {{"field": value, ...}}',
            )
        )
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
    return judged(text, replay, seed=seed, sealer=sealer)[0]


def judged(
    text: str,
    replay: Replay,
    *,
    seed: str | None = None,
    sealer: Callable[[str], str] | None = None,
) -> tuple[Event, Replay]:
    """:func:`parse`'s event and the match after it (a recorder goes on from it, #27)."""
    draft, ctx = read(text), _Ctx(replay, seed, sealer)
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
        after = replay.apply(event)
    except MalformedEvent as v:
        raise MalformedMove(v.message, v.rule) from None
    except RuleViolation as v:
        raise IllegalMove(v.message, v.rule) from None
    return event, after
