"""Read models: plain tables in the same SQLite file, for organizers and their SQLite tools.

``events`` (every stored event, flat), ``matches`` and ``challenges`` (each match's state and
each player's points in it), ``players``, ``rounds``, ``pairings`` and ``standings`` (their
columns: :mod:`tournament.readtables`). They are caches of the event store: :func:`update`
polls the notification log from the position it stored (eventsourcing's projection runners do
not work on SQLite), and :func:`rebuild` drops them and starts again from the first event; both
give the same tables.

Commands that write keep them current in the file, one updater at a time (the update takes
SQLite's write lock before it reads its position, so a second updater finds the work done).
A command that only reads never writes them: when they are behind the event store it brings a
copy up to date in memory (:func:`update` on a store that has saved nothing). Read models of a
newer schema are never rebuilt at an older number: the command says to upgrade.

A match's outcome is taken from the last ``end`` event of its log when no ruling or void comes
after it: the engine checked that event against a replay when it was stored. Any other match
(in progress, corrected since its last end, or imported without derived events) is replayed.
"""

from __future__ import annotations

import json
import weakref
from collections.abc import Iterator
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any

import orjson
import sqlite_utils

from engine.games.base import Outcome
from tournament import readtables, sqlitefile
from tournament.errors import NewerVersionError, StoreError
from tournament.store import PAGE, Store, known_topic

PROJECTION = "read_models"
SCHEMA = readtables.SCHEMA
MATCH_STARTED = "tournament.store:Match.Started"
MATCH_RECORDED = "tournament.store:Match.Recorded"
TOURNAMENT_PREFIX = "tournament.tournaments:Tournament."
TABLES = ("events", "matches", "challenges", "players", "rounds", "pairings", "standings")


@dataclass
class Progress:
    """What one update read, and which matches and tables it touched."""

    events: int = 0
    matches: set[str] = field(default_factory=set)
    tournament: bool = False


_views: weakref.WeakKeyDictionary[Store, sqlite_utils.Database] = weakref.WeakKeyDictionary()


def database(store: Store) -> sqlite_utils.Database:
    """The read models: the copy brought up to date in memory, if this process made one, else
    the file's tables (read-only unless this process writes)."""
    view = _views.get(store)
    if view is not None:
        return view
    return sqlite_utils.Database(sqlitefile.connect(store.path, readonly=not store.has_written))


def _schema(db: sqlite_utils.Database) -> int | None:
    row = db.execute("select position from _projections where name = 'schema'").fetchone()
    return row[0] if row else None


def position(db: sqlite_utils.Database) -> int:
    if "_projections" not in db.table_names():
        return 0
    row = db.execute("select position from _projections where name = ?", [PROJECTION]).fetchone()
    return row[0] if row else 0


def rebuild(store: Store) -> Progress:
    """Drop every read model and project the whole log again (in the file)."""
    return update(store, write=True, again=True)


def update(store: Store, write: bool | None = None, again: bool = False) -> Progress:
    """Bring the read models up to the last stored event, from where they stopped.

    ``write`` (default: whether this process has saved anything) updates the file's tables;
    otherwise an up-to-date copy is kept in memory for :func:`database`, and the file is not
    touched. ``again`` drops them first.
    """
    if write is None:
        write = store.has_written
    _views.pop(store, None)
    if not write and not again:
        source = sqlitefile.connect(store.path)
        try:
            if _current(sqlite_utils.Database(source)):
                return Progress()
        finally:
            source.close()
    with sqlitefile.updating(store.path, write) as conn:
        db = sqlite_utils.Database(conn)
        progress = _update(db, store, again)
    if not write:
        _views[store] = db
    return progress


def _current(db: sqlite_utils.Database) -> bool:
    """Whether the file's read models are of this schema and hold every stored event."""
    if "_projections" not in db.table_names():
        return False
    schema = _schema(db)
    if schema is not None and schema > SCHEMA:
        raise NewerVersionError("its read models")
    last = db.execute(f"select max(rowid) from {sqlitefile.EVENTS}").fetchone()[0] or 0
    return schema == SCHEMA and position(db) == last


def _update(db: sqlite_utils.Database, store: Store, again: bool) -> Progress:
    if "_projections" in db.table_names():
        schema = _schema(db)
        if schema is not None and schema > SCHEMA:
            raise NewerVersionError("its read models")
        if again or schema != SCHEMA:  # made by an older version of the program: rebuild
            for name in (*TABLES, "_projections"):
                if name in db.table_names():
                    db.conn.execute(f"drop table [{name}]")
    readtables.create(db)
    try:
        return _project(db, store)
    except (KeyError, ValueError, TypeError, AttributeError):
        raise StoreError(
            "the read models cannot be built: a stored event was changed outside the program "
            "(tournament verify shows where)"
        ) from None


def _project(db: sqlite_utils.Database, store: Store) -> Progress:
    start = position(db) + 1
    progress = Progress()
    numbers = {row[0]: row[1] for row in db.execute("select uuid, id from matches")}
    summaries: dict[str, dict[str, Any]] = {}
    last = start - 1
    for page in _pages(db, start):
        rows = _flat_rows(page, numbers, summaries, progress)
        db.conn.executemany("insert or replace into events values (?, ?, ?, ?, ?, ?, ?)", rows)
        progress.events += len(rows)
        last = page[-1][0]
    progress.matches = set(summaries)
    _matches(db, store, summaries)
    if progress.tournament or progress.matches:
        readtables.tournament(db, store, outcomes(db))
    db.conn.execute(
        "insert or replace into _projections (name, position) values (?, ?)", [PROJECTION, last]
    )
    return progress


