"""``tournament verify``: is every stored match the one that was recorded, and does it replay?

For each match it reads the stored events as bytes (so that a change made behind the program's
back, with any SQLite tool, cannot hide behind a decoding error), recomputes the hash chain from
the header, and replays the log through the rules, which checks every derived event. A printed
head hash (from a signed score sheet) can be checked against the store, and an exported log
checked on its own.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.errors import RuleViolation
from engine.events import parse_event
from engine.header import parse_header
from engine.lexicon import Lexicon
from engine.match import Replay
from tournament.matchlog import LogError, MatchLog, genesis, link, read_log
from tournament.persistence import Location, locate, scan
from tournament.store import NUMBER, normalise_number

STARTED = "tournament.store:Match.Started"
RECORDED = "tournament.store:Match.Recorded"


@dataclass(frozen=True)
class Failure:
    match: str
    position: int  # 0: the header
    problem: str

    def __str__(self) -> str:
        where = "the header" if self.position == 0 else f"position {self.position}"
        return f"{self.match}, {where}: {self.problem}"


@dataclass
class Report:
    matches: int = 0
    events: int = 0
    heads: dict[str, str | None] = field(default_factory=dict)
    failures: list[Failure] = field(default_factory=list)
    sealed_dice: list[str] = field(default_factory=list)  # digital dice not revealed yet

    @property
    def ok(self) -> bool:
        return not self.failures

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "matches": self.matches,
            "events": self.events,
            "failures": [vars(f) for f in self.failures],
            "sealed_dice": self.sealed_dice,
        }


Rows = list[tuple[int, str, bytes]]


def _streams(where: Location, uuid: str | None) -> Iterator[tuple[str, Rows]]:
    """Each match's id and stored events, (version, topic, state), in order: one scan."""
    current, rows = "", []  # type: tuple[str, Rows]
    for aggregate, version, topic, state in scan(where, "events", uuid):
        if not topic.startswith("tournament.store:Match."):
            continue
        if aggregate != current and rows:
            yield current, rows
            rows = []
        current = aggregate
        rows.append((version, topic, state))
    if rows:
        yield current, rows


def verify_store(
    db: str | Path | Location, lexicon_for: Callable[[Any], Lexicon], number: str | None = None
) -> Report:
    """Check every stored match (or one): hash chain, readability, and a full replay."""
    from tournament.store import match_uuid

    report = Report()
    uuid = match_uuid(normalise_number(number)).hex if number else None
    for aggregate, rows in _streams(locate(db), uuid):
        report.matches += 1
        report.events += len(rows) - 1
        _verify_match(aggregate, rows, lexicon_for, report)
    if number and not report.matches:
        report.failures.append(Failure(normalise_number(number), 0, "no such match is stored"))
    return report


def _verify_match(
    aggregate: str, rows: Rows, lexicon_for: Callable[[Any], Lexicon], report: Report
) -> None:
    version, topic, state = rows[0]
    try:
        first = json.loads(state)
        name, header_line = first["number"], first["header"]
        if topic != STARTED or version != 1 or not NUMBER.match(name):
            raise ValueError
    except (ValueError, KeyError, TypeError):
        report.failures.append(
            Failure(f"aggregate {aggregate}", 0, "the first event is not a readable match start")
        )
        return
    try:
        header = parse_header(json.loads(header_line))
        replay = Replay.start(header, lexicon_for(header))
    except (ValueError, RuleViolation) as e:
        report.failures.append(Failure(name, 0, f"the header does not start a match: {e}"))
        return
    previous = genesis(header_line)
    for position, (version, topic, state) in enumerate(rows[1:], 1):
        try:
            event = json.loads(state)
            line, stored_hash = event["line"], event["hash"]
            if topic != RECORDED or version != position + 1:
                raise ValueError
        except (ValueError, KeyError, TypeError):
            report.failures.append(Failure(name, position, "the stored event is not readable"))
            return
        previous = link(previous, line)
        if stored_hash != previous:
            report.failures.append(
                Failure(
                    name,
                    position,
                    "the hash chain breaks here: this event, or one before it, was changed after "
                    "it was recorded",
                )
            )
            return
        try:
            replay = replay.apply(parse_event(json.loads(line)))
        except (ValueError, RuleViolation) as e:
            report.failures.append(Failure(name, position, f"the replay refuses it: {e}"))
            return
    report.heads[name] = previous if len(rows) > 1 else None
    if replay.dice_commit_at is not None and replay.dice_reveal_at is None:
        report.sealed_dice.append(name)  # their rolls are checked when the seed is revealed


def verify_file(text: str, lexicon_for: Callable[[Any], Lexicon]) -> MatchLog:
    """An exported log on its own: every line's seq and hash, and the rules (raises LogError)."""
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) > 1 and any('"hash"' not in line for line in lines[1:]):
        raise LogError(
            next(i for i, line in enumerate(lines[1:], 2) if '"hash"' not in line),
            "carries no hash: only an exported log can be verified",
        )
    return read_log(text, lexicon_for)
