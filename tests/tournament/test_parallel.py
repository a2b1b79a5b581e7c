"""Work spread over processes comes back as the same results, in order
(tournament.verify.parallel)."""

from __future__ import annotations

import multiprocessing
import os
import threading
from typing import Any

import pytest

from tournament.verify.parallel import _can_fork, cores, in_order

# Side by side needs processes to fork and two cores to put them on.
forking = pytest.mark.skipif(
    not _can_fork() or cores() < 2, reason="needs processes forked on two cores"
)


def every(work: Any, pieces: Any, **options: Any) -> list[Any]:
    with in_order(work, pieces, **options) as results:
        return list(results)


@pytest.mark.parametrize("jobs", [1, 2, 3])
def test_the_results_come_in_the_pieces_order(jobs: int) -> None:
    offset = 7  # a closure: inherited by the workers, never pickled

    def work(n: int) -> tuple[int, int]:
        return n, n * n + offset

    assert every(work, range(50), jobs=jobs) == [(n, n * n + 7) for n in range(50)]


@forking
def test_many_pieces_go_to_other_processes_and_a_few_stay_here() -> None:
    here = os.getpid()
    many = set(every(lambda _: os.getpid(), range(40), jobs=2, at_least=2))
    assert here not in many and len(many) <= 2
    assert set(every(lambda _: os.getpid(), range(1), jobs=2, at_least=2)) == {here}
    assert set(every(lambda _: os.getpid(), range(40), jobs=1)) == {here}
    assert not multiprocessing.active_children()  # every worker stopped


@forking
def test_never_more_processes_than_cores() -> None:
    pids = set(every(lambda _: os.getpid(), range(200), jobs=500, at_least=2))
    assert os.getpid() not in pids and len(pids) <= cores()


@forking
def test_a_pieces_error_is_raised_here_and_the_workers_stop() -> None:
    def work(n: int) -> int:
        if n == 13:
            raise ValueError(f"piece {n} refused")
        return n

    seen = []
    with pytest.raises(ValueError, match="piece 13 refused"):
        with in_order(work, range(40), jobs=2) as results:
            for n in results:
                seen.append(n)
    assert seen == list(range(13))  # every result before it, in order
    assert not multiprocessing.active_children()


@forking
def test_leaving_early_stops_the_workers_at_once() -> None:
    with pytest.raises(KeyError):
        with in_order(lambda n: n, range(100), jobs=2) as results:
            next(results)
            raise KeyError("the caller's own error, while the workers are busy")
    assert not multiprocessing.active_children()


@forking
def test_two_threads_each_get_their_own_work() -> None:
    found: dict[str, list[Any]] = {}

    def run(name: str) -> None:
        found[name] = every(lambda n: (name, n), range(30), jobs=2)

    threads = [threading.Thread(target=run, args=(name,)) for name in ("a", "b")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert found == {name: [(name, n) for n in range(30)] for name in ("a", "b")}


def test_pieces_may_come_from_a_generator_read_here() -> None:
    readers = set()

    def pieces():  # a scan of the store: read in this process (and thread) only
        for n in range(6):
            readers.add(os.getpid())
            yield n

    assert every(lambda n: -n, pieces(), jobs=2, at_least=2) == [0, -1, -2, -3, -4, -5]
    assert readers == {os.getpid()}
