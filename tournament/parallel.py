"""Independent pieces of work spread over the machine's cores, their results kept in order (#15).

``tournament verify`` replays every stored match through the rules; each match is checked on its
own, so the matches can be checked side by side. The work runs in processes forked from this one
(they inherit the loaded program, the word lists and the function to run: only the pieces and
their results cross between processes, as pickles), and the results come back in the order the
pieces were given, so a report reads the same whichever way it was made.

Where forking is not offered (not Linux or macOS), with one core, or for a few pieces, the work
runs here, one piece after the other: the same function, the same results.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from itertools import chain, islice
from multiprocessing.pool import AsyncResult
from typing import Any, TypeVar

_Piece = TypeVar("_Piece")
_Result = TypeVar("_Result")

# The function the forked workers run: set in this process just before they fork, so that it
# is inherited rather than pickled (it may be a closure over a word list).
_work: Callable[[Any], Any] | None = None


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def _can_fork() -> bool:
    return "fork" in multiprocessing.get_all_start_methods()


def _quiet() -> None:
    """A worker leaves Ctrl-C to this process, which stops them all (no worker's traceback)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run(piece: Any) -> Any:
    assert _work is not None
    return _work(piece)


def in_order(
    work: Callable[[_Piece], _Result],
    pieces: Iterable[_Piece],
    jobs: int | None = None,
    at_least: int = 2,
) -> Iterator[_Result]:
    """``work(piece)`` for each piece, in the pieces' order, on up to ``jobs`` processes
    (default: one a core) once ``at_least`` pieces are waiting; otherwise here.

    The pieces are read here, in this thread, as they come (a scan of the store goes on while
    the first pieces are at work), and each result is given as soon as it and those before it
    are done. An exception raised by ``work`` is raised here, at its piece.
    """
    global _work
    jobs = cores() if jobs is None else jobs
    pieces = iter(pieces)
    if jobs < 2 or not _can_fork():
        yield from map(work, pieces)
        return
    first = list(islice(pieces, at_least))
    if len(first) < at_least:  # too little to be worth a process
        yield from map(work, first)
        return
    _work = work  # before the fork: the workers inherit it
    pool = multiprocessing.get_context("fork").Pool(jobs, initializer=_quiet)
    try:
        pending: deque[AsyncResult[Any]] = deque()
        for piece in chain(first, pieces):
            pending.append(pool.apply_async(_run, (piece,)))
            while pending and pending[0].ready():
                yield pending.popleft().get()
        while pending:
            yield pending.popleft().get()
        pool.close()
    finally:
        _work = None
        pool.terminate()
        pool.join()
