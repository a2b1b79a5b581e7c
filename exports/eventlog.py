"""A match's event log as its sheets and pages print it: every event in words."""

from __future__ import annotations

from dataclasses import dataclass

from engine.events import actor
from engine.match import Replay
from engine.message import msg
from exports.i18n import say
from exports.wording import event_message


@dataclass
class LogRow:
    """One event of the log as the sheet prints it."""

    position: int
    who: str
    what: str
    notes: str
    state: str
    void: bool
    ruling: bool | None


def event_log(replay: Replay, lang: str) -> list[LogRow]:
    """Every event of the match in words: who, what, the engine's notes, the state after it."""
    reasons = {o.player: o.reason for o in replay.out}
    notes: dict[int, list[str]] = {}
    for n in replay.notes:
        notes.setdefault(n.position, []).append(("" if n.ok else "✗ ") + say(n.text, lang))
    rows = []
    for position, event in enumerate(replay.events, 1):
        state = replay.history[position]
        summary = say(replay.rules.summary(state), lang)
        gone = tuple(o.player for o in state.out)
        if gone:
            summary += "; " + say(msg("out: %(players)s", players=gone), lang)
        who = actor(event) or ""
        rows.append(
            LogRow(
                position,
                say(msg("referee"), lang) if who == "referee" else who,
                say(event_message(event, reasons), lang),
                "; ".join(notes.get(position, [])),
                summary,
                position in replay.voided,
                replay.rulings.get(position),
            )
        )
    return rows
