"""Storage's boundary: what its libraries raise, said as the application's errors.

eventsourcing raises its ``PersistenceError`` (``IntegrityError`` when another writer saved the
same aggregate first), sqlite3 and psycopg their own errors, from wherever the store, its read
models or its own tables are read or written. No front end knows these libraries: a command or an
action runs inside :func:`as_user_errors`, which raises them again as a
:class:`~tournament.errors.StoreError` (a :class:`~tournament.storage.store.Conflict` for a
concurrent write) with the sentence the user reads. Anything else passes through untouched.
"""

from __future__ import annotations

import sqlite3
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from eventsourcing.persistence import IntegrityError, PersistenceError

from engine.message import msg
from tournament.errors import StoreError


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
    except (PersistenceError, sqlite3.Error) as e:
        raise StoreError(f"the database cannot be used: {e}") from None
    except Exception as e:
        psycopg = sys.modules.get("psycopg")  # loaded only by a store on a server
        if psycopg is not None and isinstance(e, psycopg.Error):
            raise StoreError(f"the database cannot be used: {e}") from None
        raise
