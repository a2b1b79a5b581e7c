"""A server store's insert of events as one statement (#27): the transaction that
:class:`tournament.storage.postgres.Recorder` sends, whole, as one query string.

eventsourcing sends BEGIN, the lock's timeout, the table's lock, the NOTIFY, the rows (an array
of a composite type, dumped by psycopg) and COMMIT as six statements: in a pipeline they go in
one round trip, but each statement still costs its client CPU. A move's insert took 280 us of
it alone on these machines (590 inside a busy server), one query string of literals takes 160
(250-300). The rows stored are the same, in the same order, under the same lock: the
notification ids are still committed in order, and a row that exists already (another writer
first) stores nothing and raises the same IntegrityError.

Every value is written as a literal the server reads back exactly, whatever its settings: an
id and a topic as escape strings (``E'...'``, a backslash and a quote doubled), a version as a
number, a state as its hex decoded by the server (``decode('...', 'hex')``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["ids", "statement"]


def literal(text: str) -> str:
    """``text`` as an SQL escape string literal, read back as it is."""
    return "E'" + text.replace("\\", "\\\\").replace("'", "''") + "'"


def statement(recorder: Any, payload: str, stored_events: Sequence[Any]) -> str:
    """The insert's transaction as one query string for eventsourcing's ``recorder``: BEGIN,
    its lock's timeout and table lock, the NOTIFY of ``payload``, then the rows of
    ``stored_events`` returning their notification ids, and COMMIT."""
    head, into = _parts(recorder)
    rows = ", ".join(
        f"({literal(str(e.originator_id))}, {int(e.originator_version)}, {literal(e.topic)}, "
        f"decode('{bytes(e.state).hex()}', 'hex'))"
        for e in stored_events
    )
    return f"{head} {literal(payload)}; {into} {rows} RETURNING notification_id; COMMIT"


def _parts(recorder: Any) -> tuple[str, str]:
    """The statement's fixed parts, composed once a recorder: BEGIN, the lock's timeout, the
    table's lock and ``NOTIFY channel,``; then ``INSERT INTO table (columns) VALUES``."""
    parts = vars(recorder).get("_insert_parts")
    if parts is None:
        from psycopg import sql

        head = "; ".join(
            [
                "BEGIN",
                *(s.as_string(None) for s in recorder.lock_table_statements),
                sql.SQL("NOTIFY {},").format(sql.Identifier(recorder.channel_name)).as_string(None),
            ]
        )
        into = (
            sql.SQL("INSERT INTO {} (originator_id, originator_version, topic, state) VALUES")
            .format(sql.Identifier(recorder.datastore.schema, recorder.events_table_name))
            .as_string(None)
        )
        parts = recorder._insert_parts = (head, into)
    return parts  # type: ignore[no-any-return]


def ids(cursor: Any, expected: int) -> list[int]:
    """The notification ids the insert returned, from the cursor that ran its statement (the
    INSERT's result among the statement's), in the order of its rows."""
    from eventsourcing.persistence import ProgrammingError

    while not (cursor.statusmessage or "").startswith("INSERT"):
        if not cursor.nextset():
            raise ProgrammingError("the insert returned no notification ids")
    found = [int(row[0]) for row in cursor.fetchall()]
    if len(found) != expected:
        raise ProgrammingError(
            f"Couldn't get all notification IDs (got {len(found)}, expected {expected})"
        )
    return found
