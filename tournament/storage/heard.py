"""What a server's process has heard of its store (#27): whether anything was stored there by
anyone else since a look, without asking the server.

eventsourcing's recorder NOTIFYs its events table's channel in every insert's transaction,
whichever process writes. A store a server keeps (:func:`listen`) holds a connection of its own
that LISTENs there, and counts the notifications of others' writes: its own saves notify with
its token (:class:`tournament.storage.postgres.Recorder`) and are not counted, as the process
knows what it stored (:func:`tournament.storage.holds.saw`, and :func:`own_saved`: each
aggregate's last version it saved, which a reader's look compares, :func:`unchanged_since`).
The same connection wakes the live stream's task (:meth:`Heard.add`). :func:`now` is that
count while the connection listens, None when it does not (not yet, broken, a pooler that
cannot LISTEN): a look made at a count, and nothing heard since, needs not be made again; with
None every look asks the server as before. A notification names what its insert stored
(:mod:`tournament.storage.named`: each aggregate's id; the web's table links): a reader's look
at one aggregate is made again only after a notification naming it, or one naming nothing this
program knows (an older version's), so that of several workers each goes on taking its
tables' pages as read while the others record theirs (#27).

A notification reaches the listener a moment after its commit: what is read this way may be
that moment older than the server's state, as a look made that moment earlier would be: a
table page's tournament and matches (``heard_ok`` in tournament.readside). Never a writer's
decision as it stands: a move's writer takes its tournament, its match and the table files'
holds as heard only with its save's own check of them, in the save's transaction (the save
stores nothing when the store moved past them, and the move is judged again on what is
asked: tournament.readside.ahead.write_ahead); never a page's claim of a position (a 304, a
page's stamp): those ask the server (queries.positions), nor a refresh of the read models
(exact: it takes only a match kept at the very line and hash it read in the notification
log). A table's link is the one exception a writer takes as heard: a reprint ends it once
heard (tournament.services.stores.find_link).

The same connection holds, for the processes that ask (:func:`seek_lead`: the servers' live
tasks), the lead of the read models' refresh: a session advisory lock of the schema, so that
of the workers serving one store one refreshes the read models after the room's moves, not
each (#27). The lead goes with the connection: a process that stops or loses it frees it, and
another takes it at its listener's next try (:data:`LEAD_TRY`). Leading is never a matter of
correctness: a page finds read models behind and brings them up itself, and any process's
refresh is exact (see tournament.readside.readmodels).
"""

from __future__ import annotations

import threading
import time
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from tournament.storage import named

LISTENING = 0.5  # seconds between two looks at whether the listener is to stop
TRUST = 5.0  # seconds a reader's look stands at most, whatever was heard since
LEAD_TRY = 1.0  # seconds between two tries at the lead of a process that seeks it


Look = tuple[int, int, float]  # what a reader's look was made at (:func:`look`)


class Heard:
    """A store's count of others' notifications (see the module): ``count`` moves at those
    that name nothing (and when the connection begins or ends listening), ``seq`` at each
    other, and ``last_of`` keeps, for each name, the ``seq`` of the last that named it."""

    def __init__(self, token: str) -> None:
        self.token = token
        self.count = 0
        self.seq = 0
        self.last_of: dict[str, int] = {}
        self.listening = False
        self.seeking = False  # whether this process wants the lead (:func:`seek_lead`)
        self.leading = False  # whether its connection holds it now
        self.stopped = threading.Event()
        self._lock = threading.Lock()
        # Told of every notification, anyone's, and whether the connection listens (the live
        # stream's task: one listening connection a process, not two, #27).
        self._wakers: list[Callable[[bool], None]] = []

    def add(self, wake: Callable[[bool], None]) -> None:
        """Call ``wake(True)`` at each notification from now on (``wake(False)``: not listening
        for now), and at once whether the connection listens."""
        with self._lock:  # (told under the lock: a change of listening comes after it)
            self._wakers.append(wake)
            wake(self.listening)

    def remove(self, wake: Callable[[bool], None]) -> None:
        with self._lock:
            if wake in self._wakers:
                self._wakers.remove(wake)

    def woke(self, listening: bool = True) -> None:
        with self._lock:
            wakers = list(self._wakers)
        for wake in wakers:
            wake(listening)

    def heard(self, text: str) -> bool:
        """A notification's payload heard: False when it is this process's own."""
        token, names = named.names(text)
        if token == self.token:
            return False
        with self._lock:
            if names is None:  # (an older version's, eventsourcing's own, or too many)
                self.count += 1
            else:
                self.seq += 1
                for name in names:
                    self.last_of[name] = self.seq
        return True

    def now(self) -> tuple[int, int] | None:
        with self._lock:
            return (self.count, self.seq) if self.listening else None

    def moved_since(self, looked: Look, name: str) -> bool:
        """Whether anything heard since ``looked`` may have changed ``name``."""
        with self._lock:
            return self.count != looked[0] or self.last_of.get(name, 0) > looked[1]

    def hearing(self, listening: bool) -> None:
        """The connection listens from now on (or not any more): what came meanwhile was not
        heard, so every look made before is made again."""
        with self._lock:
            self.count += 1
            self.listening = listening
            if not listening:
                self.leading = False  # (the lock went with the connection)
        self.woke(listening)

    def stop(self) -> None:
        self.hearing(False)
        self.stopped.set()


