"""Saves made again when another terminal saved the tournament first: the one retry of the
services, with one limit, whichever front end asked.

A save that meets another writer's stores nothing (:class:`Conflict`), so the whole write (read
the tournament, decide, save) is simply made again on what is stored now, after a short random
pause that grows with each attempt (twenty tables choosing their partite at once do not meet
again in step). A move is never retried: a stale position is refused (see
:func:`tournament.services.play.record_move`).

Given the store, each attempt holds the store's turn to write the tournament
(:func:`tournament.storage.writers.one_writer`): writers of other processes on a server queue
for it rather than meet each other's saves, so that forty tables starting at once all start,
each written once (#27). The retry stays for writers that do not queue (an older version).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from engine.message import Msg, msg
from tournament.errors import Refused
from tournament.storage.store import Conflict
from tournament.storage.writers import one_writer

ATTEMPTS = 50  # writes tried against other terminals changing the tournament at the same moment
PAUSE = 0.002  # seconds, times the attempts made so far: the longest random pause before the next

KEPT_CHANGING = msg("the tournament kept changing at the same moment; nothing was stored: repeat")
T = TypeVar("T")


def retried(write: Callable[[], T], gave_up: Msg | None = None, store: Any = None) -> T:
    """``write()``, made again while it meets another writer's save, at most ATTEMPTS times;
    then :class:`Refused` with ``gave_up`` (nothing was stored). ``store``: each attempt in
    the store's turn to write the tournament."""
    for attempt in range(ATTEMPTS):
        try:
            if store is None:
                return write()
            with one_writer(store):
                return write()
        except Conflict:
            if attempt:
                import random  # only a write that met another pays for it (#15)
                import time

                time.sleep(random.uniform(0, PAUSE * attempt))
    raise Refused(gave_up or KEPT_CHANGING)
