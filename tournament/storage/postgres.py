"""The tournament on a PostgreSQL server, through eventsourcing's own PostgreSQL persistence.

What this module adds to ``eventsourcing.postgres``: the server is looked at before anything is
created (one sentence, and never the password, when it cannot be reached or the role may not
log in); the schema and eventsourcing's tables are created on first use; a mark
(``tournament_format``) says which version of the program's tables a database holds, so that a
newer version's database is refused rather than misread. A database where the tables exist is
opened without creating anything.

Every write goes through eventsourcing's recorder, which locks the events table for each insert:
notification ids are then committed in order, which is what lets a projection read them by id
without missing one committed late. The database does the coordination; there is no lock of ours.
"""

from __future__ import annotations

import select
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import psycopg
from eventsourcing.persistence import InterfaceError, OperationalError
from eventsourcing.postgres import (
    PostgresApplicationRecorder,
    PostgresFactory,
)
from eventsourcing.utils import retry
from psycopg import sql
from psycopg.conninfo import make_conninfo
from psycopg.rows import tuple_row

from tournament.errors import NewerVersionError, StoreError
from tournament.storage import inserts, named
from tournament.storage.locations import PostgresServer

FORMAT = 1
"""The version of the program's tables this version writes (``tournament_format``)."""

MARK = "tournament_format"
EVENTS = "tournament_events"  # eventsourcing names its tables after the application
SNAPSHOTS = "tournament_snapshots"
TRACKING = "tournament_tracking"
OWN = (
    "dice_seeds",
    "web_secret",
    "web_tables",
    "web_door",
    "web_guesses",
)  # the store's own tables (tournament.services.dice, tournament.web)


@contextmanager
def connect(server: PostgresServer, *, autocommit: bool = True) -> Iterator[psycopg.Connection]:
    """A plain connection to the server, its search path on the tournament's schema.

    A failure to connect is one sentence naming the server (the password taken out).
    """
    try:
        conn = psycopg.connect(
            make_conninfo(**server.conninfo()), autocommit=autocommit, connect_timeout=10
        )
    except psycopg.Error as e:
        raise StoreError(f"cannot connect to {server}: {server.redact(_why(e))}") from None
    try:
        conn.execute(sql.SQL("set search_path to {}").format(sql.Identifier(server.schema)))
        yield conn
    finally:
        conn.close()


def _why(e: Exception) -> str:
    """Why a connection failed, in one line: the server's own words where it gave some."""
    lines = [line.strip() for line in str(e).splitlines() if line.strip()]
    for line in lines:
        if "FATAL:" in line:
            return line.split("FATAL:", 1)[1].strip()
    if any("closed the connection" in line for line in lines):
        return "the server closed the connection (it may be restarting)"
    return lines[0].rsplit(" failed: ", 1)[-1] if lines else repr(e)


def _tables(conn: psycopg.Connection, schema: str) -> set[str]:
    rows = conn.execute(
        "select table_name from information_schema.tables where table_schema = %s", [schema]
    ).fetchall()
    return {r[0] for r in rows}


def inspect(server: PostgresServer, conn: psycopg.Connection | None = None) -> bool:
    """Whether the server holds a tournament store there (False: nothing yet).

    Raises :class:`NewerVersionError` when a newer version of the program made it.
    """
    if conn is None:
        with connect(server) as c:
            return inspect(server, c)
    tables = _tables(conn, server.schema)
    if MARK in tables:
        row = conn.execute(sql.SQL("select max(version) from {}").format(sql.Identifier(MARK)))
        version = (row.fetchone() or [0])[0] or 0
        if version > FORMAT:
            raise NewerVersionError(str(server))
    return EVENTS in tables


def first_use(create: Callable[[], Any]) -> None:
    """Run a ``create ... if not exists`` that another process may run at the same moment: the
    server then refuses one of the two with a duplicate, and the loser finds them made."""
    from eventsourcing.persistence import IntegrityError, InternalError, ProgrammingError

    for attempt in range(10):
        try:
            create()
            return
        except (
            psycopg.errors.UniqueViolation,
            psycopg.errors.DuplicateTable,
            psycopg.errors.DuplicateObject,
            psycopg.errors.DuplicateSchema,
            psycopg.errors.InternalError_,  # "tuple concurrently updated": a function replaced
            IntegrityError,  # eventsourcing's names for the same
            ProgrammingError,
            InternalError,
        ):
            if attempt == 9:
                raise
            time.sleep(0.05 * (attempt + 1))


