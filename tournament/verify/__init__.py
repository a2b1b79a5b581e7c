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

This module reads the store and checks the matches (side by side on the machine's cores:
:mod:`tournament.verify.parallel`); :mod:`tournament.verify.tournament` checks the tournament, and
:mod:`tournament.verify.findings` holds what both find.

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

from engine.digital_dice import hand_rolls
from engine.errors import RuleViolation
from engine.events import parse_event
from engine.header import parse_header
from engine.lexicon import Lexicon
from engine.match import Replay
from engine.message import Msg, msg, nmsg
from tournament.domain.tournaments import Tournament
from tournament.errors import Refused, StoreError
from tournament.logformat.matchlog import (
    RULES_OF_CHAIN,
    Binding,
    LogError,
    MatchLog,
    genesis,
    link,
    read_log,
)
from tournament.storage import sqlitefile
from tournament.storage.backends import holds_store
from tournament.storage.locations import Location, SqliteFile, locate
from tournament.storage.store import NUMBER, match_uuid, new_mapper, normalise_number
from tournament.verify import parallel
from tournament.verify import tournament as verifytournament
from tournament.verify.findings import TOURNAMENT, Failure, Report, why
from tournament.verify.storedrows import (
    Row,
    Start,
    Unreadable,
    decode,
    match_start,
    recorded,
    streams,
)


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
    (:mod:`tournament.verify.parallel`).
    """
    place = locate(db)
    # Unknown event types are reported below, row by row, rather than refused here.
    if isinstance(place, SqliteFile):
        present = sqlitefile.inspect(place.path, topics=False)
    else:
        present = holds_store(place)
    if not present:
        raise StoreError(msg("there is no database at %(where)s", where=place))
    mapper = new_mapper()
    report = Report()
    wanted = match_uuid(normalise_number(number)).hex if number else None
    heads: dict[str, list[str]] = {}
    tournament: tuple[list[Any], Any, verifytournament.Snapshots] | None = None
    # Read first (a second scan, not one inside the other): compared as the tournament replays.
    snapshots = verifytournament.read_snapshots(place, mapper) if not number else []
    kept: list[tuple[str, list[Row]]] = []  # every stream checked, in the order stored

    def spans() -> Iterator[range]:
        # Every stream is read before the first span is given, so before any worker is forked:
        # a worker finds the rows in the memory it inherits, and only a span is sent to it.
        for aggregate, rows in streams(place, "events", wanted):
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
                tournament = verifytournament.verify_tournament(
                    aggregate, rows, mapper, report, snapshots
                )
                if checked is not None:
                    checked(TOURNAMENT)
    if number and not report.matches:
        report.failures.append(Failure(normalise_number(number), 0, msg("no such match is stored")))
    if tournament is not None and not number:
        verifytournament.cross_check(tournament[1], heads, report)
        verifytournament.snapshot_failures(tournament[2], report)
    return report


def verify_match(store: Any, number: str, lexicon_for: Callable[[Any], Lexicon]) -> Report:
    """One match checked as :func:`verify_store` checks it (``number`` given), its rows read by
    their index through the store's own connection: what a match's page shows, at a cost that
    follows the match, not the store (no file opened, no table listed, #27)."""
    number = normalise_number(number)
    aggregate = match_uuid(number)
    rows: list[Row] = [
        (aggregate.hex, r.originator_version, r.topic, bytes(r.state))
        for r in store.recorder.select_events(aggregate)
    ]
    report = Report()
    if rows:
        report.add(_check_stream(aggregate.hex, rows, _MAPPER, lexicon_for).part)
    if not report.matches:
        report.failures.append(Failure(number, 0, msg("no such match is stored")))
    return report


_MAPPER = new_mapper()  # (it keeps no state between rows)

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
    where = msg("the events stored as %(aggregate)s", aggregate=aggregate)
    try:
        first = match_start(mapper, rows[0])
    except Unreadable as e:
        part.failures.append(Failure(where, 0, why(e)))
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
            part.failures.append(Failure(where, row[1], why(e)))
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
    where = msg("the match stored as %(uuid)s", uuid=aggregate)
    hashes: list[str] = []
    name = started.number if started.number is not None else where
    if not started.readable or not NUMBER.match(name):
        report.failures.append(
            Failure(name, 0, msg("the first event is not a readable match start"))
        )
        return name, hashes
    if aggregate != match_uuid(name).hex:
        report.failures.append(
            Failure(
                name,
                0,
                msg(
                    "it is stored under another match's id (ids exchanged, or the number changed "
                    "after it was recorded)"
                ),
            )
        )
        return name, hashes
    header_line = started.header
    # A v1 chain (0.1's) is plain and its start holds no hash; a v2 chain is bound.
    chain_format = 1 if started.hash is None else 2
    report.formats[f"match chain v{chain_format}"] += 1
    if chain_format == 2 and started.hash != genesis(
        header_line, Binding(name, aggregate, started.at)
    ):
        report.failures.append(
            Failure(
                name,
                0,
                msg("the start was changed after it was recorded (its number, id, time or header)"),
            )
        )
        return name, hashes
    try:
        header = parse_header(json.loads(header_line))
        replay = Replay.start(header, lexicon_for(header), rules=RULES_OF_CHAIN[chain_format])
    except Refused:
        raise  # the user gave another word list than the match's: one sentence, not a failure
    except (ValueError, RuleViolation) as e:
        report.failures.append(
            Failure(name, 0, msg("the header does not start a match: %(why)s", why=why(e)))
        )
        return name, hashes
    # The rows and the chain in one pass, then the replay in one go (Replay.extend); the first
    # failure in log order is the one reported, as if each event were checked in turn.
    previous, lines = started.hash or genesis(header_line), []
    broken: Failure | None = None
    for position, row in enumerate(rows[1:], 1):
        if row[1] != position + 1:
            broken = Failure(
                name, position, msg("an event is missing here, or the order was changed")
            )
            break
        try:
            line, digest, at = recorded(mapper, row)
        except Unreadable as e:
            broken = Failure(name, position, why(e))
            break
        previous = link(previous, line, at if chain_format == 2 else None, hashlib.sha256)
        if digest != previous:
            broken = Failure(
                name,
                position,
                msg(
                    "the hash chain breaks here: this event, or one before it, was changed after "
                    "it was recorded"
                ),
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
        report.failures.append(
            Failure(name, replayed, msg("the replay refuses it: %(why)s", why=why(e)))
        )
        return name, hashes[:replayed]
    if broken is not None:
        report.failures.append(broken)
        return name, hashes
    for position in hand_rolls(replay.events):  # refused since #28: a sealed match's dice
        report.failures.append(
            Failure(
                name,
                position,
                msg(
                    "a roll entered by hand while the match's digital dice were sealed: its faces "
                    "do not come from the seed"
                ),
            )
        )
    report.heads[name] = previous if len(rows) > 1 else None
    if replay.dice_commit_at is not None and replay.dice_reveal_at is None:
        report.sealed_dice.append(name)  # their rolls are checked when the seed is revealed
    return name, hashes


def verify_file(text: str, lexicon_for: Callable[[Any], Lexicon]) -> MatchLog:
    """An exported log on its own: every line's seq and hash, and the rules (raises LogError)."""
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) > 1 and any('"hash"' not in line for line in lines[1:]):
        raise LogError(
            next(i for i, line in enumerate(lines[1:], 2) if '"hash"' not in line),
            "carries no hash: only an exported log can be verified",
        )
    return read_log(text, lexicon_for)


# Who wrote each format (docs/format.md, docs/upgrading.md).
WRITTEN_BY = {
    "match chain v1": "tournament 0.1",
    "match chain v2": msg("tournament 0.2 and later"),
    "tournament chain v1": "tournament 0.1",
    "tournament chain v2": msg("tournament 0.2 and later"),
    "snapshot v1": "tournament 0.1",
    "snapshot v2": msg("tournament 0.2 and later"),
}


def said_formats(report: Report) -> list[Msg]:
    """The formats verify found, in words, one catalogue message each (a front end says and
    joins them): "match chain v1 (written by tournament 0.1): 60 matches"."""
    parts = []
    for name, count in sorted(report.formats.items()):
        by = WRITTEN_BY.get(name, msg("a newer version"))
        if name.startswith("match"):
            what = nmsg(
                "%(format)s (written by %(by)s): %(count)s match",
                "%(format)s (written by %(by)s): %(count)s matches",
                count,
                format=name,
                by=by,
                count=count,
            )
        elif name == "tournament chain v1" and report.unsealed:
            what = msg(
                "%(format)s (written by %(by)s): events 1-%(last)s",
                format=name,
                by=by,
                last=report.unsealed,
            )
        elif name.startswith("snapshot"):
            what = msg("%(format)s (written by %(by)s): %(n)s", format=name, by=by, n=count)
        else:
            what = msg("%(format)s (written by %(by)s)", format=name, by=by)
        parts.append(what)
    return parts


def original_of(store: Any, number: str, head: str) -> str | None:
    """The number a match had in the store it was exported from, if ``head`` is the head of the
    chain it had there, computed again from its stored lines (None: it is not)."""
    from tournament.readside.reading import read_match
    from tournament.storage import provenance

    found = provenance.original_head(store, number, list(read_match(store, number).lines))
    return found[1] if found is not None and found[0] == head else None
