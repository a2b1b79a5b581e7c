"""The one SQL surface the read models are written against, in SQLite's and PostgreSQL's dialect.

:mod:`tournament.readside.readmodels` describes its tables and its projection once; a
:class:`ReadDB` carries the differences: placeholders, column types, upserts, bulk inserts
(``executemany`` or ``COPY``), where the stored events are read from, and where the projection's
position is kept (a row of its own table, or eventsourcing's tracking table), written in the
read models' transaction so that each event is applied exactly once (a concurrent updater that
applied them first makes it roll back). :func:`own_tables` gives the same surface over the
store's own small tables (the web's table links, the dice's seeds), in the file or the schema.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from itertools import chain
from typing import Any

from tournament.storage.readdb import Columns, Conflict, ReadDB

__all__ = ["Columns", "Conflict", "ReadDB", "SqliteReadDB", "ensure", "own_tables", "read_db"]


class SqliteReadDB(ReadDB):
    """The read models in the SQLite file, beside eventsourcing's ``stored_events``."""

    types = {str: "TEXT", int: "INTEGER", float: "FLOAT"}

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        if conn.isolation_level is not None:  # (setting it would commit an open transaction)
            conn.isolation_level = None  # our own transactions (see transaction)

    def rows(self, statement: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return self.conn.execute(statement, params).fetchall()

    def query(self, statement: str, params: Sequence[Any] = ()) -> Iterator[dict[str, Any]]:
        cursor = self.conn.execute(statement, params)
        names = [d[0] for d in cursor.description]
        for row in cursor:
            yield dict(zip(names, row, strict=True))

    def run(self, statement: str, params: Sequence[Any] = ()) -> None:
        self.conn.execute(statement, params)

    def run_many(self, statement: str, rows: Iterable[Sequence[Any]]) -> None:
        self.conn.executemany(statement, rows)

    def drop(self, name: str) -> None:
        # The read models are copies of the event log, which keeps every byte of them: zeroing
        # each freed page (secure_delete, on in Debian's SQLite) would write the dropped tables
        # out once more for nothing, a third of a rebuild's writing (#15). "fast" still clears
        # deleted rows on the pages that are written anyway.
        (before,) = self.conn.execute("pragma secure_delete").fetchone()
        self.conn.execute("pragma secure_delete = fast")
        try:
            super().drop(name)
        finally:
            self.conn.execute(f"pragma secure_delete = {('off', 'on', 'fast')[before]}")

    @contextmanager
    def transaction(self) -> Iterator[None]:
        # IMMEDIATE: take the write lock first, so two updaters never apply the same events.
        self.conn.execute("begin immediate")
        try:
            yield
        except BaseException:
            self.conn.execute("rollback")
            raise
        self.conn.execute("commit")

    def tables(self) -> set[str]:
        return {r[0] for r in self.rows("select name from sqlite_master where type = 'table'")}

    def stored(self, start: int, limit: int, common: str) -> list[tuple[Any, ...]]:
        return self.rows(
            "select rowid, originator_id, originator_version, "
            "case topic when ? then null else topic end, state from stored_events "
            "where rowid >= ? order by rowid limit ?",
            [common, start, limit],
        )

    def position(self, projection: str) -> int:
        if "_projections" not in self.tables():
            return 0
        row = self.rows("select position from _projections where name = ?", [projection])
        return row[0][0] if row else 0

    def advance(self, projection: str, last: int, since: int | None = None) -> None:
        self.upsert("_projections", ("name", "position"), "name", [(projection, last)])

    def forget(self, projection: str) -> None:
        pass  # its row goes with the _projections table

    def insert(self, table: str, columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> None:
        self._write("insert", table, columns, rows)

    def upsert(
        self, table: str, columns: Sequence[str], pk: str, rows: Iterable[Sequence[Any]]
    ) -> None:
        self._write("insert or replace", table, columns, rows)

    VALUES = 900  # values bound to one statement (the oldest SQLite builds allow 999)

    def _write(
        self, verb: str, table: str, columns: Sequence[str], rows: Iterable[Sequence[Any]]
    ) -> None:
        """Rows written many to a statement, in their order: executemany pays for binding,
        stepping and resetting a statement once a row, a third of writing the events table (#15)."""
        rows = list(rows)
        per = max(1, self.VALUES // len(columns))
        head = f"{verb} into {table} ({', '.join(columns)}) values "
        one = f"({self.marks(len(columns))})"
        whole = len(rows) - len(rows) % per
        if whole:
            statement = head + ", ".join([one] * per)
            flat = chain.from_iterable
            self.run_many(statement, [list(flat(rows[k : k + per])) for k in range(0, whole, per)])
        if whole < len(rows):
            rest = rows[whole:]
            self.run(head + ", ".join([one] * len(rest)), list(chain.from_iterable(rest)))

    def close(self) -> None:
        self.conn.close()


class PostgresSQL(ReadDB):
    """PostgreSQL's dialect over one connection whose search path is the tournament's schema."""

    placeholder = "%s"
    types = {str: "text", int: "bigint", float: "double precision"}
    page = 5000  # a round trip to the server a page, and a COPY

    def __init__(self, conn: Any, schema: str, seen: set[str] | None = None) -> None:
        import psycopg
        from psycopg.rows import tuple_row

        self.conn, self.schema = conn, schema
        self._errors = psycopg.errors
        self._tuple_row = tuple_row  # a pooled connection of eventsourcing's gives dicts
        self._idle = psycopg.pq.TransactionStatus.IDLE
        self.seen = set() if seen is None else seen  # tables seen there (shared by a store's)

    def _text(self, statement: str) -> str:
        return statement.replace("?", "%s")

    def rows(self, statement: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        with self.conn.cursor(row_factory=self._tuple_row) as cursor:
            try:
                return list(cursor.execute(self._text(statement), params).fetchall())
            except self._errors.UndefinedTable:
                self.seen.clear()  # (dropped by another process: the next look asks)
                raise

    def query(self, statement: str, params: Sequence[Any] = ()) -> Iterator[dict[str, Any]]:
        with self.conn.cursor(row_factory=self._tuple_row) as cursor:
            try:
                cursor.execute(self._text(statement), params)
            except self._errors.UndefinedTable:
                self.seen.clear()
                raise
            names = [d.name for d in cursor.description or ()]
            found = cursor.fetchall()
        for row in found:
            yield dict(zip(names, row, strict=True))

    def run(self, statement: str, params: Sequence[Any] = ()) -> None:
        try:
            self.conn.execute(self._text(statement), params)
        except self._errors.UndefinedTable:
            self.seen.clear()
            raise

    def run_many(self, statement: str, rows: Iterable[Sequence[Any]]) -> None:
        with self.conn.cursor() as cursor:
            cursor.executemany(self._text(statement), list(rows))

    def insert(self, table: str, columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> None:
        # COPY: a rebuild writes every stored event once; row by row it would take most of it.
        rows = iter(rows)
        first = next(rows, None)
        if first is None:
            return  # (nothing to write: no round trip, #27)
        with self.conn.cursor() as cursor:
            with cursor.copy(f"copy {table} ({', '.join(columns)}) from stdin") as copy:
                copy.write_row(first)
                for row in rows:
                    copy.write_row(row)

    @contextmanager
    def transaction(self) -> Iterator[None]:
        try:
            with self.conn.transaction():
                yield
        except self._conflicts() as e:
            raise Conflict(str(e)) from None

    def _conflicts(self) -> tuple[type[Exception], ...]:
        # the same rows, or the first tables, made meanwhile by another process
        return (self._errors.UniqueViolation, self._errors.DuplicateTable)

    def tables(self) -> Tables:  # type: ignore[override]
        return Tables(self)

    def listed(self) -> set[str]:
        """The schema's tables, asked of the server (one round trip); kept as seen only when
        asked outside a transaction (inside one, the tables it is making are not there yet for
        anyone else, and may never be: a rollback)."""
        idle = self.conn.info.transaction_status == self._idle
        rows = self.rows(
            "select relname from pg_class c join pg_namespace n on n.oid = c.relnamespace "
            "where n.nspname = ? and c.relkind in ('r', 'p')",
            [self.schema],
        )
        found = {r[0] for r in rows}
        if idle:
            self.seen.clear()
            self.seen.update(found)
        return found

    def drop(self, name: str) -> None:
        self.seen.discard(name)
        super().drop(name)

    def made_meanwhile(self, name: str) -> bool:
        # The schema's creators take turns (a lock for this transaction): two processes starting
        # at once (serve --workers) would both make a table, the second meeting the first's type.
        self.run("select pg_advisory_xact_lock(hashtext(?))", [f"tournament tables {self.schema}"])
        return name in self.listed()

    FEW = 100  # rows upserted in one statement of their values (more: through COPY)

    def upsert(
        self, table: str, columns: Sequence[str], pk: str, rows: Iterable[Sequence[Any]]
    ) -> None:
        # A refresh's few rows in one statement (one round trip, #27); a rebuild's every match
        # by COPY into a scratch table, then one statement.
        rows = list(rows)
        if not rows:
            return
        names = ", ".join(columns)
        updates = ", ".join(f"{c} = excluded.{c}" for c in columns if c != pk)
        if len(rows) <= self.FEW:
            one = f"({self.marks(len(columns))})"
            self.run(
                f"insert into {table} ({names}) values {', '.join([one] * len(rows))} "
                f"on conflict ({pk}) do update set {updates}",
                list(chain.from_iterable(rows)),
            )
            return
        self.run(f"create temporary table _upsert as select {names} from {table} limit 0")
        try:
            self.insert("_upsert", columns, rows)
            self.run(
                f"insert into {table} ({names}) select {names} from _upsert "
                f"on conflict ({pk}) do update set {updates}"
            )
        finally:
            self.run("drop table _upsert")


class Tables:
    """A server schema's tables as ``name in db.tables()`` asks (#27: asked on every move): a
    table this store's connections saw there is taken to stay (the program never drops one
    but to make it again: a rebuild, in one transaction), one not seen is asked of the server,
    which also says which are there now."""

    def __init__(self, db: PostgresSQL) -> None:
        self.db = db

    def __contains__(self, name: object) -> bool:
        return name in self.db.seen or name in self.db.listed()

    def __iter__(self) -> Iterator[str]:
        return iter(self.db.listed())


def seen_tables(store: Any) -> set[str]:
    """The tables a store's connections saw in its schema (kept with the store)."""
    with _MAKING:
        return vars(store).setdefault("_seen_tables", set())  # type: ignore[no-any-return]


class PostgresReadDB(PostgresSQL):
    """The read models in tables of their own on the server, in the tournament's schema."""

    def __init__(self, store: Any) -> None:
        from eventsourcing.persistence import Tracking
        from eventsourcing.postgres import PostgresTrackingRecorder

        from tournament.storage import postgres

        self.server = store.location
        self._tracking = Tracking
        self._context = postgres.connect(self.server)
        super().__init__(self._context.__enter__(), self.server.schema, seen_tables(store))
        # eventsourcing's tracking table, in the store's datastore (created on first use).
        self.tracking = PostgresTrackingRecorder(
            store.factory.datastore, tracking_table_name=postgres.TRACKING
        )
        if postgres.TRACKING not in self.tables():
            postgres.first_use(self.tracking.create_table)

    def _conflicts(self) -> tuple[type[Exception], ...]:
        from eventsourcing.persistence import IntegrityError

        return (*super()._conflicts(), IntegrityError)  # the tracking record moved on meanwhile

    def stored(self, start: int, limit: int, common: str) -> list[tuple[Any, ...]]:
        from tournament.storage.postgres import EVENTS

        return self.rows(
            "select notification_id, replace(originator_id::text, '-', ''), originator_version, "
            f"nullif(topic, ?), state from {EVENTS} where notification_id >= ? "
            "order by notification_id limit ?",
            [common, start, limit],
        )

    def position(self, projection: str) -> int:
        from tournament.storage.postgres import TRACKING

        row = self.rows(f"select notification_id from {TRACKING} where application_name = ?",
                        [projection])  # fmt: skip
        return int(row[0][0]) if row and row[0][0] is not None else 0

    def where(self, projection: str) -> tuple[int | None, int, tuple[Any, ...] | None]:
        # The three looks in one round trip (#27: a refresh after every move asked three).
        from tournament.storage.postgres import TRACKING

        rows = self.rows(
            "select s.position, t.notification_id, e.version, e.at from (select 1) o "
            "left join _projections s on s.name = 'schema' "
            f"left join {TRACKING} t on t.application_name = ? "
            "left join events e on e.id = t.notification_id",
            [projection],
        )
        made, at, version, when = rows[0]
        at = int(at) if at is not None else 0
        return made, at, (None if version is None else (version, when))

    def advance(self, projection: str, last: int, since: int | None = None) -> None:
        from psycopg.rows import dict_row

        if last <= (self.position(projection) if since is None else since):
            return  # nothing new was applied
        with self.conn.cursor(row_factory=dict_row) as cursor:
            self.tracking._insert_tracking(cursor, self._tracking(projection, last))

    def forget(self, projection: str) -> None:
        from tournament.storage.postgres import TRACKING

        self.run(f"delete from {TRACKING} where application_name = ?", [projection])

    def close(self) -> None:
        self._context.__exit__(None, None, None)

    def release(self) -> None:
        pass  # kept with the store


def _file_connection(store: Any, readonly: bool) -> sqlite3.Connection:
    from tournament.storage import sqlitefile

    return sqlitefile.kept_connection(store, readonly)


def read_db(store: Any) -> ReadDB:
    """The read models' database of a store: a file's, read-only unless this process writes;
    a server's (one connection a thread, kept with the store: a web server's threads read
    while its live task updates, and none may see another's transaction half done)."""
    if not store.location.is_server:
        return SqliteReadDB(_file_connection(store, not store.has_written))
    with _MAKING:
        if not hasattr(store, "_read_dbs"):
            store._read_dbs = ThreadDBs()
    return store._read_dbs.get(store)  # type: ignore[no-any-return]


_MAKING = threading.Lock()


class ThreadDBs:
    """A store's server connections for the read models, one a thread, all closed together."""

    def __init__(self) -> None:
        self.local = threading.local()
        self.made: list[ReadDB] = []

    def get(self, store: Any) -> ReadDB:
        db: ReadDB | None = getattr(self.local, "db", None)
        if db is None:
            db = self.local.db = PostgresReadDB(store)
            with _MAKING:
                self.made.append(db)
        return db

    def held(self) -> ReadDB | None:
        """This thread's connection, if it made one (none made for asking)."""
        return getattr(self.local, "db", None)

    def close(self) -> None:
        with _MAKING:
            made, self.made = self.made, []
        for db in made:
            db.close()
        self.local = threading.local()


@contextmanager
def own_tables(store: Any, write: bool = True) -> Iterator[ReadDB]:
    """The store's own small tables beside its events (the web's table links, the digital
    dice's seeds), for one piece of work in one transaction: in the file on SQLite (``write``:
    holding its write lock; else read-only), in the tournament's schema on a server (a
    connection of the store's pool, so that a web server's threads never share one; to read,
    the thread's own kept connection, already on the schema: one round trip, not four, #27)."""
    if not store.location.is_server:
        if not write:  # (a server's thread reads through its own connection, kept)
            yield SqliteReadDB(_file_connection(store, True))
            return
        from tournament.storage import sqlitefile

        conn = sqlitefile.connect(store.path, readonly=False)
        try:
            db: ReadDB = SqliteReadDB(conn)
            with db.transaction():
                yield db
        finally:
            conn.close()
        return
    if not write:
        yield read_db(store)
        return
    from psycopg import sql

    from tournament.storage.postgres import composed

    with store.factory.datastore.get_connection() as conn:
        db = PostgresSQL(conn, store.location.schema, seen_tables(store))
        with db.transaction():
            # For this transaction only: the connection goes back to eventsourcing's pool.
            conn.execute(composed("set local search_path to {}", sql.Identifier(db.schema)))
            yield db


def ensure(db: ReadDB, name: str, columns: Columns, pk: str) -> None:
    """Create one of the store's own tables on first use."""
    if name not in db.tables():
        db.create(name, columns, pk, if_missing=True)
