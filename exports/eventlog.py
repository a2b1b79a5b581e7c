"""A match's event log as its sheets and pages print it: every event in words."""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from engine.events import Ruling, Void, actor
from engine.match import Replay
from engine.message import Msg, msg
from exports.i18n import say
from exports.wording import event_message


@dataclass
class LogRow:
    """One event of the log as the sheet prints it."""

    position: int
    who: str
    what: str
    notes: str
    state: str  # as it stood after this event (#28)
    void: bool
    ruling: bool | None
    later: str = ""  # the state as a later ruling or void made it, in words; "" when the same


def states_as_they_stood(replay: Replay) -> tuple[Any, ...]:
    """The state after each position as the log then stood (``[0]``: the start): a later
    ruling or void rewrites ``replay.history`` (REF-1, REF-2: it applies from the event it
    names), never what the table saw at the time. A tuple, shared by every caller."""
    if not any(isinstance(e, (Ruling, Void)) for e in replay.events):
        return tuple(replay.history)  # nothing rewrites the past
    with _lock:  # (replayed once a replay: its timeline and its words in each language, #27)
        hit = _stood.get(id(replay))
        if hit is not None and hit[0]() is replay:
            return hit[1]
    again = Replay.start(replay.header, replay.lexicon, rules=replay.revision)
    states = [again.history[0]]
    for event in replay.events:
        again = again.apply(event)
        states.append(again.history[-1])
    stood = tuple(states)
    with _lock:
        _stood[id(replay)] = (weakref.ref(replay), stood)
        while len(_stood) > STOOD:
            _stood.popitem(last=False)
    return stood


STOOD = 64  # replays whose states as they stood are kept (never to be changed: read only)
_stood: OrderedDict[int, tuple[weakref.ref[Replay], tuple[Any, ...]]] = OrderedDict()
_lock = threading.Lock()


def _state_words(replay: Replay, state: Any, lang: str) -> str:
    summary = say(replay.rules.summary(state), lang)
    gone = tuple(o.player for o in state.out)
    if gone:
        summary += "; " + say(msg("out: %(players)s", players=gone), lang)
    return summary


def rewritten(by: list[int], state: str) -> Msg:
    """The state a later ruling or void made, in words: ``after #15: totals giallo 17``."""
    return msg("after %(at)s: %(state)s", at=", ".join(f"#{at}" for at in by), state=state)


def rewritten_by(replay: Replay, position: int) -> list[int]:
    """The later rulings and voids that apply to ``position``'s state (they name it or an
    event before it)."""
    return [
        at
        for at, e in enumerate(replay.events[position:], position + 1)
        if isinstance(e, (Ruling, Void)) and e.on <= position
    ]


def event_log(replay: Replay, lang: str) -> list[LogRow]:
    """Every event of the match in words: who, what, the engine's notes, the state after it as
    it stood then, and as a later ruling or void made it where that differs (#28)."""
    reasons = {o.player: o.reason for o in replay.out}
    notes: dict[int, list[str]] = {}
    for n in replay.notes:
        notes.setdefault(n.position, []).append(("" if n.ok else "✗ ") + say(n.text, lang))
    rows = []
    stood = states_as_they_stood(replay)
    for position, event in enumerate(replay.events, 1):
        summary = _state_words(replay, stood[position], lang)
        later = ""
        if stood[position] is not replay.history[position]:
            final = _state_words(replay, replay.history[position], lang)
            if final != summary:
                later = say(rewritten(rewritten_by(replay, position), final), lang)
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
                later,
            )
        )
    return rows
