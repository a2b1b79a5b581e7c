"""Queries of the read models: standings, players, matches, outcomes.

The services and both front ends ask these, never the tables themselves: the SQL stays on the
read side. Each reads :func:`tournament.readside.readmodels.database` as it is; a command that
wants the latest events brings the read models up to date first (``readmodels.update``). The
outcomes are the exception: a service decides on them (a round closes, a round is paired, a
status or a correction is reckoned), so they are read up to the last stored event, always
(``readmodels.current``, #29).
Rows are plain dicts, one per row, keyed by column (what ``--json`` and the pages print).
"""

from __future__ import annotations

import hashlib
import weakref
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import orjson

from engine.games.base import Outcome
from tournament.readside import kept, mirror, readmodels, readtables
from tournament.storage.store import Store, match_uuid

MATCH_COLUMNS = ", ".join(mirror.COLUMNS)  # (the rows a server keeps, #27)
JSON_COLUMNS = mirror.JSON_COLUMNS


def _rows(store: Store, sql: str, params: list[Any] | None = None) -> list[dict[str, Any]]:
    return list(readmodels.database(store).query(sql, params or []))


def outcomes(store: Store) -> dict[str, Outcome | None]:
    """Each match's outcome (None: in play), by number, up to the last stored event (the read
    models are brought up to date first when they lag)."""
    db = readmodels.current(store)
    # Read once a position on a server, for every page that needs them (#27).
    found: dict[str, Outcome | None] = kept.at_position(
        store, readmodels.position(db), lambda: readmodels.outcomes(db)
    )
    return found


def outcomes_in_round(store: Store, number: int) -> dict[str, Outcome | None]:
    """The outcomes of one round's matches (None: in play), by number, up to the last stored
    event: a page that shows the round in play reads its matches, not every match of the
    tournament (#27)."""
    return outcomes_of_rows(round_rows(store, number).values())


def round_rows(store: Store, number: int) -> dict[str, tuple[str, str, str | None, str | None]]:
    """One round's matches' outcome columns as stored (number, status, winners, points: JSON
    undecoded), by number, up to the last stored event: what a table's state stands on, read
    in one statement, decoded only for the tables that changed (#27)."""
    db = readmodels.current(store)
    if kept.kept(store):  # a server's: from the rows it keeps (#27)
        m = mirror.mirrored(store)
        return {n: outcome_row(m, n) for n in mirror.in_round(m, number)}
    rows = db.rows("select id, status, winners, points from matches where round = ?", [number])
    return {row[0]: row for row in rows}


def kept_rows(store: Store) -> mirror.Mirror | None:
    """The matches' rows a server keeps (:mod:`tournament.readside.mirror`), up to the last
    stored event; None for a store that keeps none (a command line call)."""
    readmodels.current(store)
    return mirror.mirrored(store) if kept.kept(store) else None


def outcome_row(m: mirror.Mirror, number: str) -> tuple[str, str, str | None, str | None]:
    """A kept match's outcome columns as :func:`round_rows` gives them."""
    return (number, *m.rows[number][3:6])


def outcomes_of_rows(rows: Iterable[Sequence[Any]]) -> dict[str, Outcome | None]:
    return {
        number: Outcome(tuple(orjson.loads(winners)), orjson.loads(points))
        if status == "finished"
        else None
        for number, status, winners, points in rows
    }


def positions(store: Store) -> tuple[int, int]:
    """Where the store and its read models stand: the last stored event's id and the last one
    the read models hold (what a server's kept pages stand on, asked on every request). In a
    file both are read in one statement on the store's own connection, rather than on a
    connection opened for the read models each time (#27)."""
    # (not where the read models are a copy this process keeps in memory)
    if not store.location.is_server and store not in readmodels._views:
        recorder: Any = store.recorder
        try:
            with recorder.datastore.transaction(commit=False) as c:
                c.execute(
                    f"select ({recorder.select_max_notification_id_statement}), "
                    "(select position from _projections where name = ?)",
                    [readmodels.PROJECTION],
                )
                last, read = c.fetchone()
            return last or 0, read or 0
        except Exception:  # noqa: BLE001 - no read models yet, say: asked the long way
            pass
    return store.recorder.max_notification_id() or 0, readmodels.position(
        readmodels.database(store)
    )