def now(store: Any) -> tuple[int, int] | None:
    """Where the others' writes heard stand (None: not listening, every look asks): it moves
    at every one of them, whatever it stored. Within :func:`earlier`, where they stood at its
    start."""
    at = getattr(_earlier, "at", None)
    if at is not None and at[0] is store:
        return at[1]  # type: ignore[no-any-return]
    heard: Heard | None = vars(store).get("_heard")
    return None if heard is None else heard.now()


def look(store: Any) -> Look | None:
    """What a reader's look is made at (before it is made): where the writes heard stand, and
    when (None: not listening, the next reader asks). Within :func:`earlier`, its start."""
    at = getattr(_earlier, "at", None)
    if at is not None and at[0] is store:
        return None if at[1] is None else (*at[1], at[2])
    count = now(store)
    return None if count is None else (*count, time.monotonic())


_earlier = threading.local()


@contextmanager
def earlier(store: Any) -> Iterator[None]:
    """Within the block, this thread's looks at ``store`` are dated from the block's start
    (:func:`now`, :func:`look`): the looks asked of the server there, ahead of their use
    (tournament.storage.newer.ahead), are marked as made when they were; what is heard while
    the block lasts is looked at again afterwards."""
    previous = getattr(_earlier, "at", None)
    count = now(store)
    _earlier.at = (store, count, time.monotonic())
    try:
        yield
    finally:
        _earlier.at = previous


def seek_lead(store: Any) -> None:
    """This process wants the lead of the read models' refresh (see the module), from now
    on, and once its store is listened to if it is not yet."""
    vars(store)["_seeking"] = True
    heard: Heard | None = vars(store).get("_heard")
    if heard is not None:
        heard.seeking = True


def leads(store: Any) -> bool:
    """Whether this process is to refresh the read models after others' writes: a file's
    store, and a server's without a listener or not seeking the lead, always; else while its
    listener's connection holds the lead, or does not listen (then nobody may hold it: each
    refreshes, as without one)."""
    heard: Heard | None = vars(store).get("_heard")
    return heard is None or not heard.seeking or heard.leading or not heard.listening


def own_saved(store: Any, recordings: Any) -> None:
    """Note the aggregates (and versions) a save of this process stored: its own saves are not
    counted as heard, so what was looked at before them is looked at again
    (:func:`unchanged_since`)."""
    if vars(store).get("_heard") is None:
        return
    versions = vars(store).setdefault("_own_saved", {})
    for r in recordings:
        event = r.domain_event
        versions[event.originator_id] = (event.originator_version, r.notification.state)


def own_last(store: Any, originator: Any) -> tuple[int, bytes] | None:
    """The version and stored state of the last event of ``originator`` this process saved
    (None: none noted, as in a store nobody listens to): the store's own at that version."""
    own = vars(store).get("_own_saved")
    return None if own is None else own.get(originator)


