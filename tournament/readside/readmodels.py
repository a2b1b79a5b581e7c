"""Read models: plain tables where the store is, for organizers and their SQL tools.

``events`` (every stored event, flat), ``matches`` and ``challenges`` (each match's state and
each player's points in it), ``players``, ``rounds``, ``pairings`` and ``standings`` (their
columns: :mod:`tournament.readside.readtables`). They are caches of the event store: :func:`update`
polls the notification log from the position it stored (eventsourcing's projection runners do
not work on SQLite), and :func:`rebuild` drops them and starts again from the first event; both
give the same tables.

They are described once, here and in :mod:`tournament.readside.readtables`, for both backends:
:mod:`tournament.storage.sql` carries the SQL dialect (an SQLite file, or tables of their
own on a PostgreSQL server, where the position is eventsourcing's tracking record, written in
the same transaction: each event applied once).

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

import threading
import weakref
from collections.abc import Callable
from typing import Any

from tournament.errors import NewerVersionError, Refused, StoreError
from tournament.readside import kept, readevents, readtables
from tournament.readside.readevents import Progress
from tournament.storage import sqlitefile
from tournament.storage.sql import Conflict, ReadDB, SqliteReadDB, read_db
from tournament.storage.store import Store

PROJECTION = "read_models"
SCHEMA = readtables.SCHEMA
TABLES = ("events", "matches", "challenges", "players", "rounds", "pairings", "standings")
outcomes = readevents.outcomes  # (each match's outcome as the read models hold it)


# What this process last wrote of the tournament's tables (at its position): the next refresh
# writes what its events change, not every row again (#27).
_written: weakref.WeakKeyDictionary[Store, readtables.Written] = weakref.WeakKeyDictionary()
_written_lock = threading.Lock()


def _forked(store: Store) -> readtables.Written | None:
    """The tournament's rows as this process last wrote them, copied for a refresh to bring
    forward (taken under the refresh's lock: a refresh finishing first is seen). The rows held
    are replaced only once the refresh is committed (:func:`_kept`): a reader never serves
    rows a refresh wrote and then rolled back."""
    with _written_lock:
        return readtables.fork(_written.get(store))


def _kept(store: Store, progress: Progress) -> Progress:
    """``progress``, once its transaction is committed: what it wrote is kept for the next."""
    if progress.written is not None:
        with _written_lock:
            _written[store] = progress.written
    return progress


def held(store: Store, seen: Any = None, fresh: Any = None) -> readtables.Written | None:
    """What this process last wrote of the tables (``fresh`` kept where it is still ``seen``)."""
    with _written_lock:
        if fresh is not None and _written.get(store) is seen:
            _written[store] = fresh
        return _written.get(store)


_views: weakref.WeakKeyDictionary[Store, ReadDB] = weakref.WeakKeyDictionary()


def database(store: Store) -> ReadDB:
    """The read models (``query`` gives rows as dicts): the copy brought up to date in memory,
    if this process made one, else the store's tables (a file's read-only unless this process
    writes)."""
    view = _views.get(store)
    if view is not None:
        return view
    return read_db(store)


def current(store: Store) -> ReadDB:
    """The read models holding every event stored so far: brought up to date first when they
    lag (#29: a decision read from them is the log's, however late the live refresh is). When
    they do not lag this costs two small reads."""
    db = database(store)
    if _behind(db, store):
        update(store)
        db = database(store)
    return db


def _behind(db: ReadDB, store: Store) -> bool:
    if "_projections" not in db.tables():
        return True
    last = sqlitefile.last_id(store)
    return schema(db) != SCHEMA or position(db) < last


def schema(db: ReadDB) -> int | None:
    """The schema number the read models were made at (None: not said)."""
    row = db.rows("select position from _projections where name = 'schema'")
    return row[0][0] if row else None


def position(db: ReadDB) -> int:
    return db.position(PROJECTION)


def rebuild(store: Store, counted: Callable[[int], None] | None = None) -> Progress:
    """Drop every read model and project the whole log again (in the file); ``counted`` hears
    how many events are projected so far (a progress bar, #11)."""
    return update(store, write=True, again=True, counted=counted)


FEW = 1000  # a refresh's events at most whose moves bring the matches kept forward (#27)
ATTEMPTS = 20  # updates started again when another process applied the same events first


def update(
    store: Store,
    write: bool | None = None,
    again: bool = False,
    counted: Callable[[int], None] | None = None,
) -> Progress:
    """Bring the read models up to the last stored event, from where they stopped.

    ``write`` (default: whether this process has saved anything) updates the file's tables;
    otherwise an up-to-date copy is kept in memory for :func:`database`, and the file is not
    touched. ``again`` drops them first. On a server there is no file to spare: the projection
    brings the server's tables up to date, applying each event once (its tracking record is
    written in the same transaction; an updater that lost the race starts again from there).
    """
    if write is None:
        write = store.has_written
    _views.pop(store, None)
    if store.location.is_server:
        db = read_db(store)
        for _ in range(ATTEMPTS):
            try:
                with db.transaction():
                    progress = _update(db, store, again, counted)
                return _kept(store, progress)
            except Conflict:
                again = False  # another process applied the same events first: look again
        raise Conflict("the read models kept changing under this update")  # pragma: no cover
    if not write and not again:
        source = sqlitefile.connect(store.path)
        try:
            if _current(SqliteReadDB(source)):
                return Progress()
        finally:
            source.close()
    if write and kept.kept(store):  # a server's: in this thread's connection to its file, kept
        db = SqliteReadDB(sqlitefile.kept_connection(store, readonly=False))
        with db.transaction():  # (not a connection opened and closed at every refresh, #27)
            progress = _update(db, store, again, counted)
        return _kept(store, progress)
    with sqlitefile.updating(store.path, write) as conn:
        view = SqliteReadDB(conn)
        progress = _update(view, store, again, counted)
    if not write:
        _views[store] = view
    return _kept(store, progress)


def _current(db: ReadDB) -> bool:
    """Whether the file's read models are of this schema and hold every stored event."""
    if "_projections" not in db.tables():
        return False
    made = schema(db)
    if made is not None and made > SCHEMA:
        raise NewerVersionError("its read models")
    last = db.rows(f"select max(rowid) from {sqlitefile.EVENTS}")[0][0] or 0
    return made == SCHEMA and position(db) == last


def _update(
    db: ReadDB, store: Store, again: bool, counted: Callable[[int], None] | None = None
) -> Progress:
    ready = "_projections" in db.tables()  # (asked once a refresh)
    at: tuple[int, tuple[Any, ...] | None] | None = None  # (the position and its mark)
    if ready:
        made, position_at, mark_at = db.where(PROJECTION)  # (one round trip on a server, #27)
        at = position_at, mark_at
        if made is not None and made > SCHEMA:
            raise NewerVersionError("its read models")
        if again or made != SCHEMA:  # made by an older version of the program: rebuild
            for name in (*TABLES, "_projections"):
                db.drop(name)
            db.forget(PROJECTION)
            ready, at = False, None
    if not ready:
        readtables.create(db)
    try:
        return _project(db, store, counted, _forked(store), at)
    except Refused:
        raise  # the user's word list is not a match's: that sentence, not "changed outside"
    except (KeyError, ValueError, TypeError, AttributeError):
        raise StoreError(
            "the read models cannot be built: a stored event was changed outside the program "
            "(tournament verify shows where)"
        ) from None


def _project(
    db: ReadDB,
    store: Store,
    counted: Callable[[int], None] | None = None,
    w: readtables.Written | None = None,
    at: tuple[int, tuple[Any, ...] | None] | None = None,
) -> Progress:
    """Project the events after the position (``at``: with its mark, read already)."""
    start = (position(db) if at is None else at[0]) + 1
    if start == 1:  # the tables were made empty
        w = readtables.Written(0, {}, {}, {name: {} for name in readtables.TOURNAMENT_TABLES})
    elif w is not None and (
        w.position != start - 1 or w.mark != (mark(db, start - 1) if at is None else at[1])
    ):
        w = None  # another process wrote the tables since (or made them again): read them
    progress = Progress()
    numbers = w.numbers if w is not None and w.numbers is not None else None
    if numbers is None:
        numbers = {row[0]: row[1] for row in db.rows("select uuid, id from matches")}
    summaries: dict[str, dict[str, Any]] = {}
    last, tail, moved = start - 1, None, None
    for k, page in enumerate(readevents.pages(db, start)):
        rows = readevents.flat_rows(page, numbers, summaries, progress)
        db.insert("events", readevents.EVENT_COLUMNS, rows)  # (the position: read under the lock)
        progress.events += len(rows)
        if counted is not None:
            counted(progress.events)
        last, tail = page[-1][0], rows[-1]
        moved = rows if k == 0 else None  # (a refresh's one page; a rebuild keeps none)
    progress.matches = set(summaries)
    # The tournament's tables (players, rounds, pairings, standings) follow from the tournament
    # and the matches' outcomes: rewritten when either changed, not after every move (#27). A
    # new match's row takes its round and table from the tournament.
    new = any("new" in s for s in summaries.values())
    t = readtables.current(store) if progress.tournament or new else None
    placed: dict[str, tuple[int | None, int | None]] = {}
    # (A refresh after the first places a new match from the tournament's rows, below: the
    # tournament's tables of hundreds are not all looked at for it.)
    where = readtables.places(t) if t is not None and (start == 1 or w is None) else {}
    # (a refresh's moves, by match: what another process stored is read on from, not asked)
    lines = readevents.lines_of(moved) if moved is not None and len(moved) <= FEW else None
    touched, decided = readevents.matches(db, store, summaries, where, placed, lines)
    if t is None and decided:
        t = readtables.current(store)
    if w is None and t is not None:
        w = readtables.written(db, start - 1)  # (the touched matches' rows as just written)
        w.mark = mark(db, start - 1)
    if w is not None:
        w.outcomes.update(touched)
        w.places.update(placed)
        if t is not None:
            readtables.tournament(db, t, w, touched)
        if last != w.position:
            w.position, w.mark = last, (tail[2], tail[4]) if tail else mark(db, last)
    if w is not None:
        w.numbers = numbers  # (each match's number by its id, new ones included)
    progress.written, progress.position = w, last
    db.advance(PROJECTION, last, start - 1)
    return progress


def mark(db: ReadDB, number: int) -> tuple[Any, ...] | None:
    """What the events table holds at ``number`` (a store started over and projected again to
    the same position holds another event there)."""
    found = db.rows("select version, at from events where id = ?", [number])
    return tuple(found[0]) if found else None
