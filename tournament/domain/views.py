"""Typed, read-only views over the tournament's state: its rounds, their tables, its players.

The aggregate keeps the nested dicts its events have always built (its snapshots are sealed:
their shape cannot change), and the services and front ends read them through these frozen
values instead of by key. A view is a copy: changing it is impossible (frozen fields, tuples,
read-only mappings), and nothing done to it reaches the aggregate.

>>> t = type("T", (), {"rounds": [{"number": 1, "closed": False, "tables": [
...     {"table": 1, "players": ["Anna", "Bruno"], "bye": False, "why": "",
...      "matches": {"tiro": "M1"}}]}], "players": {}})()
>>> r = rounds(t)[0]
>>> r.tables[0].players, r.tables[0].matches["tiro"], r.tables[0].plays("M1")
(('Anna', 'Bruno'), 'M1', True)
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import orjson

if TYPE_CHECKING:
    from tournament.domain.pairing import Table as Pairing
    from tournament.domain.tournaments import Tournament


def _frozen(mapping: Mapping[str, Any]) -> Mapping[str, Any]:
    return MappingProxyType(dict(mapping))


@dataclass(frozen=True)
class Amendment:
    """The organizer's result for a table, standing over its matches (and the reason)."""

    points: Mapping[str, int]
    reason: str
    by: str

    def to_json(self) -> dict[str, Any]:
        """The amendment as the tournament stores it (its keys, in their order)."""
        return {"points": dict(self.points), "reason": self.reason, "by": self.by}


@dataclass(frozen=True)
class Forfeit:
    """A player who withdrew while the table played: they forfeit its challenges not yet ended
    (#24), and why."""

    player: str
    reason: str
    by: str

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "reason": self.reason, "by": self.by}


@dataclass(frozen=True)
class Table:
    """A round's table as paired and played: its players in seat order (or one with a bye),
    why it was paired so, the partita chosen, the match of each game, the amendments."""

    round: int
    number: int
    players: tuple[str, ...]
    bye: bool
    why: str
    reasons: tuple[Mapping[str, Any], ...]  # the why's codes (for translations)
    games: tuple[str, ...]  # the partita chosen (none yet, or a single-game tournament)
    matches: Mapping[str, str]  # game -> match number
    amendments: tuple[Amendment, ...]
    forfeits: tuple[Forfeit, ...] = ()

    @property
    def forfeited(self) -> tuple[str, ...]:
        """The players who forfeit the table's challenges not yet ended, in order."""
        return tuple(dict.fromkeys(f.player for f in self.forfeits))

    @property
    def amended(self) -> Amendment | None:
        """The amendment that stands (the last), if any."""
        return self.amendments[-1] if self.amendments else None

    @property
    def pairing(self) -> Pairing:
        """The pairing this table records (who, bye, why), as the pairing rules decide them."""
        from tournament.domain.pairing import Table as Pairing  # not loaded to record a move (#15)

        return Pairing(self.players, self.bye, self.why)

    def plays(self, match: str) -> bool:
        """Whether one of this table's games is the match numbered ``match``."""
        return match in self.matches.values()


@dataclass(frozen=True)
class Round:
    """A paired round: its number, whether it is closed, its tables in order."""

    number: int
    closed: bool
    tables: tuple[Table, ...]

    def table(self, number: int) -> Table:
        """The table numbered ``number`` (from 1)."""
        return self.tables[number - 1]


