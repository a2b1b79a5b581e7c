"""Application services for matches: import, record, show. Thin: get, decide, save."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.errors import RuleViolation
from engine.events import End, Event, Out, Ruling, Void, actor, parse_event, type_name
from engine.header import Header, parse_header
from engine.lexicon import Lexicon, LexiconError
from engine.match import Replay
from tournament.matchlog import MatchLog, event_line, read_log
from tournament.store import Match, Store


class Refused(Exception):
    """A command refused with one sentence for the user; nothing was stored."""


def lexicon_for(header: Header, path: str | Path | None) -> Lexicon:
    """The word list a match uses: the organizer's file if given, else the default (EQ-4).

    A header that names a word list (every stored match does) must match it exactly, so that
    a replay judges words against the same lexicon as the table did.
    """
    lexicon = Lexicon.open(path)
    wanted = header.lexicon
    if wanted and (wanted.get("sha256") != lexicon.sha256):
        raise LexiconError(
            f"this match was recorded with the word list {wanted.get('name')!r} (sha256 "
            f"{str(wanted.get('sha256'))[:12]}…), not {lexicon.name!r}: "
            "pass that list with --lexicon"
        )
    return lexicon


@dataclass(frozen=True)
class Loaded:
    """A stored match and its replay."""

    match: Match
    replay: Replay


def load(store: Store, number: str, lexicon_path: str | None = None) -> Loaded:
    """Read a stored match and replay it."""
    match = store.get_match(number)
    header = parse_header(json.loads(match.header))
    replay = Replay.start(header, lexicon_for(header, lexicon_path))
    for position, line in enumerate(match.lines, 1):
        try:
            replay = replay.apply(parse_event(json.loads(line)))
        except RuleViolation as v:
            raise Refused(
                f"the stored log of {match.number} does not replay at position {position}: {v} "
                "(was the database changed outside the program?)"
            ) from None
    return Loaded(match, replay)


def dice_values(text: str) -> list[int]:
    """Dice faces as the table writes them: ``2,1,3`` (or spaces)."""
    try:
        return [int(x) for x in text.replace(",", " ").split()]
    except ValueError:
        raise Refused(f"{text!r} must be dice values such as 2,1,3") from None


def read_deck(path: Path) -> list[Any]:
    """An organizer's deck file: a JSON list of cards (PN-1), inlined into the match header."""
    try:
        deck = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as e:
        raise Refused(f"cannot read the deck {path}: {e.strerror}") from None
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise Refused(f"the deck {path} is not a JSON list of cards") from None
    if not isinstance(deck, list):
        raise Refused(f"the deck {path} is not a JSON list of cards")
    return deck


def check_log(text: str, lexicon_path: str | None = None) -> MatchLog:
    """Check a whole ``tournament-match/1`` log before anything is stored (raises LogError)."""
    return read_log(text, lambda header: lexicon_for(header, lexicon_path))


def import_log(store: Store, log: MatchLog) -> Match:
    """Store a checked log as a new match, all its events in one transaction."""
    return store.create(log.header_line, log.lines)


def record(
    store: Store, number: str, obj: dict[str, Any], lexicon_path: str | None = None
) -> tuple[Loaded, list[Event]]:
    """Check one input event against the replay and store it with the derived events it implies.

    Returns the match after the event and the events stored (the input first).
    """
    loaded = load(store, number, lexicon_path)
    try:
        event = parse_event(obj)
        replay = loaded.replay.apply(event)
    except RuleViolation as v:
        raise Refused(str(v)) from None
    stored = [event]
    for derived in replay.pending_derived():
        replay = replay.apply(derived)
        stored.append(derived)
    store.append(loaded.match, [event_line(e) for e in stored])
    if replay.outcome is not None:
        from tournament.day import record_head  # the tournament keeps a finished match's head

        record_head(store, loaded.match)
    return Loaded(loaded.match, replay), stored


def summary(loaded: Loaded) -> dict[str, Any]:
    """What ``match show --json`` prints (DESIGN.md names the fields others rely on)."""
    replay, match = loaded.replay, loaded.match
    outcome = replay.outcome
    header = replay.header
    return {
        "id": match.number,
        "game": header.game,
        "title": replay.rules.title,
        "players": list(header.players),
        "outside": list(header.outside),
        "status": "finished" if outcome else "in_progress",
        "winners": list(outcome.winners) if outcome else [],
        "points": dict(outcome.points) if outcome else {p: 0 for p in header.players},
        "out": [o.player for o in replay.out],
        "out_reasons": [
            {"player": o.player, "reason": o.reason, "rule": o.rule} for o in replay.out
        ],
        "next": [
            {"player": t.player, "events": list(t.events), "expects": t.say, "rule": t.rule}
            for t in replay.turns
        ],
        "notes": [
            {"position": n.position, "player": n.player, "text": n.text, "rule": n.rule, "ok": n.ok}
            for n in replay.notes
        ],
        "voided": sorted(replay.voided),
        "rulings": {str(k): v for k, v in sorted(replay.rulings.items())},
        "events": replay.position,
        "head": match.head,
        "lexicon": header.lexicon,
    }


def describe(event: Event) -> str:
    """One line for a stored event, for the referee's screen.

    >>> from engine.events import End, Ruling, Roll
    >>> describe(Roll("blu", "d6", (5, 4)))
    'roll: blu d6 5 4'
    >>> describe(Ruling("referee", 4, False, "after time"))
    'ruling on #4: reject (after time)'
    >>> describe(End(("giallo",), {"giallo": 1, "blu": 0}))
    'end: winners giallo (giallo 1, blu 0)'
    """
    kind = type_name(event)
    if isinstance(event, End):
        points = ", ".join(f"{p} {n}" for p, n in event.points.items())
        return f"end: winners {', '.join(event.winners) or 'nobody'} ({points})"
    if isinstance(event, Out):
        return f"out: {event.player} ({event.reason})"
    if isinstance(event, Ruling):
        note = f" ({event.note})" if event.note else ""
        return f"ruling on #{event.on}: {'accept' if event.accept else 'reject'}{note}"
    if isinstance(event, Void):
        return f"void #{event.on} ({event.reason})"
    fields = {k: v for k, v in vars(event).items() if v is not None and k != "by"}
    rest = " ".join(
        " ".join(map(str, v)) if isinstance(v, tuple) else str(v) for v in fields.values()
    )
    return f"{kind}: {actor(event)} {rest}".strip()
