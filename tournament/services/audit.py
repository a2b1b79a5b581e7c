"""The audit of a match: its timeline, the best play beside what was played, and what-ifs.

Everything here reads the log and replays it; nothing is stored.
"""

from __future__ import annotations

import json
from typing import Any

from engine import jsontext
from engine.errors import RuleViolation
from engine.events import (
    End,
    Event,
    Out,
    Ruling,
    Void,
    actor,
    parse_event,
)
from engine.games.base import Outcome
from engine.match import Replay
from engine.message import msg
from engine.notation import IllegalMove, NotationError, parse
from engine.notation import format as format_move
from exports.eventlog import rewritten_by, states_as_they_stood
from tournament.errors import Refused
from tournament.services.matches import Loaded

REFEREE_RULES = {Ruling: "REF-1", Void: "REF-2", End: "CH-2"}


def texas_pool(letters: str) -> list[str]:
    """A Texas Word'em pool as the referee types it for ``solve texas``: two personal
    consonants (TEX-1) and two common letters a round (TEX-2), so 4, 6 or 8 letters; refused in
    one sentence otherwise.

    >>> texas_pool("SNOA SACI")
    ['s', 'n', 'o', 'a', 's', 'a', 'c', 'i']
    """
    from engine.text import fold

    pool = [c for c in fold(letters) if not c.isspace()]
    odd = next((c for c in pool if not c.isalpha()), None)
    if odd is not None:
        raise Refused(msg("a Texas Word'em pool is made of letters, not %(char)r", char=odd))
    if len(pool) not in (4, 6, 8):
        raise Refused(
            msg(
                "a Texas Word'em pool has 4, 6 or 8 letters (two personal consonants, TEX-1, "
                "and two common letters a round, TEX-2), not %(count)s",
                count=len(pool),
            )
        )
    return pool


def state_words(replay: Replay, position: int, state: Any = None) -> str:
    """The state after ``position`` in words, with who is out (``state``: as it stood then,
    where a later ruling rewrote ``replay.history``)."""
    state = replay.history[position] if state is None else state
    words = replay.rules.summary(state)
    gone = [o.player for o in state.out]
    if not gone:
        return words  # a catalogue message (Msg), said in the reader's language
    return msg("%(state)s; out: %(players)s", state=words, players=tuple(gone))


def _rule(replay: Replay, position: int, event: Event) -> str:
    """The rule under which the event was taken (the turn it answered), or the referee's."""
    for kind, rule in REFEREE_RULES.items():
        if isinstance(event, kind):
            return rule
    if isinstance(event, Out):
        return next((o.rule for o in replay.out if o.player == event.player), "")
    who = actor(event)
    turns = replay.rules.turns(replay.history[position - 1])
    return next((t.rule for t in turns if t.player == who), "")


def best_possible(replay: Replay, position: int, event: Event, memo: dict[str, Any]) -> str:
    """What the best play was, where the game's solver judges the move (its ``best_play``:
    expressions, words, chains), in English; ``memo`` keeps what it reuses along one match."""
    return replay.rules.best_play(replay.history[position - 1], event, replay.lexicon, memo)


def timeline(loaded: Loaded) -> list[dict[str, Any]]:
    """One row per event: who, what, the state after it as it stood then (and, where a later
    ruling or void rewrote it, ``state_later``: that state and the positions that made it),
    rulings and voids, the rules applied."""
    replay = loaded.replay
    events = replay.events
    voided_by = {e.on: i for i, e in enumerate(events, 1) if isinstance(e, Void)}
    ruled_by = {e.on: (i, e) for i, e in enumerate(events, 1) if isinstance(e, Ruling)}
    memo: dict[str, Any] = {}
    rows = []
    stood = states_as_they_stood(replay)
    for position, event in enumerate(events, 1):
        notes = [n for n in replay.notes if n.position == position]
        row: dict[str, Any] = {
            "position": position,
            "who": actor(event) or "",
            "what": format_move(event),
            "state": state_words(replay, position, stood[position]),  # as it stood then (#28)
            "state_later": None,
            "rules": sorted(
                {r for r in [_rule(replay, position, event)] + [n.rule for n in notes] if r}
            ),
            "judged": [n.text for n in notes],
            "voided_by": voided_by.get(position),
            "ruling": None,
            "best": best_possible(replay, position, event, memo),
            "hash": loaded.match.hashes[position - 1],
        }
        later = state_words(replay, position)
        if later != row["state"]:  # a later ruling or void rewrote it: both are shown
            row["state_later"] = {"state": later, "by": rewritten_by(replay, position)}
        if position in ruled_by:
            at, ruling = ruled_by[position]
            row["ruling"] = {"at": at, "accept": ruling.accept, "note": ruling.note}
        rows.append(row)
    return rows