def own_failed(store: Any, objs: Any) -> None:
    """A save of ``objs`` failed (it may have been stored all the same, the answer lost): what
    readers looked at of them is looked at again, until this process saves them anew."""
    if vars(store).get("_heard") is None:
        return
    versions = vars(store).setdefault("_own_saved", {})
    for obj in objs:
        if getattr(obj, "id", None) is not None:
            versions[obj.id] = (float("inf"), b"")


def unchanged_since(
    store: Any, looked: Look | None, originator: Any, version: int, trust: float | None = None
) -> bool:
    """Whether an aggregate read at ``version`` by a look made at ``looked`` (:func:`look`)
    needs no look again (a reader's; a writer's only with its save's check: see the
    module): the store's listener
    heard nobody else store anything of it since (a notification naming nothing counts for
    every aggregate), this process stored nothing of it past ``version``, and the look is at
    most ``TRUST`` seconds old (a connection gone silently, hearing nothing, is not trusted
    for long: ``trust`` seconds, ``TRUST`` unless an insert checks it). ``originator``: an
    aggregate's id, or a name (:data:`tournament.storage.named.LINKS`)."""
    heard: Heard | None = vars(store).get("_heard")
    trust = TRUST if trust is None else trust
    if looked is None or heard is None or time.monotonic() - looked[2] > trust:
        return False
    name = originator if isinstance(originator, str) else named.name_of(originator)
    if not heard.listening or name is None or heard.moved_since(looked, name):
        return False
    own = vars(store).get("_own_saved")
    return own is None or own.get(originator, (0,))[0] <= version


def listen(store: Any) -> None:
    """Listen for a server store's notifications from now on, in a thread of its own, until
    the store is closed (or dropped). A file's store: nothing (its looks are cheap, #27)."""
    recorder = store.recorder
    token = getattr(recorder, "token", None)
    if not store.location.is_server or token is None or vars(store).get("_heard") is not None:
        return
    heard = vars(store)["_heard"] = Heard(token)
    heard.seeking = vars(store).get("_seeking", False)
    store.factory.heard = heard  # (the factory's close stops it)
    gone = weakref.ref(store)
    thread = threading.Thread(
        target=_listen, args=(store.location, recorder.channel_name, heard, gone),
        name="store-heard", daemon=True,
    )  # fmt: skip
    thread.start()


def _listen(location: Any, channel: str, heard: Heard, gone: Any) -> None:
    import psycopg
    from psycopg import sql

    from tournament.errors import StoreError
    from tournament.storage.postgres import connect, notified

    def over() -> bool:
        return heard.stopped.is_set() or gone() is None

    while not over():
        try:
            with connect(location) as conn:
                conn.execute(sql.SQL("listen {}").format(sql.Identifier(channel)))
                heard.hearing(True)
                tried = float("-inf")
                while not over():
                    if heard.seeking and not heard.leading:
                        if time.monotonic() - tried >= LEAD_TRY:
                            tried = time.monotonic()
                            _try_lead(conn, heard, location.schema)
                    heard_now = notified(conn, LISTENING)
                    for n in heard_now:
                        heard.heard(n.payload)
                    if heard_now:
                        heard.woke()
        except (psycopg.Error, StoreError):
            pass
        except Exception:  # anything else: not heard any more, said, and listened to again
            import logging

            logging.getLogger("tournament.web").exception("the store's listener failed")
        finally:
            heard.hearing(False)
        heard.stopped.wait(1.0)


def _try_lead(conn: Any, heard: Heard, schema: str) -> None:
    """Take the lead if no other process holds it (a session advisory lock of the schema, on
    the listening connection). A server that refuses the lock (not a broken connection: a
    pooler, a role without the right) is not asked again: this process refreshes as if alone."""
    import hashlib

    import psycopg

    digest = hashlib.sha256(f"tournament read models {schema}".encode()).digest()
    try:
        row = conn.execute(
            "select pg_try_advisory_lock(%s)", [int.from_bytes(digest[:8], "big", signed=True)]
        ).fetchone()
    except (psycopg.OperationalError, psycopg.InterfaceError):
        raise  # (the connection: listened to again)
    except psycopg.Error:
        heard.seeking = False
        return
    heard.leading = bool(row and row[0])
