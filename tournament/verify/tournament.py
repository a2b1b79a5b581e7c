"""``tournament verify``, the tournament's side: its own chain of events, that they apply one
after the other, its snapshots (each what the events give at its version), and that every match
it plays is stored with the head hash it recorded (:func:`tournament.verify.verify_store` calls
these in turn)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from eventsourcing.persistence import Mapper

from engine.message import msg
from tournament.domain import views
from tournament.domain.tournaments import TOURNAMENT_ID, Tournament, event_fields, seal
from tournament.logformat import plainjson
from tournament.storage.locations import Location
from tournament.verify.findings import TOURNAMENT, Failure, Report, why
from tournament.verify.storedrows import Row, Unreadable, read, streams


@dataclass
class Snapshots:
    """The tournament's stored snapshots, read before its events are replayed, so that each is
    compared with the replay as it passes their version (the tournament replayed once)."""

    failures: list[Failure] = field(default_factory=list)  # unreadable, or of no event
    # version -> the snapshots there (and whether each is known plain, with times)
    waiting: dict[int, list[tuple[Any, bool]]] = field(default_factory=dict)
    differ: list[int] = field(default_factory=list)  # versions of snapshots the events deny


def read_snapshots(place: Location, mapper: Mapper[UUID]) -> list[tuple[str, int, Any, bool]]:
    """Every stored snapshot in the order stored: its aggregate, version, the snapshot or why it
    is unreadable (an :class:`Unreadable`), and whether its state is known plain, with times
    (:mod:`tournament.logformat.plainjson`)."""
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


def verify_tournament(
    aggregate: str,
    rows: list[Row],
    mapper: Mapper[UUID],
    report: Report,
    snapshots: list[tuple[str, int, Any, bool]],
) -> tuple[list[Any], Any, Snapshots] | None:
    """Check the tournament's chain and that its events apply, and compare its snapshots on the
    way; return its events, the tournament they give and what the snapshots showed (None:
    broken)."""
    if aggregate != TOURNAMENT_ID.hex:
        report.failures.append(Failure(TOURNAMENT, 1, msg("it is stored under another id")))
        return None
    seen = Snapshots()
    for owner, version, snapshot, plain in snapshots:
        if isinstance(snapshot, Unreadable):
            continue
        if owner == TOURNAMENT_ID.hex and version >= 1:
            seen.waiting.setdefault(version, []).append((snapshot, plain))
    transcoder = mapper.transcoder
    previous, t, events = TOURNAMENT_ID.hex, None, []
    sealed = False  # an event with a hash seen: every later one must have its own
    for version, row in enumerate(rows, 1):
        report.tournament_events += 1
        if row[1] != version:
            report.failures.append(
                Failure(
                    TOURNAMENT, version, msg("an event is missing here, or the order was changed")
                )
            )
            return None
        try:
            e, times, at = read(mapper, row)
            if not isinstance(e, Tournament.Event):
                raise Unreadable(msg("the stored event is not the tournament's"))
        except Unreadable as err:
            report.failures.append(Failure(TOURNAMENT, version, why(err)))
            return None
        try:
            expected = seal(previous, row[2], version, at, event_fields(e), times == 0)
        except (TypeError, ValueError):  # a value the program never writes (a uuid, a time)
            expected = None
        stored = vars(e).get("hash")
        if stored is None and not sealed and expected is not None:
            # Tournament chain v1: 0.1 stored its events without a hash. Their links are
            # computed, so the first sealed event after them (the tournament continued by a
            # later version) seals them too; after a sealed event, every event has its hash.
            report.unsealed = version
            stored = expected
        else:
            sealed = True
        if stored is None or stored != expected:
            report.failures.append(
                Failure(
                    TOURNAMENT,
                    version,
                    msg(
                        "the tournament's hash chain breaks here: this event, or one before it, "
                        "was changed after it was recorded"
                    ),
                )
            )
            return None
        try:
            t = e.mutate(t)
        except Exception:
            report.failures.append(
                Failure(TOURNAMENT, version, msg("the event does not apply to the tournament"))
            )
            return None
        previous = stored
        events.append(e)
        # Each snapshot taken here is compared now (the state is encoded there and then: later
        # events change it in place).
        for snapshot, plain in seen.waiting.get(version, ()):
            if not isinstance(snapshot, Tournament.Snapshot):
                if not _as_01_took(snapshot, t, transcoder):
                    seen.differ.append(version)
                continue
            taken = type(snapshot).take(t)
            # Read plain, its state is written by orjson without another look (#15).
            state = snapshot.state
            stored = plainjson.transcoded(state) if plain else transcoder.encode(state)
            if snapshot.topic != taken.topic or stored != _encoded(transcoder, taken.state):
                seen.differ.append(version)
    if report.unsealed:
        report.formats["tournament chain v1"] += 1
    if sealed:
        report.formats["tournament chain v2"] += 1
    for owner, version, snapshot, _ in snapshots:
        if not isinstance(snapshot, Unreadable):
            sealed_snapshot = isinstance(snapshot, Tournament.Snapshot)
            report.formats[f"snapshot v{2 if sealed_snapshot else 1}"] += 1
        where = msg("the snapshot at version %(version)s", version=version)
        if isinstance(snapshot, Unreadable):
            seen.failures.append(
                Failure(
                    TOURNAMENT,
                    version,
                    msg("%(where)s: %(snapshot)s", where=where, snapshot=why(snapshot)),
                )
            )
        elif owner != TOURNAMENT_ID.hex or not 1 <= version <= len(events):
            seen.failures.append(
                Failure(
                    TOURNAMENT,
                    version,
                    msg("%(where)s belongs to no tournament event", where=where),
                )
            )
    return events, t, seen


# What a tournament's state holds that 0.1's did not: a snapshot 0.1 took lacks them.
_SINCE_02 = frozenset({"head", "heads", "referees"})


def _as_01_took(snapshot: Any, t: Any, transcoder: Any) -> bool:
    """Whether a snapshot of eventsourcing's own class (snapshot v1: 0.1 took it, unsealed) is
    the tournament its events give, as 0.1's state held it."""
    taken = type(snapshot).take(t)
    kept = {k: v for k, v in taken.state.items() if k not in _SINCE_02 or k in snapshot.state}
    return bool(
        snapshot.topic == taken.topic
        and transcoder.decode(transcoder.encode(kept)) == snapshot.state
    )