def _prepare(server: PostgresServer) -> bool:
    """Look at the server; on first use create the schema and the format mark."""
    with connect(server) as conn:
        if inspect(server, conn):
            return True

        def create() -> None:
            with conn.transaction():
                conn.execute(
                    sql.SQL("create schema if not exists {}").format(sql.Identifier(server.schema))
                )
                conn.execute(
                    sql.SQL("create table if not exists {} (version integer not null)").format(
                        sql.Identifier(server.schema, MARK)
                    )
                )
                conn.execute(
                    sql.SQL("insert into {} select %s where not exists (select 1 from {})").format(
                        sql.Identifier(server.schema, MARK), sql.Identifier(server.schema, MARK)
                    ),
                    [FORMAT],
                )

        first_use(create)
        return False


_COMPOSED: dict[tuple[Any, ...], bytes] = {}


def composed(template: str, *args: Any, **kwargs: Any) -> bytes:
    """``sql.SQL(template).format(...)`` as the bytes sent, composed once a process for each
    template and names (#27: psycopg composes a statement's parts again at every execute, some
    of a move's CPU). Only for names and literals fixed for the process (a schema, a channel)."""
    key = (template, repr(args), repr(sorted(kwargs.items())))  # (psycopg's: not hashable)
    found = _COMPOSED.get(key)
    if found is None:
        found = _COMPOSED[key] = sql.SQL(template).format(*args, **kwargs).as_bytes(None)
    return found


class Recorder(PostgresApplicationRecorder):
    """eventsourcing's recorder, whose inserts notify with the store's token and the ids of
    what they store: the store's own listener tells its own saves from others', and others
    what they stored (:mod:`tournament.storage.heard`, #27). Anyone else listening hears them
    as ever (a payload changes nothing for them)."""

    token = ""

    def insert_events(self, stored_events: Sequence[Any], **kwargs: Any) -> Sequence[int] | None:
        """eventsourcing's insert, its transaction sent whole as one query string
        (:mod:`tournament.storage.inserts`, #27): BEGIN, the table's lock, the notification,
        the rows and COMMIT. eventsourcing's own waits for the rows' ids before it sends
        COMMIT, the table locked meanwhile: in a busy server process the thread waits for the
        interpreter there too, and every other writer of the tournament, in any process, waits
        for it. A row that exists already (another writer first) stores nothing:
        IntegrityError, the transaction rolled back, as before. A guard its writer left
        (:class:`tournament.storage.inserts.Guard`) is checked under the lock, before the
        rows: :class:`~tournament.storage.inserts.LooksMoved`, nothing stored, when the store
        moved past it. (eventsourcing's database functions, which this program does not turn
        on, are not used here.)"""
        if not stored_events:
            return []
        guard = inserts.taken(self)  # (a writer's looks taken as known: checked in its turn)
        found = self._inserted(stored_events, guard)  # (each attempt with the guard)
        inserts.passed(self, guard)
        return found

    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)
    def _inserted(self, stored_events: Sequence[Any], guard: inserts.Guard | None) -> list[int]:
        said = named.payload(self.token, (named.name_of(e.originator_id) for e in stored_events))
        text = inserts.statement(self, said, stored_events, guard)
        with self.datastore.get_connection() as conn:
            assert conn.autocommit  # (BEGIN and COMMIT are ours)
            with conn.cursor(row_factory=tuple_row) as curs:
                try:  # (no parameters, never prepared: one simple query, run in turn)
                    curs.execute(text.encode(_encoding(conn)), prepare=False)
                    found = inserts.ids(curs, len(stored_events))
                except psycopg.Error as e:  # (a row stored already: nothing stored, as ever)
                    if conn.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
                        conn.execute("ROLLBACK")
                    if e.sqlstate == inserts.MOVED:
                        raise inserts.LooksMoved(str(e)) from None
                    raise
        return found


def _encoding(conn: Any) -> str:
    """The bytes a statement's text goes as: the connection's encoding, but UTF-8 where the
    database takes any bytes (SQL_ASCII), as psycopg sends a parameter's text there."""
    encoding = str(conn.info.encoding)
    return "utf-8" if encoding == "ascii" else encoding


