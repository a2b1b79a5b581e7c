"""The stored rows ``tournament verify`` reads, as bytes: each taken only if it is exactly what
the program writes for the values it holds (so that every byte is accounted for by a value).

A row is decoded and encoded back through eventsourcing's mapper (:func:`decode`). Every row
is first looked at with orjson (:func:`plain` for a match's, :func:`read` for the others), which
decides the common case the same way at a fraction of the cost: the row is taken when orjson's
encoding of what it decodes to is the row itself, and the values are plain
(:mod:`tournament.logformat.plainjson`), where orjson writes what eventsourcing's transcoder writes.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from itertools import groupby
from operator import itemgetter
from typing import Any
from uuid import UUID

import orjson
from eventsourcing.persistence import Mapper, StoredEvent
from eventsourcing.utils import get_topic

from engine.message import msg
from tournament.errors import NewerVersionError
from tournament.logformat import plainjson
from tournament.storage import topics
from tournament.storage.backends import scan
from tournament.storage.locations import Location
from tournament.storage.store import Match, known_topic

MATCH_TOPIC = get_topic(Match)
RECORDED = get_topic(Match.Recorded)  # type: ignore[attr-defined]  # made by @event
STARTED = get_topic(Match.Started)  # type: ignore[attr-defined]


Row = tuple[str, int, str, bytes]  # originator_id, originator_version, topic, state


TEXTS = ("number", "header", "line", "hash")  # a match's fields


_RECORDED_KEYS = ["timestamp", "line", "hash"]
_STARTED_KEYS = ["timestamp", "originator_topic", "number", "header", "hash"]
_STARTED_KEYS_V1 = _STARTED_KEYS[:-1]  # 0.1 stored a match's start without a hash (chain v1)
# What 0.1 stored without: the hash of a match's start and of each tournament event (the chains
# of format v1). A row of a class that has these fields may lack them, and only these.
WRITTEN_BY_01_WITHOUT = frozenset({"hash"})
_STAMP_KEYS = ["_type_", "_data_"]
_CANONICAL_ID = re.compile("[0-9a-f]{32}")  # an aggregate id as the program writes it
# A UTC time as isoformat writes it, once parsed: its fields have their digits (hours to 23, no
# leap second), the microseconds written unless none.
_UTC_TEXT = re.compile(
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]"
    r"(\.(?!000000)[0-9]{6})?\+00:00"
)


class Unreadable(Exception):
    """A stored row that does not decode, or does not encode back to the same bytes."""


def decode(mapper: Mapper[UUID], row: Row) -> Any:
    """The stored event of a row, if the row is exactly what the program writes for it."""
    return read(mapper, row)[0]


def _decode(mapper: Mapper[UUID], row: Row) -> Any:
    """:func:`decode` through eventsourcing's mapper: the verdict on any row."""
    aggregate, version, topic, state = row
    try:
        stored = StoredEvent(UUID(hex=aggregate), version, topic, bytes(state))
        event: Any = mapper.to_domain_event(stored)
        again = mapper.to_stored_event(event)
    except NewerVersionError:
        raise Unreadable(
            msg(
                "an event type this version does not know (%(topic)s): written by a newer "
                "version of tournament (upgrade to read it), or changed",
                topic=topic,
            )
        ) from None
    except Exception:
        raise Unreadable(msg("the stored event is not readable")) from None
    if (
        not _fields_of(event, set(vars(event)))
        or not isinstance(event.timestamp, datetime)
        or isinstance(event, Match.Event)
        and any(not isinstance(getattr(event, k, ""), str) for k in TEXTS)
        or again.state != stored.state
        or again.topic != topic
        or again.originator_version != version
        or event.originator_id.hex != aggregate
    ):
        raise Unreadable(
            msg("the stored bytes are not what the program writes: changed afterwards")
        )
    return event


def _fields_of(event: Any, given: set[str]) -> bool:
    """Whether ``given`` are exactly the event's fields, or all but those 0.1 stored without."""
    fields = {f.name for f in dataclasses.fields(event)}
    return given == fields or given <= fields and fields - given <= WRITTEN_BY_01_WITHOUT


def read(mapper: Mapper[UUID], row: Row) -> tuple[Any, int | None, str]:
    """The stored event of a row (:func:`decode`), with two things its reader needs:

    - how many datetimes its fields hold besides its own ``timestamp``, when every other value in
      them is plain (:mod:`tournament.logformat.plainjson`: what orjson writes as json does); None
      when the mapper decided the row (then nothing is known of its values);
    - its time as stored (its ``isoformat``).

    A row that orjson takes (:func:`_plain_event`) is taken as the mapper would take it, to the
    same event; any other goes through the mapper for the verdict.
    """
    found = _plain_event(row)
    if found is not None:
        return found
    event = _decode(mapper, row)
    return event, None, event.timestamp.isoformat()


_FIXED = frozenset({"originator_id", "originator_version", "timestamp"})
# topic -> its event class and field names, when rows of it may be read plainly (else None)
_KINDS: dict[str, tuple[type[Any], frozenset[str]] | None] = {}


def _kind(topic: str) -> tuple[type[Any], frozenset[str]] | None:
    """The event class a topic names and its fields, for the classes whose rows the mapper turns
    into an event with no more than a decoding (no upcasting, a UUID id); not a match's, whose
    rows :func:`plain` and :func:`decode` read."""
    if topic in _KINDS:
        return _KINDS[topic]
    kind = None
    try:
        if known_topic(topic):
            cls = topics.resolve(topic)
            if (
                isinstance(cls, type)
                and dataclasses.is_dataclass(cls)
                and get_topic(cls) == topic
                and getattr(cls, "class_version", 1) == 1
                and getattr(cls, "originator_id_type", None) is UUID
                and not issubclass(cls, Match.Event)
            ):
                names = frozenset(f.name for f in dataclasses.fields(cls))
                kind = (cls, names) if _FIXED <= names else None
    except Exception:  # whatever a stored topic makes of the lookup: the mapper says why
        kind = None
    _KINDS[topic] = kind
    return kind