def _encoded(transcoder: Any, state: Any) -> bytes:
    """A snapshot's state as the store's transcoder encodes it (by orjson when it is plain)."""
    if plainjson.plain(state, times=True):
        return plainjson.transcoded(state)
    return bytes(transcoder.encode(state))


def cross_check(t: Any, heads: dict[str, list[str]], report: Report) -> None:
    """The tournament's matches are stored, and still carry the head hashes it recorded (the
    replayed tournament is read through its views; the stored shape is compared above, in
    :func:`verify_tournament`, snapshot against replay)."""
    for tb in views.tables(t):
        for number in tb.matches.values():
            if number not in heads:
                report.failures.append(
                    Failure(
                        number,
                        0,
                        msg(
                            "round %(round)s, table %(number)s plays it, but it is not stored (or "
                            "cannot be read)",
                            round=tb.round,
                            number=tb.number,
                        ),
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
                    msg(
                        "the tournament recorded its head hash at position %(count)s when it "
                        "finished; the stored log no longer has it (events removed or changed)",
                        count=count,
                    ),
                )
            )


def snapshot_failures(seen: Snapshots, report: Report) -> None:
    """Each snapshot is the tournament as its events give it at that version."""
    report.failures.extend(seen.failures)
    for version in seen.differ:
        report.failures.append(
            Failure(
                TOURNAMENT,
                version,
                msg(
                    "the snapshot at version %(version)s is not what the events give",
                    version=version,
                ),
            )
        )
