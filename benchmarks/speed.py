"""Issue 15, every row in one run: each figure a ratio of two timings taken side by side.

(1) one ``tournament match roll`` process against ``python -c "import typer, rich,
    eventsourcing.application"`` (goal <= 1.3x; :mod:`cli_record` does the timing);
(2) ``verify`` of a simulated tournament of about 22,000 events: its events per second after
    start-up against a raw sqlite3 scan of the same rows with ``json.loads`` (goal >= 0.25), as
    the command runs it (the matches checked on every core) and in one process (``--jobs 1``);
(3) loading one stored 300-event match, as ``match show`` does, against the raw scan of its rows
    (goal >= 0.25);
(4) rebuilding the read models against the raw scan (goal >= 0.5).

Bytecode caching is on, as on a user's machine (PYTHONDONTWRITEBYTECODE is unset for every
process this script starts; run it as ``python benchmarks/speed.py``).

    python benchmarks/speed.py                      # builds the tournament in a temporary folder
    python benchmarks/speed.py --db /tmp/speed.db   # kept: built the first time, reused after
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import cli_record  # noqa: E402 - beside this script
from replay import long_match  # noqa: E402

PLAYERS, ROUNDS = 144, 5  # about 22,000 stored events
LONG = 300  # events of the stored match that (3) loads

ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def paired(
    raw: Callable[[], object], subject: Callable[[], object], repeat: int
) -> tuple[float, float]:
    """The medians of ``repeat`` timings of each, taken in turn (raw, subject, raw, ...), so that
    both see the same load on a shared machine: their ratio is steadier than timings taken apart."""
    raws: list[float] = []
    subjects: list[float] = []
    for _ in range(repeat):
        for fn, runs in ((raw, raws), (subject, subjects)):
            start = time.perf_counter()
            fn()
            runs.append(time.perf_counter() - start)
    return statistics.median(raws), statistics.median(subjects)


def raw_scan(db: Path, aggregate: str | None = None) -> int:
    """Every stored row (or one aggregate's), read with sqlite3 and decoded with json.loads."""
    conn = sqlite3.connect(db)
    where = " where originator_id = ? order by originator_version" if aggregate else ""
    count = 0
    for (state,) in conn.execute(
        f"select state from stored_events{where}", [aggregate] if aggregate else []
    ):
        json.loads(state)
        count += 1
    conn.close()
    return count


def build(db: Path) -> None:
    """The tournament of rows (2) and (4), and the long match of (3), outside it."""
    from tournament.logformat.matchlog import canonical, chain, write_log
    from tournament.services import simulate
    from tournament.services.matches import check_log, import_log
    from tournament.storage.store import Store

    start = time.perf_counter()
    store = Store(db)
    simulate.run(store, simulate.Simulation(players=PLAYERS, rounds=ROUNDS, seed=15))
    head, events = long_match(LONG, players=10)  # four rarely play on that long
    header_line, lines = canonical(head), [canonical(e) for e in events]
    text = write_log(header_line, lines, chain(header_line, lines))
    match = import_log(store, check_log(text))
    print(f"built {db} in {time.perf_counter() - start:.0f} s (the long match is {match.number})")


def main() -> None:
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    sys.dont_write_bytecode = False
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", type=Path, help="kept between runs (built the first time)")
    parser.add_argument("--runs", type=int, default=15, help="processes timed for (1)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or Path(tmp) / "speed.db"
        if not db.exists():
            build(db)
        measure(db, args.runs)


def measure(db: Path, runs: int) -> None:
    from engine.lexicon import default_lexicon
    from tournament.readside import readmodels
    from tournament.services.matches import load
    from tournament.storage.store import Store, match_uuid
    from tournament.verify import verify_store
    from tournament.verify.parallel import cores

    store = Store(db)
    long_number = next(m.number for m in store.matches() if len(m.lines) == LONG)
    stored = raw_scan(db)
    lexicon = default_lexicon()

    # (1) whole processes, interleaved.
    base, record = cli_record.timings(runs, env=ENV)
    b, r = statistics.median(base), statistics.median(record)
    print(
        f"(1) match roll {r * 1000:.0f} ms against the imports {b * 1000:.0f} ms: "
        f"{r / b:.2f}x (goal <= 1.3x; in CPU time {cli_record.cpu_ratio():.2f}x)"
    )

    # (2) verify, in this process after start-up, against the raw scan timed in turn with it.
    report = verify_store(db, lambda _: lexicon)
    assert report.ok, report.failures[:3]
    checked = report.events + report.tournament_events + report.matches
    # As the command runs it (the matches on every core), then with --jobs 1 (one process).
    for jobs, how in ((None, f"on {cores()} cores"), (1, "in one process")):
        raw, seconds = paired(
            lambda: raw_scan(db), partial(verify_store, db, lambda _: lexicon, jobs=jobs), 5
        )
        print(
            f"(2) verify of {checked:,} stored events {how}: {checked / seconds:,.0f} events/s, "
            f"raw scan {stored / raw:,.0f} events/s: {checked / seconds / (stored / raw):.2f} "
            "(goal >= 0.25)"
        )

    # (3) one 300-event match, loaded and replayed, against the raw scan of its rows.
    aggregate = match_uuid(long_number).hex
    raw_one, loading = paired(lambda: raw_scan(db, aggregate), lambda: load(store, long_number), 30)
    print(
        f"(3) load of {long_number} ({LONG} events): {loading * 1000:.1f} ms, raw scan of its "
        f"rows {raw_one * 1000:.2f} ms: {raw_one / loading:.3f} (goal >= 0.25)"
    )

    # (4) the read models rebuilt from the first event.
    rebuilt = readmodels.rebuild(store).events
    raw, seconds = paired(lambda: raw_scan(db), lambda: readmodels.rebuild(store), 5)
    print(
        f"(4) rebuild of the read models: {rebuilt / seconds:,.0f} events/s, raw scan "
        f"{stored / raw:,.0f} events/s: {rebuilt / seconds / (stored / raw):.2f} (goal >= 0.5)"
    )


if __name__ == "__main__":
    main()
