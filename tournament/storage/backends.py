"""What a location holds, asked of either backend without opening the store.

Whether a tournament store is there, and every stored row as bytes: what ``verify``, ``db copy``
and the demo look at before (or instead of) opening a :class:`tournament.storage.store.Store`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tournament.storage.locations import Location

Row = tuple[str, int, str, bytes]  # aggregate id (hex), version, topic, state


def holds_store(where: Location) -> bool:
    """Whether the location holds a tournament store (False: nothing yet; one sentence for
    anything else there, or for a server that cannot be reached)."""
    if where.is_server:
        from tournament.storage import postgres
        from tournament.storage.pgserver import require_driver

        require_driver()

        return postgres.inspect(where)
    from tournament.storage import sqlitefile

    return sqlitefile.inspect(where.path)


def scan(where: Location, what: str = "events", aggregate: str | None = None) -> Iterator[Row]:
    """Every stored row of eventsourcing's ``events`` (or ``snapshots``) table, as bytes, by
    aggregate then version: what ``verify`` and ``db copy`` read, the same on both backends.

    Read only: a file is opened ``mode=ro``, a server's rows are streamed in one transaction.
    """
    if where.is_server:
        from tournament.storage import postgres

        yield from postgres.scan(where, what, aggregate)
        return
    from tournament.storage import sqlitefile

    yield from sqlitefile.scan(where.path, what, aggregate)
