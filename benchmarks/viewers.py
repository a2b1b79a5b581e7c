"""The viewers of a load on ``tournament serve`` (web_load.py, festival.py): one phone on
``/api/live`` each, as a raw asyncio protocol cheap enough that a thousand of them leave the
cores to the server."""

from __future__ import annotations

import asyncio
import time
from datetime import datetime
from functools import lru_cache
from typing import Any


@lru_cache(maxsize=4096)
def stamp(at: bytes) -> float:
    """A message's ``at`` (the write's own time) as seconds since the epoch (every viewer reads
    the same ones: parsed once)."""
    return datetime.fromisoformat(at.decode()).timestamp()


class Viewer(asyncio.Protocol):
    """One phone on ``/api/live``, cheap enough that a thousand of them leave the cores to the
    server: a raw socket, one GET, and of what comes back only each match message's ``at``
    read (the delay from the move's write to its arrival here)."""

    def __init__(self, load: Any, request: bytes, ready: Any) -> None:
        self.load, self.request, self.ready = load, request, ready
        self.head: bytes | None = b""  # None once the response's headers are read
        self.tail = b""

    def connection_made(self, transport: Any) -> None:
        self.transport = transport
        transport.write(self.request)

    def data_received(self, data: bytes) -> None:
        if self.head is not None:
            head, found, data = (self.head + data).partition(b"\r\n\r\n")
            if not found:
                self.head = head
                return
            self.head, status = None, (head.split(b" ", 2)[1:2] or [b"?"])[0]
            self.ready()
            if status != b"200":  # (503: the server's places for streams are all taken)
                self.load.error(f"stream {status.decode(errors='replace')}")
                self.transport.close()
                return
        now, chunk = time.time(), self.tail + data
        cut = chunk.rfind(b"\n") + 1
        self.tail, delays = chunk[cut:], self.load.delays
        at = chunk.find(b'"at":"', 0, cut)
        while at >= 0:  # (a message without a match says "match":null before its "at")
            line = chunk.rfind(b"data:", 0, at)
            if chunk.find(b'"match":null', line, at) < 0:
                delays.append(now - stamp(chunk[at + 6 : chunk.index(b'"', at + 6)]))
            at = chunk.find(b'"at":"', at + 6, cut)

    def connection_lost(self, exc: Exception | None) -> None:
        self.ready()  # (a stream lost before its headers: no step waits for it)
        if time.monotonic() < self.load.stop:
            self.load.error("stream")
