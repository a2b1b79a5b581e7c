"""The matches' rows as the read models hold them, kept in a server's memory (#27).

A festival's home page, its standings and its rounds' pages read the rows of thousands of
matches, and a move changes one of them. For a kept store (:func:`tournament.readside.kept.keep`)
the rows are read once and brought forward by the matches the events projected since touched
(the read models' ``events`` table, by its key: one indexed read, then those rows by theirs);
an event of the tournament itself (a pairing, a withdrawal: it places matches in rounds and
tables) reads them all again, as does a read model made again. Whichever process stored the
events, they are seen once the read models hold them. Beside the rows: where a finished match's
row last changed (what the standings stand on), and each row decoded once.
"""

from __future__ import annotations

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


_mirrors: weakref.WeakKeyDictionary[Store, Mirror] = weakref.WeakKeyDictionary()
_lock = threading.Lock()


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
            kept = _mirrors[store] = Mirror(at, at, _all(db), mark)
            return kept
        since = "select distinct match from events where id > ? and id <= ?"
        touched = [row[0] for row in db.rows(since, [kept.at, at])]
        if None in touched:  # the tournament's own event: every row may have moved
            now = _all(db)
            numbers = set(now) | set(kept.rows)
        else:
            now = {**kept.rows, **_some(db, touched)}
            numbers = set(touched)
        changed = any(_finished(kept.rows.get(n)) != _finished(now.get(n)) for n in numbers)
        decided = at if changed else kept.decided
        kept = _mirrors[store] = Mirror(at, decided, now, mark, kept.decoded)
        return kept


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
