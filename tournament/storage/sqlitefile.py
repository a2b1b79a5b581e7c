"""Everything the program knows about SQLite files, in one place.

A database file is looked at before anything opens it: a folder, an empty file, a file that is
not SQLite or an SQLite file of something else are refused with one sentence and left as they
are; a file marked by a newer version of the program (``PRAGMA user_version``) is refused too.

Reading never writes: connections are opened with ``mode=ro`` (and ``immutable=1`` in a folder
nobody can write to, an archive or a CD, where SQLite could not keep its shared-memory file), and
never switch the journal mode. The event store's writing connection is opened only when the first
event is saved, so a command that only reads never opens the file for writing at all.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote
from uuid import UUID

from eventsourcing.persistence import InfrastructureFactory
from eventsourcing.sqlite import (
    SQLiteConnection,
    SQLiteConnectionPool,
    SQLiteDatastore,
    SQLiteFactory,
)

from engine.message import msg
from tournament.errors import NewerVersionError, StoreError
from tournament.storage.filestamps import stamp_of, unchanged_since
from tournament.storage.topics import known

FORMAT = 1
"""``PRAGMA user_version`` of a database this version writes (0: written before it was set)."""

EVENTS = "stored_events"
SNAPSHOTS = "stored_snapshots"


ROOM = 64 * 1024
"""Bytes free on the disk below which a reader cannot count on SQLite making its -shm file."""


def read_uri(path: Path) -> str:
    """The URI that opens ``path`` for reading only."""
    uri = f"file:{quote(str(path.resolve()))}?mode=ro"
    folder = path.resolve().parent
    wal = Path(f"{path}-wal")
    if not (os.access(folder, os.W_OK) and _room(folder)) and not (
        wal.exists() and wal.stat().st_size
    ):
        # SQLite cannot create its -shm file here (a folder nobody may write to, a full disk,
        # #29), and no writer can be at work: the file cannot change while it is read.
        uri += IMMUTABLE
    return uri


def _room(folder: Path) -> bool:
    """Whether the disk holding ``folder`` has room for SQLite's -shm file (32 KiB)."""
    try:
        free = os.statvfs(folder)
    except (AttributeError, OSError):  # pragma: no cover - not Unix
        return True
    return free.f_bavail * free.f_frsize >= ROOM


def write_uri(path: Path) -> str:
    return f"file:{quote(str(path.resolve()))}"


def connect(path: Path, *, readonly: bool = True, timeout: float = 10) -> sqlite3.Connection:
    """A plain connection (for verify and the read models): read-only unless asked."""
    return sqlite3.connect(
        read_uri(path) if readonly else write_uri(path), uri=True, timeout=timeout
    )


def share_connections(store: Any) -> None:
    """Let every thread of this process read ``store``'s file through one connection of its
    own, kept (a server's store, #27: a query then costs no connection opened; a reading
    connection in autocommit sees every commit made since, by any process)."""
    if not store.location.is_server:
        store._file_connections = threading.local()


def kept_connection(store: Any, readonly: bool) -> sqlite3.Connection:
    """A plain connection to the store's file: this thread's own, kept, in a store that shares
    them (see :func:`share_connections`); else a new one, closed when dropped."""
    shared = getattr(store, "_file_connections", None)
    if shared is None:
        return connect(store.path, readonly=readonly)
    key = "reading" if readonly else "writing"
    conn: sqlite3.Connection | None = getattr(shared, key, None)
    if conn is not None and readonly and not unchanged_since(store.path, shared.stamp):
        conn.close()  # (opened immutable: it would never see the change)
        conn = None
    if conn is None:
        stamp = stamp_of(store.path)  # (taken first: a write meanwhile is seen next time)
        uri = read_uri(store.path) if readonly else write_uri(store.path)
        conn = sqlite3.connect(uri, uri=True, timeout=10)
        conn.isolation_level = None  # autocommit: each read sees the file as it is now
        setattr(shared, key, conn)
        if readonly:
            shared.stamp = stamp if IMMUTABLE in uri else None
    return conn


