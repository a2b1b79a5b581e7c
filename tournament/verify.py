"""``tournament verify``: is everything stored what was recorded, and does it replay?

It reads every stored row as bytes (so that a change made behind the program's back, with any
SQLite tool, cannot hide behind a decoding error) and checks, for each row, that it decodes and
encodes back to exactly the same bytes: so every byte is accounted for by a value. Then each
value is checked:

- a match: its id is the one its number gives, its versions run 1, 2, 3 ... with no gap, its
  start carries the first hash of a chain bound to its number, id, time and header, each event's
  hash links the one before with the event's time and line, and the log replays through the rules;
- the tournament: its events form their own chain (type, version, time, every field), they apply
  one after the other, every match they attach is stored, and every head hash they recorded is
  still on its match's chain (so a match of the tournament cannot lose its last events unseen);
- the tournament's snapshots are what its events give at that version (a snapshot's own time is
  read by nothing: it only has to be a valid time).

What it cannot see: the newest events of a match outside any tournament, removed together with
their hashes (the head hash printed on the signed score sheet is the anchor then), and a forger
who recomputes every hash after a change (the printed head hash again).
"""

from __future__ import annotations

import hashlib  # OpenSSL's sha256: loaded by the tournament's chain anyway, faster than CPython's
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from uuid import UUID

import orjson
from eventsourcing.persistence import Mapper

from engine.errors import RuleViolation
from engine.events import parse_event
from engine.header import parse_header
from engine.lexicon import Lexicon, LexiconError
from engine.match import Replay
from tournament import parallel, plainjson, sqlitefile
from tournament.errors import StoreError
from tournament.matchlog import Binding, LogError, MatchLog, genesis, link, read_log
from tournament.persistence import Location, SqliteFile, locate
from tournament.store import NUMBER, match_uuid, new_mapper, normalise_number
from tournament.storedrows import (
    Row,
    Start,
    Unreadable,
    decode,
    match_start,
    read,
    recorded,
    streams,
)
from tournament.tournaments import TOURNAMENT_ID, Tournament, event_fields, seal

TOURNAMENT = "tournament"


@dataclass(frozen=True)
class Failure:
    match: str  # a match's number, "tournament", or where the row is stored
    position: int  # 0: the header (a match's start); the tournament: its event's version
    problem: str

    def __str__(self) -> str:
        where = "the header" if self.position == 0 else f"position {self.position}"
        return f"{self.match}, {where}: {self.problem}"


@dataclass
class Report:
    matches: int = 0
    events: int = 0
    tournament_events: int = 0
    heads: dict[str, str | None] = field(default_factory=dict)
    failures: list[Failure] = field(default_factory=list)
    sealed_dice: list[str] = field(default_factory=list)  # digital dice not revealed yet

    @property
    def ok(self) -> bool:
        return not self.failures

    def add(self, part: Report) -> None:
        """Take in what a part of the store gave (a match checked in another process)."""
        self.matches += part.matches
        self.events += part.events
        self.tournament_events += part.tournament_events
        self.heads.update(part.heads)
        self.failures += part.failures
        self.sealed_dice += part.sealed_dice

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "matches": self.matches,
            "events": self.events,
            "tournament_events": self.tournament_events,
            "failures": [vars(f) for f in self.failures],
            "sealed_dice": self.sealed_dice,
        }


