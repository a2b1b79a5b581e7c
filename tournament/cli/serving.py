"""The server's process as uvicorn runs it (``tournament serve``): its answers when overloaded,
how it stops, and its repeated failures written once."""

from __future__ import annotations

import logging
import time
import types
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any


def overload_says_when(seconds: int) -> None:
    """uvicorn's own 503, past ``limit_concurrency`` (the connections the open files allow),
    with ``Retry-After``, as the app's full live stream answers: a phone's live.js and
    offline.js then know when to try again. uvicorn lets nothing of that answer be configured
    (its ``headers`` go on every response), so its protocols are handed one that adds the
    header to uvicorn's own; a uvicorn without it is left as it is."""
    import importlib

    for name in ("h11_impl", "httptools_impl"):
        try:
            module = importlib.import_module(f"uvicorn.protocols.http.{name}")
        except ImportError:  # (httptools missing: uvicorn serves on h11)
            continue
        original = getattr(module, "service_unavailable", None)
        if original is not None and not getattr(original, "says_when", False):
            module.service_unavailable = _with_retry_after(original, seconds)  # type: ignore[attr-defined]


def _with_retry_after(answer: Callable[..., Any], seconds: int) -> Callable[..., Any]:
    header = (b"retry-after", str(seconds).encode())

    async def overloaded(scope: Any, receive: Any, send: Any) -> None:
        async def sending(message: Any) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), header]}
            await send(message)

        await answer(scope, receive, sending)

    overloaded.says_when = True  # type: ignore[attr-defined]
    return overloaded


YOUNG = 5000  # objects the collector's youngest generation takes before it is collected


def collects_less() -> None:
    """The server process's garbage collector (#27): what the process holds once its app is
    built (the app, its templates, its catalogues: never garbage) frozen out of every
    collection, and a youngest generation of :data:`YOUNG` objects where Python's is 700 (a
    move's request makes thousands: its collections took about 70 us a move, 30 so)."""
    import gc

    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG, *gc.get_threshold()[1:])


ALIVE_EVERY = 10  # of uvicorn's supervisor's half-second turns, one asks the workers if alive


def supervises_less() -> None:
    """uvicorn's supervisor of ``--workers`` asking each worker whether it is alive (a ping
    through a pipe, answered by a thread of the worker) at one of its turns in
    :data:`ALIVE_EVERY`, every five seconds, not every half-second (#27: the pings woke every
    process four times a second, an idle room's CPU); the signals are still handled at each
    turn. A worker that died is replaced within those seconds (a hung one took the ping's
    five seconds already). A uvicorn without that supervisor's method (or with another kind
    of it, a coroutine's): as it is."""
    import inspect

    from uvicorn.supervisors import multiprocess

    supervisor = getattr(multiprocess, "Multiprocess", None)
    alive = getattr(supervisor, "keep_subprocess_alive", None)
    if alive is None or getattr(alive, "less", False) or inspect.iscoroutinefunction(alive):
        return
    turns = 0

    def keep_alive(self: Any) -> None:
        nonlocal turns
        turns += 1
        if turns % ALIVE_EVERY == 1 or ALIVE_EVERY <= 1:
            alive(self)

    keep_alive.less = True  # type: ignore[attr-defined]
    supervisor.keep_subprocess_alive = keep_alive  # type: ignore[union-attr]


TICK = 1.0  # seconds between two of uvicorn's looks at its clock and whether to stop


