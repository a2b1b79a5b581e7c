"""The match log on eventsourcing: one aggregate per match, in one SQLite file.

A match is known by a short number (``M7``) that a referee can type; its aggregate id is derived
from it (uuid5), so two terminals that create a match at the same moment collide on the id and
the second simply takes the next number. Each stored ``Recorded`` event holds one canonical JSON
line of the match log and its chain hash (see :mod:`tournament.logformat.matchlog`); the chain is
bound to the match's number, id and times, so that ``tournament verify`` finds any stored byte
changed.

A database file is looked at before it is opened and read read-only until something is saved
(:mod:`tournament.storage.sqlitefile`, where everything SQLite-specific lives); an event type this
version does not know, anywhere it is read, says the database is a newer version's.

One application per database file: on SQLite, every aggregate of the project shares one events
table, so the tournament aggregates will join this application rather than start another.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.domain import Aggregate, event
from eventsourcing.persistence import (
    DatetimeAsISO,
    DecimalAsStr,
    IntegrityError,
    JSONTranscoder,
    Mapper,
    Notification,
    PersistenceError,
    StoredEvent,
    UUIDAsHex,
)
from eventsourcing.utils import get_topic

from engine.message import msg
from tournament.errors import NewerVersionError, StoreError
from tournament.logformat.matchlog import Binding, chain, genesis, link
from tournament.storage import heard, holds, inserts, topics
from tournament.storage.locations import Location, SqliteFile, locate
from tournament.storage.sealedlog import NUMBER, SealedLog, match_uuid, normalise_number

__all__ = ["Conflict", "Match", "NewerVersionError", "Store", "StoreError"]

DEFAULT_DB = "tournament.db"


class Conflict(StoreError):
    """Another process saved one of the same aggregates first; nothing of this save was stored."""


class Match(Aggregate, SealedLog):
    """One match: its header and its log lines, each with its chain hash.

    The chain is bound (:class:`tournament.logformat.matchlog.Binding`) to the match's number, its
    id and the time of every stored event; the start carries the chain's first hash, so that even a
    match with no event yet is sealed.
    """

    TOPIC = "tournament.store:Match"  # stored names, fixed wherever the class lives (topics)

    class Event(Aggregate.Event):
        def mutate(self, aggregate: Any) -> Any:
            match: Any = super().mutate(aggregate)
            match.times.append(self.timestamp.isoformat())  # as the store writes it
            return match

    class Created(Event, Aggregate.Created):
        """eventsourcing's creation event, never used (a match starts with ``Started``): named
        only because a class with a stored name must name each of its event classes."""

        TOPIC = "tournament.store:Match.Created"

    @staticmethod
    def create_id(number: str) -> UUID:
        return match_uuid(number)

    @event("Started", topic="tournament.store:Match.Started")
    def __init__(self, number: str, header: str, hash: str | None = None) -> None:  # noqa: A002
        self.number = number
        self.header = header
        self.start = hash
        self.lines: list[str] = []
        self.hashes: list[str] = []
        self.times: list[str] = []  # the start's, then each event's

    @event("Recorded", topic="tournament.store:Match.Recorded")
    def record(self, line: str, hash: str) -> None:  # noqa: A002 - the log's own word
        self.lines.append(line)
        self.hashes.append(hash)

    @classmethod
    def begin(cls, number: str, header: str, at: datetime | None = None) -> Match:
        """A new match, its chain bound to its number, its id and this moment (or ``at``: a
        match moved here keeps its times)."""
        at = at or cls.Started.create_timestamp()  # type: ignore[attr-defined]  # made by @event
        binding = Binding(number, match_uuid(number).hex, at.isoformat())
        started = cls.Started  # type: ignore[attr-defined]
        return cls._create(
            started, number=number, header=header, hash=genesis(header, binding), timestamp=at
        )

    def add(self, line: str, at: datetime | None = None) -> None:
        """Record one line, linked to the one before and to this moment (or ``at``)."""
        at = at or self.Recorded.create_timestamp()  # type: ignore[attr-defined]
        if self.start is None:  # a v1 chain (0.1's) goes on as it began: plain links
            digest = link(self.head or genesis(self.header), line)
        else:
            digest = link(self.head or self.start, line, at.isoformat())
        recorded = self.Recorded  # type: ignore[attr-defined]  # made by @event
        self.trigger_event(recorded, line=line, hash=digest, timestamp=at)


def _project(aggregate: Any, events: Iterable[Any]) -> Any:
    """eventsourcing's projector without its per-event check that each event can mutate (a
    runtime protocol check, the larger part of rebuilding a match, #15): ours all can."""
    for each in events:
        aggregate = each.mutate(aggregate)
    return aggregate


