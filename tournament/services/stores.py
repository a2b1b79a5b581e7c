"""A tournament's store as the front ends use it: they never import storage themselves.

Opening the store ``--db`` names (:func:`open_store`: a file or a PostgreSQL server, refused in one
sentence when it is not there), closing it, the storage libraries' errors said as the
application's (:func:`as_user_errors`), what ``db follow`` and ``verify`` read of a store, and the
web's table links kept among the store's own tables. ``Store`` and ``Location`` are here for the
front ends' annotations.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from engine.message import msg
from tournament.errors import Refused
from tournament.storage import heard, holds, named, writers
from tournament.storage.backends import holds_store
from tournament.storage.failures import as_user_errors
from tournament.storage.locations import Location, SqliteFile, close_reads, is_url, locate
from tournament.storage.locations import close as close_store
from tournament.storage.sql import ensure, own_tables
from tournament.storage.store import Store, normalise_number

__all__ = [
    "Location",
    "SqliteFile",
    "Store",
    "as_user_errors",
    "close",
    "count_guesses",
    "close_reads",
    "discard",
    "find_link",
    "follow",
    "holds_store",
    "is_url",
    "last_id",
    "latest_guess",
    "leads",
    "locate",
    "newer_writers",
    "normalise_number",
    "note_guess",
    "open_store",
    "prepare_guesses",
    "prepare_links",
    "replace_links",
    "seek_lead",
    "shared_secret",
    "stored_since",
    "wake_on_notify",
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


def close(store: Store) -> None:
    """Give back a store's connections: its read models', its turn's to write the tournament
    (:mod:`tournament.storage.writers`) and its own."""
    close_store(store)  # (its turn's too)


def close_turn(store: Store) -> None:
    """Give back the connection a store's turn to write the tournament holds (a server's, as it
    stops; the store stays open)."""
    writers.close(store)


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


def wake_on_notify(store: Store, wake: Callable[[bool], None], stopped: threading.Event) -> bool:
    """On a server, call ``wake(True)`` at each event stored by any process until ``stopped``
    is set (``wake(False)``: not listening for now; LISTEN/NOTIFY:
    :func:`tournament.storage.postgres.wake_on_notify`), and say True; a file has nothing to
    listen to: False at once (its readers poll)."""
    if not store.location.is_server:
        return False
    from tournament.storage.postgres import wake_on_notify as listen  # psycopg: a server's only

    listen(store, wake, stopped)
    return True


def seek_lead(store: Store) -> None:
    """This process (a server's) wants to be the one of its store's processes that refreshes
    the read models after others' writes (:mod:`tournament.storage.heard`)."""
    heard.seek_lead(store)


def leads(store: Store) -> bool:
    """Whether this process is to refresh the read models after others' writes: always on a
    file; on a server, while it holds the lead it seeks (one process a store does)."""
    return heard.leads(store)


def last_id(store: Store) -> int:
    """The id of the last event stored, whatever aggregate it is of (0: none yet)."""
    return holds.last_id(store)  # (a server's file: through its kept connection, #27)


def stored_since(store: Store, last: int, limit: int) -> list[Any]:
    """At most ``limit`` of the events stored after id ``last`` (eventsourcing's notifications:
    id, originator_id, originator_version, topic, state), oldest first."""
    if store.location.is_server:
        from tournament.storage.newer import notifications_after  # (a server's only)

        return notifications_after(store, last, limit)
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
    tables' earlier links of that round stop working, in every process over a server's store
    at once (its listener hears of them, as of a stored event: :func:`find_link`)."""
    _reprinted(store)  # (before and after: a look that overlaps it keeps nothing it found)
    with own_tables(store) as db:
        ensure(db, LINKS, LINK_COLUMNS, "hash")
        for table_no, digest in hashes.items():
            db.run(f"delete from {LINKS} where round = ? and table_no = ?", [round_no, table_no])
            db.insert(LINKS, list(LINK_COLUMNS), [(digest, round_no, table_no)])
        if store.location.is_server:  # (told at the commit to every listener, this one's too:
            # no writer's token, so that a link found meanwhile here is not kept past it)
            db.rows("select pg_notify(?, ?)",
                    [store.recorder.channel_name, named.payload("", [named.LINKS])])  # fmt: skip
    _reprinted(store)


# A server's links found, by hash: (round, table) and the look that found it (#27: a round
# trip of every table request, for what changes only when cards are printed again); and how
# many times this process began or ended printing cards again, so that a look made meanwhile
# keeps nothing.
_links: weakref.WeakKeyDictionary[Store, dict[str, tuple[tuple[int, int], Any]]]
_links = weakref.WeakKeyDictionary()
_reprints: weakref.WeakKeyDictionary[Store, int] = weakref.WeakKeyDictionary()
_links_lock = threading.Lock()


def _reprinted(store: Store) -> None:
    with _links_lock:
        _reprints[store] = _reprints.get(store, 0) + 1
        _links.pop(store, None)


def find_link(store: Store, digest: str, fresh: bool = True) -> tuple[int, int] | None:
    """The round and table of a link's hash, if it was issued. Not ``fresh`` (a table's
    request, its writes' too): on a server whose listener hears, a link found stands while
    nobody printed cards since (at most ``heard.TRUST`` seconds; a hash not found is asked
    every time). A reprint elsewhere ends it once heard, a few milliseconds after: a write
    made meanwhile is one made a moment before the reprint. One here ends it at once, and a
    look made meanwhile keeps nothing."""
    found = None if fresh else _links.get(store, {}).get(digest)
    if found is not None and heard.unchanged_since(store, found[1], named.LINKS, 0):
        return found[0]
    looked = heard.look(store)  # (before the look: what is heard during it is looked at again)
    printed = _reprints.get(store, 0)
    with own_tables(store, write=False) as db:
        rows = db.rows(f"select round, table_no from {LINKS} where hash = ?", [digest])
    if not rows:
        return None
    link = (int(rows[0][0]), int(rows[0][1]))
    with _links_lock:
        if looked is not None and _reprints.get(store, 0) == printed:
            _links.setdefault(store, {})[digest] = (link, looked)
    return link


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


# --- the web's wrong guesses, among the store's own tables (#27) ---------------------------

GUESSES = "web_guesses"  # one row a failed guess of a passphrase or link, kept a window long
GUESS_COLUMNS: dict[str, type] = {"id": str, "client": str, "at": float}


def prepare_guesses(store: Store) -> None:
    """Create the guesses' table on first use (a server's start)."""
    with own_tables(store) as db:
        if GUESSES not in db.tables():
            ensure(db, GUESSES, GUESS_COLUMNS, "id")
            db.run(f"create index if not exists {GUESSES}_client on {GUESSES} (client, at)")


def note_guess(store: Store, clients: list[str], at: float, window: float) -> None:
    """Count one failed guess for each of ``clients`` (a session, an address) at ``at`` (the
    clock's seconds), and forget those older than ``window`` seconds: every server process
    over the store counts the same guesses."""
    import secrets

    with own_tables(store) as db:
        db.run(f"delete from {GUESSES} where at < ?", [at - window])
        db.insert(GUESSES, list(GUESS_COLUMNS),
                  [(secrets.token_hex(8), client, at) for client in clients])  # fmt: skip


def count_guesses(store: Store, clients: list[str], since: float) -> dict[str, int]:
    """How many failed guesses each of ``clients`` made since ``since`` (absent: none)."""
    with own_tables(store, write=False) as db:
        marks = ", ".join("?" * len(clients))
        rows = db.rows(
            f"select client, count(*) from {GUESSES} where client in ({marks}) and at >= ? "
            "group by client",
            [*clients, since],
        )
    return {str(client): int(n) for client, n in rows}


def latest_guess(store: Store) -> float | None:
    """When the latest failed guess still kept was made, any client's (None: none is kept):
    a server that finds none old enough asks no client's count (#27)."""
    with own_tables(store, write=False) as db:
        rows = db.rows(f"select max(at) from {GUESSES}", [])
    return float(rows[0][0]) if rows and rows[0][0] is not None else None
