"""The match log on eventsourcing: one aggregate per match, in one SQLite file.

A match is known by a short number (``M7``) that a referee can type; its aggregate id is derived
from it (uuid5), so two terminals that create a match at the same moment collide on the id and
the second simply takes the next number. Each stored ``Recorded`` event holds one canonical JSON
line of the match log and its chain hash (see :mod:`tournament.matchlog`).

One application per database file: on SQLite, every aggregate of the project shares one events
table, so the tournament aggregates will join this application rather than start another.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.domain import Aggregate, event
from eventsourcing.persistence import IntegrityError, Notification
from eventsourcing.utils import get_topic

from tournament.errors import StoreError
from tournament.matchlog import chain, genesis, link
from tournament.persistence import Location, locate

DEFAULT_DB = "tournament.db"
NUMBER = re.compile(r"^[Mm](\d+)$")
_NAMESPACE = uuid5(NAMESPACE_URL, "tournament/match")


class Match(Aggregate):
    """One match: its header and its log lines, each with its chain hash."""

    @staticmethod
    def create_id(number: str, header: str) -> UUID:
        return match_uuid(number)

    @event("Started")
    def __init__(self, number: str, header: str) -> None:
        self.number = number
        self.header = header
        self.lines: list[str] = []
        self.hashes: list[str] = []

    @event("Recorded")
    def record(self, line: str, hash: str) -> None:  # noqa: A002 - the log's own word
        self.lines.append(line)
        self.hashes.append(hash)

    @property
    def head(self) -> str | None:
        """The head hash of the chain (None before any event)."""
        return self.hashes[-1] if self.hashes else None


def match_uuid(number: str) -> UUID:
    return uuid5(_NAMESPACE, number)


def normalise_number(text: str) -> str:
    """``m7`` and ``7`` -> ``M7``; anything else is not a match number."""
    m = NUMBER.match(text.strip()) or re.match(r"^(\d+)$", text.strip())
    if not m:
        raise StoreError(f"{text!r} is not a match number (they look like M7)")
    return f"M{int(m.group(1))}"


class Store(Application):
    """The event store of one database file.

    Snapshots are enabled for the tournament aggregate, which takes one every hundred events
    (see ``tournament.day.save``).
    """

    name = "tournament"
    is_snapshotting_enabled = True

    def __init__(self, db: str | Path | Location = DEFAULT_DB) -> None:
        self.location = locate(db)  # a file, or a postgresql:// URL (tournament.persistence)
        super().__init__(env=self.location.env())
        self._next_number: int | None = None  # counted once, then kept (see create)

    def create(self, header: str, lines: Sequence[str]) -> Match:
        """Store a new match with its events, atomically, under the next free number."""
        if self._next_number is None:
            self._next_number = self._count_matches() + 1
        number = self._next_number
        for _ in range(100):
            match = Match(f"M{number}", header)
            for line, digest in zip(lines, chain(header, lines), strict=True):
                match.record(line, digest)
            try:
                self.save(match)
            except IntegrityError:
                number += 1  # another terminal took this number a moment ago
                continue
            self._next_number = number + 1
            return match
        raise StoreError("could not find a free match number")  # pragma: no cover

    def get_match(self, number: str) -> Match:
        number = normalise_number(number)
        try:
            return self.repository.get(match_uuid(number))
        except AggregateNotFoundError:
            raise StoreError(f"there is no match {number} in this database") from None

    def append(self, match: Match, lines: Sequence[str]) -> None:
        """Append lines to a match read before; a concurrent write makes this fail cleanly."""
        previous = match.head or genesis(match.header)
        for line in lines:
            previous = link(previous, line)
            match.record(line, previous)
        try:
            self.save(match)
        except IntegrityError:
            raise StoreError(
                f"{match.number} changed while this was being recorded (another terminal wrote to "
                "it); nothing was stored: look at the match again and repeat"
            ) from None

    def matches(self) -> Iterator[Match]:
        """Every stored match, in the order they were created."""
        for notification in self._started():
            yield self.repository.get(notification.originator_id)

    def _count_matches(self) -> int:
        return sum(1 for _ in self._started())

    def _started(self) -> Iterator[Notification]:
        """The notification of every match's first event, read in pages."""
        start = 1
        while True:
            page = self.recorder.select_notifications(start, PAGE, topics=[STARTED])
            yield from page
            if len(page) < PAGE:
                return
            start = page[-1].id + 1


def backend_env(path: Path) -> dict[str, str]:
    """The eventsourcing settings of an SQLite file."""
    return {
        "PERSISTENCE_MODULE": os.environ.get("PERSISTENCE_MODULE", "eventsourcing.sqlite"),
        "SQLITE_DBNAME": str(path),
        "SQLITE_LOCK_TIMEOUT": os.environ.get("SQLITE_LOCK_TIMEOUT", "10"),
    }


PAGE = 1000
STARTED = get_topic(Match.Started)  # type: ignore[attr-defined]  # made by @event
