"""Where a store's contents came from: the versions of the program that wrote to it, and the
matches moved into it from another store.

Both are kept in the store's own small tables beside its events (:func:`own_tables`: in the
SQLite file, or in the tournament's schema on a server), and ``tournament db copy`` carries them.

- ``store_writers``: each version of ``tournament`` that saved anything to the store, with the
  first and the last time it did (written on a process's first save).
- ``match_origins``: a match imported from an exported log whose number was taken here was
  stored under a new number, so its chain is a new one; the log's own binding (its number, id,
  start and event times) is kept, so that the chain the log had, and the head hash printed on
  its score sheet, can be computed again from the stored lines: ``tournament verify M12 --head
  ORIGINAL`` proves that M12 is that match. The row proves nothing by itself: only a chain
  computed from the stored lines can give the original head.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from tournament.logformat.matchlog import Binding, chain
from tournament.storage.sql import ensure, own_tables

WRITERS = "store_writers"
WRITER_COLUMNS: dict[str, type] = {"version": str, "first_at": str, "last_at": str}
ORIGINS = "match_origins"
ORIGIN_COLUMNS: dict[str, type] = {
    "match": str,  # its number here
    "header": str,  # the header line of the log's chain (before anything was added here)
    "origin": str,  # its number in the store it was exported from ("": a plain chain, 0.1's)
    "id": str,  # its id there ("": a plain chain)
    "at": str,  # when it was started there ("": a plain chain)
    "times": str,  # JSON: each event's time there (a plain chain: null)
    "events": int,  # how many of its events the log held
    "head": str,  # the head hash of the log's chain
}


TABLES = ((WRITERS, WRITER_COLUMNS, "version"), (ORIGINS, ORIGIN_COLUMNS, "match"))


def version() -> str:
    """This program's version (the installed package's)."""
    from tournament import __version__

    return __version__


def note_writer(store: Any) -> None:
    """Record that this version wrote to the store (now)."""
    now = datetime.now(UTC).isoformat()
    with own_tables(store) as db:
        ensure(db, WRITERS, WRITER_COLUMNS, "version")
        rows = db.rows(f"select first_at from {WRITERS} where version = ?", [version()])
        first = str(rows[0][0]) if rows else now
        db.upsert(WRITERS, list(WRITER_COLUMNS), "version", [(version(), first, now)])


def writers(store: Any) -> list[dict[str, str]]:
    """The versions that wrote to the store, oldest first (none recorded before 0.2)."""
    with own_tables(store, write=False) as db:
        if WRITERS not in db.tables():
            return []
        rows = db.rows(f"select version, first_at, last_at from {WRITERS} order by first_at")
    return [dict(zip(WRITER_COLUMNS, map(str, r), strict=True)) for r in rows]


def newer_writers(store: Any) -> list[str]:
    """The versions newer than this one that wrote to the store: what this version cannot read
    of it is theirs, not a forger's."""

    def key(text: str) -> tuple[int, ...]:
        return tuple(int(part) if part.isdigit() else 0 for part in text.split("."))

    return [w["version"] for w in writers(store) if key(w["version"]) > key(version())]


def note_origin(
    store: Any, number: str, header: str, binding: Binding | None, lines: Sequence[str]
) -> None:
    """Keep the chain a log had (its header line, binding, events) for the match it was stored
    as under a new number."""
    hashes = chain(header, lines, binding)
    times = None if binding is None else list(binding.times)
    where = ("", "", "") if binding is None else (binding.match, binding.id, binding.at)
    row = (number, header, *where, json.dumps(times), len(lines), hashes[-1] if hashes else "")
    with own_tables(store) as db:
        ensure(db, ORIGINS, ORIGIN_COLUMNS, "match")
        db.upsert(ORIGINS, list(ORIGIN_COLUMNS), "match", [row])


def original_head(store: Any, number: str, lines: Sequence[str]) -> tuple[str, str] | None:
    """The head hash the match's chain had where it was exported from, computed again from its
    stored lines (and the header and binding kept), with the number it had there; None when it
    was not moved here (or its stored lines no longer give that chain)."""
    with own_tables(store, write=False) as db:
        if ORIGINS not in db.tables():
            return None
        columns = ", ".join(list(ORIGIN_COLUMNS)[1:])
        rows = db.rows(f"select {columns} from {ORIGINS} where match = ?", [number])
    if not rows:
        return None
    header, origin, id_, at, times, events, head = rows[0]
    events = int(events)
    if len(lines) < events:
        return None
    moments = json.loads(times)
    binding = None if moments is None else Binding(origin, id_, at, tuple(moments))
    hashes = chain(header, lines[:events], binding)
    computed = hashes[-1] if hashes else ""
    return (computed, origin) if computed == head else None


def every_row(store: Any) -> dict[str, list[tuple[Any, ...]]]:
    """Both tables' rows (what ``tournament db copy`` carries over)."""
    found: dict[str, list[tuple[Any, ...]]] = {}
    with own_tables(store, write=False) as db:
        tables = db.tables()
        for name, columns, _ in TABLES:
            if name in tables:
                found[name] = db.rows(f"select {', '.join(columns)} from {name}")
    return found


def keep_rows(store: Any, found: dict[str, list[tuple[Any, ...]]]) -> None:
    """Keep rows copied from another store (see every_row)."""
    if not any(found.values()):
        return
    with own_tables(store) as db:
        for name, columns, pk in TABLES:
            if found.get(name):
                ensure(db, name, columns, pk)
                db.upsert(name, list(columns), pk, found[name])
