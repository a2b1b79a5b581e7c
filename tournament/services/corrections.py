"""Corrections after the fact: amended results, and what a correction changes.

An amended result stands beside the match logs, which stay as recorded; the effect of any
correction is computed before it is stored, so that the organizer sees it first.
"""

from __future__ import annotations

from typing import Any

from engine.message import msg
from tournament.domain.names import registered
from tournament.domain.tournaments import Tournament
from tournament.errors import Refused
from tournament.services.day import (
    PARTITA,
    PARTITA_GAMES,
    OutcomeOf,
    current_standings,
    pairings_for,
)
from tournament.services.tables import table_at


def amend_result(
    t: Tournament,
    round_number: int,
    table_number: int,
    points: dict[str, int],
    reason: str,
    by: str = "organizer",
) -> None:
    """Amend a table's result on ``t`` (the caller saves): the match logs stay as recorded."""
    table = table_at(t, round_number, table_number)
    if table["bye"]:
        raise Refused(
            msg("table %(table)s is a bye: there is no result to amend", table=table_number)
        )
    points = {registered(p, table["players"]) or p: v for p, v in points.items()}  # #11
    if set(points) != set(table["players"]):
        raise Refused(
            msg(
                "give the challenge points of %(players)s, each once",
                players=tuple(table["players"]),
            )
        )
    most = most_points(t)
    if any(type(v) is not int or not 0 <= v <= most for v in points.values()):
        raise Refused(
            msg(
                "challenge points at a table are whole numbers from 0 to %(most)s: %(why)s",
                most=most,
                why=msg(
                    "a point for each of the partita's %(games)s challenges won (CH-2, CH-3)",
                    games=PARTITA_GAMES,
                )
                if t.settings["plays"] == PARTITA
                else msg("a point for its one challenge won (CH-2)"),
            )
        )
    if not reason.strip():
        raise Refused(msg("an amended result needs a reason"))
    t.amend_result(round=round_number, table=table_number, points=points, reason=reason, by=by)


def most_points(t: Tournament) -> int:
    """The most challenge points a player can score at one table: a point for each challenge
    won (CH-2), and a table plays a partita's four challenges (CH-3) or the tournament's one."""
    return PARTITA_GAMES if t.settings["plays"] == PARTITA else 1


def effect(
    t: Tournament,
    outcome_of: OutcomeOf,
    changed: Tournament,
    changed_outcome_of: OutcomeOf,
    from_round: int,
) -> dict[str, Any]:
    """What a correction to round ``from_round`` changes: the standings, and how every later
    round would have been paired (published pairings are never changed)."""
    old = {r.player: r for r in current_standings(t, outcome_of)}
    new = current_standings(changed, changed_outcome_of)
    rows = [
        {
            "player": r.player,
            "rank": r.rank,
            "points": r.points,
            "rank_before": old[r.player].rank,
            "points_before": old[r.player].points,
        }
        for r in new
    ]
    later = []
    for k in range(from_round + 1, len(t.rounds) + 1):
        published = [tb["players"] for tb in t.rounds[k - 1]["tables"]]
        try:
            would = [list(tb.players) for tb in pairings_for(changed, k, changed_outcome_of)]
        except Refused:
            continue
        if sorted(map(sorted, would)) != sorted(map(sorted, published)):
            later.append({"round": k, "published": published, "would_be": would})
    return {"standings": rows, "later_pairings": later}


def round_of_match(t: Tournament, number: str) -> int | None:
    """The round whose table plays this match, if any."""
    for r in t.rounds:
        if any(number in tb.get("matches", {}).values() for tb in r["tables"]):
            return int(r["number"])
    return None
