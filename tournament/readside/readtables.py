"""The read models' tables: their columns, and the tournament's rows in them (players, rounds,
pairings, standings). :mod:`tournament.readside.readmodels` fills them from the event store.

Described once for both backends: :class:`tournament.storage.sql.ReadDB` writes them in
SQLite's or PostgreSQL's dialect."""

from __future__ import annotations

import json
import json.encoder
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import orjson

from engine.games.base import Outcome
from tournament.domain import knockouts, views
from tournament.domain.results import standings_of, table_games, table_result
from tournament.domain.standings import TableResult
from tournament.readside import kept
from tournament.storage.sql import ReadDB
from tournament.storage.store import Store

if TYPE_CHECKING:
    from tournament.domain.tournaments import Tournament

SCHEMA = 4  # raised whenever a table's columns change: older read models are rebuilt
# (3: the standings' by_lot, #27; 4: no by_lot before anything is recorded)


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
            "by_lot": int,
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


TIEBREAK_COLUMNS = ("challenge", "buchholz", "buchholz_cut1", "sonneborn_berger", "head_to_head")
COLUMNS = {
    "players": ("name", "status", "seed", "since", "until", "reason"),
    "rounds": ("number", "closed", "tables"),
    "pairings": ("round", "table_no", "players", "bye", "why", "games", "matches", "decided",
                 "points", "amended"),
    "standings": ("rank", "player", "points", "played", *TIEBREAK_COLUMNS, "by_lot"),
}  # fmt: skip
"""The tournament's tables: their columns, in the order their rows are kept."""
KEYS = {"players": (0,), "rounds": (0,), "pairings": (0, 1), "standings": (1,)}
"""Each table's key: the places of its key columns in a row."""
TOURNAMENT_TABLES = tuple(COLUMNS)

Rows = dict[Any, tuple[Any, ...]]  # a table's rows by their key


@dataclass
class Written:
    """The tournament's rows as the read tables hold them after the event numbered
    ``position``, with what they were worked out from: a refresh writes only the rows its
    events change (#27). ``t`` and the rest are None until the rows are worked out from a
    tournament in this process (the rows read back from the tables, say)."""

    position: int
    outcomes: dict[str, Outcome | None]  # every match's, as the matches table holds it
    places: dict[str, tuple[int | None, int | None]]  # every match's round and table, as held
    rows: dict[str, Rows]
    t: Tournament | None = None
    rounds: tuple[views.Round, ...] = ()
    where: dict[str, tuple[int, int]] = field(default_factory=dict)  # match -> round, table index
    results: list[list[TableResult]] = field(default_factory=list)
    ranked: Any = None  # the standings' other inputs (see _ranked)
    mark: tuple[Any, ...] | None = None  # the events table's row at ``position`` (its identity)
    numbers: dict[Any, str] | None = None  # each match's number by its id, as the matches table


def fork(w: Written | None) -> Written | None:
    """A copy of ``w`` for a refresh to bring forward: the rows held stay as committed (a
    reader serves them while the refresh writes, and a refresh that rolls back leaves them as
    they were), sharing what the refresh replaces rather than changes (a table's rows)."""
    if w is None:
        return None
    return replace(
        w,
        outcomes=dict(w.outcomes),
        places=dict(w.places),
        rows=dict(w.rows),
        results=[list(r) for r in w.results],
        numbers=None if w.numbers is None else dict(w.numbers),
    )


def written(db: ReadDB, position: int) -> Written:
    """The tournament's rows as the tables hold them (another process wrote them last)."""
    rows: dict[str, Rows] = {}
    for name, columns in COLUMNS.items():
        key = _key(name)
        rows[name] = {key(row): tuple(row) for row in
                      db.rows(f"select {', '.join(columns)} from {name}")}  # fmt: skip
    outcomes: dict[str, Outcome | None] = {}
    places: dict[str, tuple[int | None, int | None]] = {}
    loads = orjson.loads
    for number, status, winners, points, round_no, table_no in db.rows(
        "select id, status, winners, points, round, table_no from matches"
    ):
        outcomes[number] = (
            Outcome(tuple(loads(winners)), loads(points)) if status == "finished" else None
        )
        places[number] = (round_no, table_no)
    return Written(position, outcomes, places, rows)


