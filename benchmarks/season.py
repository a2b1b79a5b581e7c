"""A simulated season: 1,000 players, about 1,000,000 events (issue: tournaments).

(a) ``tournament rebuild`` against a bare sqlite3 scan with JSON decoding of the same stored
    events, in the same run (goal: at least 0.25 of the raw rate);
(b) the time to pair one Swiss round of 1,000 players (goal: at most 2 s);
(c) the peak memory of the rebuild, in its own process;
(d) ``tournament verify`` of the whole store, against the same raw rate.

    python benchmarks/season.py --db /tmp/season.db            # builds it the first time
    python benchmarks/season.py --db /tmp/season.db --players 200 --events 100000   # smaller
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

REBUILD = r"""
import json, resource, sys, time
from tournament.storage.store import Store
from tournament.readside import readmodels
store = Store(sys.argv[1])
start = time.perf_counter()
progress = readmodels.rebuild(store)
seconds = time.perf_counter() - start
print(json.dumps({"events": progress.events, "seconds": seconds,
                  "rss_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}))
"""
BASELINE = r"""
import json, resource
from tournament.storage.store import Store
from tournament.readside import readmodels
print(json.dumps({"rss_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}))
"""


def build(db: Path, players: int, events: int) -> None:
    from tournament.services import simulate
    from tournament.storage.store import Store

    start = time.perf_counter()
    simulate.run(
        Store(db),
        simulate.Simulation(
            players=players,
            rounds=None,
            seed=2026,
            name="Stagione simulata",
            max_events=events,
            progress=lambda line: print("  " + line, flush=True),
        ),
    )
    print(f"simulated in {time.perf_counter() - start:.0f} s")


def ensure_snapshot(db: Path) -> None:
    """A season built before snapshots existed gets the one the program now takes itself."""
    from tournament.domain.tournaments import TOURNAMENT_ID
    from tournament.storage.store import Store

    store = Store(db)
    if store.snapshots is not None and not list(store.snapshots.get(TOURNAMENT_ID, limit=1)):
        store.take_snapshot(TOURNAMENT_ID)
        print("took the tournament's snapshot (the program takes one every 100 events)")


def raw_scan(db: Path) -> tuple[int, float]:
    conn = sqlite3.connect(db)
    start = time.perf_counter()
    count = 0
    for (state,) in conn.execute("select state from stored_events order by rowid"):
        json.loads(state)
        count += 1
    return count, time.perf_counter() - start


def pair_one_round(db: Path) -> tuple[int, float]:
    from tournament.readside import queries, readmodels
    from tournament.services import day
    from tournament.storage.store import Store

    store = Store(db)
    readmodels.update(store)
    t = day.get_tournament(store)
    outcome_of = queries.outcome_of(store)
    start = time.perf_counter()
    tables = day.pairings_for(t, len(t.rounds) + 1, outcome_of)  # pair, store nothing
    return len(tables), time.perf_counter() - start


def verify_all(db: Path) -> tuple[int, float]:
    """Every match's hash chain and replay (issue: audit and disputes)."""
    from engine.lexicon import default_lexicon
    from tournament.verify import verify_store

    start = time.perf_counter()
    report = verify_store(db, lambda header: default_lexicon())
    assert report.ok, report.failures[:3]
    return report.events, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", type=Path, default=Path("season.db"))
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--events", type=int, default=1_000_000)
    args = parser.parse_args()
    if not args.db.exists():
        print(f"building {args.db}: {args.players} players, about {args.events:,} events")
        build(args.db, args.players, args.events)

    ensure_snapshot(args.db)
    count, raw = raw_scan(args.db)
    out = subprocess.run(
        [sys.executable, "-c", REBUILD, str(args.db)], check=True, capture_output=True, text=True
    ).stdout
    rebuild = json.loads(out)
    base = json.loads(
        subprocess.run(
            [sys.executable, "-c", BASELINE], check=True, capture_output=True, text=True
        ).stdout
    )
    raw_rate, rebuild_rate = count / raw, rebuild["events"] / rebuild["seconds"]
    print(f"stored events: {count:,}")
    print(f"(a) raw sqlite3 scan + json.loads: {raw_rate:,.0f} events/s ({raw:.1f} s)")
    print(
        f"    tournament rebuild:            {rebuild_rate:,.0f} events/s "
        f"({rebuild['seconds']:.1f} s), ratio {rebuild_rate / raw_rate:.2f} (goal >= 0.25)"
    )
    tables, seconds = pair_one_round(args.db)
    print(f"(b) pairing one Swiss round: {tables} tables in {seconds:.2f} s (goal <= 2 s)")
    verified, seconds = verify_all(args.db)
    print(
        f"(d) tournament verify: {verified / seconds:,.0f} events/s ({seconds:.1f} s), "
        f"{verified / seconds / raw_rate:.2f} of the raw rate"
    )
    peak = (rebuild["rss_kib"] - base["rss_kib"]) / 1024
    print(
        f"(c) rebuild peak memory: {rebuild['rss_kib'] / 1024:.0f} MiB resident "
        f"({peak:.0f} MiB over an idle process that imported the same modules)"
    )


if __name__ == "__main__":
    main()
