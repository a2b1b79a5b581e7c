"""The read models' tables: their columns, and the tournament's rows in them (players, rounds,
pairings, standings). :mod:`tournament.readside.readmodels` fills them from the event store.

Described once for both backends: :class:`tournament.storage.sql.ReadDB` writes them in
SQLite's or PostgreSQL's dialect."""

from __future__ import annotations

import json
import json.encoder
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from engine.games.base import Outcome
from tournament.domain import views
from tournament.domain.results import round_results, standings_of, table_games
from tournament.readside import kept
from tournament.storage.sql import ReadDB
from tournament.storage.store import Store

if TYPE_CHECKING:
    from tournament.domain.tournaments import Tournament

SCHEMA = 2  # raised whenever a table's columns change: older read models are rebuilt


def _encoder(ensure_ascii: bool) -> Callable[[Any], str]:
    """``json.dumps(value, ensure_ascii=ensure_ascii)``, the same text, from an encoder built
    once: json.dumps builds the C encoder again on every call (a microsecond, more than a short
    list takes to write), and a rebuild writes thousands of these columns (#15)."""
    plain = json.JSONEncoder(ensure_ascii=ensure_ascii).encode
    make = getattr(json.encoder, "c_make_encoder", None)  # the json module's own, not public
    if make is None:  # pragma: no cover - a Python without the json module's C accelerator
        return plain
    text = json.encoder.encode_basestring_ascii if ensure_ascii else json.encoder.encode_basestring
    try:
        # As json.dumps's own encoder with its default options (no circular check: these values
        # come from JSON or from the engine, never from a structure that holds itself).
        chunks = make(None, json.JSONEncoder().default, text, None, ": ", ", ", False, False, True)
    except TypeError:  # pragma: no cover - another Python's signature
        return plain
    return lambda value: "".join(chunks(value, 0))


dumps = _encoder(ensure_ascii=True)
"""``json.dumps(value)``: how the JSON columns (players, winners, points, ...) are written."""
dumps_unicode = _encoder(ensure_ascii=False)
"""``json.dumps(value, ensure_ascii=False)``: how the events table writes a tournament event."""


def create(db: ReadDB) -> None:
    """The read models' tables, made once (with the schema number they were made at)."""
    if "_projections" in db.tables():
        return
    db.create("_projections", {"name": str, "position": int}, pk="name")
    db.run("insert into _projections values ('schema', ?)", [SCHEMA])
    db.create(
        "events",
        {
            "id": int,
            "aggregate": str,
            "version": int,
            "type": str,
            "at": str,
            "match": str,
            "payload": str,
        },
        pk="id",
    )
    db.create(
        "matches",
        {
            "id": str,
            "uuid": str,
            "game": str,
            "players": str,
            "outside": str,
            "events": int,
            "head": str,
            "status": str,
            "winners": str,
            "points": str,
            "last_end": str,
            "end_at": int,
            "corrected_at": int,
            "round": int,
            "table_no": int,
        },
        pk="id",
        unique=["uuid"],
    )
    db.create(
        "challenges",
        {"match": str, "player": str, "game": str, "points": int, "won": int},
        pk=("match", "player"),
    )
    db.create(
        "players",
        {"name": str, "status": str, "seed": int, "since": int, "until": int, "reason": str},
        pk="name",
    )
    db.create("rounds", {"number": int, "closed": int, "tables": int}, pk="number")
    db.create(
        "pairings",
        {
            "round": int,
            "table_no": int,
            "players": str,
            "bye": int,
            "why": str,
            "games": str,
            "matches": str,
            "decided": int,
            "points": str,
            "amended": str,
        },
        pk=("round", "table_no"),
    )
    db.create(
        "standings",
        {
            "rank": int,
            "player": str,
            "points": float,
            "played": int,
            "challenge": float,
            "buchholz": float,
            "buchholz_cut1": float,
            "sonneborn_berger": float,
            "head_to_head": float,
        },
        pk="player",
    )


def current(store: Store) -> Tournament | None:
    """The store's tournament (None: the store holds matches only), only to read (a server
    keeps it: :mod:`tournament.readside.kept`)."""
    return kept.tournament(store)


def places(t: Tournament) -> dict[str, tuple[int, int]]:
    """Each match of the tournament's tables: its round and table."""
    return {
        number: (tb.round, tb.number) for tb in views.tables(t) for number in tb.matches.values()
    }


def tournament(
    db: ReadDB, t: Tournament, known: dict[str, Outcome | None], placed: bool = False
) -> None:
    """Rewrite the tournament's tables from the tournament and the matches' outcomes, and each
    match's round and table in its row (``placed``: the rows were written with them)."""

    def outcome_of(match_id: str) -> Outcome | None:
        return known.get(match_id)

    for name in ("players", "rounds", "pairings", "standings"):
        db.run(f"delete from {name}")
    insert(
        db,
        "players",
        (
            {
                "name": p,
                "status": i.status,
                "seed": i.seed,
                "since": i.since,
                "until": i.until,
                "reason": i.reason,
            }
            for p, i in views.players(t).items()
        ),
    )
    rounds = views.rounds(t)
    insert(
        db,
        "rounds",
        ({"number": r.number, "closed": int(r.closed), "tables": len(r.tables)} for r in rounds),
    )
    pairings = []
    results = round_results(t, outcome_of)  # once, for the pairings and the standings
    for r, in_round in zip(rounds, results, strict=True):
        for tb, result in zip(r.tables, in_round, strict=True):
            pairings.append(
                {
                    "round": r.number,
                    "table_no": tb.number,
                    "players": dumps(list(tb.players)),
                    "bye": int(tb.bye),
                    "why": tb.why,
                    "games": dumps(table_games(t, tb)),
                    "matches": dumps(dict(tb.matches)),
                    "decided": int(result.decided),
                    "points": dumps(dict(result.points)) if result.points else None,
                    "amended": dumps([a.to_json() for a in tb.amendments])
                    if tb.amendments
                    else None,
                }
            )
    if not placed:  # one statement for all (a round trip for each was half of a rebuild)
        db.run_many(
            "update matches set round = ?, table_no = ? where id = ?",
            [(*place, number) for number, place in places(t).items()],
        )
    insert(db, "pairings", pairings)
    insert(
        db,
        "standings",
        (
            {
                "rank": row.rank,
                "player": row.player,
                "points": row.points,
                "played": row.played,
                **{
                    k: row.values.get(k)
                    for k in (
                        "challenge",
                        "buchholz",
                        "buchholz_cut1",
                        "sonneborn_berger",
                        "head_to_head",
                    )
                },
            }
            for row in standings_of(t, results)  # by the bracket where there is one (#24)
        ),
    )


def insert(db: ReadDB, table: str, rows: Iterable[dict[str, Any]]) -> None:
    """Insert rows of dicts (all with the same keys) in one statement."""
    rows = list(rows)
    if rows:
        db.insert(table, list(rows[0]), [list(row.values()) for row in rows])
