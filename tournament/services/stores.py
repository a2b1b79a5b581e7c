"""A tournament's store as the front ends use it: they never import storage themselves.

Opening the store ``--db`` names (:func:`open_store`: a file or a PostgreSQL server, refused in one
sentence when it is not there), closing it, the storage libraries' errors said as the
application's (:func:`as_user_errors`), what ``db follow`` and ``verify`` read of a store, and the
web's table links kept among the store's own tables. ``Store`` and ``Location`` are here for the
front ends' annotations.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from engine.message import msg
from tournament.errors import Refused
from tournament.storage import holds
from tournament.storage.backends import holds_store
from tournament.storage.failures import as_user_errors
from tournament.storage.locations import Location, SqliteFile, close, close_reads, is_url, locate
from tournament.storage.sql import ensure, own_tables
from tournament.storage.store import Store, normalise_number

__all__ = [
    "Location",
    "SqliteFile",
    "Store",
    "as_user_errors",
    "close",
    "close_reads",
    "discard",
    "find_link",
    "follow",
    "holds_store",
    "is_url",
    "last_id",
    "locate",
    "newer_writers",
    "normalise_number",
    "open_store",
    "prepare_links",
    "replace_links",
    "shared_secret",
    "stored_since",
]


def open_store(db: str | Path | Location, lexicon: str | None, create: bool = False) -> Store:
    """The event store at ``db``, its matches replayed against ``lexicon`` (None: the shipped
    word list). Refused when there is no database there (unless ``create``) or it is a folder."""
    where = locate(db)
    # A file is looked at once, by the store as it opens (tournament.storage.sqlitefile.Factory):
    # here only whether it is there at all (#15: a recording call opens the file once, not twice).
    present = where.path.exists() if isinstance(where, SqliteFile) else holds_store(where)
    if not create and not present:
        raise Refused(
            msg(
                "there is no database at %(where)s (import or create a match first, or pass --db)",
                where=where,
            )
        )
    if isinstance(where, SqliteFile) and where.path.is_dir():
        raise Refused(msg("%(where)s is a folder, not a database file", where=where))
    store = Store(where)
    store.lexicon = lexicon  # every replay of its matches, the read models' too
    return store


def discard(path: Path) -> bool:
    """Remove the database file a refused command made, if nobody stored in it
    (:func:`tournament.storage.sqlitefile.discard`)."""
    from tournament.storage import sqlitefile

    return sqlitefile.discard(path)


def follow(store: Store, seconds: float | None = None) -> Iterator[Any]:
    """A server's read models kept live (:func:`tournament.storage.postgres.follow`)."""
    from tournament.readside.readmodels import update
    from tournament.storage.postgres import follow as follow_server  # psycopg: a server's only

    return follow_server(store, update, seconds)


def last_id(store: Store) -> int:
    """The id of the last event stored, whatever aggregate it is of (0: none yet)."""
    return holds.last_id(store)  # (a server's file: through its kept connection, #27)


def stored_since(store: Store, last: int, limit: int) -> list[Any]:
    """At most ``limit`` of the events stored after id ``last`` (eventsourcing's notifications:
    id, originator_id, originator_version, topic, state), oldest first."""
    return list(store.recorder.select_notifications(last + 1, limit))


def newer_writers(store: Store) -> list[str]:
    """The newer versions that wrote to the store (see :mod:`tournament.storage.provenance`)."""
    from tournament.storage import provenance

    return provenance.newer_writers(store)


# --- the web's table links: a hash per link, among the store's own tables --------------------

LINKS = "web_tables"
LINK_COLUMNS: dict[str, type] = {"hash": str, "round": int, "table_no": int}


def prepare_links(store: Store) -> None:
    """Create the links' table on first use (a server's start)."""
    with own_tables(store) as db:
        ensure(db, LINKS, LINK_COLUMNS, "hash")


def replace_links(store: Store, round_no: int, hashes: dict[int, str]) -> None:
    """Keep the hash of each table's new link (table number -> hash) in one transaction; the
    tables' earlier links of that round stop working."""
    with own_tables(store) as db:
        ensure(db, LINKS, LINK_COLUMNS, "hash")
        for table_no, digest in hashes.items():
            db.run(f"delete from {LINKS} where round = ? and table_no = ?", [round_no, table_no])
            db.insert(LINKS, list(LINK_COLUMNS), [(digest, round_no, table_no)])


def find_link(store: Store, digest: str) -> tuple[int, int] | None:
    """The round and table of a link's hash, if it was issued."""
    with own_tables(store, write=False) as db:
        rows = db.rows(f"select round, table_no from {LINKS} where hash = ?", [digest])
    return (int(rows[0][0]), int(rows[0][1])) if rows else None


DOOR = "web_door"  # the door's self check-in link (#24): one at a time, stored only as a hash
DOOR_COLUMNS: dict[str, type] = {"hash": str}


def replace_door(store: Store, digest: str) -> None:
    """Keep the hash of the door's new check-in link; the earlier one stops working."""
    with own_tables(store) as db:
        ensure(db, DOOR, DOOR_COLUMNS, "hash")
        db.run(f"delete from {DOOR}")
        db.insert(DOOR, list(DOOR_COLUMNS), [(digest,)])


def is_door(store: Store, digest: str) -> bool:
    """Whether a link's hash is the door's check-in link now."""
    with own_tables(store, write=False) as db:
        if DOOR not in db.tables():
            return False
        return bool(db.rows(f"select 1 from {DOOR} where hash = ?", [digest]))


# --- the web's signing secret, among the store's own tables --------------------------------

SECRETS = "web_secret"
SECRET_COLUMNS: dict[str, type] = {"name": str, "value": str}


def shared_secret(store: Store) -> str:
    """The secret the web signs its sessions and CSRF tokens with, made once and kept among the
    store's own tables: every server process over the store (``serve --workers``, or servers
    on several machines) accepts what another drew (#27). Whoever can read the store could
    record anything in it already; the secret adds nothing to what they can do."""
    import secrets

    with own_tables(store) as db:
        ensure(db, SECRETS, SECRET_COLUMNS, "name")
        # Two processes starting at once: one value is kept, both read it back.
        db.run(
            f"insert into {SECRETS} (name, value) values ('session', ?) on conflict do nothing",
            [secrets.token_urlsafe(32)],
        )
        rows = db.rows(f"select value from {SECRETS} where name = 'session'")
    return str(rows[0][0])
