"""Where a tournament is stored: an SQLite file or a PostgreSQL server, chosen by ``--db``.

``--db`` (or ``TOURNAMENT_DB``) is a file path or a ``postgresql://user:password@host:port/name``
URL (``?schema=NAME`` keeps the tournament in a schema of its own). :func:`locate` reads it into
a :class:`Location`, which gives eventsourcing the settings of its own persistence module
(``eventsourcing.sqlite`` or ``eventsourcing.postgres``) and says, in any message, where the
store is without ever showing a password.

Only values here (a server's in :mod:`.pgserver`): the backends (:mod:`.sqlitefile`,
:mod:`.postgres`) build on them, and :mod:`.backends` asks a location what it holds (whether a
store is there, its stored rows).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias
from urllib.parse import parse_qs, unquote, urlsplit

from engine.message import msg
from engine.record import Record

if TYPE_CHECKING:
    from tournament.storage.pgserver import PostgresServer

SCHEMES = ("postgresql://", "postgres://")


def _error(message: str) -> Exception:
    from tournament.errors import StoreError

    return StoreError(message)


def is_url(text: str | Path) -> bool:
    """Whether ``--db`` names a PostgreSQL server rather than a file.

    >>> is_url("postgresql://club@db.example/torneo"), is_url("club.db")
    (True, False)
    """
    return isinstance(text, str) and text.lower().startswith(SCHEMES)


class SqliteFile(Record):  # a Record, not a dataclass: no code generated at start-up (#15)
    """One SQLite file (the default): the event store and the read models side by side."""

    path: Path
    is_server = False

    def __str__(self) -> str:
        return str(self.path)

    def env(self) -> dict[str, str]:
        """eventsourcing's settings of the file (through :mod:`tournament.storage.sqlitefile`)."""
        return {
            "PERSISTENCE_MODULE": "tournament.storage.sqlitefile:Factory",
            "SQLITE_DBNAME": str(self.path),
            "SQLITE_LOCK_TIMEOUT": os.environ.get("SQLITE_LOCK_TIMEOUT", "10"),
        }

    def full_name(self) -> str:
        """Where the store is, in full (for a message that shows it)."""
        return str(self.path.resolve())

    def exports_folder(self) -> Path:
        """Where the demo writes its printable files: beside the database."""
        return self.path.resolve().parent / "exports-out"


# A server's location is a class of its own module, imported only for a postgresql:// URL: it
# is a dataclass (callers copy it with dataclasses.replace), whose generated code a command on
# an SQLite file would pay at every start (#27).
Location: TypeAlias = "SqliteFile | PostgresServer"


def __getattr__(name: str) -> Any:
    """``PostgresServer`` (and ``require_driver``), still importable from here, as they were:
    imported as they are asked for (:mod:`.pgserver`)."""
    if name in ("PostgresServer", "require_driver", "INSTALL"):
        from tournament.storage import pgserver

        return getattr(pgserver, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def close(store: Any) -> None:
    """Give back a store's connections (its read models' and its writers' turn too): a server
    counts them."""
    close_reads(store)
    turn = getattr(store, "_turn", None)  # (storage.writers: a PostgreSQL store's lock)
    if turn is not None:
        turn.close()
    store.close()


def close_reads(store: Any) -> None:
    """Give back the connections of a store's read models on a server (one a thread that read
    them); the store itself stays open."""
    dbs = getattr(store, "_read_dbs", None)
    if dbs is not None:
        dbs.close()


def locate(db: str | Path | Location) -> Location:
    """The store ``--db`` names: a PostgreSQL URL, or else a file path.

    The URL may leave out what eventsourcing's own variables say (POSTGRES_USER,
    POSTGRES_PASSWORD, POSTGRES_HOST, POSTGRES_PORT):

    >>> str(locate("postgresql://club:secret@db.example:5433/torneo?schema=coppa"))
    'postgresql://club@db.example:5433/torneo?schema=coppa'
    >>> locate("postgresql://club:secret@db.example/torneo").port
    '5432'
    """
    if isinstance(db, SqliteFile) or getattr(db, "is_server", False) is True:
        return db  # (a PostgresServer: its class is imported only below)
    if not is_url(db):
        return SqliteFile(Path(db))
    text = str(db)
    try:
        url = urlsplit(text)
        port = str(url.port or os.environ.get("POSTGRES_PORT") or "5432")
    except ValueError:
        raise _error(
            msg(
                "%(url)s is not a PostgreSQL URL (the port?)",
                url=_without_password(text),
            )
        ) from None
    dbname = unquote(url.path.lstrip("/")) or os.environ.get("POSTGRES_DBNAME", "")
    user = unquote(url.username or "") or os.environ.get("POSTGRES_USER", "")
    host = unquote(url.hostname or "") or os.environ.get("POSTGRES_HOST", "")
    query = parse_qs(url.query)
    schema = (query.get("schema") or [os.environ.get("POSTGRES_SCHEMA", "") or "public"])[0]
    needed = {"a database name": dbname, "a user": user, "a host": host}
    missing = [what for what, value in needed.items() if not value]
    if missing:
        raise _error(
            msg(
                "%(url)s is missing %(missing)s: write postgresql://user:password@host:port/name",
                url=_without_password(text),
                missing=missing[0],
            )
        )
    if not schema.replace("_", "").isalnum():
        raise _error(msg("%(schema)r is not a schema name (letters, digits and _)", schema=schema))
    from tournament.storage.pgserver import PostgresServer

    return PostgresServer(
        host=host,
        port=port,
        dbname=dbname,
        user=user,
        password=unquote(url.password or "") or os.environ.get("POSTGRES_PASSWORD", ""),
        schema=schema,
    )


def _without_password(text: str) -> str:
    """A URL as the user wrote it, minus the password (for a message about the URL itself)."""
    scheme, _, rest = text.partition("://")
    credentials, at, place = rest.rpartition("@")
    if not at:
        return text
    return f"{scheme}://{credentials.partition(':')[0]}@{place}"