IMMUTABLE = "&immutable=1"


def last_id(store: Any) -> int:
    """The store's last notification id (0: nothing stored), read through this thread's kept
    connection where the store keeps them (some fifteen microseconds where eventsourcing's
    recorder takes a few hundred, #27), else asked of the recorder."""
    if getattr(store, "_file_connections", None) is None:
        return int(store.recorder.max_notification_id() or 0)
    row = kept_connection(store, True).execute(f"select max(rowid) from {EVENTS}").fetchone()
    return int(row[0] or 0)


def last_of(store: Any, originator: UUID) -> tuple[int, bytes | None] | None:
    """An aggregate's last stored event, its version and state (``(0, None)``: none stored),
    in one indexed read through this thread's kept connection; None in a store that keeps no
    connections."""
    if getattr(store, "_file_connections", None) is None:
        return None
    row = (
        kept_connection(store, True)
        .execute(
            f"select originator_version, state from {EVENTS} where originator_id = ? "
            "order by originator_version desc limit 1",
            [originator.hex],  # (as eventsourcing stores an id)
        )
        .fetchone()
    )
    return (0, None) if row is None else (int(row[0]), row[1])


@contextmanager
def updating(path: Path, write: bool) -> Iterator[sqlite3.Connection]:
    """A connection in which to bring the read models up to date, in one transaction: the
    file's, holding SQLite's write lock from the start (a second updater waits, then finds the
    work done), or an in-memory copy of the file (a command that only reads never writes it)."""
    if write:
        conn = connect(path, readonly=False)
    else:
        source = connect(path)
        conn = sqlite3.connect(":memory:")
        source.backup(conn)
        source.close()
    conn.isolation_level = None  # our own transaction
    conn.execute("begin immediate")
    try:
        yield conn
        conn.execute("commit")
    except BaseException:
        conn.execute("rollback")
        raise


def inspect(path: Path, topics: bool = True) -> bool:
    """Whether ``path`` holds a tournament database (False: there is no file yet).

    Raises :class:`StoreError` with one sentence for anything else, and
    :class:`NewerVersionError` for a database a newer version wrote (``topics``: also when an
    event names a type this version does not know; verify reports those itself).
    """
    return tables(path, topics) is not None


def tables(path: Path, topics: bool = True) -> set[str] | None:
    """The tables of the tournament database at ``path`` (None: there is no file yet), looked
    at as :func:`inspect` does: one look serves both (#15: a call opens the file once)."""
    if not path.exists():
        return None
    if path.is_dir():
        raise StoreError(msg("%(path)s is a folder, not a database file", path=path))
    if path.stat().st_size == 0:
        raise StoreError(
            msg(
                "%(path)s is an empty file, not a tournament database (remove it or pass another "
                "--db)",
                path=path,
            )
        )
    try:
        conn = connect(path)
        try:
            version = conn.execute("pragma user_version").fetchone()[0]
            names = {r[0] for r in conn.execute("select name from sqlite_master")}
        finally:
            conn.close()
    except sqlite3.DatabaseError as e:
        if "not a database" in str(e):
            raise StoreError(
                msg("%(path)s is not a tournament database (not even SQLite)", path=path)
            ) from None
        raise StoreError(msg("%(path)s cannot be read: %(e)s", path=path, e=e)) from None
    if version > FORMAT:
        raise NewerVersionError(str(path))
    if EVENTS not in names and not (version == FORMAT and not names):  # (made, no tables yet)
        raise StoreError(
            msg("%(path)s is not a tournament database; it was left as it is", path=path)
        )
    if topics and EVENTS in names:
        _check_topics(path, "_projections" in names)
    return names


