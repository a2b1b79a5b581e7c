"""The tournament's writers one at a time (#27), so that writers starting at once queue
rather than starve on the tournament's one aggregate.

Every change of the tournament reads it, decides and saves; a save that meets another
writer's stores nothing and the whole write is made again (:mod:`tournament.services.retry`).
Forty tables starting at once made most of their writes several times over, and on a server
some gave up. Around each attempt, :func:`one_writer` now holds the store's turn: the threads
of a process queue on a lock of the store's, and the processes on a server on an advisory lock
of the server's (:class:`tournament.storage.postgres.WriterLock`). A SQLite file already takes
one writer at a time (a server's writers queue in the web's own lock): there nothing more is
held. The turn spares work; correctness stays with the save's own check.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

_MAKING = threading.Lock()


class Turn:
    """A store's turn: this process's threads queue on ``lock``; the one holding it holds the
    server's lock for the process (``depth``: writes nested in a write take no second turn)."""

    def __init__(self, server: Any) -> None:
        from tournament.storage.postgres import WriterLock

        self.lock = threading.RLock()
        self.depth = 0
        self.server = WriterLock(server)
        self.held = False

    def close(self) -> None:
        with self.lock:
            self.server.close()


@contextmanager
def one_writer(store: Any) -> Iterator[None]:
    """Hold the store's turn to write the tournament for the block (see the module's words)."""
    if not store.location.is_server:
        yield
        return
    with _MAKING:
        turn: Turn | None = getattr(store, "_turn", None)
        if turn is None:
            turn = store._turn = Turn(store.location)
    with turn.lock:
        if turn.depth == 0:
            turn.held = turn.server.acquire()
            # Another process may have taken match numbers since: counted again in the turn
            # (a few look-ups), rather than guessed from this process's last and refused.
            store._next_number = None
        turn.depth += 1
        try:
            yield
        finally:
            turn.depth -= 1
            if turn.depth == 0 and turn.held:
                turn.server.release()
                turn.held = False


def close(store: Any) -> None:
    """Give back the connection a store's turn holds (if it took one)."""
    turn = getattr(store, "_turn", None)
    if turn is not None:
        turn.close()