def stored_digest(store: Store, number: str) -> str | None:
    """A digest of every byte stored of one match (None: nothing stored under its number), read
    by its index: what a match's page verifies stands while this does, whatever else the store
    holds (#27), and a change made behind the program's back changes it."""
    rows = store.recorder.select_events(match_uuid(number))
    if not rows:
        return None
    digest = hashlib.blake2b(digest_size=16)
    for row in rows:
        digest.update(
            b"%d\0%s\0%d\0" % (row.originator_version, row.topic.encode(), len(row.state))
        )
        digest.update(row.state)
    return digest.hexdigest()


def decided_at(store: Store) -> int:
    """Where, in the read models as they are, a finished match's row last changed (a match
    ended, an outcome corrected or voided, a finished match's later event): what the standings
    and the results stand on besides the tournament itself. A move inside a match in play
    leaves it as it was and costs two indexed reads (:mod:`tournament.readside.mirror`), not a
    look at every match (#27). From a process's first look: the position then."""
    return mirror.mirrored(store).decided


def outcome_of(store: Store) -> Callable[[str], Outcome | None]:
    """A match's outcome by its number (what the services' reckonings take)."""
    return outcomes(store).get


STANDING_COLUMNS = readtables.COLUMNS["standings"]
# Each column's type as the table declares it (SQLite's INTEGER and FLOAT affinities: a row
# held in memory reads as the table gives it back).
_STANDING_TYPES = (int, str, float, int, *(float for _ in readtables.TIEBREAK_COLUMNS), int)


class Shared(list[dict[str, Any]]):
    """Rows a server keeps and shares with every page that reads them: never to be changed
    (a page that marks one copies it), so what each encodes to is worked out once (#27)."""


_standings: weakref.WeakKeyDictionary[Store, tuple[Any, Shared]] = weakref.WeakKeyDictionary()


def standings(store: Store, top: int | None = None) -> list[dict[str, Any]]:
    """The standings, best first, with their tie-break columns (``top``: the first so many
    alone); read as tuples and made dicts at once (#27). A server on a file takes them from
    the rows its refresh of the read models wrote (or read once), not from the table."""
    rows = _held_standings(store)
    if rows is not None:
        return rows if top is None else Shared(rows[:top])
    names = STANDING_COLUMNS
    statement = f"select {', '.join(names)} from standings order by rank, player"
    found = readmodels.database(store).rows(
        *((statement,) if top is None else (f"{statement} limit ?", [top]))
    )
    return [dict(zip(names, row, strict=True)) for row in found]


def _held_standings(store: Store) -> Shared | None:
    """The standings as the table holds them, from the rows this process holds (None: read
    the table: not a server's, a server's database (whose order of names is its collation's),
    or rows not known to be the table's)."""
    if not kept.kept(store) or store.location.is_server:
        return None
    w = _held(store, readmodels.database(store))
    if w is None:
        return None
    held = w.rows["standings"]
    hit = _standings.get(store)
    if hit is None or hit[0] is not held:  # (the table's rows are replaced when rewritten)
        names = STANDING_COLUMNS
        ordered = sorted(held.values(), key=lambda row: (row[0], row[1]))  # rank, player
        rows = Shared(dict(zip(names, map(_as_stored, _STANDING_TYPES, row), strict=True))
                      for row in ordered)  # fmt: skip
        hit = _standings[store] = (held, rows)
    return hit[1]


def _held(store: Store, db: Any) -> readtables.Written | None:
    """The tournament's rows as ``db`` holds them now, from what this process's refresh wrote
    (read from the tables where it wrote none since: the next refresh starts from them); None
    when they are not known to be the tables' (a refresh under way, another process writing)."""
    w = readmodels.held(store)
    at = readmodels.position(db)
    if (w is None or w.position != at) and at and readmodels.schema(db) == readmodels.SCHEMA:
        fresh = readtables.written(db, at)
        fresh.mark = readmodels.mark(db, at)
        w = readmodels.held(store, w, fresh)  # (unless a refresh kept its own meanwhile)
    return w if w is not None and w.position == at and w.mark == readmodels.mark(db, at) else None


