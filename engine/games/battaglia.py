"""La battaglia dadale: sink the enemy ships with three dice (RULES BAT-1..BAT-4)."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from engine import arithmetic
from engine.errors import MalformedEvent, RuleViolation
from engine.events import Event, Expression, Pass, Roll, Timeout
from engine.games.base import (
    Context,
    Due,
    Note,
    Outcome,
    OutRecord,
    Turn,
    expecting,
    last_standing,
    next_player,
    replace,
    roll_turn,
    roll_turns,
    still_in,
    take_roll,
)
from engine.games.contract import About, Clock, Seat
from engine.header import Header
from engine.lexicon import Lexicon
from engine.message import Msg, msg
from engine.record import EMPTY, Record
from engine.rules import CURRENT

ABOUT = About(
    name="battaglia",
    title="La battaglia dadale",
    min_players=2,
    max_players=None,  # CH-1 sets none
    clock=Clock(30),  # CH-4
    sheet="sheet_battaglia.html",
    events=("roll", "expression", "pass", "timeout"),
)


class State(Record):
    header: Header
    owed: Mapping[str, Due]
    current: str
    ships: Mapping[str, tuple[int, ...]] = EMPTY
    rolled: tuple[int, ...] | None = None
    out: tuple[OutRecord, ...] = ()
    notes: tuple[Note, ...] = ()


def start(header: Header, rules: int = CURRENT) -> State:
    return State(header, owed={p: (("d20", 2),) for p in header.players}, current=header.players[0])


def turns(state: State) -> tuple[Turn, ...]:
    if any(state.owed.values()):
        return roll_turns(state.owed, "BAT-1")
    if outcome(state):
        return ()
    if state.rolled is None:
        return (roll_turn(state.current, (("d6", 3),), "BAT-2", ("roll", "timeout")),)
    dice = " ".join(map(str, state.rolled))
    return (
        Turn(
            state.current,
            ("expression", "pass", "timeout"),
            expecting("write an expression with %(dice)s that equals an enemy ship", dice=dice),
            "BAT-2",
            numbers=state.rolled,
        ),
    )


def _target(state: State, event: Expression) -> str:
    left = still_in(state.header.players, state.out)
    if event.target is None:
        enemies = [p for p in left if p != event.by]
        if len(enemies) != 1:
            raise MalformedEvent(
                msg("in a multiple challenge the expression must name the player aimed at"),
                "BAT-4",
            )
        return enemies[0]
    if event.target == event.by or event.target not in left:
        raise RuleViolation(
            msg("%(player)s is not an enemy still in the battle", player=event.target), "BAT-4"
        )
    return event.target


def _end_turn(state: State, **changes: Any) -> State:
    gone = {o.player for o in changes.get("out", state.out)}
    current = next_player(state.header.players, gone, state.current)
    return replace(state, rolled=None, current=current, **changes)


def apply(state: State, event: Event, ctx: Context) -> State:
    if isinstance(event, Roll) and any(state.owed.values()):
        owed, ships = take_roll(state.owed, event, state.header, "BAT-1")
        return replace(state, owed=owed, ships={**state.ships, event.by: ships})
    if isinstance(event, Roll):
        _, dice = take_roll({state.current: (("d6", 3),)}, event, state.header, "BAT-2")
        return replace(state, rolled=dice)
    if isinstance(event, (Pass, Timeout)):
        note = Note(ctx.position, event.by, msg("no shot"), "BAT-2", False)
        return _end_turn(state, notes=(*state.notes, note))
    if isinstance(event, Expression):
        assert state.rolled is not None
        enemy = _target(state, event)
        judged = arithmetic.judge(event.expr, state.rolled, ctx.rules)  # TIR-2 by revision
        valid = judged.valid if ctx.verdict is None else ctx.verdict
        fleet = state.ships[enemy]
        value = judged.value
        if valid and value is not None and value.denominator == 1 and int(value) in fleet:
            # BAT-3: one ship per roll; of two equal ships only one goes down.
            i = fleet.index(int(value))
            fleet = fleet[:i] + fleet[i + 1 :]
            text = msg(
                "%(expr)s sinks %(enemy)s's %(value)s", expr=event.expr, enemy=enemy, value=value
            )
            note = Note(ctx.position, event.by, text, "BAT-2", True)
            out = state.out
            if not fleet:
                out = (*out, OutRecord(enemy, msg("no ships left"), "BAT-4"))
            return _end_turn(
                state, ships={**state.ships, enemy: fleet}, out=out, notes=(*state.notes, note)
            )
        if not valid:
            why = judged.error or msg("the referee rejects it")
            text = msg("%(expr)s is not valid: %(why)s", expr=event.expr, why=why)
        else:
            text = msg(
                "%(expr)s makes %(value)s: no ship of %(enemy)s has that value",
                expr=event.expr,
                value=value,
                enemy=enemy,
            )
        return _end_turn(
            state, notes=(*state.notes, Note(ctx.position, event.by, text, "BAT-2", False))
        )
    raise AssertionError(f"battaglia cannot apply {event!r}")  # turns() admits no other type


def outcome(state: State) -> Outcome | None:
    if any(state.owed.values()):
        return None
    return last_standing(state.header.players, state.out)  # BAT-4


def summary(state: State) -> Msg:
    """The state in words, for the audit."""
    ships = tuple(
        f"{p} {' '.join(map(str, s))}" if s else msg("%(player)s none", player=p)
        for p, s in state.ships.items()
    )
    fleets = ships or msg("not rolled")
    if state.rolled:
        rolled = " ".join(map(str, state.rolled))
        return msg("ships: %(ships)s; rolled %(rolled)s", ships=fleets, rolled=rolled)
    return msg("ships: %(ships)s", ships=fleets)


# --- the contract's optional parts (engine.games.contract) -------------------------------------


def best_play(before: State, event: Event, lexicon: Lexicon, memo: dict[str, Any]) -> str:
    """The audit, for a shot taken (or not): every enemy ship the dice could sink (BAT-2)."""
    from engine.solve import best_shot

    if not isinstance(event, (Expression, Pass, Timeout)) or before.rolled is None:
        return ""
    sinkable = [
        f"{p}'s {v} with {shot.expression}"
        for p, ships in before.ships.items()
        if p != event.by
        for v in sorted(set(ships))
        if (shot := best_shot(before.rolled, v))
    ]
    return "could sink " + "; ".join(sinkable) if sinkable else "no ship could be sunk"


def computer_move(seat: Seat) -> dict[str, Any] | None:
    """A computer player's shot: at a ship of an enemy still in, where a few tries hit it
    (naming the enemy in a multiple challenge, BAT-4)."""
    if seat.kind != "expression":
        return None
    from engine.bots import aimed_expression

    by = seat.turn.player
    out = {o.player for o in seat.state.out}
    enemy = seat.rng.choice([p for p in seat.header.players if p != by and p not in out])
    event: dict[str, Any] = {"type": "expression", "by": by}
    if not seat.header.simple:
        event["target"] = enemy
    aims = {Fraction(v) for v in seat.state.ships[enemy]}
    event["expr"] = aimed_expression(seat.turn.numbers, aims, seat.rng)
    return event