def verify_store(
    db: str | Path | Location,
    lexicon_for: Callable[[Any], Lexicon],
    number: str | None = None,
    checked: Callable[[str], None] | None = None,
    jobs: int | None = None,
) -> Report:
    """Check every stored match (or one), the tournament and its snapshots; ``checked`` hears
    each match (its number) and the tournament once checked (a progress bar, #11).

    The matches are checked side by side on up to ``jobs`` processes (default: one a core, once
    the store holds enough of them to be worth it; 1: here, one after the other) and their
    results taken in the order stored, so the report is the same either way
    (:mod:`tournament.parallel`).
    """
    place = locate(db)
    # Unknown event types are reported below, row by row, rather than refused here.
    if isinstance(place, SqliteFile):
        present = sqlitefile.inspect(place.path, topics=False)
    else:
        present = place.exists()
    if not present:
        raise StoreError(f"there is no database at {place}")
    mapper = new_mapper()
    report = Report()
    wanted = match_uuid(normalise_number(number)).hex if number else None
    heads: dict[str, list[str]] = {}
    tournament: tuple[list[Any], Any, _Snapshots] | None = None
    # Read first (a second scan, not one inside the other): compared as the tournament replays.
    snapshots = _read_snapshots(place, mapper) if not number else []
    kept: list[tuple[str, list[Row]]] = []  # every stream checked, in the order stored

    def spans() -> Iterator[range]:
        # Every stream is read before the first span is given, so before any worker is forked:
        # a worker finds the rows in the memory it inherits, and only a span is sent to it.
        for aggregate, rows in streams(place, "events"):
            if not wanted or aggregate == wanted:
                kept.append((aggregate, rows))
        begin = size = 0
        for end, (_, rows) in enumerate(kept, 1):
            size += len(rows)
            if size >= _BATCH or end == len(kept):
                yield range(begin, end)
                begin, size = end, 0

    def work(span: range) -> list[_Stream]:
        return [_check_stream(*kept[i], mapper, lexicon_for) for i in span]

    with parallel.in_order(work, spans(), jobs, at_least=_WORTH_A_PROCESS) as results:
        for position, done in enumerate(each for span in results for each in span):
            aggregate, rows = kept[position]  # read by now: the first span is given after all
            report.add(done.part)
            if done.kind == _MATCH:
                heads[done.name] = done.hashes
                if checked is not None:
                    checked(done.name)
            elif done.kind == TOURNAMENT:
                tournament = _verify_tournament(aggregate, rows, mapper, report, snapshots)
                if checked is not None:
                    checked(TOURNAMENT)
    if number and not report.matches:
        report.failures.append(Failure(normalise_number(number), 0, "no such match is stored"))
    if tournament is not None and not number:
        _cross_check(tournament[1], heads, report)
        _snapshot_failures(tournament[2], report)
    return report


# The streams go to the processes in spans of about this many rows (one task each: a task costs
# its sending and its result's, whatever its size), and fewer spans than this are checked here.
_BATCH = 2000
_WORTH_A_PROCESS = 4
_MATCH = "match"


@dataclass
class _Stream:
    """What one aggregate's rows add to the report, checked on their own (in any process): a
    match's, or the tournament's, to be checked with its snapshots, or another kind's."""

    kind: str  # _MATCH, TOURNAMENT, or "" (another kind, or a first row not readable)
    part: Report
    name: str = ""  # a match's number (or where it is stored)
    hashes: list[str] = field(default_factory=list)  # a match's chain, as far as it holds


def _check_stream(
    aggregate: str, rows: list[Row], mapper: Mapper[UUID], lexicon_for: Callable[[Any], Lexicon]
) -> _Stream:
    """Check one aggregate's rows as far as they can be checked alone."""
    part = Report()
    where = f"the events stored as {aggregate}"
    try:
        first = match_start(mapper, rows[0])
    except Unreadable as e:
        part.failures.append(Failure(where, 0, str(e)))
        return _Stream("", part)
    if isinstance(first, Start):
        part.matches, part.events = 1, len(rows) - 1
        name, hashes = _verify_match(aggregate, first, rows, mapper, lexicon_for, part)
        return _Stream(_MATCH, part, name, hashes)
    if isinstance(first, Tournament.Event):
        return _Stream(TOURNAMENT, part)
    # Another kind of aggregate (a newer feature's): its rows must at least be intact.
    for row in rows[1:]:
        try:
            decode(mapper, row)
        except Unreadable as e:
            part.failures.append(Failure(where, row[1], str(e)))
    return _Stream("", part)