def known_topic(topic: str) -> bool:
    """Whether this version has the class a stored event names (by the names in
    :mod:`tournament.storage.topics`: a name in the file never makes it import anything else)."""
    return topics.known(topic)


class _Mapper(Mapper[UUID]):
    """eventsourcing's mapper; an event type this version does not know is a newer version's."""

    def to_domain_event(self, stored_event: StoredEvent) -> Any:
        if not known_topic(stored_event.topic):
            raise NewerVersionError()
        topics.resolve(stored_event.topic)  # its module imported: the name is registered
        return super().to_domain_event(stored_event)


def new_mapper() -> Mapper[UUID]:
    """How stored events are written and read (JSON, as eventsourcing's applications do)."""
    transcoder = JSONTranscoder()
    for transcoding in (UUIDAsHex(), DecimalAsStr(), DatetimeAsISO()):
        transcoder.register(transcoding)
    return _Mapper(transcoder=transcoder)


def no_match(number: str) -> StoreError:
    """The refusal of a match number the store does not hold."""
    return StoreError(msg("there is no match %(match)s in this database", match=number))


def unreadable(what: str) -> StoreError:
    """The refusal of what a changed stored byte makes unreadable (a match's number, or words)."""
    return StoreError(
        msg(
            "%(what)s cannot be read: its stored events were changed outside the program "
            "(tournament verify shows where)",
            what=what,
        )
    )


