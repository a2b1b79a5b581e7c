"""The live stream's end that the hub writes to (#27, a thousand viewers): the messages of one
look in one write, written at once while the socket takes them; while it does not, what comes
is held and sent whole and in order once it drains; a stream too far behind is ended, holding
nothing; a stream reconnecting is not sent again what its replay sent."""

from __future__ import annotations

import asyncio
from typing import Any

from tournament.web.live import QUEUE, Sink, encoded, frame_id, message

from .conftest import Written


def frames(first: int, last: int) -> list[bytes]:
    return [encoded(message(i, "M1", i, "roll", "2026-12-02T01:00:00", 1))
            for i in range(first, last + 1)]  # fmt: skip


class Socket:
    """A response's ``send`` over a socket that takes writes while ``open`` is set (as
    uvicorn's send waits for the socket to drain), and what it was given."""

    def __init__(self) -> None:
        self.open = asyncio.Event()
        self.open.set()
        self.bodies: list[bytes] = []
        self.calls = 0

    async def send(self, m: dict[str, Any]) -> None:
        self.calls += 1
        assert m["type"] == "http.response.body" and m["more_body"] is True
        await self.open.wait()
        self.bodies.append(m["body"])


def test_held_messages_are_written_whole_and_in_order_once_the_socket_drains() -> None:
    async def scenario() -> None:
        socket = Socket()
        sink = Sink(socket.send)
        sink.release()
        f = frames(1, 6)
        assert sink.push(f[:1], f[0])
        assert socket.bodies == [f[0]] and sink.task is None  # written at once: no task
        socket.open.clear()  # the client reads slowly: its socket is full
        assert sink.push(f[1:2], f[1])
        assert sink.push(f[2:4], b"".join(f[2:4]))  # one look's two messages
        assert sink.push(f[4:], b"".join(f[4:]))
        assert socket.bodies == [f[0]] and socket.calls == 2  # one write waits, the rest held
        socket.open.set()
        await sink.drained()
        # the waiting write, then everything held in one write, in the order it came
        assert socket.bodies == [f[0], f[1], b"".join(f[2:])]
        assert [frame_id(x) for x in f] == [1, 2, 3, 4, 5, 6]
        assert not sink.held and sink.push(frames(7, 7), frames(7, 7)[0])
        assert socket.bodies[-1] == frames(7, 7)[0]

    asyncio.run(scenario())


def test_a_send_that_gives_a_future_rather_than_a_coroutine_is_awaited_in_order() -> None:
    async def scenario() -> None:
        socket = Socket()
        loop = asyncio.get_running_loop()

        def send(m: dict[str, Any]) -> asyncio.Future[None]:  # (a send wrapped by a middleware)
            return asyncio.ensure_future(socket.send(m), loop=loop)

        sink = Sink(send)
        sink.release()
        f = frames(1, 3)
        assert sink.push(f[:1], f[0]) and sink.push(f[1:], b"".join(f[1:]))
        await sink.drained()
        assert socket.bodies == [f[0], b"".join(f[1:])] and not sink.held

    asyncio.run(scenario())


def test_a_stream_too_far_behind_is_ended_holding_nothing() -> None:
    async def scenario() -> None:
        socket = Socket()
        sink = Sink(socket.send)
        sink.release()
        socket.open.clear()
        f = frames(1, QUEUE + 2)
        assert sink.push(f[:1], f[0])  # waits on the socket
        said = [sink.push([x], x) for x in f[1:]]
        assert all(said[:QUEUE]) and said[QUEUE] is False  # one past the bound: too slow
        sink.end(drop=True)
        assert sink.ended.done() and not sink.held
        await sink.drained()  # (its waiting write let go)
        assert socket.bodies == []

    asyncio.run(scenario())


def test_a_reconnecting_stream_gets_each_message_once_after_its_replay() -> None:
    async def scenario() -> None:
        socket = Socket()
        sink = Sink(socket.send)  # not released: its replay is being read
        f = frames(1, 5)
        assert sink.push(f[:3], b"".join(f[:3])) and socket.bodies == []
        sink.sent = 2  # the replay sent up to id 2
        assert sink.push(f[3:], b"".join(f[3:]))
        sink.release()
        assert socket.bodies == [b"".join(f[2:])]  # 3, 4, 5: once each, in order

    asyncio.run(scenario())


def test_the_hub_writes_one_look_once_to_each_stream_and_drops_the_slow(client: Any) -> None:
    hub = client.app.state.live

    class Slow:
        ended = False

        def push(self, frames: list[bytes], body: bytes) -> bool:
            return False

        def end(self, drop: bool = False) -> None:
            self.ended = drop

    slow, fast = Slow(), Written()
    hub.listeners.update([slow, fast])
    try:
        look = [message(i, "M1", i, "roll", "x", 1) for i in (8, 9)]
        hub.publish(*look)
        assert fast.bodies == [encoded(look[0]) + encoded(look[1])]  # one write, in order
        assert slow.ended and slow not in hub.listeners  # ended, let go by the hub
    finally:
        hub.listeners.difference_update([slow, fast])