def _plain_event(row: Row) -> tuple[Any, int, str] | None:
    """:func:`read`'s answer when orjson decides it: the row is an event of a known class (not a
    match's), its id written as the program writes ids, its bytes those orjson (so, for plain
    values, the transcoder) writes for what they decode to, with every field and no other, the
    time canonical; None when it is not plainly so."""
    aggregate, version, topic, state = row
    kind = _kind(topic)
    if kind is None or not _CANONICAL_ID.fullmatch(aggregate):
        return None
    cls, names = kind
    try:
        values = orjson.loads(state)
        if (
            type(values) is not dict
            or "originator_id" in values
            or "originator_version" in values
            or not names.issuperset(values)
            or len(values) + 2 != len(names)
            and not (names - WRITTEN_BY_01_WITHOUT).issubset({*values, *_FIXED})
            or orjson.dumps(values) != bytes(state)
        ):
            return None
        at = values["timestamp"]["_data_"]  # the text, if _decoded finds it a time
        times = _decoded(values)
    except Exception:  # not JSON, too deep, a number orjson does not write: not plainly so
        return None
    if times is None or type(values["timestamp"]) is not datetime:
        return None
    values["originator_id"] = _uuid(aggregate)  # in the mapper's order
    values["originator_version"] = version
    event = object.__new__(cls)
    object.__setattr__(event, "__dict__", values)  # as the mapper makes an event
    return event, times - 1, at


@lru_cache(maxsize=16)
def _uuid(aggregate: str) -> UUID:
    """An aggregate's id (one object for all its rows: UUID() is slow, and a UUID immutable)."""
    return UUID(hex=aggregate)


def _decoded(container: Any) -> int | None:
    """Decode, in place, what eventsourcing's transcoder decodes in a value orjson read: each
    time as the program writes times; return how many there were (None: a value not plain, or
    another encoded type, or a time not written as the program writes times)."""
    found = 0
    items = container.items() if type(container) is dict else enumerate(container)
    for key, item in items:
        kind = type(item)
        if kind is str or kind is int or kind is bool or item is None:
            continue  # orjson reads whole numbers of 64 bits only (it writes them all back)
        if kind is float:
            if not plainjson.plain(item):
                return None
            continue
        if kind is dict and len(item) == 2 and "_type_" in item and "_data_" in item:
            at = _time(item)
            if at is None:
                return None
            container[key] = at  # an existing key: the dict keeps its size
            found += 1
            continue
        inner = _decoded(item)  # a dict or a list
        if inner is None:
            return None
        found += inner
    return found


def _time(stamp: Any) -> datetime | None:
    """An encoded time, if it is written as the program writes times (else None)."""
    if type(stamp) is not dict or list(stamp) != _STAMP_KEYS or stamp["_type_"] != plainjson.TIME:
        return None
    text = stamp["_data_"]
    if type(text) is not str:
        return None
    try:
        at = datetime.fromisoformat(text)
    except ValueError:
        return None
    # What the program writes (UTC, microseconds unless 0) is told by its shape: formatting the
    # offset is most of isoformat's cost, three times the parsing (#15). Any other time is
    # formatted back.
    if _UTC_TEXT.fullmatch(text):
        return at
    return at if at.isoformat() == text else None


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
    if type(values) is not dict or list(values) != keys or _time(values["timestamp"]) is None:
        return None
    for key in keys[1:]:  # the first is the time
        if type(values[key]) is not str:
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
        raise Unreadable(msg("the stored event is not a recorded line"))
    return recorded.line, recorded.hash, recorded.timestamp.isoformat()


@dataclass(frozen=True)
class Start:
    """A match's first row as read: what :func:`tournament.verify._verify_match` checks of it."""

    number: str | None  # None: not text
    header: str
    hash: str | None  # None: a v1 chain's start (0.1 stored no hash)
    at: str
    readable: bool  # a Started event of the match aggregate, at version 1


def match_start(mapper: Mapper[UUID], row: Row) -> Start | Any:
    """A match's first row, read plainly (:func:`plain`) when it is plainly a match's start;
    else the stored event :func:`decode` makes of it (raises :class:`Unreadable`)."""
    aggregate, version, topic, state = row
    if topic == STARTED and version == 1 and _CANONICAL_ID.fullmatch(aggregate):
        values = plain(state, _STARTED_KEYS) or plain(state, _STARTED_KEYS_V1)
        if values is not None and values["originator_topic"] == MATCH_TOPIC:
            at = values["timestamp"]["_data_"]
            return Start(values["number"], values["header"], values.get("hash"), at, True)
    event = decode(mapper, row)
    if not isinstance(event, Match.Event):
        return event
    number = getattr(event, "number", None)
    return Start(
        number if isinstance(number, str) else None,
        getattr(event, "header", ""),
        vars(event).get("hash"),
        event.timestamp.isoformat(),
        isinstance(event, Match.Started)  # type: ignore[attr-defined]
        and event.originator_version == 1
        and event.originator_topic == MATCH_TOPIC,
    )


def streams(where: Location, what: str, only: str | None = None) -> Iterator[tuple[str, list[Row]]]:
    """Each aggregate's rows, in version order: one scan (of a file or a server), grouped in C;
    with ``only`` (an aggregate's id), its rows alone (read by its index: a match's page
    verifies its match without reading the rest of the store, #27)."""
    for aggregate, rows in groupby(scan(where, what, only), itemgetter(0)):
        yield aggregate, list(rows)
