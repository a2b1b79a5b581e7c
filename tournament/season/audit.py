"""The season's audit: which correction, in which match, moved whom.

A correction is a referee's ruling or void recorded after a match had ended (REF-1, REF-2), or
an organizer's amended table result. For each one the season is computed as if that one
correction had not been made, and compared with the season as it stands: every player whose
season place, season points or overall rating differ is named, with both values.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from tournament.domain import views
from tournament.season.projection import without_amendment
from tournament.season.ratings import Rating, Ratings
from tournament.season.service import Patch, SeasonData
from tournament.season.standings import SeasonRow

EPSILON = 1e-9


@dataclass(frozen=True)
class Found:
    """A correction found in a tournament of the season, and the season without it."""

    tournament: int
    round: int
    table: int
    match: str | None
    what: tuple[str, ...]
    closed: bool
    patch: Patch


def corrections(data: SeasonData) -> Iterator[Found]:
    """Every correction of the season, tournament by tournament, round by round."""
    for i, facts in enumerate(data.tournaments):
        t = facts.tournament
        for r in views.rounds(t):
            for tb in r.tables:
                where = (i, r.number, tb.number)
                for number in tb.matches.values():
                    m = facts.matches[number]
                    if m.correction:
                        before = {**facts.results, number: m.correction.before}
                        yield Found(
                            *where, number, m.correction.said, r.closed, Patch(i, results=before)
                        )
                for a in tb.amendments:
                    points = ", ".join(f"{p} {n}" for p, n in a.points.items())
                    yield Found(
                        *where,
                        None,
                        (f"result amended by {a.by}: {points} ({a.reason})",),
                        r.closed,
                        Patch(i, tournament=without_amendment(t, r.number, tb.number)),
                    )


def audit(data: SeasonData) -> list[dict[str, Any]]:
    """What each correction of the season changed (``season audit --json``)."""
    rows_now = {r.player: r for r in data.standings()}
    ratings_now = data.ratings()
    out = []
    for found in corrections(data):
        rows_then = {r.player: r for r in data.standings(found.patch)}
        moved = _moved(rows_then, rows_now, data.ratings(found.patch), ratings_now)
        out.append(
            {
                "tournament": found.tournament + 1,
                "label": data.tournaments[found.tournament].label,
                "round": found.round,
                "table": found.table,
                "match": found.match,
                "round_closed": found.closed,
                "corrections": list(found.what),
                "moved": moved,
            }
        )
    return out


def _moved(
    rows_then: dict[str, SeasonRow],
    rows_now: dict[str, SeasonRow],
    then: Ratings,
    now: Ratings,
) -> list[dict[str, Any]]:
    moved: list[tuple[tuple[float, float, str], dict[str, Any]]] = []
    for player in sorted(set(rows_now) | set(rows_then) | set(now.overall) | set(then.overall)):
        a, b = rows_then.get(player), rows_now.get(player)
        ra, rb = then.overall.get(player, Rating()), now.overall.get(player, Rating())
        place_changed = (a and (a.rank, a.points)) != (b and (b.rank, b.points))
        rating_changed = abs(ra.mu - rb.mu) > EPSILON or abs(ra.sigma - rb.sigma) > EPSILON
        if not (place_changed or rating_changed):
            continue
        # Who moved most first: the season place, then the rating.
        places = abs((b.rank if b else 0) - (a.rank if a else 0))
        key = (-places, -abs(rb.ordinal - ra.ordinal), player)
        moved.append(
            (
                key,
                {
                    "player": player,
                    "rank_before": a.rank if a else None,
                    "rank": b.rank if b else None,
                    "points_before": a.points if a else None,
                    "points": b.points if b else None,
                    "ordinal_before": round(ra.ordinal, 6),
                    "ordinal": round(rb.ordinal, 6),
                },
            )
        )
    return [m for _, m in sorted(moved, key=lambda km: km[0])]
