"""The referee's corrections in a match log: voids and rulings (REF-1, REF-2).

Which rulings stand (the last on an event not voided), what they carry to later events (a ruled
word holds wherever it is used afterwards, EQ-4), and what a void or a ruling may name. The
replay (:class:`engine.match.Replay`) folds the log again after each correction; these are its
checks and its bookkeeping.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from engine.errors import MalformedEvent, NotAllowedNow
from engine.events import (
    DERIVED,
    JUDGED,
    REFEREE,
    REFEREE_EVENTS,
    Card,
    DiceCommit,
    DiceReveal,
    Event,
    Ruling,
    Void,
    actor,
    type_name,
)
from engine.games.base import RuledKey, ruled_keys
from engine.games.contract import Game
from engine.message import msg

# What rulings carry to later events under revision 1 of the rules: nothing (0.1's REF-1: a
# ruling decided the event it was made on, and no other).
CARRIES_NOTHING: Mapping[RuledKey, bool] = MappingProxyType({})


def standing_rulings(events: tuple[Event, ...], voided: frozenset[int]) -> dict[int, bool]:
    """Position -> accepted, for every ruling not voided on an event not voided (the last wins)."""
    return {
        e.on: e.accept
        for i, e in enumerate(events, 1)
        if isinstance(e, Ruling) and i not in voided and e.on not in voided
    }


def carried_rulings(
    events: Sequence[Event], rulings: Mapping[int, bool], before: int
) -> dict[RuledKey, bool]:
    """What the standing rulings on the events before position ``before`` decide beyond those
    events (REF-1, EQ-4: a ruled word holds wherever it is used afterwards); where two rulings
    decide the same thing, the one on the later event holds."""
    carried: dict[RuledKey, bool] = {}
    if not rulings:
        return carried
    for on in sorted(p for p in rulings if p < before):
        for key in ruled_keys(events[on - 1], rulings[on]):
            carried[key] = rulings[on]
    return carried


def named(
    event: Ruling | Void, position: int, events: Sequence[Event], voided: frozenset[int]
) -> Event:
    """The earlier event a void or a ruling at ``position`` names, once it may name it."""
    if event.by != REFEREE:
        raise NotAllowedNow(
            msg("only the referee may record a %(kind)s", kind=type_name(event)), "REF-1"
        )
    if event.on >= position:
        raise MalformedEvent(
            msg(
                "a %(kind)s must name an earlier position, not %(on)s",
                kind=type_name(event),
                on=event.on,
            )
        )
    if event.on in voided:
        raise NotAllowedNow(msg("position %(on)s is already void", on=event.on), "REF-2")
    return events[event.on - 1]


def check_void(target: Event) -> None:
    """REF-2: what a void may strike (not a void, not the digital dice's seal or reveal)."""
    if isinstance(target, Void):
        raise NotAllowedNow(msg("a void cannot be voided: enter the struck event again"), "REF-2")
    if isinstance(target, (DiceCommit, DiceReveal)):
        raise NotAllowedNow(msg("the digital dice's seal and reveal cannot be voided"), "REF-2")


def check_ruling(
    event: Ruling,
    target: Event,
    events: Sequence[Event],
    revision: int,
    rules: Game,
    state: Any,
) -> None:
    """REF-1: what a ruling may decide (a word, chain, expression or guess, before its player
    plays again; or, since revision 2, a tie-break's card, PN-1), the game being at ``state``."""
    if isinstance(target, Card) and revision == 1:
        # Revision 1 of the rules (0.1): a ruling decided a word, chain, expression or guess
        # (REF-1); the referee's decision of the tie-break (PN-1) came with revision 2.
        raise NotAllowedNow(
            f"a ruling decides a word, chain, expression or guess under revision 1 of the "
            f"rules, which this match is played under; position {event.on} is a card",
            "REF-1",
        )
    tie_break = rules.why_no_tie_break_ruling
    if isinstance(target, Card) and tie_break is not None:
        # PN-1: "the referee may instead record the decision" of a tie-break, by ruling on
        # the card of a player in it, at any time once the tie-break was made.
        why = tie_break(state, target)
        if why:
            raise NotAllowedNow(why, "PN-1")
        return
    if not isinstance(target, JUDGED):
        raise NotAllowedNow(
            msg(
                "a ruling decides a word, chain, expression, guess or a tie-break's card; "
                "position %(on)s is a %(kind)s",
                on=event.on,
                kind=type_name(target),
            ),
            "REF-1",
        )
    player = actor(target)
    for e in events[event.on :]:
        if actor(e) == player and not isinstance(e, (*REFEREE_EVENTS, *DERIVED)):
            raise NotAllowedNow(
                msg(
                    "the ruling on position %(on)s comes too late: %(player)s has played since",
                    on=event.on,
                    player=player,
                ),
                "REF-1",
            )