def _as_stored(kind: type, value: Any) -> Any:
    """``value`` as a column of type ``kind`` gives it back."""
    if value is None or kind is str:
        return value
    if kind is float:
        return float(value)
    return int(value) if isinstance(value, bool | float) and float(value).is_integer() else value


def ranked(store: Store) -> int:
    """How many rows the standings have."""
    rows = _held_standings(store)
    if rows is not None:
        return len(rows)
    return int(readmodels.database(store).rows("select count(*) from standings")[0][0])


def standing(store: Store, player: str) -> dict[str, Any] | None:
    """One player's row of the standings (None: not ranked)."""
    rows = _rows(store, "select * from standings where player = ?", [player])
    return rows[0] if rows else None


def players(store: Store) -> list[dict[str, Any]]:
    """The registered players in seed order: name, status, seed, since, until, reason."""
    return _rows(
        store, "select name, status, seed, since, until, reason from players order by seed"
    )


def matches(
    store: Store,
    *,
    status: str | None = None,
    round_number: int | None = None,
    outside_rounds: bool = False,
    player: str | None = None,
    last: int | None = None,
) -> list[dict[str, Any]]:
    """The stored matches in number order (``status``: ``finished`` or ``in_progress``; in one
    round, outside every round, or played by ``player``; ``last``: the last so many of them
    alone), their JSON columns decoded (a server's rows are shared, never to be changed)."""
    if kept.kept(store) and player is None:  # a server's: from the rows it keeps (#27)
        m = mirror.mirrored(store)
        if round_number is not None and outside_rounds:
            return []
        chosen = None if outside_rounds else mirror.EVERY if round_number is None else round_number
        numbers = mirror.in_round(m, chosen)
        if status is not None:  # (by the row as stored: only those shown are decoded)
            numbers = [n for n in numbers if m.rows[n][3] == status]
        return Shared(_decoded(m, numbers[-last if last else 0 :]))
    where: list[str] = []
    params: list[Any] = []
    if status is not None:
        where.append("status = ?")
        params.append(status)
    if round_number is not None:
        where.append("round = ?")
        params.append(round_number)
    if outside_rounds:
        where.append("round is null")
    # A cheap filter first (SQLite's LIKE refuses patterns over 50,000 bytes); the decoded
    # list decides.
    if player is not None and len(player) <= 1000:
        where.append("players like ?")
        params.append(f"%{readtables.dumps(player)}%")  # as the column is written
    clause = f"where {' and '.join(where)} " if where else ""
    rows = _rows(
        store,
        f"select {MATCH_COLUMNS} from matches {clause}order by cast(substr(id, 2) as integer)",
        params,
    )
    for r in rows:
        for key in JSON_COLUMNS:
            r[key] = orjson.loads(r[key]) if r[key] else None
    found = [r for r in rows if player is None or player in (r["players"] or [])]
    return found[-last if last else 0 :]


def _decoded(m: mirror.Mirror, numbers: list[str]) -> list[dict[str, Any]]:
    """:func:`mirror.decoded` of each of ``numbers``, the rows decoded before taken as they are
    (a festival's round: thousands of them, #27)."""
    rows, held, found = m.rows, m.decoded, []
    for n in numbers:
        hit = held.get(n)
        found.append(hit[1] if hit is not None and hit[0] is rows[n] else mirror.decoded(m, n))
    return found


def count_matches(store: Store, *, status: str, round_number: int) -> int:
    """How many matches of a round have ``status``."""
    if kept.kept(store):
        m = mirror.mirrored(store)
        return sum(1 for n in mirror.in_round(m, round_number) if m.rows[n][3] == status)
    statement = "select count(*) from matches where status = ? and round = ?"
    return int(readmodels.database(store).rows(statement, [status, round_number])[0][0])
