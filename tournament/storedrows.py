"""The stored rows ``tournament verify`` reads, as bytes: each taken only if it is exactly what
the program writes for the values it holds (so that every byte is accounted for by a value).

A row is decoded and encoded back through eventsourcing's mapper (:func:`decode`); the rows
of a match (nearly all of a tournament's) are first looked at with orjson (:func:`plain`),
which decides the common case the same way at a fraction of the cost.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

import orjson
from eventsourcing.persistence import Mapper, StoredEvent
from eventsourcing.utils import get_topic

from tournament.errors import NEWER, NewerVersionError
from tournament.persistence import Location, scan
from tournament.store import Match

MATCH_TOPIC = get_topic(Match)
RECORDED = get_topic(Match.Recorded)  # type: ignore[attr-defined]  # made by @event
STARTED = get_topic(Match.Started)  # type: ignore[attr-defined]


Row = tuple[str, int, str, bytes]  # originator_id, originator_version, topic, state


TEXTS = ("number", "header", "line", "hash")  # a match's fields


class Unreadable(Exception):
    """A stored row that does not decode, or does not encode back to the same bytes."""


def decode(mapper: Mapper[UUID], row: Row) -> Any:
    """The stored event of a row, if the row is exactly what the program writes for it."""
    aggregate, version, topic, state = row
    try:
        stored = StoredEvent(UUID(hex=aggregate), version, topic, bytes(state))
        event: Any = mapper.to_domain_event(stored)
        again = mapper.to_stored_event(event)
    except NewerVersionError:
        raise Unreadable(
            f"an event type this version does not know ({topic}): {NEWER}, or changed"
        ) from None
    except Exception:
        raise Unreadable("the stored event is not readable") from None
    if (
        set(vars(event)) != {f.name for f in dataclasses.fields(event)}
        or not isinstance(event.timestamp, datetime)
        or isinstance(event, Match.Event)
        and any(not isinstance(getattr(event, k, ""), str) for k in TEXTS)
        or again.state != stored.state
        or again.topic != topic
        or again.originator_version != version
        or event.originator_id.hex != aggregate
    ):
        raise Unreadable("the stored bytes are not what the program writes: changed afterwards")
    return event


_RECORDED_KEYS = ["timestamp", "line", "hash"]
_STARTED_KEYS = ["timestamp", "originator_topic", "number", "header", "hash"]
_STAMP_KEYS = ["_type_", "_data_"]
_CANONICAL_ID = re.compile("[0-9a-f]{32}")  # an aggregate id as the program writes it
# Written as eventsourcing's JSON encoder writes (compact, UTF-8 as it is): for objects of text
# only, orjson escapes exactly as json does (checked over every code point), and it is faster.
_ENCODE = orjson.dumps


def plain(state: bytes, keys: list[str]) -> dict[str, Any] | None:
    """The values of a match's row, when the row is plainly what the program writes for them:
    these keys in this order, every value text, a canonical time, and the very bytes the
    program would write; None when it is not plainly so (:func:`decode` gives the verdict)."""
    try:
        values = orjson.loads(state)
    except ValueError:
        return None
    if type(values) is not dict or list(values) != keys:
        return None
    stamp = values["timestamp"]
    if type(stamp) is not dict or list(stamp) != _STAMP_KEYS or stamp["_type_"] != "datetime_iso":
        return None
    at = stamp["_data_"]
    if (
        not all(type(v) is str for k, v in values.items() if k != "timestamp")
        or type(at) is not str
    ):
        return None
    try:
        if datetime.fromisoformat(at).isoformat() != at:
            return None
    except ValueError:
        return None
    if _ENCODE(values) != bytes(state):
        return None
    return values


def recorded(mapper: Mapper[UUID], row: Row) -> tuple[str, str, str]:
    """A recorded line's row: its line, hash and time, if the row is exactly what the program
    writes for them.

    The common case is decided here, as :func:`decode` would decide it, at a fraction of the
    cost (:func:`plain`); a row that is not plainly right goes to :func:`decode` for the verdict.
    """
    aggregate, version, topic, state = row
    if topic == RECORDED:
        values = plain(state, _RECORDED_KEYS)
        if values is not None:
            return values["line"], values["hash"], values["timestamp"]["_data_"]
    recorded = decode(mapper, row)
    if not isinstance(recorded, Match.Recorded):  # type: ignore[attr-defined]
        raise Unreadable("the stored event is not a recorded line")
    return recorded.line, recorded.hash, recorded.timestamp.isoformat()


@dataclass(frozen=True)
class Start:
    """A match's first row as read: what :func:`tournament.verify._verify_match` checks of it."""

    number: str | None  # None: not text
    header: str
    hash: str
    at: str
    readable: bool  # a Started event of the match aggregate, at version 1


def match_start(mapper: Mapper[UUID], row: Row) -> Start | Any:
    """A match's first row, read plainly (:func:`plain`) when it is plainly a match's start;
    else the stored event :func:`decode` makes of it (raises :class:`Unreadable`)."""
    aggregate, version, topic, state = row
    if topic == STARTED and version == 1 and _CANONICAL_ID.fullmatch(aggregate):
        values = plain(state, _STARTED_KEYS)
        if values is not None and values["originator_topic"] == MATCH_TOPIC:
            at = values["timestamp"]["_data_"]
            return Start(values["number"], values["header"], values["hash"], at, True)
    event = decode(mapper, row)
    if not isinstance(event, Match.Event):
        return event
    number = getattr(event, "number", None)
    return Start(
        number if isinstance(number, str) else None,
        getattr(event, "header", ""),
        getattr(event, "hash", ""),
        event.timestamp.isoformat(),
        isinstance(event, Match.Started)  # type: ignore[attr-defined]
        and event.originator_version == 1
        and event.originator_topic == MATCH_TOPIC,
    )


def streams(where: Location, what: str) -> Iterator[tuple[str, list[Row]]]:
    """Each aggregate's rows, in version order: one scan (of a file or a server)."""
    current, rows = "", []  # type: tuple[str, list[Row]]
    for row in scan(where, what):
        if row[0] != current and rows:
            yield current, rows
            rows = []
        current = row[0]
        rows.append(row)
    if rows:
        yield current, rows