def _verify_match(
    aggregate: str,
    started: Start,
    rows: list[Row],
    mapper: Mapper[UUID],
    lexicon_for: Callable[[Any], Lexicon],
    report: Report,
) -> tuple[str, list[str]]:
    """Check one match (its first row read as ``started``); return its number and its chain's
    hashes (as far as they hold)."""
    where = f"the match stored as {aggregate}"
    hashes: list[str] = []
    name = started.number if started.number is not None else where
    if not started.readable or not NUMBER.match(name):
        report.failures.append(Failure(name, 0, "the first event is not a readable match start"))
        return name, hashes
    if aggregate != match_uuid(name).hex:
        report.failures.append(
            Failure(
                name,
                0,
                "it is stored under another match's id (ids exchanged, or the "
                "number changed after it was recorded)",
            )
        )
        return name, hashes
    header_line = started.header
    binding = Binding(name, aggregate, started.at)
    if started.hash != genesis(header_line, binding):
        report.failures.append(
            Failure(
                name,
                0,
                "the start was changed after it was recorded (its number, id, time or header)",
            )
        )
        return name, hashes
    try:
        header = parse_header(json.loads(header_line))
        replay = Replay.start(header, lexicon_for(header))
    except LexiconError:
        raise  # the user gave another word list than the match's: one sentence, not a failure
    except (ValueError, RuleViolation) as e:
        report.failures.append(Failure(name, 0, f"the header does not start a match: {e}"))
        return name, hashes
    # The rows and the chain in one pass, then the replay in one go (Replay.extend); the first
    # failure in log order is the one reported, as if each event were checked in turn.
    previous, lines = started.hash, []
    broken: Failure | None = None
    for position, row in enumerate(rows[1:], 1):
        if row[1] != position + 1:
            broken = Failure(name, position, "an event is missing here, or the order was changed")
            break
        try:
            line, digest, at = recorded(mapper, row)
        except Unreadable as e:
            broken = Failure(name, position, str(e))
            break
        previous = link(previous, line, at, hashlib.sha256)
        if digest != previous:
            broken = Failure(
                name,
                position,
                "the hash chain breaks here: this event, or one before it, was changed after "
                "it was recorded",
            )
            break
        hashes.append(previous)
        lines.append(line)
    replayed = 0

    def events() -> Iterator[Any]:
        nonlocal replayed
        for replayed, line in enumerate(lines, 1):  # noqa: B007 - read after a refusal
            yield parse_event(orjson.loads(line))

    try:
        replay = replay.extend(events())
    except (ValueError, RuleViolation) as e:
        report.failures.append(Failure(name, replayed, f"the replay refuses it: {e}"))
        return name, hashes[:replayed]
    if broken is not None:
        report.failures.append(broken)
        return name, hashes
    report.heads[name] = previous if len(rows) > 1 else None
    if replay.dice_commit_at is not None and replay.dice_reveal_at is None:
        report.sealed_dice.append(name)  # their rolls are checked when the seed is revealed
    return name, hashes


@dataclass
class _Snapshots:
    """The tournament's stored snapshots, read before its events are replayed, so that each is
    compared with the replay as it passes their version (the tournament replayed once)."""

    failures: list[Failure] = field(default_factory=list)  # unreadable, or of no event
    # version -> the snapshots there (and whether each is known plain, with times)
    waiting: dict[int, list[tuple[Any, bool]]] = field(default_factory=dict)
    differ: list[int] = field(default_factory=list)  # versions of snapshots the events deny


def _read_snapshots(place: Location, mapper: Mapper[UUID]) -> list[tuple[str, int, Any, bool]]:
    """Every stored snapshot in the order stored: its aggregate, version, the snapshot or why it
    is unreadable (an :class:`Unreadable`), and whether its state is known plain, with times
    (:mod:`tournament.plainjson`)."""
    found: list[tuple[str, int, Any, bool]] = []
    for aggregate, rows in streams(place, "snapshots"):
        for row in rows:
            try:
                snapshot, times, _ = read(mapper, row)
            except Unreadable as e:
                found.append((aggregate, row[1], e, False))
                continue
            found.append((aggregate, row[1], snapshot, times is not None))
    return found