def _key(name: str) -> Callable[[Sequence[Any]], Any]:
    at = KEYS[name]
    if len(at) == 1:
        k = at[0]
        return lambda row: row[k]
    return lambda row: tuple(row[i] for i in at)


def tournament(db: ReadDB, t: Tournament, w: Written, touched: Iterable[str] = ()) -> None:
    """Bring the tournament's tables (and each match's round and table in its row) to what
    the tournament ``t`` and the matches' outcomes (``w.outcomes``) make them, writing only the
    rows that change (#27): the rows of a table whose stored state and matches' outcomes are as
    they were are not worked out again, and the standings only when a table's result or what
    else they follow from changed."""
    was = w.t
    if was is not None and was is not t and _inputs(was) == _inputs(t):
        w.t = was = t  # (a match's head recorded, a referee named: nothing the tables show)
    if t is was:
        _touched(db, t, w, touched)
        return
    outcome_of = w.outcomes.get
    rows = w.rows
    rounds, alike = _rounds(t, was, w.rounds)
    where = {number: (i, k) for i, r in enumerate(rounds) for k, tb in enumerate(r.tables)
             for number in tb.matches.values()}  # fmt: skip
    # A table stored as it was, in a tournament of the same settings, whose matches' outcomes
    # are as they were: its result and its row as they were.
    same = was is not None and was.settings == t.settings
    if not same:
        alike = set()
    alike -= {where[number] for number in touched if number in where}
    results: list[list[TableResult]] = []
    pairings: Rows = {}
    for i, r in enumerate(rounds):
        in_round = []
        for k, tb in enumerate(r.tables):
            key = (r.number, tb.number)
            if (i, k) in alike and key in rows["pairings"]:
                in_round.append(w.results[i][k])
                pairings[key] = rows["pairings"][key]
                continue
            result = table_result(t, tb, outcome_of)
            in_round.append(result)
            pairings[key] = _pairing(t, r.number, tb, result)
        results.append(in_round)
    if not same or was is None or was.players != t.players:
        _write(db, "players", rows, {
            p: (p, i.status, i.seed, i.since, i.until, i.reason)
            for p, i in views.players(t).items()
        })  # fmt: skip
    _write(db, "rounds", rows, {
        r.number: (r.number, int(r.closed), len(r.tables)) for r in rounds
    })  # fmt: skip
    _write(db, "pairings", rows, pairings)
    ranked = _ranked(t)
    if ranked is None or ranked != w.ranked or results != w.results:
        _write(db, "standings", rows, _standings(t, results))
    at = {
        number: (rounds[i].number, rounds[i].tables[k].number) for number, (i, k) in where.items()
    }
    placed = []
    for number, held in w.places.items():
        now = at.get(number, (None, None))
        if now != held:
            placed.append((*now, number))
            w.places[number] = now
    if placed:  # one statement for all (a round trip for each was half of a rebuild)
        db.run_many("update matches set round = ?, table_no = ? where id = ?", placed)
    w.t, w.rounds, w.where, w.results, w.ranked = t, rounds, where, results, ranked


def _rounds(
    t: Tournament, was: Tournament | None, before: tuple[views.Round, ...]
) -> tuple[tuple[views.Round, ...], set[tuple[int, int]]]:
    """``views.rounds(t)``, and the places (round, table, from 0) of the tables whose view is
    the one in ``before`` (the rounds' views of ``was``): a table's view is kept by what its
    stored table holds (:func:`tournament.domain.views.table`), so the same view is a table
    stored as it was (most of a refresh at 500 tables, not worked out again)."""
    rounds = views.rounds(t)
    if was is None or not before:
        return rounds, set()
    alike = {
        (i, k)
        for i, (r, old) in enumerate(zip(rounds, before, strict=False))  # (a round paired since)
        if r.number == old.number
        for k, (tb, held) in enumerate(zip(r.tables, old.tables, strict=False))
        if tb is held
    }
    return rounds, alike


