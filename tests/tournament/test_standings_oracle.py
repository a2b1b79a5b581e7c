"""The standings' tie-breaks against a brute-force oracle (#27): the same rows as the
quadratic head-to-head gave, on random tournaments (fixed seeds), for any size of tied group."""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence

import pytest

from tournament.domain.standings import (
    DEFAULT_TIEBREAKS,
    TIEBREAKS,
    Row,
    Scoring,
    TableResult,
    lot,
    match_points,
    pairwise,
    standings,
)


def brute_standings(
    players: Sequence[str],
    rounds: Sequence[Sequence[TableResult]],
    scoring: Scoring = Scoring(),  # noqa: B008 - as the code it keeps
    tiebreaks: Sequence[str] = DEFAULT_TIEBREAKS,
    seed: str = "",
) -> list[Row]:
    """The standings as computed before #27: the head-to-head sums every pair of the tied group
    (quadratic), kept here as the oracle the fast one must agree with."""
    points: dict[str, float] = {p: 0 for p in players}
    challenge: dict[str, float] = {p: 0 for p in players}
    met: dict[str, list[str]] = defaultdict(list)
    scores: dict[tuple[str, str], float] = defaultdict(float)
    played: dict[str, int] = {p: 0 for p in players}
    for tables in rounds:
        for t in tables:
            if not t.decided:
                continue
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

    def order(group: list[str], criteria: Sequence[str]) -> list[list[str]]:
        """Split a group tied so far into ordered sub-groups by the next criteria."""
        if not criteria or len(group) < 2:
            return [group]
        name, rest = criteria[0], criteria[1:]
        if name == "head_to_head":
            # Only the games between the tied players count.
            key = {p: sum(scores[(p, q)] for q in group if q != p) for p in group}
            for p in group:
                table[p]["head_to_head"] = key[p]
        elif name == "lot":
            key = {p: -int(lot(seed, p), 16) for p in group}
        else:
            key = {p: table[p][name] for p in group}
        out: list[list[str]] = []
        for value in sorted(set(key.values()), reverse=True):
            out += order([p for p in group if key[p] == value], rest)
        return out

    by_points: dict[float, list[str]] = defaultdict(list)
    for p in players:
        by_points[points[p]].append(p)
    groups: list[list[str]] = []
    for value in sorted(by_points, reverse=True):
        groups += order(by_points[value], list(tiebreaks))
    rows, rank = [], 1
    for group in groups:
        for p in group:
            rows.append(Row(rank, p, points[p], dict(table[p]), played[p]))
        rank += len(group)
    return rows


def random_tournament(rng: random.Random) -> tuple[list[str], list[list[TableResult]]]:
    """Players, and rounds of tables of 2 to 4 (some byes, some undecided, some rematches)."""
    players = [f"p{i}" for i in range(rng.randint(1, 40))]
    rounds: list[list[TableResult]] = []
    for _ in range(rng.randint(0, 5)):
        shuffled = players[:]
        rng.shuffle(shuffled)
        tables: list[TableResult] = []
        while shuffled:
            size = min(len(shuffled), rng.choice((1, 2, 2, 2, 3, 4)))
            seated, shuffled = tuple(shuffled[:size]), shuffled[size:]
            if size == 1:
                tables.append(TableResult(seated, bye=True))
            elif rng.random() < 0.1:
                tables.append(TableResult(seated))  # undecided
            else:  # few distinct points: many ties, and ties within ties
                tables.append(TableResult(seated, points={p: rng.randint(0, 2) for p in seated}))
        rounds.append(tables)
    return players, rounds


def random_tiebreaks(rng: random.Random) -> list[str]:
    chosen = [t for t in TIEBREAKS if rng.random() < 0.6]
    rng.shuffle(chosen)
    if "head_to_head" not in chosen and rng.random() < 0.8:
        chosen.insert(rng.randint(0, len(chosen)), "head_to_head")
    return chosen


def rows_of(rows: list[Row]) -> list[tuple[object, ...]]:
    return [(r.rank, r.player, r.points, dict(r.values), r.played) for r in rows]


@pytest.mark.parametrize("seed", range(8))
def test_the_same_rows_as_the_brute_force_oracle(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(40):
        players, rounds = random_tournament(rng)
        tiebreaks = random_tiebreaks(rng)
        scoring = rng.choice((Scoring(), Scoring(2, 1, 0, 1), Scoring(placement=(5, 3, 1))))
        fast = standings(players, rounds, scoring, tiebreaks, seed=str(seed))
        slow = brute_standings(players, rounds, scoring, tiebreaks, seed=str(seed))
        assert rows_of(fast) == rows_of(slow)
        # The same types too (the read models and --json print what the rows hold).
        assert [sorted(map(type, r.values.values()), key=str) for r in fast] == [
            sorted(map(type, r.values.values()), key=str) for r in slow
        ]


def test_a_large_tied_group_against_the_oracle() -> None:
    # Round 1 of 400, everyone drawn: one tied group of all, split by head-to-head and the lot.
    players = [f"p{i:03d}" for i in range(400)]
    tables = [
        TableResult((players[i], players[i + 1]), points={players[i]: 1, players[i + 1]: 1})
        for i in range(0, 400, 2)
    ]
    args = (players, [tables], Scoring(), ["head_to_head", "lot"], "2026")
    assert rows_of(standings(*args)) == rows_of(brute_standings(*args))
    assert [r.rank for r in standings(*args)] == list(range(1, 401))
