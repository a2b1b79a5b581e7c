"""The read models' refresh writes only the rows its events change (#27); whatever the order of
things, the tables it leaves are those a fresh rebuild makes.

Seeded random sequences of real commands (the services, as the web and the CLI call them): a
server's store (kept in memory, as ``serve`` keeps it) and another process's store (a CLI call)
on the same file, each refreshing the read models after its own batches of commands; after each
batch every table is compared, row by row, with a rebuild of the same file from its first event.
"""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tournament.domain import views
from tournament.errors import Refused
from tournament.readside import kept, readmodels
from tournament.services import corrections, day
from tournament.services import tables as round_tables
from tournament.services.matches import parsed
from tournament.storage.locations import close
from tournament.storage.sql import read_db
from tournament.storage.store import Store

PLAYERS = [f"p{i:02d}" for i in range(1, 11)]  # ten: five tables a round


def tables_of(store: Store) -> dict[str, list[tuple[Any, ...]]]:
    """Every read model's rows, in one order (the tables' physical order is not their meaning:
    every query orders its rows)."""
    db = readmodels.database(store)
    return {name: sorted(db.rows(f"select * from {name}"), key=repr) for name in readmodels.TABLES}


def rebuilt(db: Path | str) -> dict[str, list[tuple[Any, ...]]]:
    """The read models a rebuild makes of the store as it is: in memory for a file (the file
    untouched); on a server, its own tables made again (as ``db rebuild`` does)."""
    fresh = Store(db)
    try:
        if fresh.location.is_server:
            readmodels.rebuild(fresh)
            return in_file(fresh)
        readmodels.update(fresh, write=False, again=True)
        return tables_of(fresh)
    finally:
        close(fresh)


def in_file(store: Store) -> dict[str, list[tuple[Any, ...]]]:
    db = read_db(store)
    return {name: sorted(db.rows(f"select * from {name}"), key=repr) for name in readmodels.TABLES}


class Play:
    """A tournament driven by random commands, from a server's store and a CLI's."""

    def __init__(self, db: Path | str, rng: random.Random, **settings: Any) -> None:
        self.db, self.rng = db, rng
        first = Store(db)
        day.create(first, "Prova", plays="tiro", seed="7", **settings)
        day.add_players(first, PLAYERS)
        day.pair_next_round(first)
        close(first)
        self.server = Store(db)
        kept.keep(self.server)
        self.cli = Store(db)
        self.moves: dict[str, list[str]] = {}  # a match in play: the moves still to record
        self.done: dict[str, str] = {}  # count of each kind of command that took effect

    def tournament(self) -> Any:
        return day.get_tournament(self.cli)

    def step(self, store: Store) -> None:
        """One command, chosen among those the tournament allows now."""
        rng = self.rng
        t = self.tournament()
        r = views.last_round(t)
        outcomes = day.replayed_outcome(store)
        choices = []
        if self.moves:
            choices += ["move"] * 6
        if r is not None and not r.closed:
            free = [tb for tb in r.tables if not tb.bye and not tb.matches and tb.amended is None]
            if free:
                choices += ["start"] * 3
            choices += ["amend", "withdraw", "close"]
        else:
            choices += ["pair"]
        finished = [m for tb in views.tables(t) for m in tb.matches.values() if outcomes(m)]
        if finished:
            choices += ["void"]
        kind = rng.choice(choices)
        try:
            getattr(self, kind)(store, t, r, locals())
        except Refused:
            return
        self.done[kind] = self.done.get(kind, 0) + 1

    def start(self, store: Store, t: Any, r: Any, seen: dict[str, Any]) -> None:
        tb = self.rng.choice(seen["free"])
        match = round_tables.start_match(store, r.number, tb.number, "tiro")
        a, b = json.loads(match.header)["players"]
        hits = self.rng.choice([(a,), (b,), (a, b), ()])  # who hits 11: one, both (a draw), none
        self.moves[match.number] = [
            f"roll {a} d6 6 6 5 1",
            f"roll {b} d6 6 6 5 1",
            f"roll {a} d20 11",
            *[f"expr {p} 6x(5:6+1)" if p in hits else f"pass {p}" for p in (a, b)],
        ]

    def move(self, store: Store, t: Any, r: Any, seen: dict[str, Any]) -> None:
        number = self.rng.choice(sorted(self.moves))
        left = self.moves[number]
        try:
            corrections.record_correction(store, number, left[0], confirmed=True)
        finally:
            left.pop(0)  # (refused: a player withdrew, say; the next move is tried next)
            if not left:
                del self.moves[number]

    def amend(self, store: Store, t: Any, r: Any, seen: dict[str, Any]) -> None:
        tb = self.rng.choice([tb for tb in r.tables if not tb.bye])
        points = {p: self.rng.randint(0, 2) for p in tb.players}
        corrections.amend(store, r.number, tb.number, points, "a sheet", confirmed=True)

    def withdraw(self, store: Store, t: Any, r: Any, seen: dict[str, Any]) -> None:
        active = [p for p, i in views.players(t).items() if i.status == "active"]
        if len(active) > 6:
            day.withdraw(store, self.rng.choice(active), "a train")

    def close(self, store: Store, t: Any, r: Any, seen: dict[str, Any]) -> None:
        day.close_round(store)

    def pair(self, store: Store, t: Any, r: Any, seen: dict[str, Any]) -> None:
        day.pair_next_round(store)

    def void(self, store: Store, t: Any, r: Any, seen: dict[str, Any]) -> None:
        number = self.rng.choice(seen["finished"])
        event = parsed({"type": "void", "by": "referee", "on": 4, "reason": "a slip"})
        corrections.record_correction(store, number, event, confirmed=True)

    def stop(self) -> None:
        close(self.server)
        close(self.cli)


