"""The matches' rows as the read models hold them, kept in a server's memory (#27).

A festival's home page, its standings and its rounds' pages read the rows of thousands of
matches, and a move changes one of them. For a kept store (:func:`tournament.readside.kept.keep`)
the rows are read once and brought forward by the matches the events projected since touched
(the read models' ``events`` table, by its key: one indexed read, then those rows by theirs);
an event of the tournament itself (a pairing, a withdrawal: it places matches in rounds and
tables) reads them all again, as does a read model made again. Whichever process stored the
events, they are seen once the read models hold them. Beside the rows: where a finished match's
row last changed (what the standings stand on), each row decoded once, and which matches each
of the last steps touched (:func:`touched_since`: a page that keeps what it worked out of the
rows works out again only what they touched).
"""

from __future__ import annotations

import itertools
import threading
import weakref
from dataclasses import dataclass, field
from typing import Any

import orjson

from tournament.readside import readmodels
from tournament.storage.store import Store

COLUMNS = ("id", "game", "players", "status", "winners", "points", "events", "round", "table_no")
JSON_COLUMNS = ("players", "winners", "points")
Row = tuple[Any, ...]  # the COLUMNS' values as stored (JSON undecoded)


@dataclass
class Mirror:
    at: int  # the read models' position the rows stand at
    decided: int  # where a finished match's row last changed
    rows: dict[str, Row]
    mark: tuple[Any, ...] | None = None  # the event projected at ``at`` (readmodels.mark)
    decoded: dict[str, tuple[Row, dict[str, Any]]] = field(default_factory=dict)
    rounds: dict[int | None | str, list[str]] | None = None  # each round's numbers, in order
    # Every row read afresh (the first look, the read models made again, the tournament's own
    # event) begins another epoch; within one, the steps since: (position, numbers touched).
    epoch: int = 0
    log: tuple[tuple[int, frozenset[str]], ...] = ()
    since: int = 0  # the log holds every step after this position (within the epoch)


_mirrors: weakref.WeakKeyDictionary[Store, Mirror] = weakref.WeakKeyDictionary()
_lock = threading.Lock()
_epochs = itertools.count(1)
LOG = 256  # the steps a mirror remembers the numbers of


def _all(db: Any) -> dict[str, Row]:
    found = db.rows(f"select {', '.join(COLUMNS)} from matches")
    return {row[0]: tuple(row) for row in found}


def _some(db: Any, numbers: list[str]) -> dict[str, Row]:
    rows: dict[str, Row] = {}
    for k in range(0, len(numbers), 500):
        chunk = numbers[k : k + 500]
        statement = f"select {', '.join(COLUMNS)} from matches where id in ({db.marks(len(chunk))})"
        rows.update((row[0], tuple(row)) for row in db.rows(statement, chunk))
    return rows


def _finished(row: Row | None) -> Row | None:
    return row if row is not None and row[3] == "finished" else None


def mirrored(store: Store) -> Mirror:
    """The matches' rows at the read models' position now (read as they are)."""
    db = readmodels.database(store)
    with _lock:
        at = readmodels.position(db)
        kept = _mirrors.get(store)
        mark = readmodels.mark(db, at)
        if kept is not None and kept.at == at and kept.mark == mark:
            return kept
        # The first look, or the read models made again (a store started over by another
        # process and projected again, to this position or past it: another event at ``at``).
        if kept is None or at < kept.at or readmodels.mark(db, kept.at) != kept.mark:
            kept = _mirrors[store] = Mirror(at, at, _all(db), mark, epoch=next(_epochs), since=at)
            return kept
        since = "select distinct match from events where id > ? and id <= ?"
        touched = [row[0] for row in db.rows(since, [kept.at, at])]
        if None in touched:  # the tournament's own event: every row may have moved
            now = _all(db)
            numbers = set(now) | set(kept.rows)
            epoch, log, after = next(_epochs), (), at
        else:
            now = {**kept.rows, **_some(db, touched)}
            numbers = set(touched)
            epoch, log, after = kept.epoch, (*kept.log, (at, frozenset(numbers))), kept.since
            if len(log) > LOG:
                after, log = log[-LOG - 1][0], log[-LOG:]
        changed = any(_finished(kept.rows.get(n)) != _finished(now.get(n)) for n in numbers)
        decided = at if changed else kept.decided
        # (each round's numbers stay while no match is new and none changed its round)
        same = kept.rounds is not None and all(
            n in kept.rows and n in now and kept.rows[n][7] == now[n][7] for n in numbers
        )
        rounds = kept.rounds if same and epoch == kept.epoch else None
        kept = _mirrors[store] = Mirror(
            at, decided, now, mark, kept.decoded, rounds, epoch, log, after
        )
        return kept


def touched_since(mirror: Mirror, epoch: int, at: int) -> frozenset[str] | None:
    """The numbers of the matches whose rows changed after position ``at`` of ``epoch`` (None:
    not known, every row may have: another epoch, or a step older than the log)."""
    if epoch != mirror.epoch or not mirror.since <= at <= mirror.at:
        return None
    return frozenset().union(*(numbers for step, numbers in mirror.log if step > at))


def decoded(mirror: Mirror, number: str) -> dict[str, Any]:
    """A match's row as a dict, its JSON columns decoded (once a row: shared by every page
    that reads it, never to be changed)."""
    row = mirror.rows[number]
    hit = mirror.decoded.get(number)
    if hit is None or hit[0] != row:
        value = dict(zip(COLUMNS, row, strict=True))
        for key in JSON_COLUMNS:
            value[key] = orjson.loads(value[key]) if value[key] else None
        hit = mirror.decoded[number] = (row, value)
    return hit[1]


EVERY = "every"  # in_round's key for every match


def in_round(mirror: Mirror, number: int | None | str) -> list[str]:
    """The numbers of a round's matches (None: outside every round; :data:`EVERY`: all), in
    number order (as ``cast(substr(id, 2) as integer)`` orders them)."""
    rounds = mirror.rounds
    if rounds is None:
        rounds = {EVERY: []}
        for row in sorted(mirror.rows.values(), key=_order):
            rounds.setdefault(row[7], []).append(row[0])
            rounds[EVERY].append(row[0])
        mirror.rounds = rounds
    return rounds.get(number, [])


def _order(row: Row) -> tuple[int, str]:
    digits = row[0][1:]
    return (int(digits) if digits.isdigit() else 0), row[0]