class Store(Application):
    """The event store of one database file.

    Opening it never writes: the file is looked at first (:mod:`tournament.storage.sqlitefile`),
    read read-only, and opened for writing only when something is saved. Snapshots are enabled for
    the tournament aggregate, which takes one every hundred events (see
    ``tournament.services.stored.save``).
    """

    name = "tournament"
    is_snapshotting_enabled = True
    # The organizer's word list (--lexicon) this store's matches are replayed against wherever
    # they are read (the read models too); None is the shipped one (EQ-4).
    lexicon: str | None = None

    def __init__(self, db: str | Path | Location = DEFAULT_DB) -> None:
        self.location = locate(db)  # a file, or a postgresql:// URL (tournament.storage.locations)
        self.path = self.location.path if isinstance(self.location, SqliteFile) else Path()
        super().__init__(env=self.location.env())
        self._next_number: int | None = None  # counted once, then kept (see create)
        self._writer_noted = False  # this version recorded among the store's writers
        self._held: set[str] = set()  # the numbers table files took, as the last count read them

    def construct_mapper(self) -> Mapper[UUID]:
        return new_mapper()

    def save(self, *objs: Any, **kwargs: Any) -> Any:
        """eventsourcing's save; the first in a process also records that this version wrote
        to the store (:mod:`tournament.storage.provenance`). What is another store's (a table
        out in a table file, or a table file's tournament) is refused (:mod:`.holds`)."""
        holds.check(self, objs)
        before = (vars(self).get("_table_events") or (None,))[0]  # read on to here by the check
        try:
            recordings = super().save(*objs, **kwargs)
        except BaseException:
            heard.own_failed(self, objs)  # (stored or not: its readers ask again)
            raise
        heard.own_saved(self, recordings)  # (a server's kept store: what its readers look at again)
        guard = inserts.passed_last(self.recorder)  # (a server's guarded save: #27)
        if guard is not None:
            before = guard.after  # (what its transaction found no table event after)
        if before is not None:  # (the table events read on past this save's own: #27)
            notes = [r.notification for r in recordings]
            holds.saw(self, before, [n.id for n in notes], [n.topic for n in notes],
                      guarded=guard is not None)  # fmt: skip
        if not self._writer_noted:
            self._writer_noted = True
            from tournament.storage import (
                provenance,  # (its tables: not on a reading command's path)
            )

            try:
                provenance.note_writer(self)
            except Exception:  # what was saved stands: the note is not worth failing it for
                pass
        return recordings

    @property
    def has_written(self) -> bool:
        """Whether this process has opened the store for writing (it saved something)."""
        return bool(getattr(self.factory, "has_written", True))

    def get(self, aggregate_id: UUID, what: str) -> Any:
        """An aggregate, or one sentence saying why it cannot be read.

        Raises :class:`AggregateNotFoundError` when nothing is stored under the id.
        """
        try:
            found = self.repository.get(aggregate_id, projector_func=_project)
            if getattr(found, "chained", False) and not vars(found).get("head"):
                # Loaded from a snapshot 0.1 took, which kept no head hash: from the events.
                found = _project(None, self.events.get(aggregate_id))
            return found
        except (AggregateNotFoundError, StoreError, PersistenceError):
            raise  # not found, a newer version's, or the database itself (locked, unreadable)
        except Exception:  # anything a changed byte can make of a stored event
            raise unreadable(what) from None

    def create(self, header: str, lines: Sequence[str], binding: Binding | None = None) -> Match:
        """Store a new match with its events, atomically, under the next free number; or, for
        a log exported from a store (its ``binding``), under its own number, id and times where
        they are free here, so that it keeps its chain and head hash."""
        if binding is not None:
            kept = self._moved(header, lines, binding)
            if kept is not None:
                return kept
        for _ in range(100):
            match = self.new_match(header, lines)
            try:
                self.save_new(match)
            except Conflict:
                continue  # another terminal took this number a moment ago
            return match
        raise StoreError(msg("could not find a free match number"))  # pragma: no cover

    def _moved(self, header: str, lines: Sequence[str], binding: Binding) -> Match | None:
        """The match of an exported log stored as it was (None: its number is taken here, or
        its binding is not one this program writes)."""
        number = binding.match
        if not NUMBER.fullmatch(number) or binding.id != match_uuid(number).hex:
            return None
        try:
            times = [_stored_time(t) for t in (binding.at, *binding.times)]
        except ValueError:
            return None
        if number in holds.reserved(self) or self.recorder.select_events(
            match_uuid(number), limit=1
        ):
            return None  # taken (or a table's, #26)
        match = Match.begin(number, header, times[0])
        for line, at in zip(lines, times[1:], strict=True):
            match.add(line, at)
        if match.binding != binding or list(match.hashes) != chain(header, lines, binding):
            return None  # pragma: no cover - the times read back as written (checked above)
        try:
            self.save(match)
        except IntegrityError:
            return None  # stored a moment ago by another terminal: a new number, then
        return match

    def new_match(self, header: str, lines: Sequence[str] = ()) -> Match:
        """A match under the next free number, with its events, not saved yet (see save_new)."""
        counted = self._next_number is None
        if counted:
            self._next_number = self._count_matches() + 1
        # Numbers a table file took (#26), read on every new match (by the count just now).
        held = self._held if counted else holds.reserved(self)
        while f"M{self._next_number}" in held:
            self._next_number += 1
        match = Match.begin(f"M{self._next_number}", header)
        self._next_number += 1  # taken: several new matches may be saved together
        for line in lines:
            match.add(line)
        return match

    def numbers_unused(self) -> None:
        """The numbers :meth:`new_match` gave since the last save were not saved (a batch of
        starts made again without one refused): counted again from what is stored, no gap."""
        self._next_number = None

    def save_new(self, match: Match, *others: Aggregate) -> None:
        """Save a new match with the pending events of ``others`` (the tournament it is attached
        to), all in one transaction.

        Raises :class:`Conflict` (nothing stored) when another process saved first: the match
        number, or one of ``others``, changed meanwhile; load them again and repeat.
        """
        try:
            self.save(match, *others)
        except IntegrityError:
            # Count again (someone else stored a match), and never guess the same number twice.
            self._next_number = max(self._count_matches(), int(match.number[1:])) + 1
            raise Conflict(
                msg(
                    "another terminal changed the tournament at the same moment; nothing was "
                    "stored: repeat"
                )
            ) from None
        self._next_number = int(match.number[1:]) + 1
        # (every number up to it is stored now: the next count goes on from it, #27)
        self._counted = max(vars(self).get("_counted", 0), int(match.number[1:]))

    def get_match(self, number: str) -> Match:
        number = normalise_number(number)
        try:
            match: Match = self.get(match_uuid(number), number)
        except AggregateNotFoundError:
            raise no_match(number) from None
        if not isinstance(match, Match) or not match.intact():
            raise unreadable(number)
        return match

    def append(self, match: Match, lines: Sequence[str]) -> None:
        """Append lines to a match read before; a concurrent write makes this fail cleanly."""
        for line in lines:
            match.add(line)
        try:
            self.save(match)
        except IntegrityError:
            raise StoreError(
                msg(
                    "%(match)s changed while this was being recorded (another terminal wrote to "
                    "it); nothing was stored: look at the match again and repeat",
                    match=match.number,
                )
            ) from None

    def matches(self) -> Iterator[Match]:
        """Every stored match, in the order they were created (one sentence naming the first
        that cannot be read)."""
        for notification in self._started():
            number = (
                _number_in(notification.state)
                or f"the match stored as {notification.originator_id}"
            )
            match = self.get(UUID(str(notification.originator_id)), number)
            if not isinstance(match, Match) or not match.intact():
                raise unreadable(number)
            yield match

    def _count_matches(self) -> int:
        """How many matches are stored: the highest number, as numbers are taken in order from
        M1 with none left out; found in a few look-ups of one match each (a doubling, then a
        halving search), not by reading every match's start (issue 15)."""
        held = self._held = holds.reserved(self)  # a table file's matches' (#26), stored or not

        def stored(n: int) -> bool:
            return f"M{n}" in held or bool(
                self.recorder.select_events(match_uuid(f"M{n}"), limit=1)
            )

        # From this process's last count when it still stands (a server counts again at each
        # tournament write: two look-ups, not some nine, #27), else from M0 (by convention).
        low = vars(self).get("_counted", 0)
        if low and not stored(low):
            low = 0  # (fewer now: a store started over)
        step = 1
        while stored(high := low + step):
            low, step = high, step * 2
        while high - low > 1:
            middle = (low + high) // 2
            low, high = (middle, high) if stored(middle) else (low, middle)
        self._counted = low
        return low

    def _started(self) -> Iterator[Notification]:
        """The notification of every match's first event, read in pages."""
        start = 1
        while True:
            try:
                page = self.recorder.select_notifications(start, PAGE, topics=[STARTED])
            except ValueError:  # an id that is not one: eventsourcing could not read it
                raise unreadable(msg("a match")) from None
            yield from page
            if len(page) < PAGE:
                return
            start = page[-1].id + 1


def _stored_time(text: str) -> datetime:
    """A time of an exported log, if the store writes it back as the same text (UTC)."""
    at = datetime.fromisoformat(text)
    if at.isoformat() != text or at.utcoffset() != timedelta(0):
        raise ValueError(text)
    return at


def _number_in(state: bytes) -> str | None:
    found = re.search(rb'"number":"(M\d+)"', state)
    return found.group(1).decode() if found else None


PAGE = 1000
STARTED = get_topic(Match.Started)  # type: ignore[attr-defined]  # made by @event
