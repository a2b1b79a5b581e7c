"""Reading a stored match without rebuilding its aggregate (issue 15).

A command that only reads a match (``match show``, the audit, the sheets, the read models) needs
its lines, hashes and times, not an eventsourcing aggregate: rebuilding one costs a third of a
load, most of it the library's checks per event. So the match's stored events are read in one
query through the recorder (eventsourcing's API: the same on an SQLite file and on a PostgreSQL
server), decoded with orjson, and checked as the aggregate would be (the chain bound to the
number, the id and the times). A write still gets the aggregate (:meth:`Store.get_match`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any
from uuid import UUID

import orjson

from engine.events import parse_event
from engine.games.base import Outcome
from engine.header import parse_header
from engine.match import Replay
from engine.message import msg
from tournament.logformat.lexicons import lexicon_for
from tournament.logformat.matchlog import genesis, link
from tournament.readside import kept
from tournament.storage import heard
from tournament.storage.store import (
    STARTED,
    SealedLog,
    Store,
    _number_in,
    match_uuid,
    no_match,
    normalise_number,
    unreadable,
)
from tournament.storage.store import Match as _Match

RECORDED: str = _Match.Recorded.TOPIC  # type: ignore[attr-defined]  # its stored name


@dataclass(frozen=True)
class StoredMatch(SealedLog):
    """A stored match as read: what :class:`tournament.storage.store.Match` holds, as plain
    values."""

    number: str
    id: UUID
    header: str
    start: str | None  # None: a v1 chain (see SealedLog)
    lines: Sequence[str]
    hashes: Sequence[str]
    times: Sequence[str]  # the start's, then each event's


def read_match(
    store: Store,
    number: str,
    at: tuple[int, str] | None = None,
    heard_ok: bool = False,
    lines: Sequence[tuple[int, str, str]] = (),
) -> StoredMatch:
    """A stored match, read in one query; one sentence when it is missing or was changed.
    ``at``: the match as a refresh read it from the notification log (its lines and last hash,
    its start's before any line), in which case the one kept, if it is that, is not asked
    after (#27), nor when the refresh's ``lines`` (each event's version, line and time) bring
    it there. ``heard_ok``: a page's, which takes the one kept while the store's listener
    heard nobody else write since it was looked at (:mod:`tournament.storage.heard`)."""
    number = normalise_number(number)
    uuid = match_uuid(number)
    # A server brings the match it read before forward by the rows stored since (#27).
    found = kept.looked_match(store, number)
    count = heard.look(store)  # (before the look: what is heard during it is looked at again)
    if found is not None:
        was: StoredMatch = found[0]
        if at is not None and (len(was.lines), was.head or was.start) == at:
            return was  # (the hash seals every line: the same match, asked of nobody)
        try:
            read_on = None if at is None or not lines else _read_on(was, lines, at)
        except (TypeError, ValueError, AttributeError):  # (a stored line that is not one)
            read_on = None  # (read as ever, which says what is wrong)
        if read_on is not None:  # (another process's moves, as the refresh read them)
            kept.keep_match(store, read_on)
            return read_on
        if heard_ok and heard.unchanged_since(store, found[1], was.id, len(was.lines) + 1):
            return was
        went_on = _brought_forward(store, was, count)
        if went_on is not None:
            return went_on
    try:
        rows = store.recorder.select_events(uuid)
    except ValueError:
        raise unreadable(number) from None
    if not rows:
        raise no_match(number)
    try:
        match = _decoded(number, uuid, rows)
    except (KeyError, TypeError, ValueError, AttributeError):  # orjson's errors are ValueErrors
        raise unreadable(number) from None
    kept.keep_match(store, match, count)
    return match


def keep_written(store: Store, match: SealedLog, looked: heard.Look | None = None) -> None:
    """Keep a match this process has just saved as read (its rows are the ones it saved): the
    refresh that projects them need not read them back (#27), nor a page while the listener
    hears nobody else write to it after ``looked`` (:func:`tournament.storage.heard.look`,
    taken before the save; None: the next page asks). A store that keeps nothing: nothing."""
    if kept.kept(store):
        kept.keep_match(store, StoredMatch(
            match.number, match.id, match.header, match.start, list(match.lines),
            list(match.hashes), list(match.times),
        ), looked)  # fmt: skip


def _brought_forward(
    store: Store, was: StoredMatch, count: heard.Look | None
) -> StoredMatch | None:
    """A match kept as read, with the rows stored after it (kept as looked at when the
    listener's count was ``count``); None when the store's match is not the kept one any more
    (another file in its place: read it whole)."""
    version, head = len(was.lines) + 1, was.head or was.start
    rows = kept.after_head(store, was.id, version, head)  # (a server's: one round trip, #27)
    if rows is None and store.location.is_server:
        return None  # not the one kept: another match in its place
    if rows == [] or (rows is None and kept.unchanged(store, was.id, version, head)):
        if count is not None:
            kept.keep_match(store, was, count)  # (found the store's at that count)
        return was  # (one indexed read of a server's file: nothing stored since)
    try:
        after = rows or store.recorder.select_events(was.id, gt=version)
        if not after:
            return None  # as many events, another chain: another match in its place
        match = _went_on(was, after)
    except (KeyError, TypeError, ValueError, AttributeError):
        return None
    kept.keep_match(store, match, count)
    return match


def _read_on(
    was: StoredMatch, lines: Sequence[tuple[int, str, str]], at: tuple[int, str]
) -> StoredMatch | None:
    """``was`` with the ``lines`` a refresh read after it (each event's version, line and
    time), when they follow it and end at ``at`` (its lines, its last hash: the chain
    computed from ``was`` reaches the stored head, which seals every line); else None. The
    stored hashes before the last are not compared (``tournament verify`` reads each one)."""
    previous = was.head or (was.start if was.start is not None else genesis(was.header))
    chained, hashes, times = list(was.lines), list(was.hashes), list(was.times)
    for version, line, stamp in lines:
        if version != len(chained) + 2:
            return None  # (a gap, or lines it holds already: read as ever)
        previous = link(previous, line, None if was.start is None else stamp)
        chained.append(line)
        hashes.append(previous)
        times.append(stamp)
    if (len(chained), previous) != at:
        return None
    return StoredMatch(was.number, was.id, was.header, was.start, chained, hashes, times)


def _went_on(was: StoredMatch, rows: Sequence[Any]) -> StoredMatch:
    """``was`` with the events of ``rows`` (those stored after it), each link of the chain
    checked as :meth:`SealedLog.intact` checks it (the lines before were checked when read)."""
    loads = orjson.loads
    lines, hashes, times = list(was.lines), list(was.hashes), list(was.times)
    previous = was.head or (was.start if was.start is not None else genesis(was.header))
    for version, row in enumerate(rows, len(lines) + 2):
        state = loads(row.state)
        if row.topic != RECORDED or row.originator_version != version:
            raise ValueError
        line, digest, at = (
            _text(state["line"]),
            _text(state["hash"]),
            _text(state["timestamp"]["_data_"]),
        )
        if digest != link(previous, line, None if was.start is None else at):
            raise ValueError
        lines.append(line)
        hashes.append(digest)
        times.append(at)
        previous = digest
    return StoredMatch(was.number, was.id, was.header, was.start, lines, hashes, times)


def outcome(
    store: Store,
    number: str,
    at: tuple[int, str] | None = None,
    moves: Sequence[tuple[int, str, str]] = (),
) -> Outcome | None:
    """A stored match's outcome, by replaying its log (None: in play). A log that does not
    replay raises the engine's :class:`RuleViolation`. ``at``, and ``moves`` (its ``lines``):
    see :func:`read_match`."""
    match = read_match(store, number, at, lines=moves)
    lines = match.lines

    def start() -> Replay:
        header = parse_header(orjson.loads(match.header))
        return Replay.start(header, lexicon_for(header, store.lexicon), rules=match.rules)

    def extend(replay: Replay, after: int) -> Replay:
        return replay.extend(parse_event(orjson.loads(line)) for line in lines[after:])

    # A server extends the replay it keeps by the lines stored since (#27).
    key = (match.number, store.lexicon, match.rules)  # as tournament.services.matches keys it
    return kept.replayed(store, key, match.header, lines, start, extend).outcome


def _decoded(number: str, uuid: UUID, rows: Sequence[Any]) -> StoredMatch:
    loads = orjson.loads
    first = rows[0]
    started = loads(first.state)
    if first.topic != STARTED or first.originator_version != 1 or started["number"] != number:
        raise ValueError
    lines, hashes, times = [], [], [_text(started["timestamp"]["_data_"])]
    for version, row in enumerate(rows[1:], 2):
        state = loads(row.state)
        if row.topic != RECORDED or row.originator_version != version:
            raise ValueError
        lines.append(_text(state["line"]))
        hashes.append(_text(state["hash"]))
        times.append(_text(state["timestamp"]["_data_"]))
    start = started.get("hash")  # none in a v1 chain's start (0.1's)
    match = StoredMatch(
        number,
        uuid,
        _text(started["header"]),
        None if start is None and "hash" not in started else _text(start),
        lines,
        hashes,
        times,
    )
    if not match.intact():
        raise ValueError
    return match


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError
    return value


def with_header(store: Store, header_line: str) -> Iterator[StoredMatch]:
    """Every stored match whose header is ``header_line``, in the order they were created: the
    matches' starts are read in pages, and only those that name this header are read whole (a
    start that is not plainly a match's says which match cannot be read, as the aggregates did)."""
    for notification in store._started():
        try:
            started = orjson.loads(notification.state)
            number, header = started["number"], started["header"]
        except (ValueError, KeyError, TypeError):
            number = header = None
        if (
            not isinstance(number, str)
            or not isinstance(header, str)
            or str(notification.originator_id).replace("-", "") != match_uuid(number).hex
        ):
            raise unreadable(
                number
                if isinstance(number, str)
                else _number_in(notification.state)
                or msg("the match stored as %(uuid)s", uuid=str(notification.originator_id))
            )
        if header == header_line:
            yield read_match(store, number)
