"""Saves made again when another terminal saved the tournament first: the one retry of the
services, with one limit, whichever front end asked.

A save that meets another writer's stores nothing (:class:`Conflict`), so the whole write (read
the tournament, decide, save) is simply made again on what is stored now, after a short random
pause that grows with each attempt (twenty tables choosing their partite at once do not meet
again in step). A move is never retried: a stale position is refused (see
:func:`tournament.services.play.record_move`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from engine.message import Msg, msg
from tournament.errors import Refused
from tournament.storage.store import Conflict

ATTEMPTS = 50  # writes tried against other terminals changing the tournament at the same moment
PAUSE = 0.002  # seconds, times the attempts made so far: the longest random pause before the next

KEPT_CHANGING = msg("the tournament kept changing at the same moment; nothing was stored: repeat")
T = TypeVar("T")


def retried(write: Callable[[], T], gave_up: Msg | None = None) -> T:
    """``write()``, made again while it meets another writer's save, at most ATTEMPTS times;
    then :class:`Refused` with ``gave_up`` (nothing was stored)."""
    for attempt in range(ATTEMPTS):
        try:
            return write()
        except Conflict:
            if attempt:
                import random  # only a write that met another pays for it (#15)
                import time

                time.sleep(random.uniform(0, PAUSE * attempt))
    raise Refused(gave_up or KEPT_CHANGING)