def _verify_tournament(
    aggregate: str,
    rows: list[Row],
    mapper: Mapper[UUID],
    report: Report,
    snapshots: list[tuple[str, int, Any, bool]],
) -> tuple[list[Any], Any, _Snapshots] | None:
    """Check the tournament's chain and that its events apply, and compare its snapshots on the
    way; return its events, the tournament they give and what the snapshots showed (None:
    broken)."""
    if aggregate != TOURNAMENT_ID.hex:
        report.failures.append(Failure(TOURNAMENT, 1, "it is stored under another id"))
        return None
    seen = _Snapshots()
    for owner, version, snapshot, plain in snapshots:
        if isinstance(snapshot, Unreadable):
            continue
        if owner == TOURNAMENT_ID.hex and version >= 1:
            seen.waiting.setdefault(version, []).append((snapshot, plain))
    transcoder = mapper.transcoder
    previous, t, events = TOURNAMENT_ID.hex, None, []
    for version, row in enumerate(rows, 1):
        report.tournament_events += 1
        if row[1] != version:
            report.failures.append(
                Failure(TOURNAMENT, version, "an event is missing here, or the order was changed")
            )
            return None
        try:
            e, times, at = read(mapper, row)
            if not isinstance(e, Tournament.Event):
                raise Unreadable("the stored event is not the tournament's")
        except Unreadable as err:
            report.failures.append(Failure(TOURNAMENT, version, str(err)))
            return None
        try:
            expected = seal(previous, row[2], version, at, event_fields(e), times == 0)
        except (TypeError, ValueError):  # a value the program never writes (a uuid, a time)
            expected = None
        if e.hash != expected:
            report.failures.append(
                Failure(
                    TOURNAMENT,
                    version,
                    "the tournament's hash chain breaks here: this event, or one before it, was "
                    "changed after it was recorded",
                )
            )
            return None
        try:
            t = e.mutate(t)
        except Exception:
            report.failures.append(
                Failure(TOURNAMENT, version, "the event does not apply to the tournament")
            )
            return None
        previous = e.hash
        events.append(e)
        # Each snapshot taken here is compared now (the state is encoded there and then: later
        # events change it in place).
        for snapshot, plain in seen.waiting.get(version, ()):
            taken = type(snapshot).take(t)
            # Read plain, its state is written by orjson without another look (#15).
            state = snapshot.state
            stored = plainjson.transcoded(state) if plain else transcoder.encode(state)
            if snapshot.topic != taken.topic or stored != _encoded(transcoder, taken.state):
                seen.differ.append(version)
    for owner, version, snapshot, _ in snapshots:
        where = f"the snapshot at version {version}"
        if isinstance(snapshot, Unreadable):
            seen.failures.append(Failure(TOURNAMENT, version, f"{where}: {snapshot}"))
        elif owner != TOURNAMENT_ID.hex or not 1 <= version <= len(events):
            seen.failures.append(
                Failure(TOURNAMENT, version, f"{where} belongs to no tournament event")
            )
    return events, t, seen


def _encoded(transcoder: Any, state: Any) -> bytes:
    """A snapshot's state as the store's transcoder encodes it (by orjson when it is plain)."""
    if plainjson.plain(state, times=True):
        return plainjson.transcoded(state)
    return bytes(transcoder.encode(state))


def _cross_check(t: Any, heads: dict[str, list[str]], report: Report) -> None:
    """The tournament's matches are stored, and still carry the head hashes it recorded."""
    for r in t.rounds:
        for tb in r["tables"]:
            for number in tb.get("matches", {}).values():
                if number not in heads:
                    report.failures.append(
                        Failure(
                            number,
                            0,
                            f"round {r['number']}, table {tb['table']} plays it, but it is not "
                            "stored (or cannot be read)",
                        )
                    )
    for number, (count, head) in t.heads.items():
        hashes = heads.get(number)
        if hashes is None:
            continue  # reported above, or it is not one of the tournament's
        if len(hashes) < count or hashes[count - 1] != head:
            report.failures.append(
                Failure(
                    number,
                    min(count, len(hashes) + 1),
                    f"the tournament recorded its head hash at position {count} when it finished;"
                    " the stored log no longer has it (events removed or changed)",
                )
            )


def _snapshot_failures(seen: _Snapshots, report: Report) -> None:
    """Each snapshot is the tournament as its events give it at that version."""
    report.failures.extend(seen.failures)
    for version in seen.differ:
        report.failures.append(
            Failure(
                TOURNAMENT,
                version,
                f"the snapshot at version {version} is not what the events give",
            )
        )


def verify_file(text: str, lexicon_for: Callable[[Any], Lexicon]) -> MatchLog:
    """An exported log on its own: every line's seq and hash, and the rules (raises LogError)."""
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) > 1 and any('"hash"' not in line for line in lines[1:]):
        raise LogError(
            next(i for i, line in enumerate(lines[1:], 2) if '"hash"' not in line),
            "carries no hash: only an exported log can be verified",
        )
    return read_log(text, lexicon_for)
