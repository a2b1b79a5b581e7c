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

import threading
from collections.abc import Sequence
from typing import Any, NamedTuple

__all__ = [
    "Guard", "LooksMoved", "guarding", "ids", "passed", "passed_last", "pending", "statement",
    "taken",
]  # fmt: skip

MOVED = "TM001"  # the SQLSTATE a guard raises (a class of its own: no server's error has it)


class LooksMoved(Exception):  # noqa: N818 - what it says, not an error of the user's
    """A guarded insert (:class:`Guard`) found the store moved past what its writer took as
    known: nothing was stored, and the write is to be made again, its looks asked."""


class Guard(NamedTuple):
    """What a writer took as known without asking (#27: its looks as heard, not asked ahead of
    its save): the aggregate ``originator`` (the tournament) stored up to ``version`` exactly,
    and no event of ``topics`` (the table files' holds) stored after notification ``after``.
    The insert's transaction checks both under the table's lock, before its rows: the save
    stores nothing and raises :class:`LooksMoved` when either is not so."""

    originator: Any
    version: int
    after: int
    topics: tuple[str, ...]


# The guard the next insert of this thread carries (a recorder's, taken once), and the last
# one an insert of this thread passed.
_guards = threading.local()


def guarding(recorder: Any, guard: Guard | None) -> None:
    """The next insert of this thread through ``recorder`` carries ``guard`` (None: none)."""
    _guards.next = None if guard is None else (recorder, guard)
    _guards.passed = None


def taken(recorder: Any) -> Guard | None:
    """The guard this thread's next insert through ``recorder`` carries, taken (an insert's
    own: a second save in the same write carries none)."""
    held = getattr(_guards, "next", None)
    if held is None or held[0] is not recorder:
        return None
    _guards.next = None
    return held[1]  # type: ignore[no-any-return]


def pending(recorder: Any) -> bool:
    """Whether this thread's next insert through ``recorder`` still carries a guard (no insert
    was made since :func:`guarding`)."""
    held = getattr(_guards, "next", None)
    return held is not None and held[0] is recorder


def passed(recorder: Any, guard: Guard | None) -> None:
    """Note that this thread's insert through ``recorder`` stored its rows past ``guard``."""
    _guards.passed = None if guard is None else (recorder, guard)


def passed_last(recorder: Any) -> Guard | None:
    """The guard this thread's last insert through ``recorder`` stored its rows past (None:
    it carried none), taken."""
    held = getattr(_guards, "passed", None)
    _guards.passed = None
    return None if held is None or held[0] is not recorder else held[1]


def literal(text: str) -> str:
    """``text`` as an SQL escape string literal, read back as it is."""
    return "E'" + text.replace("\\", "\\\\").replace("'", "''") + "'"


def statement(
    recorder: Any, payload: str, stored_events: Sequence[Any], guard: Guard | None = None
) -> str:
    """The insert's transaction as one query string for eventsourcing's ``recorder``: BEGIN,
    its lock's timeout and table lock, ``guard``'s check (see :class:`Guard`), the NOTIFY of
    ``payload``, then the rows of ``stored_events`` returning their notification ids, and
    COMMIT."""
    head, into, table = _parts(recorder)
    rows = ", ".join(
        f"({literal(str(e.originator_id))}, {int(e.originator_version)}, {literal(e.topic)}, "
        f"decode('{bytes(e.state).hex()}', 'hex'))"
        for e in stored_events
    )
    if guard is not None:
        locked, notify = head.rsplit("; ", 1)
        head = f"{locked}; {_check(table, guard)}; {notify}"
    return f"{head} {literal(payload)}; {into} {rows} RETURNING notification_id; COMMIT"


def _check(table: str, guard: Guard) -> str:
    """``guard``'s check of the events ``table`` as a statement: it raises :data:`MOVED` when
    the store moved past it."""
    topics = ", ".join(literal(topic) for topic in guard.topics) or "NULL"
    return (
        f"DO $guard$BEGIN IF (SELECT max(originator_version) FROM {table} WHERE originator_id"
        f" = {literal(str(guard.originator))}::uuid) IS DISTINCT FROM {int(guard.version)} OR"
        f" EXISTS (SELECT 1 FROM {table} WHERE notification_id > {int(guard.after)} AND topic"
        f" IN ({topics})) THEN RAISE EXCEPTION USING ERRCODE = '{MOVED}', MESSAGE ="
        " 'the store moved past what this save took as known'; END IF; END$guard$"
    )


def _parts(recorder: Any) -> tuple[str, str, str]:
    """The statement's fixed parts, composed once a recorder: BEGIN, the lock's timeout, the
    table's lock and ``NOTIFY channel,``; then ``INSERT INTO table (columns) VALUES``; and the
    table's name."""
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
        table = sql.Identifier(recorder.datastore.schema, recorder.events_table_name)
        into = (
            sql.SQL("INSERT INTO {} (originator_id, originator_version, topic, state) VALUES")
            .format(table)
            .as_string(None)
        )
        parts = recorder._insert_parts = (head, into, table.as_string(None))
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
