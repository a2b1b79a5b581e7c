"""What a refresh of the read models reads of the stored events, and the rows it writes of
them: the flat ``events`` table's, and each touched match's row and challenges (its outcome
from its last ``end`` event, or replayed). :mod:`tournament.readside.readmodels` runs the
refresh; the tournament's tables are :mod:`tournament.readside.readtables`'.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any

import orjson

from engine.games.base import Outcome
from tournament.errors import NewerVersionError
from tournament.readside import reading, readtables
from tournament.storage.sql import ReadDB
from tournament.storage.store import Store, known_topic, match_uuid

MATCH_STARTED = "tournament.store:Match.Started"
MATCH_RECORDED = "tournament.store:Match.Recorded"
RECORDED_TYPE = MATCH_RECORDED.rpartition(":")[2]  # its type in the events table
TOURNAMENT_PREFIX = "tournament.tournaments:Tournament."
EVENT_COLUMNS = ("id", "aggregate", "version", "type", "at", "match", "payload")


@dataclass
class Progress:
    """What one update read, and which matches and tables it touched."""

    events: int = 0
    matches: set[str] = field(default_factory=set)
    tournament: bool = False
    written: readtables.Written | None = field(default=None, repr=False)
    position: int = 0  # the last event the read models hold after it (0: not said)


def pages(db: ReadDB, start: int) -> Iterator[list[tuple[Any, ...]]]:
    """The notification log, read in pages straight from eventsourcing's table.

    (Reading the rows ourselves skips building a UUID and a notification object for every
    event, which made the rebuild four times slower.)
    """
    while True:
        page = db.stored(start, db.page, MATCH_RECORDED)
        if not page:
            return
        yield page
        if len(page) < db.page:
            return  # (the last: one round trip a refresh, #27; what comes after, the next)
        start = page[-1][0] + 1


def flat_rows(
    page: list[tuple[Any, ...]],
    numbers: dict[str, str],
    summaries: dict[str, dict[str, Any]],
    progress: Progress,
) -> list[tuple[Any, ...]]:
    """The rows of the flat events table for one page, noting what each event changes.

    The hot loop of a rebuild (a match event is nearly every event): kept to the bone.
    """
    loads = orjson.loads  # decoding the stored events is most of a rebuild: orjson is ~6x faster
    topics = {row[3] for row in page}  # None: a recorded move (see ReadDB.stored)
    topics.discard(None)
    for topic in topics - _KNOWN:
        if not known_topic(topic):
            raise NewerVersionError()
        _KNOWN.add(topic)
    kinds = {topic: topic.rpartition(":")[2] for topic in topics}  # the type column
    rows: list[tuple[Any, ...]] = []
    append = rows.append
    # A match's events come in runs (one save stores a move, an import the whole log): its
    # number and summary are looked up when the run starts, not at every event.
    current, number, s = None, "", {}
    for notification, aggregate, version, topic, raw in page:
        state = loads(raw)
        if topic is None:  # a recorded move
            if aggregate != current:
                number = numbers[aggregate]
                s = summaries.get(number) or summaries.setdefault(number, {})
                current = aggregate
            payload = state["line"]
            s["events"] = version - 1
            s["head"] = state["hash"]
            # A cheap look for the few lines that matter; parsed to be sure (a field of
            # another event could hold the same text).
            if (
                '"type":"end"' in payload
                or '"type":"ruling"' in payload
                or ('"type":"void"' in payload)
            ):
                kind = loads(payload)["type"]
                if kind == "end":
                    s["last_end"], s["end_at"] = payload, version - 1
                elif kind in ("ruling", "void"):
                    s["corrected_at"] = version - 1
            append((notification, aggregate, version, RECORDED_TYPE, state["timestamp"]["_data_"],
                    number, payload))  # fmt: skip
            continue
        at = state["timestamp"]["_data_"]
        if topic == MATCH_STARTED:
            match = numbers[aggregate] = state["number"]
            payload = state["header"]
            summaries.setdefault(match, {})["new"] = (aggregate, payload, state.get("hash"))
        else:
            match = None
            progress.tournament = progress.tournament or topic.startswith(TOURNAMENT_PREFIX)
            state.pop("timestamp")
            state.pop("originator_topic", None)
            payload = readtables.dumps_unicode(state)
        append((notification, aggregate, version, kinds[topic], at, match, payload))
    return rows


_KNOWN = {MATCH_STARTED, MATCH_RECORDED}  # topics this version was seen to know

MATCH_COLUMNS = (
    "id", "uuid", "game", "players", "outside", "events", "head", "status", "winners", "points",
    "last_end", "end_at", "corrected_at", "round", "table_no",
)  # fmt: skip


def _chunks(items: list[str], size: int = 500) -> Iterator[list[str]]:
    for k in range(0, len(items), size):
        yield items[k : k + size]


def lines_of(rows: Sequence[tuple[Any, ...]]) -> dict[str, list[tuple[int, str, str]]]:
    """The recorded moves of a page's flat rows (:func:`flat_rows`), by match: each event's
    version, line and time (a refresh's, to bring a match kept forward without reading it),
    those of the match's own aggregate only (its number's id)."""
    found: dict[str, list[tuple[int, str, str]]] = {}
    ids: dict[str, str] = {}
    for _, aggregate, version, kind, at, number, payload in rows:
        if kind == RECORDED_TYPE:
            own = ids.get(number) or ids.setdefault(number, match_uuid(number).hex)
            if aggregate == own:
                found.setdefault(number, []).append((version, payload, at))
    return found


def matches(
    db: ReadDB,
    store: Store,
    summaries: dict[str, dict[str, Any]],
    places: dict[str, tuple[int, int]],
    placed: dict[str, tuple[int | None, int | None]],
    lines: dict[str, list[tuple[int, str, str]]] | None = None,
) -> tuple[dict[str, Outcome | None], bool]:
    """Bring the touched matches' rows and challenges up to date, a few statements in all (each
    row in its round and table, from ``places``: noted in ``placed``); their outcomes, as the
    rows now hold them, and whether any outcome is not the one its row held before.
    ``lines``: the refresh's recorded moves by match (:func:`lines_of`)."""
    if not summaries:  # (the tournament's events alone: a partita chosen, a round paired)
        return {}, False
    columns = ", ".join(MATCH_COLUMNS)
    as_row = itemgetter(*MATCH_COLUMNS)
    dumps = readtables.dumps
    rows: dict[str, dict[str, Any]] = {}
    for chunk in _chunks(list(summaries)):
        marks = db.marks(len(chunk))
        for found in db.rows(f"select {columns} from matches where id in ({marks})", chunk):
            rows[found[0]] = dict(zip(MATCH_COLUMNS, found, strict=True))
    written, challenges, changed = [], [], []
    outcomes: dict[str, Outcome | None] = {}
    decided = False
    for number, s in summaries.items():
        row = rows.get(number) or dict.fromkeys(MATCH_COLUMNS)
        before = (row["status"], row["winners"], row["points"])
        new = s.pop("new", None)
        if new is not None:
            # (orjson reads as json does every header the program stores: strict I-JSON.)
            header = orjson.loads(new[1])
            outside = header.get("outside")
            row["id"], row["uuid"], row["game"], row["events"] = number, new[0], header["game"], 0
            row["players"] = dumps(header["players"])
            row["outside"] = dumps(outside) if outside else "[]"
        row.update(s)
        if number in places:
            row["round"], row["table_no"] = places[number]
        placed[number] = (row["round"], row["table_no"])
        outcome: Outcome | None
        if row["last_end"] and (row["corrected_at"] or 0) < (row["end_at"] or 0):
            end = orjson.loads(row["last_end"])
            outcome = Outcome(tuple(end["winners"]), end["points"])
        else:
            at = (row["events"], row["head"]) if row["head"] else None  # (as this refresh read it)
            if at is None and new is not None and new[2] is not None and not row["events"]:
                at = (0, new[2])  # (started in this refresh, no line yet: its start's hash)
            outcome = reading.outcome(store, number, at, (lines or {}).get(number, ()))
        outcomes[number] = outcome
        if outcome:
            points, winners, game = dict(outcome.points), outcome.winners, row["game"]
            row["status"], row["winners"], row["points"] = (
                "finished",
                dumps(list(winners)),
                dumps(points),
            )
            rows_of = [(number, p, game, pts, int(p in winners)) for p, pts in points.items()]
        else:
            row["status"], row["winners"], row["points"] = "in_progress", None, None
            rows_of = []
        if before != (row["status"], row["winners"], row["points"]):
            decided = True
            changed.append(number)  # (its challenges' rows follow from these three alone)
            challenges += rows_of
        written.append(as_row(row))
    db.upsert("matches", MATCH_COLUMNS, "id", written)
    for chunk in _chunks(changed):  # (a move that decides nothing writes none, #27)
        db.run(f"delete from challenges where match in ({db.marks(len(chunk))})", chunk)
    db.insert("challenges", ("match", "player", "game", "points", "won"), challenges)
    return outcomes, decided


def outcomes(db: ReadDB) -> dict[str, Outcome | None]:
    """Each match's outcome as the read model holds it."""
    out: dict[str, Outcome | None] = {}
    for number, status, winners, points in db.rows(
        "select id, status, winners, points from matches"
    ):
        out[number] = (
            Outcome(tuple(orjson.loads(winners)), orjson.loads(points))
            if status == "finished"
            else None
        )
    return out
