"""Storage's boundary: what its libraries raise, said as the application's errors.

eventsourcing raises its ``PersistenceError`` (``IntegrityError`` when another writer saved the
same aggregate first), sqlite3 and psycopg their own errors, the operating system an ``OSError``
(a full disk, a folder this user may not enter), from wherever the store, its read models or its
own tables are read or written. No front end knows these libraries: a command or an action runs
inside :func:`as_user_errors`, which raises them again as a
:class:`~tournament.errors.StoreError` (a :class:`~tournament.storage.store.Conflict` for a
concurrent write) with the sentence the user reads. Anything else passes through untouched.

Three failures are named for what they are, whichever library saw them (#29): a database server
that went away in the middle of a command (a restart: :func:`server_gone`), a full disk
(:func:`disk_full`) and a file or folder this user may not read or write (:func:`denied`).
"""

from __future__ import annotations

import errno
import os
import sqlite3
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from eventsourcing.persistence import IntegrityError, PersistenceError

from engine.message import Msg, msg
from tournament.errors import StoreError, UserError

GONE = msg("the database server went away during the command (it may be restarting): try again")
FULL = msg("the disk is full: nothing more could be written; free some space and try again")

# A server's SQLSTATEs that mean the connection, or the server, is gone: class 08 (connection
# exception), 57P01-57P03 (shut down by an administrator, crashed, not accepting connections yet).
_GONE_STATES = ("57P01", "57P02", "57P03")


def _causes(e: BaseException) -> Iterator[BaseException]:
    """``e`` and what it was raised from (eventsourcing wraps psycopg's errors in its own)."""
    seen: set[int] = set()
    current: BaseException | None = e
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        yield current
        current = current.__cause__ or current.__context__


def server_gone(e: BaseException) -> bool:
    """Whether ``e`` says the database server went away (or its connection broke)."""
    psycopg = sys.modules.get("psycopg")  # loaded only by a store on a server
    if psycopg is None:
        return False
    for cause in _causes(e):
        if isinstance(cause, psycopg.OperationalError | psycopg.InterfaceError):
            state = getattr(cause, "sqlstate", None)
            if state is None or state.startswith("08") or state in _GONE_STATES:
                return True
    return False


def disk_full(e: BaseException) -> bool:
    """Whether ``e`` says the disk is full (ENOSPC, SQLite's SQLITE_FULL, a server's 53100)."""
    for cause in _causes(e):
        if isinstance(cause, OSError) and cause.errno in (errno.ENOSPC, errno.EDQUOT):
            return True
        if isinstance(cause, sqlite3.Error) and (
            getattr(cause, "sqlite_errorcode", None) == 13 or "disk is full" in str(cause)
        ):
            return True
        if getattr(cause, "sqlstate", None) == "53100":
            return True
    return False


def denied(e: PermissionError) -> Msg:
    """The sentence for a file or folder this user may not read (or write)."""
    where = os.fsdecode(e.filename) if e.filename is not None else None
    if where is None:
        return msg("a file or folder the command needs may not be used by this user")
    if os.access(where, os.R_OK):
        return msg("%(path)s may not be written by this user (permission denied)", path=where)
    return msg(
        "%(path)s may not be read by this user (permission denied, on it or a folder above it)",
        path=where,
    )


def said(e: BaseException) -> StoreError | None:
    """The application's error for one of the named failures, None for any other."""
    if server_gone(e):
        return StoreError(GONE)
    if disk_full(e):
        return StoreError(FULL)
    if isinstance(e, PermissionError):
        return StoreError(denied(e))
    return None


@contextmanager
def as_user_errors() -> Iterator[None]:
    """Run a piece of work; the storage libraries' errors come out of it as the application's."""
    try:
        yield
    except IntegrityError:
        from tournament.storage.store import Conflict

        raise Conflict(
            msg("someone else wrote at the same moment; nothing was stored: try again")
        ) from None
    except UserError:
        raise  # said already (a full disk named by the file it stopped, #29)
    except (PersistenceError, sqlite3.Error) as e:
        raise said(e) or StoreError(f"the database cannot be used: {e}") from None
    except (PermissionError, OSError) as e:
        if (known := said(e)) is not None:
            raise known from None
        raise
    except Exception as e:
        if (known := said(e)) is not None:
            raise known from None
        psycopg = sys.modules.get("psycopg")
        if psycopg is not None and isinstance(e, psycopg.Error):
            raise StoreError(msg("the database cannot be used: %(e)s", e=e)) from None
        raise
