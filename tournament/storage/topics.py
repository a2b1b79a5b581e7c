"""The names the program's classes are stored under (eventsourcing's topics), fixed for good.

A stored event names its class and its aggregate's class by a topic. eventsourcing would make the
topic of where the class lives (``module:qualname``), so that moving a class would make every
database stored before unreadable. The program's classes name themselves instead
(``TOPIC = ...`` on the aggregate, ``@event(..., topic=...)`` on each event): the names are the
texts the first versions stored, so they look like the module paths of 0.1, but they are only
names now, kept whatever module the class moves to.

:data:`HOMES` says which module defines the class of each stored name, so that a name is
resolved by importing that module (never by reading a module path out of the database: a name
in a file never makes the program import anything else), and so that moving a class is one line
here. A test checks that every class the program stores is here, under the name it writes.
"""

from __future__ import annotations

import importlib
from typing import Any

from eventsourcing.utils import TopicError, resolve_topic

_MATCH = "tournament.storage.store"
_TOURNAMENT = "tournament.domain.tournaments"

HOMES: dict[str, str] = {
    # stored name -> the module that defines its class now
    "tournament.store:Match": _MATCH,
    "tournament.store:Match.Started": _MATCH,
    "tournament.store:Match.Recorded": _MATCH,
    "tournament.tournaments:Tournament": _TOURNAMENT,
    "tournament.tournaments:Tournament.Created": _TOURNAMENT,
    "tournament.tournaments:Tournament.PlayerRegistered": _TOURNAMENT,
    "tournament.tournaments:Tournament.PlayerWithdrawn": _TOURNAMENT,
    "tournament.tournaments:Tournament.RoundPaired": _TOURNAMENT,
    "tournament.tournaments:Tournament.PartitaChosen": _TOURNAMENT,
    "tournament.tournaments:Tournament.MatchAttached": _TOURNAMENT,
    "tournament.tournaments:Tournament.ResultAmended": _TOURNAMENT,
    "tournament.tournaments:Tournament.HeadRecorded": _TOURNAMENT,  # since 0.2
    "tournament.tournaments:Tournament.RefereeNamed": _TOURNAMENT,  # since 0.2
    "tournament.tournaments:Tournament.RoundClosed": _TOURNAMENT,
    "tournament.tournaments:Tournament.TableForfeited": _TOURNAMENT,  # since #24
    "tournament.tournaments:Tournament.PlayerCheckedIn": _TOURNAMENT,  # since #24
    "tournament.tournaments:Tournament.PlayerCheckedOut": _TOURNAMENT,  # since #24
    "tournament.tournaments:Tournament.TableCheckedOut": _TOURNAMENT,  # table files, #26
    "tournament.tournaments:Tournament.TableCheckedIn": _TOURNAMENT,  # table files, #26
    "tournament.tournaments:Tournament.TableReleased": _TOURNAMENT,  # table files, #26
    "tournament.tournaments:Tournament.TableFileWritten": _TOURNAMENT,  # table files, #26
    "tournament.tournaments:Tournament.Snapshot": _TOURNAMENT,  # sealed snapshots, since 0.2
    # 0.1 took the tournament's snapshots with eventsourcing's own class (no seal)
    "eventsourcing.domain:Snapshot": "eventsourcing.domain",
}


def known(topic: str) -> bool:
    """Whether this version stores (or once stored) classes under this name."""
    return topic in HOMES


def resolve(topic: str) -> Any:
    """The class stored under a name (raises KeyError for a name this version does not know)."""
    importlib.import_module(HOMES[topic])  # defining the class registers its name
    try:
        return resolve_topic(topic)
    except TopicError:  # pragma: no cover - the module no longer defines it: a test says so
        raise KeyError(topic) from None
