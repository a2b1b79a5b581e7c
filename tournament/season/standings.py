"""Season standings: season points for each tournament's final place, best N counted.

A pure function of the tournaments' places, which are themselves recomputed from the match
logs, so that a correction in any match of any tournament shows here at once.

Ties in the season go to the better places (most first places, then most second places, and so
on: the countback of most club and motor-racing series); players still equal share the rank.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tournament.season.config import SeasonScoring


@dataclass(frozen=True)
class Placement:
    """A player's final place in one tournament and the season points it is worth."""

    tournament: int
    rank: int
    points: float
    counted: bool


@dataclass(frozen=True)
class SeasonRow:
    rank: int
    player: str
    points: float  # the counted results only
    played: int
    results: tuple[Placement, ...]


def season_standings(
    places: Sequence[Mapping[str, int]], scoring: SeasonScoring
) -> list[SeasonRow]:
    """The season's standings from each tournament's places (player -> final rank).

    >>> rows = season_standings([{"a": 1, "b": 2}, {"b": 1, "a": 2}, {"b": 1}], SeasonScoring())
    >>> [(r.rank, r.player, r.points) for r in rows]
    [(1, 'b', 68), (2, 'a', 43)]
    >>> rows = season_standings([{"a": 1, "b": 2}, {"b": 1, "a": 2}], SeasonScoring(best=1))
    >>> [(r.rank, r.player, r.points) for r in rows]
    [(1, 'a', 25), (1, 'b', 25)]
    """
    results: dict[str, list[tuple[int, int, float]]] = {}
    for index, ranks in enumerate(places):
        for player, rank in ranks.items():
            results.setdefault(player, []).append((index, rank, scoring.for_place(rank)))
    rows = []
    for player, mine in results.items():
        # The best results count; between equal ones, the earlier tournament.
        by_worth = sorted(mine, key=lambda x: (-x[2], x[0]))
        counted = {x[0] for x in (by_worth[: scoring.best] if scoring.best else by_worth)}
        placements = tuple(Placement(i, rank, pts, i in counted) for i, rank, pts in mine)
        total = sum(p.points for p in placements if p.counted)
        rows.append((player, total, placements))
    deepest = max((p.rank for _, _, ps in rows for p in ps), default=0)

    def merit(row: tuple[str, float, tuple[Placement, ...]]) -> tuple[float, ...]:
        _, total, placements = row
        ranks = [p.rank for p in placements if p.counted]
        return (-total, *(-ranks.count(k) for k in range(1, deepest + 1)))

    rows.sort(key=lambda r: (merit(r), r[0]))
    out: list[SeasonRow] = []
    for i, row in enumerate(rows):
        shared = i and merit(row) == merit(rows[i - 1])
        rank = out[-1].rank if shared else i + 1
        out.append(SeasonRow(rank, row[0], row[1], len(row[2]), row[2]))
    return out
