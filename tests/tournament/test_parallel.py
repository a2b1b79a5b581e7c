"""Work spread over processes comes back as the same results, in order (tournament.parallel)."""

from __future__ import annotations

import multiprocessing
import os

import pytest

from tournament.parallel import _can_fork, in_order

forking = pytest.mark.skipif(not _can_fork(), reason="processes are forked only where offered")


@pytest.mark.parametrize("jobs", [1, 2, 3])
def test_the_results_come_in_the_pieces_order(jobs: int) -> None:
    offset = 7  # a closure: inherited by the workers, never pickled

    def work(n: int) -> tuple[int, int]:
        return n, n * n + offset

    assert list(in_order(work, range(50), jobs=jobs)) == [(n, n * n + 7) for n in range(50)]


@forking
def test_many_pieces_go_to_other_processes_and_a_few_stay_here() -> None:
    here = os.getpid()
    many = set(in_order(lambda _: os.getpid(), range(40), jobs=2, at_least=2))
    assert here not in many
    few = set(in_order(lambda _: os.getpid(), range(1), jobs=2, at_least=2))
    assert few == {here}
    assert set(in_order(lambda _: os.getpid(), range(40), jobs=1)) == {here}
    assert not multiprocessing.active_children()  # every worker stopped


@forking
def test_a_pieces_error_is_raised_here_and_the_workers_stop() -> None:
    def work(n: int) -> int:
        if n == 13:
            raise ValueError(f"piece {n} refused")
        return n

    seen = []
    with pytest.raises(ValueError, match="piece 13 refused"):
        for n in in_order(work, range(40), jobs=2):
            seen.append(n)
    assert seen == list(range(13))  # every result before it, in order
    assert not multiprocessing.active_children()


def test_pieces_may_come_from_a_generator_read_here() -> None:
    readers = set()

    def pieces():  # a scan of the store: read in this process (and thread) only
        for n in range(6):
            readers.add(os.getpid())
            yield n

    assert list(in_order(lambda n: -n, pieces(), jobs=2, at_least=2)) == [0, -1, -2, -3, -4, -5]
    assert readers == {os.getpid()}