def _check_topics(path: Path, has_read_models: bool) -> None:
    """Refuse events of a type this version does not know (a newer version's).

    Only the events the read models have not taken in yet are looked at (the read models know
    every type before them); so the look is a few rows, not the whole log.
    """
    conn = connect(path)
    try:
        start = 0
        if has_read_models:
            row = conn.execute(
                "select position from _projections where name = 'read_models'"
            ).fetchone()
            start = row[0] if row and isinstance(row[0], int) else 0
        topics = [
            r[0]
            for r in conn.execute(f"select distinct topic from {EVENTS} where rowid > ?", [start])
        ]
    finally:
        conn.close()
    for topic in topics:
        if not known(topic):
            raise NewerVersionError(str(path))


class _Pool(SQLiteConnectionPool):
    """eventsourcing's pool, minus a reader switching the journal mode, plus the format mark."""

    def __init__(self, *, writer: bool, **kwargs: Any) -> None:
        self.writer = writer
        super().__init__(**kwargs)
        if not writer:
            self.is_journal_mode_wal = True  # never change a file that is only read

    def _create_connection(self) -> SQLiteConnection:
        conn = super()._create_connection()
        if self.writer:
            raw = conn._sqlite_conn
            version = raw.execute("pragma user_version").fetchone()[0]
            if version > FORMAT:
                conn.close()
                raise NewerVersionError()
            if version < FORMAT:
                raw.execute(f"pragma user_version = {FORMAT}")
        return conn


class _Datastore(SQLiteDatastore):
    """Reads through a read-only pool; opens the writing pool at the first write."""

    def __init__(self, path: Path, exists: bool, lock_timeout: int | None) -> None:
        super().__init__(write_uri(path), lock_timeout=lock_timeout)
        self.path = path
        self.pool = _Pool(
            writer=not exists,
            db_name=read_uri(path) if exists else write_uri(path),
            lock_timeout=lock_timeout,
        )
        self.writer: _Pool | None = None if exists else self.pool
        self.lock_timeout = lock_timeout
        # Where the readers are opened immutable, what the file was when they were (#27).
        self.stamp = stamp_of(path) if exists and IMMUTABLE in self.pool.db_name else None

    def readers(self) -> _Pool:
        """The reading pool, made again when the file changed under readers opened immutable
        (the old one's connections are given back to it as their readers finish)."""
        if not unchanged_since(self.path, self.stamp):
            stamp = stamp_of(self.path)
            uri = read_uri(self.path)
            self.pool = _Pool(writer=False, db_name=uri, lock_timeout=self.lock_timeout)
            self.stamp = stamp if IMMUTABLE in uri else None
        assert isinstance(self.pool, _Pool)
        return self.pool

    def writing(self) -> _Pool:
        if self.writer is None:
            self.writer = _Pool(
                writer=True, db_name=write_uri(self.path), lock_timeout=self.lock_timeout
            )
        return self.writer

    @contextmanager
    def get_connection(self, *, commit: bool) -> Iterator[SQLiteConnection]:
        pool = self.writing() if commit else self.readers()
        conn = pool.get_connection(is_writer=commit)
        try:
            yield conn
        finally:
            pool.put_connection(conn)

    def close(self) -> None:
        super().close()
        if self.writer is not None and self.writer is not self.pool:
            self.writer.close()


def remove(path: Path) -> None:
    """Delete a database file with SQLite's companions (a -wal file left beside a new file of
    the same name would be read into it)."""
    for name in (f"{path}-wal", f"{path}-shm", str(path)):
        Path(name).unlink(missing_ok=True)


MADE: set[Path] = set()
"""The database files this process made (:func:`discard` removes no other)."""


