"""The live stream: one shared task watches the store and fans each stored event out.

Every ``interval`` seconds the task asks the store for its last notification id (one cheap
query); when it moved, whichever process wrote (on either backend), it reads the new events
from the store's notification log and sends one message per event to every listener: its match
(or ``null`` for the tournament), its position in that match's log (or the tournament's
version), its id, its type and when it was stored. The read models are brought up to date
beside the polling. Messages never carry an event's content: the pages fetch what they show,
and secrets stay out.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from typing import Any
from uuid import UUID

from tournament.errors import UserError
from tournament.readside import readmodels
from tournament.services import stores
from tournament.services.stores import Store, as_user_errors

log = logging.getLogger("tournament.web")
QUEUE = 1000  # messages a slow listener may fall behind before it is dropped
REPLAY = 1000  # at most this many missed messages are sent again to a listener that reconnects


class Live:
    """The read models' refresher and the stream's broadcaster, one per server."""

    def __init__(self, store: Store, interval: float = 0.1, capacity: int | None = None) -> None:
        self.store, self.interval = store, interval
        self.listeners: set[asyncio.Queue[dict[str, Any] | None]] = set()
        # The streams the server can hold within its open files (None: no bound), how many
        # it holds, and those refused since the last word about them (one a minute).
        self.capacity, self.streams = capacity, 0
        self.refused, self.said = 0, float("-inf")
        self.last = 0
        self.numbers: dict[UUID, str] = {}  # aggregate id -> match number
        # Held by whoever writes to the file in this server (read models, tokens, services),
        # so that its writers queue rather than meet SQLite's busy errors.
        self.lock = threading.RLock()
        self._task: asyncio.Task[None] | None = None

    # --- the read models -----------------------------------------------------------------

    def refresh(self) -> bool:
        """Bring the read models up to date (also called after an action, to read one's writes).

        Another process (a CLI call) may be updating them at the same moment; then this one
        gives way, and the next tick finds them current.
        """
        with self.lock:
            try:
                # In the file (not a copy in memory): this server writes, and other processes
                # (the CLI, another server) read the same tables.
                with as_user_errors():
                    readmodels.update(self.store, write=True)
            except UserError as e:
                log.warning("the read models were not refreshed this time: %s", e)
                return False
        return True

    def version(self) -> tuple[int, int]:
        """Where the store and the read models stand (a page's data holds while these do)."""
        # (a file's connection closes when dropped; a server's is kept with the store)
        db = readmodels.database(self.store)
        return stores.last_id(self.store), readmodels.position(db)

    def since(self, last: int, limit: int = REPLAY) -> list[dict[str, Any]]:
        """The messages of the events stored after id ``last`` (from the flat events table)."""
        rows = readmodels.database(self.store).rows(
            "select id, match, version, type, at, payload from events where id > ? "
            "order by id limit ?",
            [last, limit],
        )
        out = []
        for number, match, version, kind, at, payload in rows:
            if match is not None:
                if kind == "Match.Recorded":
                    kind = json.loads(payload).get("type", kind)
                position = version - 1  # the match's first stored event is its header
            else:
                position = version
            out.append({"id": number, "match": match, "position": position, "type": kind, "at": at})
        return out

    def _poll(self) -> list[dict[str, Any]]:
        """The messages of the events stored since the last look, read from the store's
        notification log (the read models are refreshed after they are sent: a page that
        reads them first brings them up to date itself)."""
        if stores.last_id(self.store) <= self.last:
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
            return {"id": n.id, "match": None, "position": n.originator_version, "type": kind,
                    "at": at}  # fmt: skip
        if kind == "Match.Started":
            self.numbers[n.originator_id] = state["number"]
        else:
            kind = json.loads(state["line"]).get("type", kind)
        return {"id": n.id, "match": self._number(n.originator_id),
                "position": n.originator_version - 1, "type": kind, "at": at}  # fmt: skip

    def _number(self, uuid: UUID) -> str:
        """A match's number (``M7``) from its aggregate id: seen starting, or read once."""
        if uuid not in self.numbers:
            rows = readmodels.database(self.store).rows(
                "select id from matches where uuid = ?", [uuid.hex]
            )
            self.numbers[uuid] = rows[0][0] if rows else self.store.get(uuid, "a match").number
        return self.numbers[uuid]

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
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        if self._task:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass
        for q in list(self.listeners):
            q.put_nowait(None)
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
                try:
                    messages = await asyncio.to_thread(self._poll)
                except Exception:  # a busy or changing database: try again on the next tick
                    log.exception("the live task could not read the store")
                    messages = []
                for message in messages:
                    self.publish(message)
                behind = behind or bool(messages)
                if behind and (refreshing is None or refreshing.done()):
                    refreshing, behind = asyncio.create_task(asyncio.to_thread(self.refresh)), False
                await asyncio.sleep(self.interval)
        finally:
            if refreshing is not None:
                await asyncio.gather(refreshing, return_exceptions=True)

    def publish(self, message: dict[str, Any]) -> None:
        for q in list(self.listeners):
            try:
                q.put_nowait(message)
            except asyncio.QueueFull:  # too slow: it is closed, reconnects, catches up by id
                self.listeners.discard(q)
                while not q.empty():
                    q.get_nowait()
                q.put_nowait(None)

    async def listen(self, after: int | None = None) -> AsyncIterator[dict[str, Any]]:
        """Messages from now on (and those after id ``after``, for a listener reconnecting)."""
        q: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue(QUEUE)
        self.listeners.add(q)
        try:
            sent = 0
            if after is not None:
                for message in await asyncio.to_thread(self.since, after):
                    if message["id"] <= self.last:
                        sent = message["id"]
                        yield message
            while True:
                item = await q.get()
                if item is None:
                    return
                if item["id"] > sent:
                    yield item
        finally:
            self.listeners.discard(q)