def _pages(db: sqlite_utils.Database, start: int) -> Iterator[list[tuple[Any, ...]]]:
    """The notification log, read in pages straight from eventsourcing's SQLite table.

    (Read models are SQLite tables anyway; reading the rows ourselves skips building a UUID and
    a notification object for every event, which made the rebuild four times slower.)
    """
    while True:
        page = db.execute(
            "select rowid, originator_id, originator_version, topic, state from stored_events "
            "where rowid >= ? order by rowid limit ?",
            [start, PAGE * 5],
        ).fetchall()
        if not page:
            return
        yield page
        start = page[-1][0] + 1


def _flat_rows(
    page: list[tuple[Any, ...]],
    numbers: dict[str, str],
    summaries: dict[str, dict[str, Any]],
    progress: Progress,
) -> list[tuple[Any, ...]]:
    """The rows of the flat events table for one page, noting what each event changes.

    The hot loop of a rebuild (a match event is nearly every event): kept to the bone.
    """
    loads = orjson.loads  # decoding the stored events is most of a rebuild: orjson is ~6x faster
    for topic in {row[3] for row in page} - _KNOWN:
        if not known_topic(topic):
            raise NewerVersionError()
        _KNOWN.add(topic)
    rows: list[tuple[Any, ...]] = []
    append = rows.append
    for notification, aggregate, version, topic, raw in page:
        state = loads(raw)
        at = state["timestamp"]["_data_"]
        if topic == MATCH_RECORDED:
            match = numbers[aggregate]
            payload = state["line"]
            s = summaries.get(match)
            if s is None:
                s = summaries[match] = {}
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
        elif topic == MATCH_STARTED:
            match = numbers[aggregate] = state["number"]
            payload = state["header"]
            summaries.setdefault(match, {})["new"] = (aggregate, payload)
        else:
            match = None
            progress.tournament = progress.tournament or topic.startswith(TOURNAMENT_PREFIX)
            state.pop("timestamp")
            state.pop("originator_topic", None)
            payload = json.dumps(state, ensure_ascii=False)
        append((notification, aggregate, version, topic.rpartition(":")[2], at, match, payload))
    return rows


_KNOWN = {MATCH_STARTED, MATCH_RECORDED}  # topics this version was seen to know

MATCH_COLUMNS = (
    "id", "uuid", "game", "players", "outside", "events", "head", "status", "winners", "points",
    "last_end", "end_at", "corrected_at", "round", "table_no",
)  # fmt: skip


def _chunks(items: list[str], size: int = 500) -> Iterator[list[str]]:
    for k in range(0, len(items), size):
        yield items[k : k + size]


def _matches(db: sqlite_utils.Database, store: Store, summaries: dict[str, dict[str, Any]]) -> None:
    """Bring the touched matches' rows and challenges up to date, a few statements in all."""
    from tournament.matches import load

    columns = ", ".join(MATCH_COLUMNS)
    as_row = itemgetter(*MATCH_COLUMNS)
    rows: dict[str, dict[str, Any]] = {}
    for chunk in _chunks(list(summaries)):
        marks = ", ".join("?" * len(chunk))
        for found in db.conn.execute(f"select {columns} from matches where id in ({marks})", chunk):
            rows[found[0]] = dict(zip(MATCH_COLUMNS, found, strict=True))
    written, challenges = [], []
    for number, s in summaries.items():
        row = rows.get(number) or dict.fromkeys(MATCH_COLUMNS)
        if "new" in s:
            aggregate, header_line = s.pop("new")
            header = json.loads(header_line)
            row.update(
                id=number,
                uuid=aggregate,
                game=header["game"],
                events=0,
                players=json.dumps(header["players"]),
                outside=json.dumps(header["outside"]) if header.get("outside") else "[]",
            )
        row.update(s)
        outcome: Outcome | None
        if row["last_end"] and (row["corrected_at"] or 0) < (row["end_at"] or 0):
            end = json.loads(row["last_end"])
            outcome = Outcome(tuple(end["winners"]), end["points"])
        else:
            outcome = load(store, number).replay.outcome
        row.update(
            status="finished" if outcome else "in_progress",
            winners=json.dumps(list(outcome.winners)) if outcome else None,
            points=json.dumps(dict(outcome.points)) if outcome else None,
        )
        written.append(as_row(row))
        if outcome:
            challenges += [
                (number, p, row["game"], pts, int(p in outcome.winners))
                for p, pts in outcome.points.items()
            ]
    marks = ", ".join("?" * len(MATCH_COLUMNS))
    db.conn.executemany(f"insert or replace into matches ({columns}) values ({marks})", written)
    for chunk in _chunks(list(summaries)):
        db.conn.execute(
            f"delete from challenges where match in ({', '.join('?' * len(chunk))})", chunk
        )
    db.conn.executemany("insert into challenges values (?, ?, ?, ?, ?)", challenges)


def outcomes(db: sqlite_utils.Database) -> dict[str, Outcome | None]:
    """Each match's outcome as the read model holds it."""
    out: dict[str, Outcome | None] = {}
    for number, status, winners, points in db.execute(
        "select id, status, winners, points from matches"
    ):
        out[number] = (
            Outcome(tuple(json.loads(winners)), json.loads(points))
            if status == "finished"
            else None
        )
    return out
