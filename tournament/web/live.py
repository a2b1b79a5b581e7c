"""The live stream: one shared task watches the store and fans each stored event out.

On a PostgreSQL server the task wakes when the database tells it an event was stored
(LISTEN/NOTIFY: eventsourcing's recorder notifies in every insert's transaction, whichever
process wrote), and looks anyway every ``safety`` seconds, for a notification missed (every
``interval`` while it cannot listen); on a SQLite file it looks every ``interval`` seconds. A
look asks the store for its last notification id (one cheap query); when it moved, it reads the
new events from the store's notification log and sends one message per event to every listener:
its match (or ``null`` for the tournament), its position in that match's log (or the
tournament's version), its id, its type, when it was stored, and what it changes (``round``:
the round of the match's table, or ``null``; ``standings``: whether the standings may move, as
a match's end, ruling or void and every tournament event can): a page fetches itself again only
when the event concerns it (static/live.js). Each message is encoded once, as the bytes of its
Server-Sent Event, and those bytes go to every stream (#27: a thousand streams cost one
encoding, not a thousand). The messages of one look go out together, and the hub itself writes
them to each stream (:class:`Sink`): one write a stream a look, no task of the stream's woken,
no timeout scope (#27, a thousand viewers); a stream whose client reads too slowly waits on its
socket while what comes meanwhile is held, at most ``QUEUE`` messages, beyond which it is ended
(its client reconnects and catches up by id). The read models are brought up to date beside the
polling, by one process of a store's workers (the one that leads,
:func:`tournament.services.stores.leads`); a worker that neither leads nor has a stream open
looks at nothing (:meth:`Live.idle`), and a stream opened there is told from then on. Messages
never carry an event's content: the pages fetch what they show, and secrets stay out.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from typing import Any
from uuid import UUID

import anyio

from tournament.errors import UserError
from tournament.readside import readmodels
from tournament.services import stores
from tournament.services.stores import Store, as_user_errors
from tournament.web.sinks import QUEUE, Sink, Stream, chunk, frame_id

__all__ = ["QUEUE", "Live", "Sink", "encoded", "frame_id", "message"]

log = logging.getLogger("tournament.web")
MOVES_STANDINGS = ("end", "ruling", "void")  # a match's events that can change its outcome
REPLAY = 1000  # at most this many missed messages are sent again to a listener that reconnects
SAFETY = 1.0  # seconds between two looks at a server's store when no notification woke the task
GATHER = 0.05  # seconds a refresh of the read models waits for the events that come with one
# Seconds the task waits, woken by a notification with streams open, for the events stored
# with it: a room's moves go out in one write a stream, not one each (#27: a thousand phones).
TOGETHER = 0.025


class Live:
    """The read models' refresher and the stream's broadcaster, one per server."""

    def __init__(
        self,
        store: Store,
        interval: float = 0.1,
        capacity: int | None = None,
        safety: float = SAFETY,
    ) -> None:
        self.store, self.interval, self.safety = store, interval, safety
        # Set when the database notified a stored event (a server's only; None: polling).
        self.woken: asyncio.Event | None = None
        self._stopped = threading.Event()
        self._listener: threading.Thread | None = None
        self.listening = threading.Event()  # set while the database is asked to tell
        self.listeners: set[Sink] = set()
        # The streams the server can hold within its open files (None: no bound), how many
        # it holds, and those refused since the last word about them (one a minute).
        self.capacity, self.streams = capacity, 0
        self.refused, self.said = 0, float("-inf")
        self.last = 0
        # Whether the task skipped looks since ``last`` (:meth:`idle`), and the store's last
        # id as the first stream opened meanwhile found it: the task goes on from there.
        self.skipped = False
        self.resume_at: int | None = None
        # The last event this process's own refreshes left in the read models: a look whose
        # messages go no further (projected already, by an action's refresh or the task's
        # own) needs none (#27).
        self.projected = 0
        self.numbers: dict[UUID, tuple[str, int | None]] = {}  # aggregate id -> number, round
        self.placed: set[UUID] = set()  # matches whose round was looked up after their start
        # Each match's round as its table's MatchAttached said, heard before the read models
        # hold it (a start's refresh is the live task's, #27).
        self.attached: dict[str, int | None] = {}
        # Held by whoever writes to the file in this server (read models, tokens, services),
        # so that its writers queue rather than meet SQLite's busy errors.
        self.lock = threading.RLock()
        self._task: asyncio.Task[None] | None = None
        # Set when the server begins to stop (sse-starlette sets it, from uvicorn's signal):
        # every stream then ends with its response complete, before the server waits on it.
        self.closing: anyio.Event | None = None
        self._ending: asyncio.Task[None] | None = None

    # --- the read models -----------------------------------------------------------------

    def refresh(self, upto: int | None = None) -> bool:
        """Bring the read models up to date (also called after an action, to read one's writes);
        ``upto``: the last event the caller knows of, nothing done when this process's own
        refresh has projected it meanwhile (an action's, #27).

        Another process (a CLI call) may be updating them at the same moment; then this one
        gives way, and the next tick finds them current.
        """
        with self.lock:
            if upto is not None and self.projected >= upto:
                return True
            try:
                # In the file (not a copy in memory): this server writes, and other processes
                # (the CLI, another server) read the same tables.
                with as_user_errors():
                    progress = readmodels.update(self.store, write=True)
                self.projected = max(self.projected, progress.position)
            except UserError as e:
                log.warning("the read models were not refreshed this time: %s", e)
                return False
        return True

    def beyond(self, messages: list[dict[str, Any]]) -> bool:
        """Whether the read models may lack an event of ``messages`` (in order): not when this
        process's own refresh left them past the last (its writes, refreshed in their request,
        #27). Events once in them stay there; a rebuild elsewhere projects them all again."""
        return bool(messages) and messages[-1]["id"] > self.projected

    def version(self) -> tuple[int, int]:
        """Where the store and the read models stand (a page's data holds while these do)."""
        # (a file's connection closes when dropped; a server's is kept with the store)
        db = readmodels.database(self.store)
        return stores.last_id(self.store), readmodels.position(db)

    def since(self, last: int, limit: int = REPLAY) -> list[dict[str, Any]]:
        """The messages of the events stored after id ``last`` (from the flat events table)."""
        rows = readmodels.database(self.store).rows(
            "select e.id, e.match, e.version, e.type, e.at, e.payload, m.round from events e "
            "left join matches m on m.id = e.match where e.id > ? order by e.id limit ?",
            [last, limit],
        )
        out = []
        for number, match, version, kind, at, payload, round_no in rows:
            if match is not None:
                if kind == "Match.Recorded":
                    kind = json.loads(payload).get("type", kind)
                position = version - 1  # the match's first stored event is its header
            else:
                position = version
            out.append(message(number, match, position, kind, at, round_no))
        return out

    def _poll(self) -> list[dict[str, Any]]:
        """The messages of the events stored since the last look, read from the store's
        notification log (the read models are refreshed after they are sent: a page that
        reads them first brings them up to date itself)."""
        # A file's last id is read in microseconds (its kept connection) where the log's
        # query takes hundreds; a server's log answers "nothing since" in the one round trip
        # the last id would take (#27: two a move).
        if self.woken is None and stores.last_id(self.store) <= self.last:
            return []
        notifications = stores.stored_since(self.store, self.last, REPLAY)
        messages = [self._message(n) for n in notifications]
        if messages:
            self.last = messages[-1]["id"]
        return messages

    def _message(self, n: Any) -> dict[str, Any]:
        state = json.loads(n.state)
        at = state.get("timestamp", {}).get("_data_")
        kind = n.topic.rpartition(":")[2]
        if not kind.startswith("Match."):
            if kind == "Tournament.MatchAttached":  # (its round: the match's next messages')
                self.attached[state.get("match")] = state.get("round")
            return message(n.id, None, n.originator_version, kind, at, None)
        if kind != "Match.Started":
            kind = json.loads(state["line"]).get("type", kind)
        number, round_no = self._place(n.originator_id, state.get("number"))
        return message(n.id, number, n.originator_version - 1, kind, at, round_no)

    def _place(self, uuid: UUID, number: str | None = None) -> tuple[str, int | None]:
        """A match's number (``M7``) and its table's round, from its aggregate id. A match just
        started is attached to its table in the same save: its round is taken from that event
        when it was heard (:attr:`attached`), else looked up once more at its next event, then
        kept (a match outside the rounds has none)."""
        known = self.numbers.get(uuid)
        if known is not None and known[1] is None and self.attached.get(known[0]) is not None:
            known = self.numbers[uuid] = (known[0], self.attached[known[0]])
        if known is not None and (known[1] is not None or uuid in self.placed):
            return known
        if number is not None:  # its start: the number is in the event
            place: tuple[str, int | None] = (number, None)
        else:
            rows = readmodels.database(self.store).rows(
                "select id, round from matches where uuid = ?", [uuid.hex]
            )
            if rows:
                place = (rows[0][0], rows[0][1])
            elif known is not None:
                place = known
            else:
                place = (self.store.get(uuid, "a match").number, None)
            self.placed.add(uuid)
        self.numbers[uuid] = place
        return place

    # --- the streams' places -------------------------------------------------------------

    @contextmanager
    def place(self) -> Iterator[bool]:
        """One of the server's places for a stream, held inside the block (``False``: every
        place is taken)."""
        if self.capacity is not None and self.streams >= self.capacity:
            self.refused += 1
            now = time.monotonic()
            if now - self.said >= 60:
                log.warning(
                    "live streams refused (all %d places taken): %d since the last word",
                    self.capacity, self.refused,
                )  # fmt: skip
                self.refused, self.said = 0, now
            yield False
            return
        self.streams += 1
        try:
            yield True
        finally:
            self.streams -= 1

    # --- the shared task -------------------------------------------------------------------

    async def start(self) -> None:
        await asyncio.to_thread(self.refresh)
        self.last = stores.last_id(self.store)
        if self.store.location.is_server:
            stores.seek_lead(self.store)  # (of a store's workers, one refreshes after moves)
            self._listen(asyncio.get_running_loop())
        self._task = asyncio.create_task(self._run())
        self.closing = anyio.Event()
        self._ending = asyncio.create_task(self._end_when_closing(self.closing))

    async def _end_when_closing(self, closing: anyio.Event) -> None:
        await closing.wait()
        self.end_streams()

    def end_streams(self) -> None:
        """End every stream: each sends what it holds, then completes its response."""
        for sink in list(self.listeners):
            self.listeners.discard(sink)
            sink.end()

    def _listen(self, loop: asyncio.AbstractEventLoop) -> None:
        """Wake the task at each notification of the database, from a thread of its own (it
        holds one connection, waiting)."""
        woken = self.woken = asyncio.Event()

        def wake(listening: bool) -> None:
            # Not listening (the connection broke): the task polls at the interval meanwhile.
            (self.listening.set if listening else self.listening.clear)()
            try:
                loop.call_soon_threadsafe(woken.set)
            except RuntimeError:  # the loop closed: the server is stopping
                self._stopped.set()

        self._stopped.clear()
        self._listener = threading.Thread(
            target=stores.wake_on_notify, args=(self.store, wake, self._stopped),
            name="live-notify", daemon=True,
        )  # fmt: skip
        self._listener.start()

    async def _wait(self, soon: bool = False) -> None:
        """Until the next look: a notification (and ``TOGETHER`` seconds more while streams
        are open), or the safety poll's time, on a server; the interval on a file (and on a
        server not listening now, or whose read models wait for a refresh: ``soon``)."""
        if self.woken is None or soon or not self.listening.is_set():
            await asyncio.sleep(self.interval)
            return
        try:
            await asyncio.wait_for(self.woken.wait(), self.safety)
            if self.listeners:
                await asyncio.sleep(TOGETHER)
        except TimeoutError:
            pass
        self.woken.clear()  # (what a notification after this tells is read by the next look)

    async def stop(self) -> None:
        self._stopped.set()
        if self._listener is not None:
            await asyncio.to_thread(self._listener.join, 5)
        for task in (self._task, self._ending):
            if task:
                task.cancel()
                try:
                    await task
                except asyncio.CancelledError:
                    pass
        self.end_streams()
        if self.refused:
            log.warning("live streams refused: %d since the last word", self.refused)
            self.refused = 0

    async def _run(self) -> None:
        # The read models are refreshed beside the polling, not in its way: a refresh under
        # load can take longer than a tick, and the stream must not wait for it (a page that
        # finds them behind brings them up itself).
        refreshing: asyncio.Task[bool] | None = None
        behind = False
        try:
            while True:
                if self.idle():  # nobody to tell, nothing to refresh: not even a look (#27)
                    self.skipped = True
                    await self._wait()
                    continue
                try:
                    if self.skipped:  # (only the task moves ``last``)
                        behind = await self._resumed() or behind
                    messages = await asyncio.to_thread(self._poll)
                except Exception:  # a busy or changing database: try again on the next tick
                    log.exception("the live task could not read the store")
                    messages = []
                if messages:
                    self.publish(*messages)
                # (the read models: refreshed by the process that leads, #27; another's
                # pages that find them behind bring them up themselves)
                behind = behind or (self.beyond(messages) and stores.leads(self.store))
                if behind and (refreshing is None or refreshing.done()):
                    refreshing, behind = asyncio.create_task(self._gathered()), False
                await self._wait(soon=behind)
        finally:
            if refreshing is not None:
                await asyncio.gather(refreshing, return_exceptions=True)

    async def _resumed(self) -> bool:
        """Looks again after skipping some: from where the first stream opened meanwhile found
        the store (what was stored before it is no stream's), else, the lead taken with no
        stream open, from the store's last id, the read models refreshed then (True): what
        was skipped is not read back. (A listener added otherwise than by :meth:`serve` is
        told from where the task stopped.)"""
        lead = self.resume_at is None and not self.listeners
        if lead:  # (still skipping meanwhile: a stream opening now says where it found it)
            top = await asyncio.to_thread(stores.last_id, self.store)
            self.resume_at = top if self.resume_at is None else min(self.resume_at, top)
        at, self.resume_at, self.skipped = self.resume_at, None, False
        if at is not None:
            self.last = max(self.last, at)
        return lead

    def idle(self) -> bool:
        """Whether the task's look would serve nobody: a server's process (a worker) with no
        stream open and another process leading the read models' refresh."""
        return self.woken is not None and not self.listeners and not stores.leads(self.store)

    async def _gathered(self) -> bool:
        """A refresh made ``GATHER`` seconds after the look that called for it: what the room
        stores meanwhile is projected by the same one (#27: a refresh's cost is mostly its
        own, not its events'; the streams are told at once all the same)."""
        await asyncio.sleep(GATHER)
        return await asyncio.to_thread(self.refresh, self.last)

    def publish(self, *messages: dict[str, Any]) -> None:
        """Send messages to every stream: each encoded once, the same bytes for all, and those
        of one look joined in one write a stream."""
        frames = [encoded(m) for m in messages]
        body = frames[0] if len(frames) == 1 else b"".join(frames)
        for sink in list(self.listeners):
            if not sink.push(frames, body):  # too slow: ended, reconnects, catches up by id
                self.listeners.discard(sink)
                sink.end(drop=True)

    def respond(self, after: int | None) -> Stream:
        """``/api/live``'s response: the messages from now on (and those after id ``after``,
        for a listener reconnecting), written by the hub (:class:`Sink`)."""
        return Stream(self, after)

    async def serve(self, send: Callable[[Any], Awaitable[None]], after: int | None) -> None:
        """A stream's life, its response started: until the server stops or drops it."""
        sink = Sink(send)
        if self.skipped:  # the task looked at nothing meanwhile: it goes on from here
            try:
                at = await asyncio.to_thread(stores.last_id, self.store)
            except Exception:  # (the store busy: told from where the task stopped, a few more)
                log.debug("a stream's look at the store failed", exc_info=True)
            else:
                if self.skipped:  # (and not resumed meanwhile)
                    self.resume_at = at if self.resume_at is None else min(self.resume_at, at)
        self.listeners.add(sink)
        try:
            if after is not None:
                # (up to where the task goes on from: what it tells after, the replay before)
                upto = self.resume_at if self.skipped and self.resume_at is not None else self.last
                missed = [m for m in await asyncio.to_thread(self.since, after)
                          if m["id"] <= upto]  # fmt: skip
                if missed:
                    sink.sent = missed[-1]["id"]
                    await send(chunk(b"".join(encoded(m) for m in missed)))
            sink.release()
            await sink.ended
            await sink.drained()
        finally:
            self.listeners.discard(sink)
            sink.cancel()


def message(
    number: int, match: str | None, position: int, kind: str, at: Any, round_no: int | None
) -> dict[str, Any]:
    """A stream's message: which event, and what it changes (see the module's docstring)."""
    return {"id": number, "match": match, "position": position, "type": kind, "at": at,
            "round": round_no,
            "standings": match is None or kind in MOVES_STANDINGS}  # fmt: skip


def encoded(message: dict[str, Any]) -> bytes:
    """A message as the bytes of its Server-Sent Event (``id``, ``event: stored``, ``data``)."""
    data = json.dumps(message, separators=(",", ":"))
    return f"id: {message['id']}\r\nevent: stored\r\ndata: {data}\r\n\r\n".encode()
