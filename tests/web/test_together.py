"""The web's writes made together (#27): requests arriving while one write is made wait in the
event loop and are made in the next turn at once, each answered with its own result or
refusal; writes handed over by a thread are made with no request waiting."""

from __future__ import annotations

import asyncio
import threading
from types import SimpleNamespace
from typing import Any

from starlette.requests import Request

from engine.message import msg
from tournament.errors import Refused
from tournament.web.actions import Together


def _live() -> Any:
    refreshed: list[int] = []
    store = SimpleNamespace(location=SimpleNamespace(is_server=True))
    return SimpleNamespace(store=store, lock=threading.RLock(), refresh=lambda: refreshed.append(1))


def _request(lang: str = "en") -> Request:
    return Request({"type": "http", "headers": [(b"cookie", f"lang={lang}".encode())]})


def test_writes_arriving_during_one_are_made_together_each_answered() -> None:
    batches: list[list[int]] = []
    first_made = threading.Event()
    go_on = threading.Event()

    def write_all(store: Any, items: list[int]) -> list[Any]:
        batches.append(list(items))
        if len(batches) == 1:
            first_made.set()
            go_on.wait(5)  # (the others arrive meanwhile)
        return [Refused(msg("round %(round)s is closed", round=i)) if i == 3 else i * 10
                for i in items]  # fmt: skip

    async def main() -> list[tuple[bool, Any]]:
        together = Together(_live(), write_all)
        first = asyncio.create_task(together.make(_request(), 0))
        await asyncio.get_running_loop().run_in_executor(None, first_made.wait, 5)
        rest = [asyncio.create_task(together.make(_request(), i)) for i in range(1, 6)]
        await asyncio.sleep(0.05)
        go_on.set()
        answers = [await first, *[await r for r in rest]]
        await together.settled()
        return answers

    answers = asyncio.run(main())
    assert batches == [[0], [1, 2, 3, 4, 5]]
    assert answers[:3] == [(True, 0), (True, 10), (True, 20)]
    assert answers[3] == (False, "round 3 is closed")  # (said in the visitor's language)
    assert answers[4:] == [(True, 40), (True, 50)]


def test_a_write_that_fails_fails_only_its_own_batch() -> None:
    calls: list[list[str]] = []

    def write_all(store: Any, items: list[str]) -> list[Any]:
        calls.append(items)
        if "bad" in items:
            raise RuntimeError("a bug")
        return items

    async def main() -> tuple[Any, Any]:
        together = Together(_live(), write_all)
        bad = await asyncio.gather(together.make(_request(), "bad"), return_exceptions=True)
        good = await together.make(_request(), "good")
        return bad[0], good

    bad, good = asyncio.run(main())
    assert isinstance(bad, RuntimeError) and good == (True, "good")


def test_writes_handed_over_by_a_thread_are_made_and_awaited() -> None:
    made: list[list[str]] = []

    async def main() -> None:
        together = Together(_live(), lambda store, items: made.append(items) or items, False)
        loop = asyncio.get_running_loop()
        threads = [threading.Thread(target=together.hand, args=(loop, f"M{i}")) for i in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        await asyncio.sleep(0)
        await together.settled()

    asyncio.run(main())
    assert sorted(sum(made, [])) == ["M0", "M1", "M2", "M3"]


def test_once_closed_nothing_more_is_taken_and_what_was_queued_is_made() -> None:
    made: list[list[str]] = []

    async def main() -> None:
        together = Together(_live(), lambda store, items: made.append(items) or items, False)
        loop = asyncio.get_running_loop()
        together.hand(loop, "M1")
        together.close()
        try:
            together.hand(loop, "M2")
        except RuntimeError:
            made.append(["M2 by its own thread"])
        await asyncio.sleep(0)
        await together.settled()

    asyncio.run(main())
    assert made == [["M2 by its own thread"], ["M1"]]


def test_a_cancelled_batch_leaves_no_request_waiting() -> None:
    started = threading.Event()

    def slow(store: Any, items: list[int]) -> list[int]:
        started.set()
        import time

        time.sleep(0.3)
        return items

    async def main() -> list[Any]:
        together = Together(_live(), slow)
        first = asyncio.create_task(together.make(_request(), 1))
        await asyncio.get_running_loop().run_in_executor(None, started.wait, 5)
        second = asyncio.create_task(together.make(_request(), 2))
        await asyncio.sleep(0)
        assert together.making is not None
        together.making.cancel()
        return await asyncio.gather(first, second, return_exceptions=True)

    answers = asyncio.run(main())
    assert all(isinstance(a, asyncio.CancelledError) for a in answers)
