"""Up or down: higher or lower than the last number (RULES UPD-1..UPD-4)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.errors import MalformedEvent
from engine.events import Bet, Event, Roll, Timeout
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
from engine.message import Msg, msg
from engine.record import Record
from engine.rules import CURRENT

ABOUT = About(
    name="updown",
    title="Up or down",
    min_players=2,
    max_players=None,  # CH-1 sets none
    clock=Clock(15),  # CH-4
    sheet="sheet_updown.html",
    events=("roll", "bet", "timeout"),
)
CALLS = ("up", "down")
THREE = (("d6", 3),)


class State(Record):
    header: Header
    current: str
    stage: str = "first"  # first (the challenger's roll), bet, roll
    call: str | None = None
    last_number: int | None = None
    last_roller: str | None = None
    out: tuple[OutRecord, ...] = ()
    notes: tuple[Note, ...] = ()


def number(values: Sequence[int]) -> int:
    """The largest three-digit number the dice make (UPD-1).

    >>> number([1, 5, 4])
    541
    """
    return int("".join(str(v) for v in sorted(values, reverse=True)))


def start(header: Header, rules: int = CURRENT) -> State:
    return State(header, current=header.players[0])


def turns(state: State) -> tuple[Turn, ...]:
    if outcome(state):
        return ()
    if state.stage == "bet":
        say = expecting("say up or down against %(number)s", number=state.last_number)
        return (Turn(state.current, ("bet", "timeout"), say, "UPD-2", choices=CALLS),)
    rule = "UPD-1" if state.stage == "first" else "UPD-2"
    return (roll_turn(state.current, THREE, rule, ("roll", "timeout")),)


def _gone(out: tuple[OutRecord, ...]) -> set[str]:
    return {o.player for o in out}


def apply(state: State, event: Event, ctx: Context) -> State:
    players = state.header.players
    if isinstance(event, Bet):
        if event.call not in CALLS:
            raise MalformedEvent(
                msg('a bet\'s call must be "up" or "down", not %(call)r', call=event.call)
            )
        return replace(state, stage="roll", call=event.call)
    if isinstance(event, Timeout):
        out = (*state.out, OutRecord(state.current, msg("time ran out"), "CH-4"))
        return replace(
            state,
            out=out,
            # With no number yet to bet against, the next player makes the first roll.
            stage="first" if state.last_number is None else "bet",
            call=None,
            current=next_player(players, _gone(out), state.current),
        )
    if isinstance(event, Roll):
        rule = "UPD-1" if state.stage == "first" else "UPD-2"
        _, dice = take_roll({state.current: THREE}, event, state.header, rule)
        rolled = number(dice)
        out = state.out
        if state.stage == "roll":
            previous = state.last_number
            assert previous is not None and state.last_roller is not None
            if rolled == previous:
                # UPD-2: an exact match puts the previous roller out (UPD-3: even if already out,
                # in which case nobody else goes).
                if state.last_roller not in _gone(out):
                    reason = msg(
                        "%(player)s rolled %(number)s again", player=state.current, number=rolled
                    )
                    out = (*out, OutRecord(state.last_roller, reason, "UPD-2"))
            elif (rolled > previous) != (state.call == "up"):
                reason = msg(
                    "said %(call)s, rolled %(number)s against %(previous)s",
                    call=call_words(state.call),
                    number=rolled,
                    previous=previous,
                )
                out = (*out, OutRecord(state.current, reason, "UPD-2"))
        following = next_player(players, _gone(out), state.current)
        return replace(
            state,
            stage="bet",
            call=None,
            last_number=rolled,
            last_roller=state.current,
            out=out,
            current=following,
        )
    raise AssertionError(f"updown cannot apply {event!r}")  # turns() admits no other type


def outcome(state: State) -> Outcome | None:
    return last_standing(state.header.players, state.out)  # UPD-4


def call_words(call: str | None) -> Msg:
    """A call in words: ``up`` or ``down``."""
    return msg("up") if call == "up" else msg("down")


def summary(state: State) -> Msg:
    """The state in words, for the audit."""
    last = (
        msg("to beat %(number)s", number=state.last_number)
        if state.last_number
        else msg("no number yet")
    )
    if state.call:
        return msg(
            "%(last)s; %(player)s said %(call)s",
            last=last,
            player=state.current,
            call=call_words(state.call),
        )
    return last