def ticks_once_a_second() -> None:
    """uvicorn's main loop, waking once a second rather than ten times (#27: its ticks were
    half of an idle worker's CPU, two milliseconds a second a process). A tick does what
    uvicorn's tenth tick did: the ``Date`` header, whether to stop (``--limit-max-requests``,
    a stop asked). uvicorn's own SIGINT and SIGTERM handlers, where it set them, also wake
    the loop at once: a server still stops as promptly."""
    import asyncio
    import signal
    import threading

    from uvicorn.server import Server

    if getattr(Server.main_loop, "once_a_second", False):
        return

    async def main_loop(self: Any) -> None:
        loop, woken = asyncio.get_running_loop(), asyncio.Event()
        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGINT, signal.SIGTERM):
                handler = signal.getsignal(sig)
                if getattr(handler, "__self__", None) is self:  # (uvicorn's handle_exit)
                    signal.signal(sig, _waking(self, handler, loop, woken))
        counter = 0
        should_exit = await self.on_tick(counter)
        while not should_exit:
            counter = (counter + 10) % 864000  # (uvicorn's every tenth tick: a second's work)
            try:
                await asyncio.wait_for(woken.wait(), TICK)
            except TimeoutError:
                pass
            should_exit = await self.on_tick(counter)

    main_loop.once_a_second = True  # type: ignore[attr-defined]
    Server.main_loop = main_loop  # type: ignore[method-assign]


def _waking(server: Any, handler: Callable[[int, Any], Any], loop: Any, woken: Any) -> Any:
    """``handler`` (uvicorn's, which asks ``server`` to stop), then the main loop woken: a
    method of the server still, as what looks for the server through the signal's handler
    finds it (sse-starlette's streams, told so that the server is stopping)."""

    def handle(self: Any, sig: int, frame: Any) -> None:
        handler(sig, frame)
        if not loop.is_closed():
            loop.call_soon_threadsafe(woken.set)

    return types.MethodType(handle, server)


@contextmanager
def stopping(serving: Callable[[], bool]) -> Iterator[list[int]]:
    """The signals that stopped the server (SIGTERM, SIGINT), caught rather than died of.

    uvicorn stops gracefully at either, then raises it again once its own handlers are gone,
    so that the process dies of it (status -15: a service manager reads a failure). Raised
    again here, it is only noted: the server stopped as asked, and says so. One that comes
    before the server is ``serving`` stops it as Ctrl-C stops any command."""
    import signal
    import threading

    got: list[int] = []
    if threading.current_thread() is not threading.main_thread():  # pragma: no cover
        yield got
        return

    def noted(sig: int, frame: Any) -> None:
        if not serving():
            raise KeyboardInterrupt
        got.append(sig)

    signals = (signal.SIGINT, signal.SIGTERM)
    before = {sig: signal.signal(sig, noted) for sig in signals}
    try:
        yield got
    finally:
        for sig, handler in before.items():
            signal.signal(sig, handler)


class Repeats(logging.Filter):
    """A failure written once, then counted: the same one again within ``window`` seconds is
    not written; the first after the window says how many times it came meanwhile (a server
    out of files fails the same way thousands of times a second)."""

    def __init__(
        self, window: float = 60.0, keep: int = 256, clock: Callable[[], float] = time.monotonic
    ) -> None:
        super().__init__()
        self.window, self.keep, self.clock = window, keep, clock
        self.seen: dict[tuple[str, str, Any], list[Any]] = {}  # key -> [since, count, record]

    def filter(self, record: logging.LogRecord) -> bool:
        kind = record.exc_info[0] if record.exc_info else None
        key = (record.name, str(record.msg), kind)
        now = self.clock()
        entry = self.seen.get(key)
        if entry is not None and now - entry[0] < self.window:
            entry[1] += 1
            entry[2] = record
            return False
        if entry is not None and entry[1]:
            self._counted(record, entry[1], now - entry[0])
        self.seen.pop(key, None)
        self.seen[key] = [now, 0, record]
        while len(self.seen) > self.keep:
            self.seen.pop(next(iter(self.seen)))
        return True

    def report(self) -> None:
        """Write the counts not written yet (when the server stops)."""
        now = self.clock()
        pending, self.seen = self.seen, {}
        for since, count, record in pending.values():
            if count:
                self._counted(record, count, now - since)
                logging.getLogger(record.name).handle(record)

    @staticmethod
    def _counted(record: logging.LogRecord, count: int, seconds: float) -> None:
        # The traceback was written the first time: the count stands in for it.
        record.msg = f"{record.getMessage()} (the same, {count} more times in {seconds:.0f} s)"
        record.args, record.exc_info, record.exc_text = None, None, None
