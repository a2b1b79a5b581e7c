"""The read models' refresh, its CPU a batch of events (issue 27): what a server's live task
spends after every move to bring the read tables up to date.

A tournament of ``--tables`` tables in round 1 (SQLite, the store kept in memory as a server
keeps it); at ``--playing`` of them (20) the partita is chosen and the Tiro started (a refresh
after each start), then the Tiro's five moves at each, one refresh after each move, as the
live task does when moves come one at a time. Prints the refresh's CPU (process time) a
batch: after a match's start, after a move inside a match, after the move that ends it.

``--code DIR ...`` runs the same measure with each checkout's ``tournament`` (``--code ../main
.``: before and after, in one run, each in its own process).

    python benchmarks/refresh.py                        # 20, 100 and 500 tables
    python benchmarks/refresh.py --tables 20 100 --code /work/main .
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

GAMES = ["tiro", "texas", "ventuno", "updown"]
TIRO = ["roll {a} d6 6 6 5 1", "roll {b} d6 5 4 2 1", "roll {a} d20 11",
        "expr {a} 6 x (5:6+1)", "expr {b} (5+4+2):1"]  # fmt: skip


def measure(tables: int, playing: int = 20) -> dict[str, Any]:
    """The refresh's CPU a batch (ms), in a store of ``tables`` tables of which the first
    ``playing`` play (this process's code)."""
    from tournament.readside import kept, readmodels
    from tournament.services import day, play
    from tournament.services import tables as round_tables
    from tournament.storage.locations import close
    from tournament.storage.store import Store

    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "t.db")
        store = Store(db)
        day.create(store, "Carico", games=GAMES, rounds=3)
        day.add_players(store, [f"p{i:04d}" for i in range(1, 2 * tables + 1)])
        day.pair_next_round(store)
        readmodels.update(store, write=True)
        close(store)
        store = Store(db)
        kept.keep(store)  # as a server keeps it
        readmodels.update(store, write=True)

        def refreshed() -> float:
            start = time.process_time()
            readmodels.update(store, write=True)
            return (time.process_time() - start) * 1000

        started, inside, ended = [], [], []
        seats: dict[int, tuple[str, str, str]] = {}
        for table in range(1, min(playing, tables) + 1):
            round_tables.choose_partita(store, 1, table, GAMES)
            match = play.start_challenge(store, 1, table, "tiro")
            a, b = json.loads(match.header)["players"]
            seats[table] = (match.number, a, b)
            started.append(refreshed())
        for k, move in enumerate(TIRO):
            for table in seats:
                number, a, b = seats[table]
                play.record_move(store, number, move.format(a=a, b=b))
                (ended if k == len(TIRO) - 1 else inside).append(refreshed())
        close(store)
    return {
        "tables": tables,
        "start": statistics.mean(started),
        "move": statistics.mean(inside),
        "end": statistics.mean(ended),
        "end_max": max(ended),
    }


def inner(tables: list[int], playing: int) -> None:
    print(json.dumps([measure(n, playing) for n in tables]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[20, 100, 500])
    parser.add_argument(
        "--playing", type=int, default=20, help="the tables that play their Tiro (the first)"
    )
    parser.add_argument(
        "--code", nargs="+", default=[str(HERE.parent)], help="checkouts measured, each apart"
    )
    parser.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.inner:
        inner(args.tables, args.playing)
        return
    print("the read models' refresh, CPU a batch (ms): after a match's start / a move inside a "
          "match / the move that ends it (mean; the slowest)")  # fmt: skip
    for code in args.code:
        root = Path(code).resolve()
        out = subprocess.run(
            [
                sys.executable,
                __file__,
                "--inner",
                "--playing",
                str(args.playing),
                "--tables",
                *map(str, args.tables),
            ],  # fmt: skip
            env={**os.environ, "PYTHONPATH": str(root)},
            capture_output=True,
            text=True,
            check=True,
            cwd=tempfile.gettempdir(),
        ).stdout
        for row in json.loads(out.splitlines()[-1]):
            print(
                f"{root}  {row['tables']:>4} tables: start {row['start']:7.2f}  "
                f"move {row['move']:7.2f}  end {row['end']:7.2f} (slowest {row['end_max']:.2f})"
            )


if __name__ == "__main__":
    main()
