"""A live stream's end that the hub writes to (tournament.web.live, #27): the shared bytes of
each look go straight through the response's ``send``, driven at once, with no task of the
stream's woken and no timeout scope a message; sse-starlette's response keeps the rest (its
headers, the pings, the client's hang-up, the server's stop)."""

from __future__ import annotations

import asyncio
import logging
import types
from collections.abc import AsyncIterator, Awaitable, Callable, Generator
from typing import Any

from sse_starlette.sse import EventSourceResponse

log = logging.getLogger("tournament.web")
RAW = "tournament.live_send"  # the scope's key of the send a stream's messages are written to
QUEUE = 1000  # messages a slow listener may fall behind before it is dropped
PING = 15  # seconds between two comments on a quiet stream (proxies keep it open)


class Sink:
    """One stream as the hub writes to it: the shared bytes of each look go straight through
    the response's ``send``, driven at once (a socket write: no task of the stream's woken, no
    timeout scope). Only when the socket is full does a write wait, in a task; what comes
    meanwhile is held, in order, and sent in one write once it drains (at most ``QUEUE``
    messages: then ``push`` says the stream is too slow)."""

    __slots__ = ("send", "held", "busy", "sent", "ended", "task")

    def __init__(self, send: Callable[[Any], Awaitable[None]]) -> None:
        self.send = send
        self.held: list[bytes] = []  # frames waiting: for the replay, or for the socket
        self.busy = True  # (until :meth:`release`: the missed messages first)
        self.sent = 0  # the last id the replay sent (the frames held up to it are not again)
        self.ended: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.task: asyncio.Task[None] | None = None

    def push(self, frames: list[bytes], body: bytes) -> bool:
        """Write ``body`` (the ``frames`` joined), or hold the frames while a write waits;
        False when the stream is more than ``QUEUE`` messages behind."""
        if self.ended.done():
            return True
        if self.busy:
            self.held += frames
            return len(self.held) <= QUEUE
        self._write(body)
        return True

    def release(self) -> None:
        """From now on each push is written (what was held meanwhile first)."""
        self.busy = False
        self._flush()

    def _flush(self) -> None:
        frames, self.held = self.held, []
        fresh = [f for f in frames if not self.sent or frame_id(f) > self.sent]
        if fresh:
            self._write(b"".join(fresh))

    def _write(self, body: bytes) -> None:
        sending = self.send(chunk(body))
        if not asyncio.iscoroutine(sending):  # another awaitable (a middleware's): awaited
            self.busy = True
            self.task = asyncio.ensure_future(self._finish(sending))
            return
        try:
            waiting = sending.send(None)  # type: ignore[attr-defined]
        except StopIteration:
            return  # written
        except Exception:  # the response cannot go on (its client gone mid-way)
            log.debug("a live stream's write failed", exc_info=True)
            self.end(drop=True)
            return
        self.busy = True  # the socket is full: the rest of this write waits for it
        self.task = asyncio.ensure_future(self._finish(sending, waiting))

    async def _finish(self, sending: Any, waiting: Any = None) -> None:
        """The rest of a write: a coroutine begun by hand (``waiting``: what it awaited first),
        or any other awaitable ``send`` gave, awaited whole."""
        try:
            await (sending if waiting is None else resumed(sending, waiting))
        except Exception:
            log.debug("a live stream's write failed", exc_info=True)
            self.end(drop=True)
            return
        self.busy = False
        self._flush()

    def end(self, drop: bool = False) -> None:
        """No more messages: the stream completes once what it holds is written (``drop``:
        what it holds is let go)."""
        if drop:
            self.held.clear()
            self.cancel()
        if not self.ended.done():
            self.ended.set_result(None)

    async def drained(self) -> None:
        """Until the writes begun are done (the last one's task, and what it held)."""
        while self.task is not None and not self.task.done():
            await asyncio.wait([self.task])  # (its end, whichever: never raised here)

    def cancel(self) -> None:
        task = self.task
        if task is not None and not task.done() and task is not asyncio.current_task():
            task.cancel()


@types.coroutine
def resumed(sending: Any, waiting: Any) -> Generator[Any, Any, None]:
    """The rest of a coroutine begun by hand (``waiting``: what it first awaited), awaited."""
    while True:
        try:
            given = yield waiting
        except GeneratorExit:
            sending.close()
            raise
        except BaseException as e:  # (a cancellation: into the coroutine)
            try:
                waiting = sending.throw(e)
            except StopIteration:
                return
        else:
            try:
                waiting = sending.send(given)
            except StopIteration:
                return


class Stream(EventSourceResponse):
    """sse-starlette's response (its headers, pings, the client's hang-up, the server's stop)
    with the messages written by the hub instead of an iterator's: sse-starlette sends each
    item through a timeout scope of its own, 40-50 us of a server's CPU a message a viewer."""

    def __init__(self, hub: Any, after: int | None) -> None:  # (a Live)
        super().__init__(
            _nothing(), ping=PING, headers={"Cache-Control": "no-store"},
            shutdown_event=hub.closing, shutdown_grace_period=2,
        )  # fmt: skip
        self.hub, self.after = hub, after

    raw: Any = None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        self.raw = scope.get(RAW)
        await super().__call__(scope, receive, send)

    async def _stream_response(self, send: Any) -> None:
        start = {"type": "http.response.start", "status": self.status_code,
                 "headers": self.raw_headers}  # fmt: skip
        await send(start)  # (through every middleware: the security headers...)
        await self.hub.serve(self.raw or send, self.after)
        async with self._send_lock:
            self.active = False
            await send({"type": "http.response.body", "body": b"", "more_body": False})


async def _nothing() -> AsyncIterator[bytes]:
    return
    yield b""  # (an async generator, never iterated: the hub writes)


def chunk(body: bytes) -> dict[str, Any]:
    """An ASGI body message of a stream that goes on."""
    return {"type": "http.response.body", "body": body, "more_body": True}


def frame_id(frame: bytes) -> int:
    """The id an encoded message starts with."""
    return int(frame[4 : frame.index(b"\r")])


class Outermost:
    """ASGI middleware, the outermost of the app's own: a live stream's messages are written to
    the send it is given (#27), past the middlewares under it, which act on a response's start
    only (its headers, the session's cookie, compression, which leaves text/event-stream
    alone): five calls a message a viewer less. The stream's start and end go through them."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["path"] == "/api/live":
            scope[RAW] = send
        await self.app(scope, receive, send)
