"""A toy game that exists only in the tests: "pari o dispari" with a d6, two players.

Its rules (cited by its own ids, as a game cites RULES.md; a tests-only POD-n):

- POD-1 The first player says ``pari`` or ``dispari`` (a ``choose``); the second then says the
  other one (a ``choose`` of the same is refused).
- POD-2 The second player rolls one d6 (a ``roll``): the player whose word the face's parity
  is wins (CH-2: one point to the winner).

It is a :class:`~engine.games.contract.Game` built directly, from functions of this module:
nothing of it is in engine/, exports/ or tournament/.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from engine.errors import BadHeader, RuleViolation
from engine.events import Choose, Event, Roll
from engine.games.base import Context, Note, Outcome, OutRecord, Turn, outcome_for, replace
from engine.games.base import take_roll as checked_roll
from engine.games.contract import About, Game
from engine.header import Header
from engine.text import fold

WORDS = ("pari", "dispari")
ONE_D6 = (("d6", 1),)
ABOUT = About(
    name="pari_o_dispari",
    title="Pari o dispari",
    min_players=2,
    max_players=2,
    clock=None,
    sheet="sheet_pari_o_dispari.html",  # in tests/toy_templates, given with --templates
    events=("choose", "roll"),
)


@dataclass(frozen=True)
class State:
    header: Header
    said: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    face: int | None = None
    out: tuple[OutRecord, ...] = ()
    notes: tuple[Note, ...] = ()


def start(header: Header, rules: int = 0) -> State:
    if len(header.players) != 2:
        raise BadHeader("pari o dispari is played by two", "POD-1")
    return State(header)


def turns(state: State) -> tuple[Turn, ...]:
    first, second = state.header.players
    if first not in state.said:
        return (Turn(first, ("choose",), "say pari or dispari", "POD-1", choices=WORDS),)
    if second not in state.said:
        other = tuple(w for w in WORDS if w != state.said[first])
        return (Turn(second, ("choose",), f"say {other[0]}", "POD-1", choices=other),)
    if state.face is None:
        return (Turn(second, ("roll",), "roll d6 x1", "POD-2", dice=ONE_D6),)
    return ()


def apply(state: State, event: Event, ctx: Context) -> State:
    if isinstance(event, Choose):
        # Compared folded, as every choice is: the notation folds it, the web page's form
        # writes letters in capitals.
        word = fold(str(event.value))
        if word not in WORDS or word in state.said.values():
            allowed = turns(state)[0].choices
            raise RuleViolation(f"{event.by} must say {' or '.join(allowed)}", "POD-1")
        return replace(state, said=MappingProxyType({**state.said, event.by: word}))
    assert isinstance(event, Roll)  # the replay hands on only the kinds turns() opens
    _, (face,) = checked_roll({event.by: ONE_D6}, event, state.header, "POD-2")
    word = WORDS[face % 2]
    loser = next(p for p, w in state.said.items() if w != word)
    note = Note(ctx.position, event.by, f"{face} is {word}", "POD-2", True)
    out = OutRecord(loser, f"said {state.said[loser]}", "POD-2")
    return replace(state, face=face, out=(out,), notes=(*state.notes, note))


def outcome(state: State) -> Outcome | None:
    if state.face is None:
        return None
    word = WORDS[state.face % 2]
    return outcome_for(state.header.players, [p for p, w in state.said.items() if w == word])


def summary(state: State) -> str:
    said = ", ".join(f"{p}: {w}" for p, w in state.said.items())
    return f"{said}; d6 {state.face}" if state.face is not None else said


def best_play(before: Any, event: Event, lexicon: Any, memo: dict[str, Any]) -> str:
    """The audit's column: a d6 is as often even as odd."""
    return "either word wins half the time" if isinstance(event, Choose) else ""


TOY = Game(ABOUT, start, apply, turns, outcome, summary, best_play=best_play)
