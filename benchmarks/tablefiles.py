"""Table files (#26): what a checkout, a checkin and the guard on every save cost.

A simulated Swiss of partite (``--players``, ``--rounds`` closed), then the next round paired,
its partite chosen and table 1 checked out; the computer players play its four challenges on the
file, and the file is checked in. Printed: the store's events; the checkout (the verified copy
of the whole store) and the checkin (four fast-forwards, one transaction), each against a plain
``db copy`` of the same store; the guard's first reading of a store's table events in a process
(a scan of every event by its stored name) and its reading on after that (the new events only).

    python benchmarks/tablefiles.py [--players 64] [--rounds 3]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from tournament.domain import views  # noqa: E402
from tournament.services import day, simulate, tablefiles, tables  # noqa: E402
from tournament.services.copy import copy  # noqa: E402
from tournament.services.matches import lexicon_for  # noqa: E402
from tournament.storage import holds  # noqa: E402
from tournament.storage.locations import close  # noqa: E402
from tournament.storage.store import Store  # noqa: E402


def main() -> None:
    given = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    given.add_argument("--players", type=int, default=64)
    given.add_argument("--rounds", type=int, default=3)
    args = given.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="tablefiles-bench-"))
    db = folder / "t.db"
    sim = simulate.Simulation(players=args.players, rounds=args.rounds + 1, format="swiss")
    played = [0]

    def heard(line: str) -> None:  # stop pairing once the closed rounds are played
        played[0] += line.startswith("round ")
        if played[0] >= args.rounds:
            sim.max_events = 1

    sim.progress = heard
    store = Store(db)
    simulate.run(store, sim)
    paired = day.pair_next_round(store)
    number = paired["number"]
    t = day.get_tournament(store)
    games = [g for g in t.settings["games"] if g != "catena"][:4]  # (no outside player needed)
    for table in views.paired(t, number).tables:
        if not table.bye:
            tables.choose_partita(store, number, table.number, games)
    events = store.recorder.max_notification_id()

    def words(header: object) -> object:
        return lexicon_for(header, None)

    began = time.perf_counter()
    copy(db, folder / "copy.db", words)
    copied = time.perf_counter() - began
    began = time.perf_counter()
    out = tablefiles.checkout(store, number, 1, folder / "t1.db")
    checked_out = time.perf_counter() - began
    file = Store(folder / "t1.db")
    rng = random.Random(1)
    for game in out.matches:
        match = tables.start_match(file, number, 1, game)
        played_match = file.get_match(match.number)
        file.append(played_match, simulate.bots_play(played_match, rng))
    close(file)
    began = time.perf_counter()
    done = tablefiles.checkin(store, folder / "t1.db")
    checked_in = time.perf_counter() - began
    first, again = [], []
    for _ in range(7):
        fresh = Store(db)
        began = time.perf_counter()
        holds.holds(fresh)
        first.append(time.perf_counter() - began)
        began = time.perf_counter()
        holds.holds(fresh)
        again.append(time.perf_counter() - began)
        close(fresh)
    close(store)
    print(f"store: {events} events ({args.players} players, {args.rounds} rounds played)")
    print(f"db copy of it (verified):     {copied:6.2f} s")
    ratio = checked_out / copied
    print(f"table checkout (verified):    {checked_out:6.2f} s  ({ratio:.2f}x the copy)")
    added = sum(done.added.values())
    print(f"table checkin ({added} events): {checked_in:6.2f} s")
    print(f"the guard's first reading in a process: {statistics.median(first) * 1000:6.1f} ms")
    print(f"the guard's reading on after it:        {statistics.median(again) * 1000:6.2f} ms")


if __name__ == "__main__":
    main()
