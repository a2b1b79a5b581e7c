"""Writer processes for the concurrency and crash tests (and benchmarks/postgres.py).

    python -m tests.tournament.writers own DB NAME MOVES      # a match of its own, MOVES moves
    python -m tests.tournament.writers shared DB NUMBER MOVES  # into one match, racing others
    python -m tests.tournament.writers forever DB NUMBER       # until killed

Each prints one JSON line a move once the store has acknowledged it (flushed at once, so a
killed writer has told exactly what was acknowledged), and a last line with its refusals.
"""

from __future__ import annotations

import json
import os
import sys
import time

from tournament.errors import StoreError
from tournament.logformat.matchlog import canonical
from tournament.storage.locations import close
from tournament.storage.store import Store

HEADER = canonical({"format": "tournament-match/1", "game": "tiro", "players": ["a", "b"]})
CHANGED = "changed while this was being recorded"


def line(name: str, n: int) -> str:
    """One move: opaque to the store, which stores and chains lines, never judges them."""
    return canonical({"type": "note", "by": name, "n": n})


def say(obj: object) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def main(mode: str, db: str, name: str, moves: int) -> None:
    store = Store(db)
    refused, other = 0, []
    try:
        if mode == "own":
            match = store.create(HEADER, [])
            say({"match": match.number, "at": time.time()})
            for n in range(moves):
                store.append(match, [line(name, n)])
                say({"ack": line(name, n)})
            say({"done": time.time()})
            return
        n = 0
        while mode == "forever" or n < moves:
            match = store.get_match(name)
            try:
                store.append(match, [line(f"w{os.getpid()}", n)])
            except StoreError as e:
                refused += 1
                if CHANGED not in str(e):
                    other.append(str(e))
                continue
            say({"ack": line(f"w{os.getpid()}", n)})
            n += 1
    finally:
        say({"refused": refused, "other": other})
        close(store)


if __name__ == "__main__":
    mode, db, name = sys.argv[1:4]
    main(mode, db, name, int(sys.argv[4]) if len(sys.argv) > 4 else 0)
