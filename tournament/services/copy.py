"""``tournament db copy SOURCE TARGET``: a whole tournament from one store to another.

Every stored event (the matches', the tournament's, each with its hash chain, its time and its
id) and the tournament's snapshots are copied as eventsourcing stored them, byte for byte and in
the order they were stored, between any two stores (an SQLite file, a PostgreSQL server), with
the seeds of digital dice not revealed yet (:mod:`tournament.services.dice`). The target must hold
nothing. Before it says done, the copy is read back and compared row by row with the source,
and verified on its own (hash chains, replays: ``tournament verify``); a copy that fails
half-way or does not verify is taken away, leaving the target empty again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from itertools import zip_longest
from typing import Any

from eventsourcing.persistence import StoredEvent

from engine.message import msg, nmsg
from tournament.errors import StoreError
from tournament.storage.backends import holds_store, scan
from tournament.storage.locations import Location, PostgresServer, close, locate
from tournament.storage.postgres import EVENTS, connect

PAGE = 5000
WRITE_PAGE = 1000


@dataclass
class Copied:
    """What a copy moved and how it was checked."""

    source: str
    target: str
    events: int = 0
    snapshots: int = 0
    matches: int = 0
    tournament: bool = False  # whether the store held a tournament (not matches alone)
    failures: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "target": self.target,
            "events": self.events,
            "snapshots": self.snapshots,
            "matches": self.matches,
            "verified": not self.failures,
            "failures": self.failures,
        }


def holds_anything(where: Location) -> bool:
    """Whether a store already holds something (a copy only fills an empty one)."""
    if isinstance(where, PostgresServer):
        if not holds_store(where):
            return False
        with connect(where) as conn:
            return conn.execute(f"select exists (select 1 from {EVENTS})").fetchone()[0]  # type: ignore[index]
    return where.path.exists()


def _stored(store: Any) -> Iterator[list[StoredEvent]]:
    """The source's stored events in the order they were stored, a page at a time."""
    start = 1
    while True:
        page = store.recorder.select_notifications(start, PAGE)
        if not page:
            return
        yield [StoredEvent(n.originator_id, n.originator_version, n.topic, n.state) for n in page]
        start = page[-1].id + 1


def copy(
    source_db: str | Location,
    target_db: str | Location,
    lexicon_for: Callable[[Any], Any],
    progress: Callable[[str], None] | None = None,
) -> Copied:
    """Copy everything stored in ``source_db`` into the empty ``target_db`` and verify it.

    Raises :class:`StoreError` (nothing written) when the source is not a store or the target
    holds anything; a copy that does not verify is reported in :attr:`Copied.failures`.
    """
    from tournament.domain.tournaments import TOURNAMENT_ID
    from tournament.readside import readmodels
    from tournament.services import dice
    from tournament.storage import provenance
    from tournament.storage.store import Store
    from tournament.verify import verify_store

    source, target = locate(source_db), locate(target_db)
    if str(source) == str(target):
        raise StoreError(msg("the source and the target are the same store"))
    if not holds_store(source):
        raise StoreError(msg("there is no database at %(where)s", where=source))
    if holds_anything(target):
        raise StoreError(
            msg(
                "%(target)s already holds something: db copy only fills an empty store (pass a "
                "new file, or an empty database or schema)",
                target=target,
            )
        )
    result = Copied(str(source), str(target))
    say = progress or (lambda _: None)
    reader = Store(source)
    try:
        events = [e for page in _stored(reader) for e in page]
        assert reader.snapshots is not None
        snapshots = list(reader.snapshots.recorder.select_events(TOURNAMENT_ID))
        seeds = dice.every_seed(reader)  # kept outside the log until their reveal
        kept = provenance.every_row(reader)  # who wrote it, where moved matches came from
    finally:
        close(reader)
    say(
        nmsg(
            "read %(n)s event and %(snapshots)s from %(source)s",
            "read %(n)s events and %(snapshots)s from %(source)s",
            len(events), source=source,
            snapshots=nmsg("%(n)s snapshot", "%(n)s snapshots", len(snapshots)),
        )
    )  # fmt: skip
    writer = Store(target)
    try:
        # A page a transaction (one statement of a whole season is slow on a server); a copy
        # that fails half-way, or does not verify, is taken away: the target holds nothing again.
        for start in range(0, len(events), WRITE_PAGE):
            writer.recorder.insert_events(events[start : start + WRITE_PAGE])
            written = min(start + WRITE_PAGE, len(events))
            say(nmsg("  %(n)s event written", "  %(n)s events written", written))
        if snapshots:
            assert writer.snapshots is not None
            writer.snapshots.recorder.insert_events(snapshots)
        dice.keep_seeds(writer, seeds)
        provenance.keep_rows(writer, kept)
        result.events, result.snapshots = len(events), len(snapshots)
        say(msg("wrote them to %(target)s; comparing and verifying", target=target))
        _compare(source, target, result)
        if dice.every_seed(writer) != seeds:
            result.failures.append(msg("the copy's digital dice seeds differ from the source's"))
        report = verify_store(target, lexicon_for)
        result.matches, result.tournament = report.matches, report.tournament_events > 0
        result.failures += [
            msg("the copy: %(failure)s", failure=f.message()) for f in report.failures
        ]
        if not result.failures:
            readmodels.rebuild(writer)
    except BaseException:
        close(writer)
        _take_away(target)
        raise
    close(writer)
    if result.failures:
        _take_away(target)
    return result


def _take_away(target: Location) -> None:
    """Leave the target as it was before the copy: empty."""
    if isinstance(target, PostgresServer):
        from tournament.readside.readmodels import TABLES
        from tournament.storage.postgres import wipe

        wipe(target, TABLES)
        return
    from tournament.storage.sqlitefile import remove

    remove(target.path)


def _compare(source: Location, target: Location, result: Copied) -> None:
    """Every row of the copy is the source's, byte for byte, and nothing is missing or extra."""
    for what, rows in (
        ("events", msg("the copy's events")),
        ("snapshots", msg("the copy's snapshots")),
    ):
        for theirs, ours in zip_longest(scan(source, what), scan(target, what)):
            if theirs is None or ours is None:
                result.failures.append(msg("%(rows)s are not as many as the source's", rows=rows))
                return
            if tuple(theirs[:3]) != tuple(ours[:3]) or bytes(theirs[3]) != bytes(ours[3]):
                result.failures.append(
                    msg(
                        "%(rows)s differ from the source's at %(aggregate)s version %(version)s",
                        rows=rows,
                        aggregate=ours[0],
                        version=ours[1],
                    )  # fmt: skip
                )
                return
