"""The read models' SQL surface that both dialects offer (:class:`ReadDB`): each dialect's
primitives, and what is written once on top of them (tables made, dropped, rows inserted).
The dialects themselves are in :mod:`tournament.storage.sql`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from typing import Any

from tournament.errors import StoreError

Columns = dict[str, type]


class Conflict(StoreError):
    """Another updater applied the same events first; this transaction was rolled back."""


class ReadDB:
    """The read models' database: what both dialects offer (see the module's docstring)."""

    placeholder = "?"
    types: dict[type, str] = {}
    # Stored events projected at a time. On SQLite a page's rows, their decoded events and the
    # rows written stay in the processor's caches: 1,000 rebuild 8% faster than 5,000 (#15).
    page = 1000

    # --- the dialect's primitives (each subclass) ---------------------------------------
    def rows(self, statement: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        raise NotImplementedError

    def query(self, statement: str, params: Sequence[Any] = ()) -> Iterator[dict[str, Any]]:
        """Rows as dicts, in the columns' order (what the CLI prints and ``--json`` writes)."""
        raise NotImplementedError

    def run(self, statement: str, params: Sequence[Any] = ()) -> None:
        raise NotImplementedError

    def run_many(self, statement: str, rows: Iterable[Sequence[Any]]) -> None:
        raise NotImplementedError

    def transaction(self) -> AbstractContextManager[None]:
        """One transaction that holds the right to write the read models until it ends."""
        raise NotImplementedError

    def tables(self) -> set[str]:
        raise NotImplementedError

    def stored(self, start: int, limit: int, common: str) -> list[tuple[Any, ...]]:
        """Stored events from notification ``start``: (id, aggregate hex, version, topic, state),
        the topic None where it is ``common`` (the topic of nearly every event: not made again
        as a string for each row)."""
        raise NotImplementedError

    def position(self, projection: str) -> int:
        raise NotImplementedError

    def where(self, projection: str) -> tuple[int | None, int, tuple[Any, ...] | None]:
        """Where the read models stand, for a refresh to go on from: the schema number they
        were made at (their ``_projections`` row ``schema``, None: not said), the projection's
        position, and the ``events`` row (version, at) at that position (None: none)."""
        row = self.rows("select position from _projections where name = 'schema'")
        at = self.position(projection)
        found = self.rows("select version, at from events where id = ?", [at])
        return (row[0][0] if row else None), at, (tuple(found[0]) if found else None)

    def advance(self, projection: str, last: int, since: int | None = None) -> None:
        """Record that the projection has applied every event up to ``last`` (same transaction);
        ``since``: where it stood, read in this transaction (None: asked)."""
        raise NotImplementedError

    def forget(self, projection: str) -> None:
        """The projection starts again from the first event."""
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    def release(self) -> None:
        """Done with it for now: a file's connection (one a call) is closed; a server's is kept
        with its store (closed with it)."""
        self.close()

    def create(
        self,
        name: str,
        columns: Columns,
        pk: str | tuple[str, ...],
        unique: Sequence[str] = (),
        if_missing: bool = False,
    ) -> None:
        if self.made_meanwhile(name):
            return  # (by another process, as this one would have)
        keys = (pk,) if isinstance(pk, str) else pk
        body = ", ".join(f"{c} {self.types[t]}" for c, t in columns.items())
        missing = "if not exists " if if_missing else ""
        self.run(f"create table {missing}{name} ({body}, primary key ({', '.join(keys)}))")
        for column in unique:
            self.run(f"create unique index {name}_{column} on {name} ({column})")

    def made_meanwhile(self, name: str) -> bool:  # (a file's writer holds its write lock)
        return False

    def drop(self, name: str) -> None:
        self.run(f"drop table if exists {name}")

    def insert(self, table: str, columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> None:
        marks = ", ".join([self.placeholder] * len(columns))
        self.run_many(f"insert into {table} ({', '.join(columns)}) values ({marks})", rows)

    def upsert(
        self, table: str, columns: Sequence[str], pk: str, rows: Iterable[Sequence[Any]]
    ) -> None:
        """Insert rows, replacing those with the same key."""
        raise NotImplementedError

    def marks(self, n: int) -> str:
        return ", ".join([self.placeholder] * n)