@contextmanager
def _folder_locked(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``path``'s folder: the processes of this program that make or
    discard a database file there take turns, so that one never removes what another has just
    made (its -wal file above all). Without ``flock`` (not Unix) nothing is held."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not Unix
        yield
        return
    folder = path.resolve().parent
    try:
        fd = os.open(folder, os.O_RDONLY)
    except (FileNotFoundError, NotADirectoryError):
        raise StoreError(
            msg("the database cannot be used: there is no folder %(folder)s", folder=folder)
        ) from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # released when fd is closed
        yield
    finally:
        os.close(fd)


def make(path: Path) -> None:
    """A new tournament database at ``path``, marked with this format, made whole or not at all:
    written beside it and then linked into place, so that a process stopped at any moment leaves
    no empty file behind (which would be refused), and never replaces a file made meanwhile.

    Processes making the same new file at once take turns (:func:`_folder_locked`): the first
    makes it, the others find it made and use it."""
    with _folder_locked(path):
        if path.exists():
            return  # another process made it while this one waited: use theirs
        new = path.with_name(f".{path.name}.{os.getpid()}.new")
        conn = sqlite3.connect(new)
        conn.execute("pragma journal_mode = wal")
        conn.execute(f"pragma user_version = {FORMAT}")
        conn.close()
        for stale in (f"{path}-wal", f"{path}-shm"):  # of a file deleted without them
            Path(stale).unlink(missing_ok=True)
        try:
            os.link(new, path)
        except FileExistsError:
            return  # made by something that is not this program: inspect() judges it
        except OSError:  # a file system without hard links
            if path.exists():
                return
            os.replace(new, path)
        finally:
            new.unlink(missing_ok=True)
        MADE.add(path.resolve())


def discard(path: Path) -> bool:
    """Remove the database file at ``path`` (with its companions) if this process made it and
    nobody has stored an event in it: a command refused after making its database leaves
    nothing behind (#11), while a file another process made, or saved a tournament into, at the
    same moment stays as it is. Whether it was removed."""
    if path.resolve() not in MADE:
        return False
    with _folder_locked(path):
        if not path.exists():
            return False
        conn = connect(path, readonly=False, timeout=2)
        try:
            conn.isolation_level = None
            conn.execute("begin exclusive")  # no one stores an event while it is looked at
            try:
                if _holds_events(conn):
                    return False
                remove(path)
            finally:
                conn.execute("rollback")
        except sqlite3.Error:
            return False  # another process is writing in it: it is theirs now
        finally:
            conn.close()
        MADE.discard(path.resolve())
        return True


def _holds_events(conn: sqlite3.Connection) -> bool:
    tables = {r[0] for r in conn.execute("select name from sqlite_master where type = 'table'")}
    return EVENTS in tables and bool(conn.execute(f"select 1 from {EVENTS} limit 1").fetchone())


def scan(path: Path, what: str, aggregate: str | None) -> Iterator[tuple[Any, ...]]:
    """The rows of eventsourcing's events or snapshots table, read-only (see
    :func:`tournament.storage.backends.scan`)."""
    table = {"events": EVENTS, "snapshots": SNAPSHOTS}[what]
    conn = connect(path)
    try:
        if not conn.execute("select 1 from sqlite_master where name = ?", [table]).fetchone():
            return
        statement = (
            f"select originator_id, originator_version, topic, state from {table} "
            + ("where originator_id = ? " if aggregate else "")
            + "order by originator_id, originator_version"
        )
        yield from conn.execute(statement, [aggregate] if aggregate else [])
    finally:
        conn.close()


class Factory(SQLiteFactory):
    """eventsourcing's SQLite persistence on a file looked at first (see :func:`inspect`)."""

    def __init__(self, env: Any) -> None:
        InfrastructureFactory.__init__(self, env)
        path = Path(self.env.get(self.SQLITE_DBNAME) or "")
        timeout = (self.env.get(self.SQLITE_LOCK_TIMEOUT) or "").strip()
        names = tables(path)
        if names is None:
            make(path)
        # A new file, or an old one without the snapshots table: its tables are made now.
        self.exists = names is not None and {EVENTS, SNAPSHOTS} <= names
        self.datastore = _Datastore(path, self.exists, int(timeout) if timeout else None)

    def env_create_table(self) -> bool:
        return not self.exists

    @property
    def has_written(self) -> bool:
        """Whether this process opened the file for writing."""
        datastore = self.datastore
        assert isinstance(datastore, _Datastore)
        return datastore.writer is not None
