"""Independent pieces of work spread over the machine's cores, their results kept in order (#15).

``tournament verify`` replays every stored match through the rules; each match is checked on its
own, so the matches can be checked side by side. The work runs in processes forked from this one
(they inherit the loaded program, the word lists and the function to run: only the pieces and
their results cross between processes, as pickles), and the results come back in the order the
pieces were given, so a report reads the same whichever way it was made.

Where forking is not offered (not Linux or macOS), with one core, or for a few pieces, the work
runs here, one piece after the other: the same function, the same results.

The workers only compute: they never write to the terminal, never use a connection this process
opened (a store, a progress bar's thread), and leave without running this process's clean-up
(multiprocessing ends a forked worker with ``os._exit``); so forking while those are open is safe.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import signal
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from itertools import chain, islice
from multiprocessing.pool import AsyncResult
from typing import Any, TypeVar

_Piece = TypeVar("_Piece")
_Result = TypeVar("_Result")

# The function a worker runs: given to it as it starts (inherited through the fork, never
# pickled: it may be a closure over a word list), so two callers never share it.
_work: Callable[[Any], Any] | None = None


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def _can_fork() -> bool:
    return "fork" in multiprocessing.get_all_start_methods()


def _start(work: Callable[[Any], Any]) -> None:
    """In a worker as it starts: its function; Ctrl-C is left to this process, which stops the
    workers (no worker prints a traceback)."""
    global _work
    _work = work
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run(piece: Any) -> Any:
    assert _work is not None
    return _work(piece)


@contextmanager
def in_order(
    work: Callable[[_Piece], _Result],
    pieces: Iterable[_Piece],
    jobs: int | None = None,
    at_least: int = 2,
) -> Iterator[Iterator[_Result]]:
    """``work(piece)`` for each piece, in the pieces' order, on up to ``jobs`` processes (at most
    one a core; default: one a core) once ``at_least`` pieces are waiting; otherwise here.

    A context manager: the workers are stopped when it is left, however it is left (a result
    not read yet, or an exception)::

        with in_order(check, batches) as results:
            for result in results: ...

    The pieces are read here, in this thread, as they come (a scan of the store goes on while
    the first pieces are at work), and each result is given as soon as it and those before it
    are done. An exception raised by ``work`` is raised here, at its piece.
    """
    processes = min(cores() if jobs is None else jobs, cores())
    pieces = iter(pieces)
    if processes < 2 or not _can_fork():
        yield map(work, pieces)
        return
    first = list(islice(pieces, at_least))
    if len(first) < at_least:  # too little to be worth a process
        yield map(work, first)
        return
    # The objects alive now are left out of the collector's passes (in the workers too): a
    # pass would write to each one, and the workers would copy the pages they share with this
    # process (the rows of the whole store, for verify).
    gc.freeze()
    try:
        pool = multiprocessing.get_context("fork").Pool(
            processes, initializer=_start, initargs=(work,)
        )
    finally:
        gc.unfreeze()
    try:
        yield _results(pool, chain(first, pieces))
        pool.close()
    finally:
        pool.terminate()
        pool.join()


def _results(pool: Any, pieces: Iterator[Any]) -> Iterator[Any]:
    pending: deque[AsyncResult[Any]] = deque()
    for piece in pieces:
        pending.append(pool.apply_async(_run, (piece,)))
        while pending and pending[0].ready():
            yield pending.popleft().get()
    while pending:
        yield pending.popleft().get()