@pytest.mark.parametrize(
    ("seed", "settings"),
    [(1, {"rounds": 3}), (2, {"rounds": 3}), (3, {"format": "elimination"})],
)
def test_the_refreshed_tables_are_always_a_fresh_rebuilds(
    tmp_path: Path, seed: int, settings: dict[str, Any]
) -> None:
    kinds = {"start", "move", "amend", "withdraw", "close", "void"}
    assert kinds <= played(tmp_path / "t.db", seed, settings, 40)  # (what they are here for)


@pytest.mark.parametrize("backend", ["postgresql"])
def test_the_refreshed_tables_on_a_server_are_a_fresh_rebuilds(make_db: Any) -> None:
    """The same on PostgreSQL, where the read models are the server's tables (each compared
    with the tables rebuilt in their place, from which the next refresh goes on)."""
    assert {"start", "move"} <= played(make_db(), 5, {"rounds": 3}, 8)


def played(db: Path | str, seed: int, settings: dict[str, Any], steps: int) -> set[str]:
    """Random batches of commands, the tables compared after each; the commands that took
    effect."""
    rng = random.Random(seed)
    game = Play(db, rng, **settings)
    try:
        for _ in range(steps):
            store = rng.choice([game.server, game.server, game.cli])
            for _ in range(rng.randint(1, 3)):  # a batch: what a refresh finds stored
                game.step(store)
            readmodels.update(store, write=True)
            assert in_file(store) == rebuilt(db)
    finally:
        game.stop()
    return set(game.done)


def test_a_tournament_started_over_is_refreshed_as_rebuilt(tmp_path: Path) -> None:
    """Another process replaces the tournament (its events gone, a new one created, as the
    demo's rebuild does) after the server wrote its rows: the server's next refresh leaves the
    tables a rebuild of the new store makes."""
    from tournament.domain.tournaments import TOURNAMENT_ID

    db = tmp_path / "t.db"
    game = Play(db, random.Random(4), rounds=2)
    try:
        for _ in range(12):
            game.step(game.server)
            readmodels.update(game.server, write=True)
        with sqlite3.connect(db) as c:
            c.execute("delete from stored_events where originator_id = ?", [TOURNAMENT_ID.hex])
            c.execute("delete from stored_snapshots")
            for name in (*readmodels.TABLES, "_projections"):
                c.execute(f"drop table {name}")
        other = Store(db)
        day.create(other, "Altro", plays="tiro", rounds=1)
        day.add_players(other, PLAYERS[:4])
        day.pair_next_round(other)
        readmodels.update(other, write=True)  # the tables made again, by the other process
        close(other)
        round_tables.start_match(game.server, 1, 1, "tiro")
        readmodels.update(game.server, write=True)
        assert in_file(game.server) == rebuilt(db)
    finally:
        game.stop()
