"""The events the replay derives (``out`` and ``end``): a log that carries them is checked
against the replay, never trusted (CH-2).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from engine.errors import RuleViolation
from engine.events import End, Out
from engine.games.base import Outcome


def logged_out(event: Out, state: Any, logged_outs: tuple[str, ...]) -> tuple[str, ...]:
    """The players the log says are out, with this ``out`` (the game being at ``state``)."""
    out = [o.player for o in state.out]
    if event.player in logged_outs:
        raise RuleViolation(f"the log already says {event.player} is out", "FORMAT")
    if event.player not in out:
        raise RuleViolation(
            f"the log says {event.player} is out, but the replay has them still in", "FORMAT"
        )
    return (*logged_outs, event.player)


def logged_end(event: End, outcome: Outcome | None, logged: Outcome | None) -> Outcome:
    """The outcome a logged ``end`` records: the replay's ``outcome``, once (``logged``: the
    one the log recorded before)."""
    if outcome is None:
        raise RuleViolation(
            "the log says the challenge ended, but the replay has it in play", "CH-2"
        )
    if logged is not None and logged == outcome:
        raise RuleViolation("the log already records the end of the challenge", "FORMAT")
    if set(event.winners) != set(outcome.winners) or dict(event.points) != dict(outcome.points):
        raise RuleViolation(
            f"the log says {_result(event.winners, event.points)}, "
            f"but the replay gives {_result(outcome.winners, outcome.points)}",
            "CH-2",
        )
    return outcome


def _result(winners: Iterable[str], points: Mapping[str, int]) -> str:
    """An outcome as a person reads it, not as Python prints it (#11).

    >>> _result(["Giallo"], {"Giallo": 1, "Blu": 0})
    'winners Giallo, points Giallo 1, Blu 0'
    """
    shown = ", ".join(f"{p} {n}" for p, n in points.items())
    return f"winners {', '.join(winners) or 'nobody'}, points {shown or 'none'}"