class Factory(PostgresFactory):
    """eventsourcing's PostgreSQL persistence on a server that was looked at first."""

    application_recorder_class = Recorder

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        self.server = PostgresServer(
            host=self.env.get(self.POSTGRES_HOST) or "",
            port=self.env.get(self.POSTGRES_PORT) or "5432",
            dbname=self.env.get(self.POSTGRES_DBNAME) or "",
            user=self.env.get(self.POSTGRES_USER) or "",
            password=self.env.get(self.POSTGRES_PASSWORD) or "",
            schema=self.env.get(self.POSTGRES_SCHEMA) or "public",
        )
        self.exists = _prepare(self.server)

    def env_create_table(self) -> bool:
        return False  # made below, on first use, however many processes start at once

    def application_recorder(self) -> Any:
        import uuid

        recorder = super().application_recorder()
        if isinstance(recorder, Recorder):
            recorder.token = uuid.uuid4().hex
        if not self.exists:
            first_use(recorder.create_table)  # type: ignore[attr-defined]
        return recorder

    def aggregate_recorder(self, purpose: str = "events") -> Any:
        recorder = super().aggregate_recorder(purpose)
        if not self.exists:
            first_use(recorder.create_table)  # type: ignore[attr-defined]
        return recorder

    def close(self) -> None:
        heard = vars(self).get("heard")  # (tournament.storage.heard's listener, #27)
        if heard is not None:
            heard.stop()
        super().close()

    @property
    def has_written(self) -> bool:
        return True  # a server is not a file: nothing is left behind by opening it


def wipe(server: PostgresServer, read_tables: Sequence[str]) -> None:
    """Drop every table of the tournament's: the store's, and the read side's it names (the
    demo rebuilds itself this way; storage never imports the read side)."""
    with connect(server) as conn, conn.transaction():
        for name in (*read_tables, "_projections", *OWN, EVENTS, SNAPSHOTS, TRACKING, MARK):
            conn.execute(sql.SQL("drop table if exists {} cascade").format(sql.Identifier(name)))


def scan(server: PostgresServer, what: str, aggregate: str | None) -> Iterator[tuple[Any, ...]]:
    """The rows of eventsourcing's events or snapshots table (see
    :func:`tournament.storage.backends.scan`)."""
    table = {"events": EVENTS, "snapshots": SNAPSHOTS}[what]
    after: tuple[Any, ...] | None = None  # the last row given, where a second reading resumes
    for attempt in range(2):
        try:
            for row in _rows(server, table, aggregate, after):
                after = row
                yield row
            return
        except psycopg.OperationalError as e:
            # The server went away (a restart, #29: no SQLSTATE, a connection exception, or
            # 57P0x): reading is safe to do again, once, from the row after the last one given
            # (rows are only ever added).
            state = e.sqlstate or "08"
            if attempt or not (state.startswith("08") or state.startswith("57P0")):
                raise
            time.sleep(RESUME)


RESUME = 1.0  # seconds before the one second reading of a scan the server broke off


def _rows(
    server: PostgresServer, table: str, aggregate: str | None, after: tuple[Any, ...] | None
) -> Iterator[tuple[Any, ...]]:
    with connect(server, autocommit=False) as conn:
        if table not in _tables(conn, server.schema):
            return
        where = ["originator_id = %s"] if aggregate else []
        params: list[Any] = [aggregate] if aggregate else []
        if after is not None:
            where.append("(originator_id, originator_version) > (%s::uuid, %s)")
            params += [after[0], after[1]]
        statement = (
            f"select replace(originator_id::text, '-', ''), originator_version, topic, state "
            f"from {table} "
            + (f"where {' and '.join(where)} " if where else "")
            + "order by originator_id, originator_version"
        )
        with conn.cursor(name="scan") as cursor:  # server-side: a season streams, not loads
            cursor.itersize = 2000
            cursor.execute(statement, params)
            yield from cursor


def follow(store: Any, update: Callable[[Any], Any], seconds: float | None = None) -> Iterator[Any]:
    """Bring the read models up to date (``update(store)``, the read side's), then again each
    time eventsourcing's recorder notifies a stored event (it NOTIFYs on its events table's
    channel); yield each update that read events."""
    deadline = None if seconds is None else time.monotonic() + seconds
    with connect(store.location) as conn:
        conn.execute(sql.SQL("listen {}").format(sql.Identifier(store.recorder.channel_name)))
        while True:
            progress = update(store)
            if progress.events:
                yield progress
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                return
            # Wake at the first notification (a burst is read in one update), or at the end.
            for _ in conn.notifies(timeout=left if left is not None else 60, stop_after=1):
                pass


