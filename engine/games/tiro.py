"""Tiro di precisione: four dice, one target, exact arithmetic (RULES TIR-1..TIR-3)."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from engine import arithmetic
from engine.errors import RuleViolation
from engine.events import Event, Expression, Pass, Roll, Timeout
from engine.games.base import (
    Context,
    Due,
    Note,
    Outcome,
    OutRecord,
    Turn,
    outcome_for,
    replace,
    roll_turn,
    roll_turns,
    take_roll,
)
from engine.games.contract import About, Clock, Seat
from engine.header import Header
from engine.lexicon import Lexicon
from engine.message import Msg, msg
from engine.record import EMPTY, Record
from engine.rules import CURRENT

ABOUT = About(
    name="tiro",
    title="Tiro di precisione",
    min_players=2,
    max_players=None,  # CH-1 sets none
    clock=Clock(60),  # CH-4
    sheet="sheet_tiro.html",
    events=("roll", "expression", "pass", "timeout"),
)
OPEN = ("expression", "pass", "timeout")
TARGET = (("d20", 1),)


class State(Record):
    header: Header
    owed: Mapping[str, Due]
    dice: Mapping[str, tuple[int, ...]] = EMPTY
    target: int | None = None
    shots: Mapping[str, tuple[int, int, int] | None] = EMPTY  # key of a hit, or None
    out: tuple[OutRecord, ...] = ()
    notes: tuple[Note, ...] = ()


def target_rollers(header: Header) -> tuple[str, ...]:
    """Who may roll the target: anyone outside the challenge, else the challenger (TIR-1)."""
    return header.outside or header.players[:1]


def start(header: Header, rules: int = CURRENT) -> State:
    return State(header, owed={p: (("d6", 4),) for p in header.players})


def _rolling(state: State) -> bool:
    return any(state.owed.values()) or state.target is None


def turns(state: State) -> tuple[Turn, ...]:
    if _rolling(state):
        own = roll_turns(state.owed, "TIR-1")
        if state.target is None:
            own += tuple(
                roll_turn(p, TARGET, "TIR-1", say=msg("roll the target: d20 x1"))
                for p in target_rollers(state.header)
            )
        return own
    return tuple(
        Turn(
            p,
            OPEN,
            msg(
                "write an expression for %(target)s with %(dice)s",
                target=state.target,
                dice=" ".join(map(str, state.dice[p])),
            ),
            "TIR-2",
            numbers=state.dice[p],
        )
        for p in state.header.players
        if p not in state.shots
    )


def apply(state: State, event: Event, ctx: Context) -> State:
    if isinstance(event, Roll):
        if event.by in target_rollers(state.header) and event.die == "d20" and state.target is None:
            _, (target,) = take_roll({event.by: TARGET}, event, state.header, "TIR-1")
            return replace(state, target=target)
        owed, dice = take_roll(state.owed, event, state.header, "TIR-1")
        return replace(state, owed=owed, dice={**state.dice, event.by: dice})
    if isinstance(event, Expression):
        judged = arithmetic.judge(event.expr, state.dice[event.by], ctx.rules)  # TIR-2 by revision
        hit = judged.valid and judged.value == state.target
        if ctx.verdict is not None:
            hit = ctx.verdict
            text = (
                msg("the referee accepts %(expr)s", expr=event.expr)
                if hit
                else msg("the referee rejects %(expr)s", expr=event.expr)
            )
        elif hit:
            d, m, s = judged.key
            text = msg(
                "%(expr)s hits %(target)s (%(div)s div, %(mul)s mul, %(sub)s sub)",
                expr=event.expr,
                target=state.target,
                div=d,
                mul=m,
                sub=s,
            )
        elif judged.error:
            text = msg("%(expr)s is not valid: %(why)s", expr=event.expr, why=judged.error)
        else:
            text = msg(
                "%(expr)s makes %(value)s, not %(target)s",
                expr=event.expr,
                value=judged.value,
                target=state.target,
            )
        note = Note(ctx.position, event.by, text, "TIR-2", hit)
        return replace(
            state,
            shots={**state.shots, event.by: judged.key if hit else None},
            notes=(*state.notes, note),
        )
    if isinstance(event, (Pass, Timeout)):
        note = Note(ctx.position, event.by, msg("no expression"), "TIR-2", False)
        return replace(state, shots={**state.shots, event.by: None}, notes=(*state.notes, note))
    raise RuleViolation(f"tiro cannot apply {event!r}")  # pragma: no cover


def outcome(state: State) -> Outcome | None:
    if _rolling(state) or len(state.shots) < len(state.header.players):
        return None
    # TIR-3: among hits, more divisions, then multiplications, then subtractions; equal keys draw.
    hits = {p: k for p, k in state.shots.items() if k is not None}
    best = max(hits.values(), default=None)
    return outcome_for(state.header.players, [p for p, k in hits.items() if k == best])


def summary(state: State) -> Msg:
    """The state in words, for the audit."""
    dice = tuple(f"{p} {' '.join(map(str, d))}" for p, d in state.dice.items())
    target = state.target if state.target is not None else msg("not rolled")
    if dice:
        return msg("target %(target)s; dice %(dice)s", target=target, dice=dice)
    return msg("target %(target)s", target=target)


# --- the contract's optional parts (engine.games.contract) -------------------------------------


def best_play(before: State, event: Event, lexicon: Lexicon, memo: dict[str, Any]) -> str:
    """The audit, for a shot taken (or not): the best expression for the target (TIR-3)."""
    from engine.solve import best_shot

    if not isinstance(event, (Expression, Pass, Timeout)) or before.target is None:
        return ""
    shot = best_shot(before.dice[event.by], before.target)
    return f"best: {shot.expression} (key {shot.key})" if shot else "the target was unreachable"


def computer_move(seat: Seat) -> dict[str, Any] | None:
    """A computer player's expression: aimed at the target, where a few tries hit it."""
    if seat.kind != "expression":
        return None
    from engine.bots import aimed_expression

    aims = {Fraction(seat.state.target)}
    expr = aimed_expression(seat.turn.numbers, aims, seat.rng)
    return {"type": "expression", "by": seat.turn.player, "expr": expr}
