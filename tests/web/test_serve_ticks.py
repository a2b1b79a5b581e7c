"""The server's process under ``tournament serve`` (#27, tournament.cli.serving): uvicorn's
main loop, one tick a second doing a second's work and a stop asked by a signal waking it at
once; its garbage collector, what the app holds at the start frozen out of its collections."""

from __future__ import annotations

import asyncio
import gc
import signal
from typing import Any

import pytest
from uvicorn import Config
from uvicorn.server import Server

from tournament.cli import serving


async def _nothing(scope: Any, receive: Any, send: Any) -> None:
    return None


def test_the_loop_ticks_a_second_s_work_and_a_sigterm_wakes_it_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from sse_starlette.sse import AppStatus

    monkeypatch.setattr(Server, "main_loop", Server.main_loop)  # (uvicorn's, put back after)
    # (sse-starlette's handler of the signal marks every stream of the process as ending:
    # put back after, for the streams of the tests that follow)
    monkeypatch.setattr(AppStatus, "should_exit", AppStatus.should_exit)
    serving.ticks_once_a_second()
    monkeypatch.setattr(serving, "TICK", 60.0)  # a tick the test never waits for
    server = Server(Config(app=_nothing))
    ticks: list[int] = []

    async def on_tick(counter: int) -> bool:
        ticks.append(counter)
        return bool(server.should_exit)

    monkeypatch.setattr(server, "on_tick", on_tick)
    before = signal.signal(signal.SIGTERM, server.handle_exit)  # (as uvicorn's serve sets it)

    found: list[Any] = []  # the server, as a stream finds it through the signal's handler

    async def stopped_by_a_signal() -> None:
        loop = asyncio.get_running_loop()
        loop.call_later(0.04, lambda: found.append(signal.getsignal(signal.SIGTERM).__self__))
        loop.call_later(0.05, signal.raise_signal, signal.SIGTERM)
        await asyncio.wait_for(server.main_loop(), 10)  # (not the 60 s tick)

    try:
        asyncio.run(stopped_by_a_signal())
    finally:
        signal.signal(signal.SIGTERM, before)
    # uvicorn's every tenth tick (the Date header) at each tick, and its handler ran.
    assert ticks == [0, 10] and server.should_exit and found == [server]
    assert server._captured_signals == [signal.SIGTERM]


def test_the_collector_leaves_what_the_start_holds_and_collects_fewer_times() -> None:
    threshold = gc.get_threshold()
    held = object(), [object()]  # (what a process holds when its app is built)
    try:
        gc.unfreeze()
        serving.collects_less()
        assert gc.get_freeze_count() > 0 and gc.get_threshold()[0] == serving.YOUNG
        assert gc.get_threshold()[1:] == threshold[1:]
        assert not any(o is held[1] for o in gc.get_objects())  # (frozen: never examined)
    finally:
        gc.unfreeze()
        gc.set_threshold(*threshold)


def test_the_supervisor_asks_its_workers_if_alive_one_turn_in_ten(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from uvicorn.supervisors.multiprocess import Multiprocess

    asked: list[int] = []
    monkeypatch.setattr(Multiprocess, "keep_subprocess_alive", lambda self: asked.append(1))
    serving.supervises_less()
    serving.supervises_less()  # (once: a second call wraps nothing more)
    for _ in range(25):
        Multiprocess.keep_subprocess_alive(object())  # type: ignore[arg-type]
    assert len(asked) == 3  # turns 1, 11 and 21


def test_a_supervisor_of_another_kind_is_left_as_it_is(monkeypatch: pytest.MonkeyPatch) -> None:
    from uvicorn.supervisors.multiprocess import Multiprocess

    async def keep_alive(self: Any) -> None:  # (a uvicorn whose supervisor awaits it)
        return None

    monkeypatch.setattr(Multiprocess, "keep_subprocess_alive", keep_alive)
    serving.supervises_less()
    assert Multiprocess.keep_subprocess_alive is keep_alive
