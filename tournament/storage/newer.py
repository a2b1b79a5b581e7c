"""A server's stored events of one aggregate after a version (#27): what a long-running
process asks before it uses the tournament or a match it keeps (:mod:`tournament.readside.kept`),
several times a move."""

from __future__ import annotations

from typing import Any


def events_after(store: Any, originator: Any, version: int) -> list[Any]:
    """A server's stored events of one aggregate after ``version``, in order (eventsourcing's
    ``select_events(originator, gt=version)``): through the connection this thread keeps for
    the read models when it has one (a web server's request threads) and it is idle, in one
    prepared statement (#27: asked several times a move, where eventsourcing's own takes a
    connection from its pool and composes its statement each time). Otherwise through
    eventsourcing's: a thread without one does not open one for this (a connection a thread),
    and inside one of its transactions (a refresh) a failure would undo the refresh."""
    from eventsourcing.persistence import StoredEvent

    from tournament.storage.sql import PostgresSQL

    dbs = vars(store).get("_read_dbs")
    db = None if dbs is None else dbs.held()
    if not isinstance(db, PostgresSQL) or db.conn.info.transaction_status != db._idle:
        return list(store.recorder.select_events(originator, gt=version))
    from tournament.storage.postgres import EVENTS

    rows = db.conn.execute(
        "select originator_id, originator_version, topic, state from "
        f"{EVENTS} where originator_id = %s and originator_version > %s "
        "order by originator_version",
        [originator, version],
        prepare=True,
    ).fetchall()
    return [StoredEvent(*row[:3], bytes(row[3])) for row in rows]