class WriterLock:
    """The tournament's writers one at a time across processes (#27): a session's advisory
    lock on the server, keyed on the store's schema, held on a connection of its own around a
    whole read-decide-save. Forty tables starting at once then queue for a few milliseconds
    each instead of meeting each other's saves over and over until some give up.

    The lock only spares work, it is not what keeps the tournament whole: a writer that cannot
    take it (the server away, a lock held past ``WAIT`` seconds) goes on without it, and the
    save's own check against a concurrent writer stands as before."""

    WAIT = 30  # seconds a writer waits for the lock before it goes on without it

    def __init__(self, server: PostgresServer) -> None:
        import hashlib

        self.server = server
        digest = hashlib.sha256(f"tournament writers {server.schema}".encode()).digest()
        self.key = int.from_bytes(digest[:8], "big", signed=True)  # (locks are per database)
        self.conn: psycopg.Connection | None = None

    def acquire(self) -> bool:
        """Wait for the lock; whether it is held (False: go on without it)."""
        try:
            if self.conn is None or self.conn.closed:
                self.conn = psycopg.connect(
                    make_conninfo(**self.server.conninfo()), autocommit=True, connect_timeout=10
                )
                self.conn.execute(f"set lock_timeout = '{self.WAIT}s'")
            self.conn.execute("select pg_advisory_lock(%s)", [self.key])
            return True
        except psycopg.Error:
            self.close()  # (a lock held on a connection that goes is given back by the server)
            return False

    def release(self) -> None:
        try:
            if self.conn is not None:
                self.conn.execute("select pg_advisory_unlock(%s)", [self.key])
        except psycopg.Error:
            self.close()

    def close(self) -> None:
        conn, self.conn = self.conn, None
        if conn is not None:
            try:
                conn.close()
            except psycopg.Error:  # pragma: no cover - a connection already broken
                pass


def wake_on_notify(store: Any, wake: Callable[[bool], None], stopped: threading.Event) -> None:
    """Call ``wake(True)`` at each notification of a stored event, until ``stopped`` is set.

    eventsourcing's recorder NOTIFYs its events table's channel in the transaction of every
    insert, whichever process (or version of this program) writes: the server delivers the
    notification at the commit, to every connection that LISTENs. ``wake(True)`` also as soon
    as it listens (what was stored before is read then); ``wake(False)`` when the connection
    breaks or cannot LISTEN (a pooler in transaction mode): the caller then polls, and the
    connection is made again a second later. A store its server keeps has a listener already
    (:mod:`tournament.storage.heard`): that one tells ``wake`` too, and no second connection
    is made."""
    shared = vars(store).get("_heard")
    if shared is not None:  # (the store's own listener tells it: one connection, #27)
        shared.add(wake)
        try:
            stopped.wait()
        finally:
            shared.remove(wake)
        return
    channel = sql.SQL("listen {}").format(sql.Identifier(store.recorder.channel_name))
    while not stopped.is_set():
        try:
            with connect(store.location) as conn:
                conn.execute(channel)
                wake(True)
                while not stopped.is_set():
                    if notified(conn, LISTENING):
                        wake(True)
        except (psycopg.Error, StoreError):
            wake(False)
            stopped.wait(1.0)


LISTENING = 0.5  # seconds between two looks at whether the listener is to stop


def notified(conn: Any, timeout: float) -> list[Any]:
    """The notifications a listening connection has received, waiting ``timeout`` seconds at
    most for the first: one wake-up of the thread then, where psycopg's ``notifies(timeout=)``
    wakes it every tenth of a second (#27: two listeners' wake-ups were a third of an idle
    server's CPU)."""
    now = list(conn.notifies(timeout=0))  # (those received meanwhile first)
    if now:
        return now
    waiting = select.poll()  # (not select(): a server's descriptors go past 1023)
    waiting.register(conn.fileno(), select.POLLIN)
    waiting.poll(timeout * 1000)
    return list(conn.notifies(timeout=0))
