"""A server's looks at what was stored since (#27): one aggregate's events after a version,
what a long-running process asks before it uses the tournament or a match it keeps
(:mod:`tournament.readside.kept`), and the table events after a notification
(:mod:`tournament.storage.holds`); several times a move, each one statement, through the
thread's own connection where it has one."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from tournament.storage import heard, inserts

# The answers of looks asked together ahead of a write (:func:`ahead`), this thread's, each
# taken once by the look it answers.
_ahead = threading.local()


def events_after(store: Any, originator: Any, version: int) -> list[Any]:
    """A server's stored events of one aggregate after ``version``, in order (eventsourcing's
    ``select_events(originator, gt=version)``): through the connection this thread keeps for
    the read models when it has one (a web server's request threads) and it is idle, in one
    prepared statement (#27: asked several times a move, where eventsourcing's own takes a
    connection from its pool and composes its statement each time). Otherwise through
    eventsourcing's: a thread without one does not open one for this (a connection a thread),
    and inside one of its transactions (a refresh) a failure would undo the refresh."""
    from eventsourcing.persistence import StoredEvent

    from tournament.storage.postgres import EVENTS

    def through(conn: Any) -> list[Any]:
        rows = conn.execute(
            "select originator_id, originator_version, topic, state from "
            f"{EVENTS} where originator_id = %s and originator_version > %s "
            "order by originator_version",
            [originator, version],
            prepare=True,
        ).fetchall()
        return [StoredEvent(*row[:3], bytes(row[3])) for row in rows]

    def pooled() -> list[Any]:
        return list(store.recorder.select_events(originator, gt=version))

    asked = _taken(events_key(store, originator, version))
    if asked is not None:
        return asked  # type: ignore[no-any-return]
    return _kept_or(store, through, pooled)  # type: ignore[no-any-return]


def idle_connection(store: Any) -> Any | None:
    """The connection this thread keeps for a server's read models, when it has one and it is
    idle (not inside a refresh's transaction): a look through it takes no connection from
    eventsourcing's pool (#27: a pool's checkout costs about what the query does)."""
    from tournament.storage.sql import PostgresSQL

    dbs = vars(store).get("_read_dbs")
    db = None if dbs is None else dbs.held()
    if not isinstance(db, PostgresSQL) or db.conn.info.transaction_status != db._idle:
        return None
    return db.conn


def last_and_since(
    store: Any, last: int, topics: Sequence[str], limit: int, go_on: bool = False
) -> tuple[int, list[Any]]:
    """The store's last notification id (0: none), and at most ``limit`` of the notifications
    of ``topics`` after ``last`` up to it: what two of eventsourcing's queries give, in one
    statement (#27). ``go_on``: a page's look, which may take what was looked at before; when
    it takes the answer :func:`ahead` holds, the next look on from where that answer ends is
    answered as of the same moment (nothing after it): the save's check that follows in the
    turn asks nothing more, as when it took the answer itself. Any look after that asks."""
    from psycopg import sql
    from psycopg.rows import tuple_row

    from tournament.storage.postgres import EVENTS, composed

    asked = _taken(since_key(store, last, topics, limit))
    if asked is not None:
        answers = getattr(_ahead, "answers", None)
        if go_on and answers is not None and asked[0] != last:
            answers[since_key(store, asked[0], topics, limit)] = (asked[0], [])
        return asked  # type: ignore[no-any-return]
    statement = composed(SINCE, t=sql.Identifier(store.location.schema, EVENTS))
    params = [last, list(topics), limit]

    def through(conn: Any) -> list[Any]:
        with conn.cursor(row_factory=tuple_row) as cursor:
            return cursor.execute(statement, params, prepare=True).fetchall()  # type: ignore[no-any-return]

    def pooled() -> list[Any]:
        with store.recorder.datastore.get_connection() as conn:
            return through(conn)

    return _since_of(_kept_or(store, through, pooled))


# The store's last notification id and the first notifications of some topics after one.
SINCE = (
    "select m.upto, e.* from (select max(notification_id) as upto from {t}) m "
    "left join lateral (select notification_id, originator_id, originator_version, topic, "
    "state from {t} where notification_id > %s and notification_id <= m.upto "
    "and topic = any(%s) order by notification_id limit %s) e on true"
)


def _since_of(rows: Sequence[Any]) -> tuple[int, list[Any]]:
    """:data:`SINCE`'s rows (upto, then a notification's columns or nulls) as what
    :func:`last_and_since` returns."""
    from eventsourcing.persistence import Notification

    upto = int(rows[0][0] or 0) if rows else 0
    return upto, [
        Notification(
            id=r[1], originator_id=r[2], originator_version=r[3], topic=r[4], state=bytes(r[5])
        )
        for r in rows
        if r[1] is not None
    ]


@contextmanager
def ahead(
    store: Any, looks: Sequence[tuple[Any, int]], since: tuple[int, Sequence[str], int] | None
) -> Iterator[None]:
    """Within the block, :func:`events_after` of each of ``looks`` (an aggregate, a version)
    and :func:`last_and_since` of ``since`` (last, topics, limit) are answered as asked of the
    server together at its start, in one statement through this thread's own connection
    (#27: a move's writer asks the tournament, its match and the table files' holds in its
    turn: one round trip, not three); each answer is taken once, and a look asked otherwise
    (another version, a retry) asks the server as ever. Without the thread's own connection,
    or when it fails, every look asks on its own. The block's looks are dated from its start
    (:func:`tournament.storage.heard.earlier`): a notification heard meanwhile is looked at
    again after it."""
    import psycopg

    previous = getattr(_ahead, "answers", None)
    answers: dict[Any, Any] = {}
    with heard.earlier(store):  # (what is read here is dated from before the statement)
        conn = idle_connection(store)
        if conn is not None and (looks or since is not None):
            try:
                answers = _together(conn, store, looks, since)
            except (psycopg.OperationalError, psycopg.InterfaceError):
                answers = {}
        _ahead.answers = answers
        try:
            yield
        finally:
            _ahead.answers = previous


def _together(
    conn: Any, store: Any, looks: Sequence[tuple[Any, int]],
    since: tuple[int, Sequence[str], int] | None,
) -> dict[Any, Any]:  # fmt: skip
    """The answers of :func:`ahead`'s looks, by the key each look takes them by."""
    from eventsourcing.persistence import StoredEvent
    from psycopg.rows import tuple_row

    params: list[Any] = [p for look in looks for p in look]
    if since is not None:
        params += [since[0], list(since[1]), since[2]]
    statement = _union(store.location.schema, len(looks), since is not None)
    with conn.cursor(row_factory=tuple_row) as cursor:
        rows = cursor.execute(statement, params, prepare=True).fetchall()
    answers: dict[Any, Any] = {}
    for k, (originator, version) in enumerate(looks):
        answers[events_key(store, originator, version)] = [
            StoredEvent(r[3], r[4], r[5], bytes(r[6])) for r in rows if r[0] == k
        ]
    if since is not None:
        key = since_key(store, since[0], since[1], since[2])
        answers[key] = _since_of([r[1:] for r in rows if r[0] == len(looks)])
    return answers


_UNIONS: dict[tuple[str, int, bool], bytes] = {}


def _union(schema: str, looks: int, since: bool) -> bytes:
    """:func:`_together`'s statement for ``looks`` aggregates and the holds' look, composed
    once a process (#27): rows of (the look's index, upto, a notification's id, the event)."""
    found = _UNIONS.get((schema, looks, since))
    if found is None:
        from psycopg import sql

        from tournament.storage.postgres import EVENTS

        parts = [
            f"(select {k} as k, null::bigint as upto, null::bigint as notification_id, "
            "originator_id, originator_version, topic, state from {t} "
            "where originator_id = %s and originator_version > %s)"
            for k in range(looks)
        ]
        if since:
            parts.append(f"(select {looks} as k, s.* from ({SINCE}) s)")
        text = " union all ".join(parts) + " order by k, notification_id, originator_version"
        found = sql.SQL(text).format(t=sql.Identifier(schema, EVENTS)).as_bytes(None)
        _UNIONS[(schema, looks, since)] = found
    return found


@contextmanager
def known(store: Any, answers: dict[Any, Any], guard: Any) -> Iterator[None]:
    """Within the block, the looks of ``answers`` (by :func:`events_key` and
    :func:`since_key`) are answered as known, without asking, as often as they are made; the
    block's first save of the store carries ``guard`` (a
    :class:`tournament.storage.inserts.Guard`), which stores nothing when the store moved
    past what was taken as known (#27: a move's writer whose looks the store's listener
    answers, tournament.readside.ahead.write_ahead). Looks are dated from the block's start
    (:func:`tournament.storage.heard.earlier`). Once its save has taken the guard, every
    look asks again (a second save in the block decides on what is stored)."""
    previous = getattr(_ahead, "known", None)
    with heard.earlier(store):
        _ahead.known = (store.recorder, answers)
        inserts.guarding(store.recorder, guard)
        try:
            yield
        finally:
            _ahead.known = previous
            inserts.guarding(store.recorder, None)


def events_key(store: Any, originator: Any, version: int) -> tuple[Any, ...]:
    """The key of :func:`events_after`'s look (``originator``'s events after ``version``)."""
    return (id(store), "events", originator, version)


def since_key(store: Any, last: int, topics: Sequence[str], limit: int) -> tuple[Any, ...]:
    """The key of :func:`last_and_since`'s look."""
    return (id(store), "since", last, tuple(topics), limit)


def _taken(key: Any) -> Any | None:
    """The answer :func:`ahead` holds for a look, taken, or the one :func:`known` gives
    (None: none held)."""
    answers = getattr(_ahead, "answers", None)
    found = None if not answers else answers.pop(key, None)
    if found is None:
        given = getattr(_ahead, "known", None)
        if given is not None and inserts.pending(given[0]):  # (until its save is made)
            found = given[1].get(key)
    return found


def notifications_after(store: Any, last: int, limit: int) -> list[Any]:
    """At most ``limit`` of a server's notifications after id ``last``, oldest first: what
    eventsourcing's ``select_notifications(last + 1, limit)`` gives, through this thread's own
    connection where it has one, its statement composed once (#27: the live stream's look at
    every event)."""
    from eventsourcing.persistence import Notification
    from psycopg import sql

    from tournament.storage.postgres import EVENTS, composed

    statement = composed(
        "select notification_id, originator_id, originator_version, topic, state from {t} "
        "where notification_id > %s order by notification_id limit %s",
        t=sql.Identifier(store.location.schema, EVENTS),
    )

    def through(conn: Any) -> list[Any]:
        rows = conn.execute(statement, [last, limit], prepare=True).fetchall()
        return [Notification(id=r[0], originator_id=r[1], originator_version=r[2], topic=r[3],
                             state=bytes(r[4])) for r in rows]  # fmt: skip

    def pooled() -> list[Any]:
        return list(store.recorder.select_notifications(last + 1, limit))

    return _kept_or(store, through, pooled)  # type: ignore[no-any-return]


def _kept_or(store: Any, through: Any, pooled: Any) -> Any:
    """``through(conn)`` on this thread's own connection, else (none, or it broke: a server
    restarted, its failure marks it so the next look goes on without it) ``pooled()``,
    through eventsourcing's pool, which connects again."""
    import psycopg

    conn = idle_connection(store)
    if conn is not None:
        try:
            return through(conn)
        except (psycopg.OperationalError, psycopg.InterfaceError):
            pass
    return pooled()
