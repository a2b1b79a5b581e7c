"""Season ratings for a season of 50 tournaments of 64 players (issue 16).

The tournaments are simulated once into ``--dir`` (every other one a Swiss of duels, the others
tables of four, all Tetragon partite of three rounds; in parallel, a few minutes), then:

(a) reading the season: every tournament opened and every match log replayed;
(b) rating it: OpenSkill over every contest, overall and per game, with the history;
(c) the same ratings from the files read again by several processes, which must be identical;
(d) the rating step alone over a synthetic season of the same shape but twice as many contests,
    to show it grows linearly.

    python benchmarks/season_ratings.py                      # 50 x 64, built the first time
    python benchmarks/season_ratings.py --tournaments 6 --players 16 --dir /tmp/small
"""

from __future__ import annotations

import argparse
import os
import random
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path


def simulate_one(path: str, seed: int, players: int) -> str:
    from tournament.services import simulate
    from tournament.storage.store import Store

    fmt = "swiss" if seed % 2 else "pods"
    simulate.run(
        Store(path),
        simulate.Simulation(players=players, format=fmt, rounds=3, seed=seed, name=f"Sera {seed}"),
    )
    return path


def build(folder: Path, tournaments: int, players: int, jobs: int) -> Path:
    """The season's files (the ones already there are kept: delete the folder to rebuild)."""
    folder.mkdir(parents=True, exist_ok=True)
    names = [f"sera-{i:02d}.db" for i in range(1, tournaments + 1)]
    todo = [(str(folder / n), i) for i, n in enumerate(names, 1) if not (folder / n).exists()]
    if todo:
        start = time.perf_counter()
        with ProcessPoolExecutor(jobs) as pool:
            for done in pool.map(simulate_one, *zip(*todo, strict=True), [players] * len(todo)):
                print(f"  simulated {Path(done).name}", flush=True)
        print(f"simulated {len(todo)} tournaments in {time.perf_counter() - start:.0f} s")
    season = folder / "season.toml"
    listed = ", ".join(f'"{n}"' for n in names)
    season.write_text(f'name = "Stagione simulata"\ntournaments = [{listed}]\n', encoding="utf-8")
    return season


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, default=Path("/tmp/season-ratings"))
    parser.add_argument("--tournaments", type=int, default=50)
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--jobs", type=int, default=4)
    args = parser.parse_args()

    from tournament.season import service
    from tournament.season.ratings import Contest, rate

    season = build(args.dir, args.tournaments, args.players, args.jobs)

    start = time.perf_counter()
    data = service.open_season(season, jobs=1)
    read = time.perf_counter() - start
    contests = list(data.contests())
    matches = sum(len(t.matches) for t in data.tournaments)

    start = time.perf_counter()
    parallel = service.open_season(season, jobs=0)  # as the CLI: one process a processor, to 4
    read_parallel = time.perf_counter() - start
    again = parallel.ratings()

    # (b) and (d), best of three each, interleaved so that both see the same machine: the
    # season's contests, and the same shapes twice over with random places (seeded).
    rng = random.Random(16)
    synthetic = []
    for c in contests * 2:
        ranks = list(c.ranks)
        rng.shuffle(ranks)
        synthetic.append(
            Contest(c.tournament, c.round, c.table, c.game, c.match, c.players, tuple(ranks))
        )
    rating = double = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        ratings = rate(contests)
        rating = min(rating, time.perf_counter() - start)
        start = time.perf_counter()
        rate(synthetic)
        double = min(double, time.perf_counter() - start)

    duels = sum(1 for c in contests if len(c.players) == 2)
    print(
        f"season: {len(data.tournaments)} tournaments, {len(ratings.overall)} players, "
        f"{matches} matches, {len(contests)} rated contests "
        f"({duels} duels, {len(contests) - duels} tables of 3+), {len(ratings.games)} games"
    )
    print(f"(a) read and replay every match log: {read:.2f} s ({matches / read:.0f} matches/s)")
    print(
        f"    the same by {min(4, os.cpu_count() or 1)} processes, as the CLI reads a long season: "
        f"{read_parallel:.2f} s ({read / read_parallel:.2f}x as fast)"
    )
    print(
        f"(b) OpenSkill ratings, overall and per game, with history: {rating:.2f} s "
        f"({len(contests) / rating:.0f} contests/s); whole command about "
        f"{read_parallel + rating:.2f} s"
    )
    print(f"(c) recomputed from the files: {'identical' if again == ratings else 'DIFFERENT'}")
    print(f"(d) twice the contests: {double:.2f} s, {double / rating:.2f}x the time (linear: 2x)")


if __name__ == "__main__":
    main()
