"""Il Ventuno: a race to exactly 21 on a common total (RULES VEN-1, VEN-2)."""

from __future__ import annotations

from engine.errors import RuleViolation
from engine.events import Choose, Event, Roll, Timeout
from engine.games.base import (
    Context,
    Note,
    Outcome,
    OutRecord,
    Turn,
    expecting,
    last_standing,
    next_player,
    replace,
    roll_turn,
    take_roll,
)
from engine.games.contract import About, Clock
from engine.header import Header
from engine.message import Msg, either, msg
from engine.record import Record
from engine.rules import CURRENT

ABOUT = About(
    name="ventuno",
    title="Il Ventuno",
    min_players=2,
    max_players=None,  # CH-1 sets none
    clock=Clock(15),  # CH-4
    sheet="sheet_ventuno.html",
    events=("roll", "choose", "timeout"),
)
TARGET = 21
TWO = (("d6", 2),)


class State(Record):
    header: Header
    current: str
    total: int = 0
    rolled: tuple[int, ...] | None = None  # dice waiting for the player's choice
    winner: str | None = None
    out: tuple[OutRecord, ...] = ()
    notes: tuple[Note, ...] = ()


def options(dice: tuple[int, ...]) -> tuple[int, ...]:
    """The values a throw may add (VEN-1): either die, or on a double the value or twice it.

    >>> options((3, 3))
    (3, 6)
    >>> options((4, 5))
    (4, 5)
    """
    a, b = dice
    return (a, 2 * a) if a == b else tuple(sorted({a, b}))


def start(header: Header, rules: int = CURRENT) -> State:
    return State(header, current=header.players[0])


def turns(state: State) -> tuple[Turn, ...]:
    if outcome(state):
        return ()
    if state.rolled is None:
        return (roll_turn(state.current, TWO, "VEN-1", ("roll", "timeout")),)
    open_values = options(state.rolled)
    # Every value the throw gives may be chosen (VEN-1); one that goes over 21 is said so
    # (VEN-2), never left out of the offer while the refusal names it (#28).
    values = either([str(v) for v in open_values])
    over = [str(v) for v in open_values if state.total + v > TARGET]
    expects = (
        expecting(
            "choose the value to add: %(values)s (%(over)s goes over 21)",
            values=values,
            over=either(over),
        )
        if over
        else expecting("choose the value to add: %(values)s", values=values)
    )
    return (Turn(state.current, ("choose", "timeout"), expects, "VEN-1", choices=open_values),)


def _bust(state: State, reason: Msg, rule: str = "VEN-2") -> State:
    """VEN-2: over 21 is out (in a simple challenge that is the loss); play goes on."""
    out = (*state.out, OutRecord(state.current, reason, rule))
    following = next_player(state.header.players, {o.player for o in out}, state.current)
    return replace(state, out=out, rolled=None, current=following)


def apply(state: State, event: Event, ctx: Context) -> State:
    if isinstance(event, Roll):
        _, dice = take_roll({state.current: TWO}, event, state.header, "VEN-1")
        if all(state.total + v > TARGET for v in options(dice)):
            shown = "-".join(map(str, dice))
            return _bust(
                state,
                msg(
                    "every value of %(dice)s goes over 21 from %(total)s",
                    dice=shown,
                    total=state.total,
                ),
            )
        return replace(state, rolled=dice)
    if isinstance(event, Choose):
        assert state.rolled is not None
        allowed = options(state.rolled)
        if event.value not in allowed:
            raise RuleViolation(
                msg(
                    "%(value)r is not a value of the throw; choose one of %(values)s",
                    value=event.value,
                    values=tuple(map(str, allowed)),
                ),
                "VEN-1",
            )
        total = state.total + event.value
        if total > TARGET:
            return _bust(
                state, msg("chose %(value)s: %(total)s is over 21", value=event.value, total=total)
            )
        if total == TARGET:
            return replace(state, total=total, rolled=None, winner=state.current)
        following = next_player(state.header.players, {o.player for o in state.out}, state.current)
        return replace(state, total=total, rolled=None, current=following)
    if isinstance(event, Timeout):
        # CH-4: a turn that runs out counts as not answering; in Ventuno that leaves the race.
        return _bust(state, msg("time ran out"), "CH-4")
    raise AssertionError(f"ventuno cannot apply {event!r}")  # turns() admits no other type


def outcome(state: State) -> Outcome | None:
    return last_standing(state.header.players, state.out, state.winner)  # VEN-2


def summary(state: State) -> Msg:
    """The state in words, for the audit."""
    if state.rolled:
        rolled = "-".join(map(str, state.rolled))
        return msg("total %(total)s; rolled %(rolled)s", total=state.total, rolled=rolled)
    return msg("total %(total)s", total=state.total)
