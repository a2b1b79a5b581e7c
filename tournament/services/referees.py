"""The referee of a match: a name kept beside the table in the tournament's events (#11).

The match log's header is fixed by FORMAT.md and sealed in its first hash, so the referee is
not written there: the tournament records ``RefereeNamed`` (match, name) when an organizer
starts a table (or a match) with ``--referee``, and the sheets print it. A referee's name is
free text, not a player's: it is not matched against the registered players.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.message import msg
from tournament.domain import views
from tournament.errors import Refused
from tournament.services import day
from tournament.services.retry import retried
from tournament.storage.store import Store

LONGEST = 60  # a name that fits the sheet's header line


def checked(name: str) -> str:
    """A referee's name as it will be printed, or one sentence (refused before anything is
    stored)."""
    shown = " ".join(name.split())
    if not shown:
        raise Refused(msg("--referee needs the referee's name"))
    if len(shown) > LONGEST or not shown.isprintable():
        raise Refused(
            msg("a referee's name is printable text of at most %(most)s characters", most=LONGEST)
        )
    return shown


def name_referee(store: Store, match: str, referee: str, by: str = "organizer") -> None:
    """Record ``referee`` as the referee of ``match``; retried against other terminals."""
    referee = checked(referee)

    def once() -> None:
        t = day.get_tournament(store)
        t.name_referee(match=match, referee=referee, by=by)
        day.save(store, t)

    gave_up = msg(
        "the tournament kept changing at the same moment: %(match)s is stored, but not its "
        "referee's name",
        match=match,
    )
    retried(once, gave_up, store=store)


def match_referee(t: Any, table: views.Table | Mapping[str, Any], match: str) -> str | None:
    """The referee of a table's match: the one named for it, else the last one named at the
    table before it (an organizer names a table's referee once, at its first match)."""
    found = None
    for number in views.matches_of(table).values():
        found = t.referee_of(number) or found
        if number == match:
            return found
    return t.referee_of(match)


def table_referee(t: Any, table: views.Table | Mapping[str, Any]) -> str | None:
    """The referees of a table's matches, in the order they were started (one name when the
    same referee kept the table)."""
    names: list[str] = []
    for match in views.matches_of(table).values():
        name = t.referee_of(match)
        if name and name not in names:
            names.append(name)
    return ", ".join(names) or None
