"""Standings: match points, then the tie-breaks in the order the tournament configured.

Pure functions over table results. A table's result is each player's challenge points (the
points of its challenges, CH-2 and CH-3); two players at a table score win, draw or loss by
comparing them, three or more score placement points. A bye scores as configured.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

TIEBREAKS = ("challenge", "buchholz", "buchholz_cut1", "sonneborn_berger", "head_to_head", "lot")
DEFAULT_TIEBREAKS = TIEBREAKS


@dataclass(frozen=True)
class Scoring:
    win: float = 3
    draw: float = 1
    loss: float = 0
    bye: float = 3
    placement: tuple[float, ...] = ()  # tables of 3+: points by place; empty = n-1 down to 0

    def places(self, size: int) -> tuple[float, ...]:
        if self.placement:
            return tuple(self.placement) + (0,) * max(0, size - len(self.placement))
        return tuple(range(size - 1, -1, -1))


@dataclass(frozen=True)
class TableResult:
    """One table of one round: its players and, once decided, their challenge points."""

    players: tuple[str, ...]
    bye: bool = False
    points: Mapping[str, int] | None = None  # None while undecided
    # Who withdrew while the table played (#24): they rank below everyone who stayed.
    forfeits: tuple[str, ...] = ()
    # How many of the table's challenges each player played to their end (a season's points).
    challenges: Mapping[str, int] = field(default_factory=dict)

    @property
    def decided(self) -> bool:
        return self.bye or self.points is not None

    def standing(self, player: str) -> tuple[bool, int]:
        """How a player of a decided table stands there: who stayed above who forfeited, then
        by challenge points (higher is better)."""
        assert self.points is not None
        return player not in self.forfeits, self.points[player]


def pairwise(result: TableResult) -> dict[tuple[str, str], float]:
    """Each ordered pair's score at a table: 1 ahead, 0.5 level, 0 behind (one who forfeited
    is behind everyone who stayed)."""
    pts = {p: result.standing(p) for p in result.players}
    return {
        (a, b): 1.0 if pts[a] > pts[b] else 0.5 if pts[a] == pts[b] else 0.0
        for a in result.players
        for b in result.players
        if a != b
    }


def match_points(result: TableResult, scoring: Scoring) -> dict[str, float]:
    """What each player of a decided table scores in the standings.

    >>> match_points(TableResult(("a", "b"), points={"a": 3, "b": 1}), Scoring())
    {'a': 3, 'b': 0}
    >>> match_points(TableResult(("a", "b", "c"), points={"a": 1, "b": 1, "c": 0}), Scoring())
    {'a': 2, 'b': 2, 'c': 0}
    >>> match_points(TableResult(("a", "b"), points={"a": 2, "b": 0}, forfeits=("a",)), Scoring())
    {'b': 3, 'a': 0}
    """
    if result.bye:
        return {result.players[0]: scoring.bye}
    pts = {p: result.standing(p) for p in result.players}
    if len(result.players) == 2:
        a, b = result.players
        if pts[a] == pts[b]:
            return {a: scoring.draw, b: scoring.draw}
        win, lose = (a, b) if pts[a] > pts[b] else (b, a)
        return {win: scoring.win, lose: scoring.loss}
    # Competition ranking: tied players share the better place ("1224").
    places = scoring.places(len(result.players))
    return {p: places[sum(pts[q] > pts[p] for q in result.players)] for p in result.players}


@dataclass(frozen=True)
class Row:
    rank: int
    player: str
    points: float
    values: Mapping[str, float] = field(default_factory=dict)  # tie-break -> value
    played: int = 0
    challenges: int = 0  # challenges played to their end (none: no season points, #24)
    # Whether the seeded lot (the last tie-break) set this row's place against a neighbour:
    # level with them on points and on every tie-break before the lot (#27); never while
    # nothing is recorded (every row level, the lot's order is only a starting list).
    by_lot: bool = False


def lot(seed: str, player: str) -> str:
    """The seeded lot (last tie-break): recorded seed, so anyone can recompute it."""
    return hashlib.sha256(f"{seed}:{player}".encode()).hexdigest()


def standings(
    players: Sequence[str],
    rounds: Sequence[Sequence[TableResult]],
    scoring: Scoring = Scoring(),
    tiebreaks: Sequence[str] = DEFAULT_TIEBREAKS,
    seed: str = "",
    ranked_by: Mapping[str, Any] | None = None,
) -> list[Row]:
    """Rank ``players`` on the decided tables of ``rounds``.

    ``ranked_by``: what ranks first instead of the points (a bracket's places, higher first,
    :mod:`tournament.domain.pairing.bracket`); the tie-breaks order each group."""
    points: dict[str, float] = {p: 0 for p in players}
    challenge: dict[str, float] = {p: 0 for p in players}
    met: dict[str, list[str]] = defaultdict(list)
    scores: dict[tuple[str, str], float] = defaultdict(float)
    played: dict[str, int] = {p: 0 for p in players}
    challenges: dict[str, int] = {p: 0 for p in players}
    for tables in rounds:
        for t in tables:
            if not t.decided:
                continue
            for p, n in t.challenges.items():
                challenges[p] = challenges.get(p, 0) + n
            for p, mp in match_points(t, scoring).items():
                points[p] = points.get(p, 0) + mp
                played[p] = played.get(p, 0) + 1
            if t.bye:
                continue
            assert t.points is not None
            for p in t.players:
                challenge[p] = challenge.get(p, 0) + t.points[p]
                met[p] += [q for q in t.players if q != p]
            for pair, s in pairwise(t).items():
                scores[pair] += s

    def buchholz(p: str) -> float:
        return sum(points.get(q, 0) for q in met[p])

    def cut1(p: str) -> float:
        opp = [points.get(q, 0) for q in met[p]]
        return sum(opp) - min(opp) if opp else 0

    def sonneborn(p: str) -> float:
        return sum(scores[(p, q)] * points.get(q, 0) for q in set(met[p]))

    values = {
        "challenge": challenge.__getitem__,
        "buchholz": buchholz,
        "buchholz_cut1": cut1,
        "sonneborn_berger": sonneborn,
    }
    unknown = [t for t in tiebreaks if t not in TIEBREAKS]
    if unknown:
        raise ValueError(f"unknown tie-break {unknown[0]!r} (known: {', '.join(TIEBREAKS)})")

    table: dict[str, dict[str, float]] = {p: {} for p in players}
    for p in players:
        for name in tiebreaks:
            if name in values:
                table[p][name] = values[name](p)

    opponents = {p: set(met[p]) for p in players}  # each player's distinct opponents
    drawn: set[str] = set()  # the players the lot ordered among others level with them

    def order(group: list[str], criteria: Sequence[str]) -> list[list[str]]:
        """Split a group tied so far into ordered sub-groups by the next criteria.

        Linear in the group and its players' games at each step, O(n log n) with the sort:
        a round-1 group of everyone tied is the usual case, not the worst (#27).
        """
        if not criteria or len(group) < 2:
            return [group]
        name, rest = criteria[0], criteria[1:]
        if name == "head_to_head":
            # Only the games between the tied players count: each player's own opponents
            # looked up in the group, never every pair of the group.
            tied = set(group)
            key = {
                p: sum((scores[(p, q)] for q in opponents.get(p, ()) if q in tied), 0.0)
                for p in group
            }
            for p in group:
                table[p]["head_to_head"] = key[p]
        elif name == "lot":
            key = {p: -int(lot(seed, p), 16) for p in group}
            drawn.update(group)  # (a group of two or more: the lot alone parts them)
        else:
            key = {p: table[p][name] for p in group}
        alike: dict[float, list[str]] = defaultdict(list)  # in the group's order
        for p in group:
            alike[key[p]].append(p)
        out: list[list[str]] = []
        for value in sorted(alike, reverse=True):
            out += order(alike[value], rest)
        return out

    by_points: dict[Any, list[str]] = defaultdict(list)
    for p in players:
        by_points[points[p] if ranked_by is None else ranked_by[p]].append(p)
    groups: list[list[str]] = []
    for value in sorted(by_points, reverse=True):
        groups += order(by_points[value], list(tiebreaks))
    if not any(played.values()):
        drawn.clear()  # nothing recorded yet: the lot orders the rows, nobody was parted by it
    rows, rank = [], 1
    for group in groups:
        for p in group:
            rows.append(
                Row(rank, p, points[p], dict(table[p]), played[p], challenges[p], p in drawn)
            )
        rank += len(group)
    return rows