def outcome_json(outcome: Outcome | None) -> dict[str, Any] | None:
    if outcome is None:
        return None
    return {"winners": list(outcome.winners), "points": dict(outcome.points)}


def what_if(loaded: Loaded, change: str) -> tuple[Replay | None, str]:
    """Replay the log with one event voided (``void:N``) or replaced (``replace:N=MOVE``).

    The replacement is a move in the notation (``replace:4=expr blu 5+5+1``), read against the
    match as it stood before position N, or an event's JSON object. A void is replayed as if
    the referee had recorded it now. A replacement keeps the play that followed and what the
    referee decided of it (its rulings and voids name the same events as before); the derived
    events (``out``, ``end``) and the rulings on the event replaced are the replay's to say
    again. A struck position is not replaced: the move that stands is. Returns the new replay,
    or None and why the changed log could not have happened.
    """
    replay = loaded.replay
    events = list(replay.events)
    kind, _, rest = change.partition(":")
    where, _, text = rest.partition("=")
    if (
        kind not in ("void", "replace")
        or not (where.strip().isascii() and where.strip().isdigit())  # "²".isdigit() is True
        or (kind == "replace") != bool(text.strip())
    ):
        raise Refused(
            msg(
                "a what-if is void:N or replace:N=MOVE, e.g. replace:4='expr blu 5+5+1' (or a "
                'JSON event: replace:4=\'{"type": "pass", "by": "blu"}\')'
            )
        )
    position = int(where)
    if not 1 <= position <= len(events):
        raise Refused(
            msg(
                "there is no position %(position)s in %(number)s",
                position=position,
                number=loaded.match.number,
            )
        )
    if kind == "void":
        changed = [*events, Void("referee", position, "what-if")]
    else:
        if position in replay.voided:
            raise Refused(
                msg(
                    "position %(position)s of %(match)s is void (REF-2): replace the move "
                    "that stands",
                    position=position,
                    match=loaded.match.number,
                )
            )
        before = _again(replay, events[: position - 1])
        try:
            new = _replacement(text.strip(), before)
        except IllegalMove as v:
            return None, str(v)
        changed = [*events[: position - 1], new, *_play_after(events, position)]
    try:
        return _again(replay, changed), ""
    except RuleViolation as v:
        return None, str(v)


def _play_after(events: list[Event], position: int) -> list[Event]:
    """The events after the one replaced at ``position``, as a log holding the replacement
    carries them: without the derived ``out`` and ``end`` (the replay derives them again), and
    with each ruling and void naming the same event as before (one on the event replaced, or
    on an event left out, is left out too)."""
    moved = {p: p for p in range(1, position)}  # old position -> new position
    kept: list[Event] = []
    for old, event in enumerate(events[position:], position + 1):
        if isinstance(event, (Out, End)):
            continue
        if isinstance(event, Ruling):
            if event.on not in moved:
                continue
            event = Ruling(event.by, moved[event.on], event.accept, event.note)
        elif isinstance(event, Void):
            if event.on not in moved:
                continue
            event = Void(event.by, moved[event.on], event.reason)
        kept.append(event)
        moved[old] = position + len(kept)
    return kept


def under_current_rules(loaded: Loaded) -> tuple[Loaded | None, str]:
    """The match replayed under today's rules whatever revision it was played under (an audit's
    ``--rules current``); None and why, where today's rules refuse its log."""
    replay = loaded.replay
    try:
        today = Replay.start(replay.header, replay.lexicon, force=True).extend(replay.events)
    except RuleViolation as v:
        return None, str(v)
    return Loaded(loaded.match, today), ""


def _again(replay: Replay, events: list[Event]) -> Replay:
    """The match replayed anew from these events, under the same rules."""
    return Replay.start(replay.header, replay.lexicon, rules=replay.revision).extend(events)


def _replacement(text: str, before: Replay) -> Event:
    """The event a what-if puts in: a move of the notation, or a JSON object."""
    try:
        if text.startswith(("{", "[")):  # JSON (a list is refused as not an event)
            return parse_event(jsontext.loads(text))  # depth, numbers, surrogates (issue 10)
        return parse(text, before)
    except IllegalMove:
        raise
    except (NotationError, RuleViolation) as v:
        raise Refused(msg("the replacement is not an event: %(v)s", v=v)) from None
    except (ValueError, json.JSONDecodeError):
        raise Refused(msg("the replacement is not an event: its JSON does not parse")) from None
