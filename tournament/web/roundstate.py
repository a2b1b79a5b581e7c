"""What a server keeps of a round's tables between requests (#27): each table's state, where each
player plays and who acts next in each match in play, each worked out again only for what moved
(a move at one table of a festival's 512 works out that table again). Shared by the home page,
the rounds' pages and the room's screen (:mod:`tournament.web.views`)."""

from __future__ import annotations

import functools
import weakref
from typing import Any

from tournament.domain import views
from tournament.domain.results import table_state
from tournament.domain.tournaments import Tournament
from tournament.errors import UserError
from tournament.readside import mirror, queries
from tournament.services.matches import load, summary
from tournament.services.stores import Store

# Per store, each table's state as last worked out: (round, table, why) -> (what it stood on,
# the state). A move at one table of a festival's 512 works out that table again (#27).
_states: weakref.WeakKeyDictionary[Store, dict[tuple[int, int, bool], tuple[Any, Any]]]
_states = weakref.WeakKeyDictionary()
# And each round's as a whole: (round, why) -> (the tournament's version and head, where the
# kept rows stood (their epoch, position), the states), so that a page afresh looks again only
# at the tables whose matches' rows moved since, not at each of the 512 (#27).
_rounds: weakref.WeakKeyDictionary[Store, dict[tuple[int, bool], tuple[Any, Any, list[Any]]]]
_rounds = weakref.WeakKeyDictionary()


def table_states(store: Store, t: Tournament, number: int, why: bool = False) -> list[Any]:
    """The tables of round ``number`` as :func:`table_state` gives them (``why``: with the
    pairing's reasons), each worked out again only when the tournament or its matches' stored
    outcomes moved; copies, for a page to add to."""
    m = queries.kept_rows(store)
    tables = views.paired(t, number).tables
    who = (t.version, getattr(t, "head", None))  # its chain head: its identity
    rounds = _rounds.setdefault(store, {})
    held = rounds.get((number, why))
    if m is not None and held is not None and held[0] == who:
        touched = mirror.touched_since(m, *held[1])
        if touched is not None:  # (None: not known what moved: each table looked at below)
            states = list(held[2])
            if touched:
                for i, tb in enumerate(tables):
                    if not touched.isdisjoint(tb.matches.values()):
                        mine = {n: queries.outcome_row(m, n) for n in tb.matches.values()
                                if n in m.rows}  # fmt: skip
                        states[i] = _state(store, t, tb, mine, why)
            rounds[(number, why)] = (who, (m.epoch, m.at), states)
            return [dict(state) for state in states]
    if m is not None:
        rows = {n: queries.outcome_row(m, n) for n in mirror.in_round(m, number)}
    else:
        rows = queries.round_rows(store, number)
    states = [_state(store, t, tb, rows, why) for tb in tables]
    if m is not None:
        rounds[(number, why)] = (who, (m.epoch, m.at), states)
    return [dict(state) for state in states]


def _state(store: Store, t: Tournament, tb: Any, rows: dict[str, Any], why: bool) -> Any:
    """One table's state, worked out again only when the tournament or its rows moved."""
    kept = _states.setdefault(store, {})
    mine = tuple(rows.get(n) for n in tb.matches.values())
    stands = (t.version, getattr(t, "head", None), mine)
    hit = kept.get((tb.round, tb.number, why))
    if hit is None or hit[0] != stands:
        known = queries.outcomes_of_rows(row for row in mine if row is not None)
        hit = kept[(tb.round, tb.number, why)] = (stands, table_state(t, tb, known.get, why=why))
    return hit[1]


# Per store, where each plays in the round in play: (the tournament's version and head, the
# list). It follows the pairing alone: a move leaves it (a festival's is a thousand names, #27).
_wheres: weakref.WeakKeyDictionary[Store, tuple[Any, list[dict[str, Any]]]]
_wheres = weakref.WeakKeyDictionary()


def where_of(store: Store, t: Tournament, tables: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """:func:`where`, kept while the tournament is the same (shared: never to be changed)."""
    who = (t.version, getattr(t, "head", None), len(t.rounds))
    hit = _wheres.get(store)
    if hit is None or hit[0] != who:
        hit = _wheres[store] = (who, where(tables))
    return hit[1]


def where(tables: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Where each player of the round plays: by name (without regard to case or accents), their
    table (or their bye)."""
    seats = [{"player": p, "table": tb["table"], "bye": bool(tb.get("bye"))}
             for tb in tables for p in tb["players"]]  # fmt: skip
    return sorted(seats, key=lambda s: (name_key(s["player"]), s["player"]))


@functools.lru_cache(maxsize=16384)
def name_key(name: str) -> str:
    """:func:`tournament.domain.names.key`, worked out once a name (a festival's index sorts a
    thousand names on every move)."""
    from tournament.domain.names import key

    return key(name)


# Per store, who acts next in a match at so many events (its log only grows: the number and
# the count name what was stored): a move at one table of a festival's round loads one (#27).
_nexts: weakref.WeakKeyDictionary[Store, dict[tuple[str, int, Any], list[dict[str, Any]]]]
_nexts = weakref.WeakKeyDictionary()


def next_of(store: Store, number: str, events: int, created: Any) -> list[dict[str, Any]]:
    """Who acts in a match in play, and what is expected of them (``created``: when the
    tournament was created, so a tournament started over never shows the old one's)."""
    kept = _nexts.setdefault(store, {})
    hit = kept.get((number, events, created))
    if hit is None:
        try:
            hit = list(summary(load(store, number))["next"])
        except UserError:
            hit = []
        if len(kept) > 8192:  # (a festival's round in play is 2,560 matches)
            kept.clear()
        kept[(number, events, created)] = hit
    return [dict(nx) for nx in hit]