def _inputs(t: Tournament) -> tuple[Any, ...]:
    """What the tournament's tables follow from (besides the matches' outcomes)."""
    return (t.settings, t.players, t.rounds)


def _touched(db: ReadDB, t: Tournament, w: Written, touched: Iterable[str]) -> None:
    """The tables of the same tournament after the ``touched`` matches moved: their rows, and
    the standings when a table's result changed."""
    outcome_of = w.outcomes.get
    pairings: Rows = {}
    changed = False
    for number in touched:
        if number not in w.where:
            continue
        i, k = w.where[number]
        r = w.rounds[i]
        tb = r.tables[k]
        result = table_result(t, tb, outcome_of)
        pairings[(r.number, tb.number)] = _pairing(t, r.number, tb, result)
        if result != w.results[i][k]:
            w.results[i][k], changed = result, True
        place = (r.number, tb.number)
        if w.places.get(number, place) != place:  # (written without it: a tournament read ahead)
            db.run("update matches set round = ?, table_no = ? where id = ?", [*place, number])
            w.places[number] = place
    held = w.rows["pairings"]
    pairings = {key: row for key, row in pairings.items() if held.get(key) != row}
    if pairings:
        _write(db, "pairings", w.rows, None, pairings)
    if changed:
        _write(db, "standings", w.rows, _standings(t, w.results))


def _ranked(t: Tournament) -> Any:
    """What the standings follow from besides the tables' results (None: worked out again at
    every change of the tournament, as a bracket's are)."""
    if knockouts.first_round(t) is not None:
        return None
    return (tuple(t.ranked_players), dumps(t.settings))


def _pairing(t: Tournament, number: int, tb: views.Table, result: TableResult) -> tuple[Any, ...]:
    return (
        number,
        tb.number,
        dumps(list(tb.players)),
        int(tb.bye),
        tb.why,
        dumps(table_games(t, tb)),
        dumps(dict(tb.matches)),
        int(result.decided),
        dumps(dict(result.points)) if result.points else None,
        dumps([a.to_json() for a in tb.amendments]) if tb.amendments else None,
    )


def _standings(t: Tournament, results: list[list[TableResult]]) -> Rows:
    return {
        row.player: (
            row.rank,
            row.player,
            row.points,
            row.played,
            *[row.values.get(k) for k in TIEBREAK_COLUMNS],
            int(row.by_lot),
        )  # fmt: skip
        for row in standings_of(t, results)  # by the bracket where there is one (#24)
    }


def _write(
    db: ReadDB, name: str, rows: dict[str, Rows], new: Rows | None, changes: Rows | None = None
) -> None:
    """Make table ``name`` hold the rows ``new``, where it holds ``rows[name]``: the rows that
    changed deleted and inserted again (the whole table when most of it changed). ``changes``:
    rows in place of some of the table's, none gone (``new`` is then the table with them)."""
    old = rows[name]
    if changes is None:
        assert new is not None
        rows[name] = new
        gone = [k for k in old if k not in new]
        changed = [row for k, row in new.items() if old.get(k) != row]
    else:  # (a new dict: the rows held by a reader are never changed in place)
        gone, changed = [], [row for k, row in changes.items() if old.get(k) != row]
        new = rows[name] = {**old, **changes}
    if not gone and not changed:
        return
    columns = COLUMNS[name]
    if len(gone) + len(changed) > len(new) // 2:
        db.run(f"delete from {name}")
        changed = list(new.values())
    else:
        at = KEYS[name]
        key = _key(name)
        where = " and ".join(f"{columns[i]} = ?" for i in at)
        keys = [(k,) if len(at) == 1 else k for k in gone] + [
            (key(row),) if len(at) == 1 else key(row) for row in changed
        ]
        db.run_many(f"delete from {name} where {where}", keys)
    if changed:
        db.insert(name, columns, changed)


def insert(db: ReadDB, table: str, rows: Iterable[dict[str, Any]]) -> None:
    """Insert rows of dicts (all with the same keys) in one statement."""
    rows = list(rows)
    if rows:
        db.insert(table, list(rows[0]), [list(row.values()) for row in rows])
