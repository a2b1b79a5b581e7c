"""The standings of one round in which everyone is tied (issue 27): 100 to 6,400 players, every
table drawn, every tie-break configured, so that head-to-head and the lot split one group of all.

Before #27 the head-to-head summed every pair of the tied group (100 / 400 / 1,600 players:
6 / 99 / 1,381 ms); the goal is O(n log n): about 4x the time for 4x the players.

    python benchmarks/standings.py
"""

from __future__ import annotations

import time

from tournament.domain.standings import DEFAULT_TIEBREAKS, Scoring, TableResult, standings


def main() -> None:
    previous = None
    for n in (100, 400, 1600, 6400):
        players = [f"p{i:04d}" for i in range(n)]
        tables = [
            TableResult((players[i], players[i + 1]), points={players[i]: 1, players[i + 1]: 1})
            for i in range(0, n, 2)
        ]
        best = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            standings(players, [tables], Scoring(), DEFAULT_TIEBREAKS, "2026")
            best = min(best, time.perf_counter() - start)
        ratio = f", {best / previous:.1f}x the last (goal about 4x)" if previous else ""
        print(f"{n:>5} players, all tied after round 1: {best * 1000:.1f} ms{ratio}")
        previous = best


if __name__ == "__main__":
    main()