@dataclass(frozen=True)
class Player:
    """A registered player: active, withdrawn (before the first round) or dropped (after it),
    the round they joined from, their registration order, and when and why they left."""

    name: str
    status: str
    since: int
    seed: int
    until: int | None = None  # the last round played by one who dropped out
    reason: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The player as the tournament stores them (its keys, in their order; ``until`` and
        ``reason`` once withdrawn), without the name it is keyed by.

        >>> Player("Anna", "dropped", 1, 2, 1, "train").to_json()
        {'status': 'dropped', 'since': 1, 'seed': 2, 'until': 1, 'reason': 'train'}
        >>> Player("Bruno", "active", 2, 3).to_json()
        {'status': 'active', 'since': 2, 'seed': 3}
        """
        stored: dict[str, Any] = {"status": self.status, "since": self.since, "seed": self.seed}
        if self.until is not None:
            stored["until"] = self.until
        if self.reason is not None:
            stored["reason"] = self.reason
        return stored


_TABLES: dict[tuple[int, bytes], Table] = {}  # (round, the stored table's JSON) -> its view
_TABLES_LOCK = threading.Lock()
TABLES = 8192  # table views kept (a festival's rounds of hundreds of tables, and their changes)


def table(number: int, stored: Mapping[str, Any]) -> Table:
    """The view of one stored table of round ``number``.

    Kept by what the stored table holds, to the byte (its JSON: keys in their order, ``1``,
    ``1.0`` and ``true`` told apart), not by the dict: the aggregate is copied for every writer
    and brought forward for every reader, and a choice or a start changes one table of
    hundreds; a view is frozen, so one serves every tournament whose table holds the same
    (#27). A table that is not plain JSON is viewed afresh each time.
    """
    return _by_content(_TABLES, TABLES, (number, stored), lambda: _table(number, stored))


def _by_content(
    cache: dict[Any, Any],
    bound: int,
    what: tuple[int | None, Mapping[str, Any]],
    make: Callable[[], Any],
) -> Any:
    """The view ``make()`` gives of a stored value (``what``: its round, if it has one, and
    it), kept in ``cache`` (``bound`` at most, the oldest out first) by its JSON to the byte; a
    value that is not plain JSON is viewed afresh each time."""
    number, stored = what
    try:
        key = (number, orjson.dumps(stored))
    except TypeError:  # (orjson's refusal: not a mapping of JSON values)
        return make()
    view = cache.get(key)
    if view is None:
        view = make()
        with _TABLES_LOCK:  # (a server's threads view tables side by side)
            cache[key] = view
            while len(cache) > bound:  # the oldest first
                del cache[next(iter(cache))]
    return view


def _table(number: int, stored: Mapping[str, Any]) -> Table:
    return Table(
        round=number,
        number=stored["table"],
        players=tuple(stored["players"]),
        bye=bool(stored["bye"]),
        why=stored.get("why", ""),
        reasons=tuple(_frozen(r) for r in stored.get("reasons", ())),
        games=tuple(stored.get("games", ())),
        matches=_frozen(stored.get("matches", {})),
        amendments=tuple(
            Amendment(_frozen(a["points"]), a["reason"], a["by"])
            for a in stored.get("amendments", ())
        ),
        forfeits=tuple(
            Forfeit(f["player"], f["reason"], f["by"]) for f in stored.get("forfeits", ())
        ),
    )


def round_of(stored: Mapping[str, Any]) -> Round:
    """The view of one stored round."""
    number = stored["number"]
    return Round(
        number, bool(stored["closed"]), tuple(table(number, tb) for tb in stored["tables"])
    )


_ROUNDS: dict[tuple[None, bytes], Round] = {}  # the stored round's JSON -> its view
ROUNDS = 64  # (a festival's round of hundreds of tables: a few MB of JSON)


def _round_kept(stored: Mapping[str, Any]) -> Round:
    """:func:`round_of`, kept by what the stored round holds (as :func:`table` keeps a table's
    view): a writer's copy of the tournament views its rounds with one look each (#27)."""
    view: Round = _by_content(_ROUNDS, ROUNDS, (None, stored), lambda: round_of(stored))
    return view


_SEEN: dict[int, tuple[Any, int, tuple[Round, ...]]] = {}  # id -> (weak ref, version, rounds)
SEEN = 64  # tournaments whose rounds are kept (a server reads one, at a few versions)


def rounds(t: Tournament) -> tuple[Round, ...]:
    """The tournament's rounds, first to last.

    Kept for the aggregate at its version: a server asks a round of its tournament several
    times a request, and a round of hundreds of tables is not built again each time (#27).
    Every change to an aggregate is an event, which moves its version.
    """
    version = getattr(t, "version", None)
    hit = _SEEN.get(id(t))
    if hit is not None and version is not None and hit[0]() is t and hit[1] == version:
        return hit[2]
    built = tuple(_round_kept(r) for r in t.rounds)
    if version is not None:
        try:
            _SEEN[id(t)] = (weakref.ref(t), version, built)
        except TypeError:  # not an object a weak reference can name: not kept
            return built
        while len(_SEEN) > SEEN:
            _SEEN.pop(next(iter(_SEEN)), None)
    return built


def paired(t: Tournament, number: int) -> Round:
    """Round ``number`` (from 1; it must have been paired)."""
    return rounds(t)[number - 1]


def last_round(t: Tournament) -> Round | None:
    """The round paired last (None before the first)."""
    return rounds(t)[-1] if t.rounds else None


def open_round(t: Tournament) -> Round | None:
    """The round in play: the last paired, unless it is closed (None before the first).

    >>> t = type("T", (), {"rounds": [{"number": 1, "closed": True, "tables": []}]})()
    >>> open_round(t) is None, last_round(t).number
    (True, 1)
    >>> t.rounds.append({"number": 2, "closed": False, "tables": []})
    >>> open_round(t).number
    2
    """
    last = last_round(t)
    return None if last is None or last.closed else last


def tables(t: Tournament) -> tuple[Table, ...]:
    """Every table of every round, in order."""
    return tuple(tb for r in rounds(t) for tb in r.tables)


def table_of(t: Tournament, match: str) -> Table | None:
    """The table that plays the match numbered ``match`` (None: a match outside the rounds)."""
    return next((tb for tb in tables(t) if tb.plays(match)), None)


def matches_of(table: Table | Mapping[str, Any]) -> Mapping[str, str]:
    """A table's matches by game, from its view or from the stored table (the services that
    still hold stored tables pass them as they are)."""
    if isinstance(table, Table):
        return table.matches
    return _frozen(table.get("matches", {}))


def player(name: str, stored: Mapping[str, Any]) -> Player:
    """The view of one stored player."""
    return Player(
        name,
        stored["status"],
        stored["since"],
        stored["seed"],
        stored.get("until"),
        stored.get("reason"),
    )


def players(t: Tournament) -> Mapping[str, Player]:
    """Every registered player by name, in registration order."""
    return MappingProxyType({name: player(name, info) for name, info in t.players.items()})
