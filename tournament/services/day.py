"""The organizer's day: create, register, pair, play, close, rank. Thin services over the store:
get the tournament, decide, save.

The decisions are the domain's: a round's pairing (:mod:`tournament.domain.rounds`), the results
and standings from the match logs' outcomes (:mod:`tournament.domain.results`). Reading and
saving the tournament is :mod:`tournament.services.stored`; a round's tables at play (the
partita chosen, the matches opened) are :mod:`tournament.services.tables`.

Each write (create, register, withdraw, pair, close) retries itself when another terminal saved
the tournament first: the whole read-decide-save is made again on what is stored now
(:func:`tournament.services.retry.retried`, one limit), for the command line and the web alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from eventsourcing.application import AggregateNotFoundError

from engine.games import game, names, tetragon
from engine.message import msg
from tournament.domain import views
from tournament.domain.names import admitted, registered
from tournament.domain.results import (  # noqa: F401 - the names the services' callers ask here
    PARTITA,
    OutcomeOf,
    current_standings,
    status,
    table_games,
    table_result,
)
from tournament.domain.rounds import pairings_for, pod_minimum
from tournament.domain.standings import TIEBREAKS
from tournament.domain.tournaments import FORMATS, TOURNAMENT_ID, Tournament
from tournament.errors import Refused
from tournament.services.matches import load
from tournament.services.retry import retried
from tournament.services.stored import get_tournament, save
from tournament.storage.store import Store

PARTITA_GAMES = 4  # CH-3
# One sentence per format, not the format's name in one sentence: a translation says each whole.
LATE_ENTRIES = {
    "round_robin": msg("a round robin takes no late entries"),
    "elimination": msg("a elimination takes no late entries"),
}


def replayed_outcome(store: Store) -> OutcomeOf:
    """Outcomes read by replaying each match log (the read models offer a faster one)."""
    return lambda match_id: load(store, match_id).replay.outcome


def _read_outcomes(store: Store) -> OutcomeOf:
    from tournament.readside import queries  # not imported by a recording call (#15)

    return queries.outcome_of(store)  # up to date: the read models catch up first (#29)


MOST_ROUNDS = 100  # a season of weekly evenings plays fewer; past it, a typo (#28)


def create(store: Store, name: str, by: str = "organizer", **settings: Any) -> Tournament:
    """Create the database's tournament; the settings are checked and recorded as given."""
    return retried(lambda: _create(store, name, by, settings))


def _create(store: Store, name: str, by: str, settings: dict[str, Any]) -> Tournament:
    try:
        store.get(TOURNAMENT_ID, msg("the tournament"))
    except AggregateNotFoundError:
        pass
    else:
        raise Refused(msg("this database already holds a tournament: use another --db"))
    config = {
        "name": name,
        "date": settings.get("date", ""),
        "venue": settings.get("venue", ""),
        "format": settings.get("format", "swiss"),
        "rounds": settings.get("rounds"),
        "plays": settings.get("plays", PARTITA),
        "games": list(settings.get("games") or tetragon()),
        "scoring": settings.get("scoring") or {"win": 3, "draw": 1, "loss": 0, "bye": 3},
        "placement": list(settings.get("placement") or []),
        "tiebreaks": list(settings.get("tiebreaks") or TIEBREAKS),
        "lang": settings.get("lang", "it"),
        "seed": str(settings.get("seed", name)),
        "third_place": bool(settings.get("third_place", False)),
        "table_size": int(settings.get("table_size", 4)),
        "demo": bool(settings.get("demo", False)),
    }
    if settings.get("seed_order"):  # create --seed-from: a season's players, best rated first
        config["seed_order"] = [str(p) for p in settings["seed_order"]]
    _check_settings(config)
    tournament = Tournament(settings=config, by=by)
    save(store, tournament)
    return tournament


def _check_settings(config: dict[str, Any]) -> None:
    if config["rounds"] is not None and (
        not isinstance(config["rounds"], int) or config["rounds"] < 1
    ):
        raise Refused(msg("a tournament has at least one round"))
    if config["rounds"] is not None and config["rounds"] > MOST_ROUNDS:
        raise Refused(
            msg(
                "a tournament has at most %(most)s rounds, not %(count)s",
                most=MOST_ROUNDS,
                count=config["rounds"],
            )
        )
    if config["format"] not in FORMATS:
        raise Refused(
            msg(
                "unknown format %(format)r (known: %(known)s)",
                format=config["format"],
                known=tuple(FORMATS),
            )
        )
    if config["plays"] != PARTITA and config["plays"] not in names():
        raise Refused(
            msg(
                "a pairing plays %(partita)r or one game (%(games)s)",
                partita=PARTITA,
                games=names(),
            )
        )
    bad = [g for g in config["games"] if g not in names()]
    if bad:
        raise Refused(msg("unknown game %(game)r (known: %(known)s)", game=bad[0], known=names()))
    if config["plays"] == PARTITA and len(set(config["games"])) < PARTITA_GAMES:
        raise Refused(msg("a Tetragon partita chooses four games: allow at least four (CH-3)"))
    if config["plays"] != PARTITA and config["format"] == "pods":
        if (game(config["plays"]).max_players or 3) < 3:
            raise Refused(
                msg(
                    "%(game)s is a duel: pair it in a two-player format",
                    game=game(config["plays"]).title,
                )
            )
    bad = [t for t in config["tiebreaks"] if t not in TIEBREAKS]
    if bad:
        raise Refused(
            msg(
                "unknown tie-break %(tiebreak)r (known: %(known)s)",
                tiebreak=bad[0],
                known=tuple(TIEBREAKS),
            )
        )
    if config["lang"] not in ("it", "en"):
        raise Refused(msg("printed material is in Italian (it) or English (en)"))
    smallest = pod_minimum(config["plays"], config["games"])
    if not smallest <= config["table_size"] <= 10:
        raise Refused(msg("tables of several players seat %(smallest)s to 10", smallest=smallest))


def add_players(store: Store, names: Sequence[str], by: str = "organizer") -> Tournament:
    """Register players; a name already registered in other case or accents is refused (#11)."""
    return retried(lambda: _add_players(store, names, by))


def _add_players(store: Store, names: Sequence[str], by: str) -> Tournament:
    t = get_tournament(store)
    for name in names:
        name = admitted(name)  # normalised, or refused: hidden characters, no letter, too long
        if name == "referee":
            raise Refused(msg("%(name)r cannot be a player's name", name=name))
        same = registered(name, t.players)  # giallo beside Giallo is Giallo (#11)
        if same is not None and t.players[same]["status"] != "withdrawn":
            shown = same if same == name else msg("%(name)s (as %(same)s)", name=name, same=same)
            raise Refused(msg("%(player)s is already registered", player=shown))
        name = same or name
        if t.settings["format"] in ("round_robin", "elimination") and t.rounds:
            raise Refused(LATE_ENTRIES[t.settings["format"]])
        t.register(player=name, by=by)
    save(store, t)
    return t


def withdraw(store: Store, name: str, reason: str, by: str = "organizer") -> Tournament:
    """Withdraw an active player (before the first round) or drop them (after it)."""
    return retried(lambda: _withdraw(store, name, reason, by))


def _withdraw(store: Store, name: str, reason: str, by: str) -> Tournament:
    t = get_tournament(store)
    if not name.strip():
        raise Refused(msg("name the player to withdraw"))
    name = registered(name, t.players) or name
    if name not in t.players or t.players[name]["status"] != "active":
        raise Refused(msg("%(name)s is not an active player of this tournament", name=name))
    t.withdraw(player=name, reason=reason, by=by)
    save(store, t)
    return t


def pair_next_round(
    store: Store, outcome_of: OutcomeOf | None = None, by: str = "organizer"
) -> dict[str, Any]:
    """Pair the next round and record it; the previous round must be closed. The outcomes are
    the read models' brought up to the last stored event unless given (#29)."""
    return retried(lambda: _pair_next_round(store, outcome_of, by))


def _pair_next_round(store: Store, outcome_of: OutcomeOf | None, by: str) -> dict[str, Any]:
    t = get_tournament(store)
    if t.rounds and not t.rounds[-1]["closed"]:
        raise Refused(msg("round %(round)s is not closed yet", round=len(t.rounds)))
    number = len(t.rounds) + 1
    tables = pairings_for(t, number, outcome_of or _read_outcomes(store))
    records = [tb.to_json(i) for i, tb in enumerate(tables, 1)]
    t.pair_round(number=number, tables=records, by=by)
    save(store, t)
    return t.rounds[-1]


def close_round(
    store: Store, outcome_of: OutcomeOf | None = None, by: str = "organizer"
) -> dict[str, Any]:
    """Close the current round once every table is decided (the outcomes are the read models'
    brought up to the last stored event unless given: a move recorded a moment ago counts,
    however late the live refresh is, #29)."""
    return retried(lambda: _close_round(store, outcome_of, by))


def _close_round(store: Store, outcome_of: OutcomeOf | None, by: str) -> dict[str, Any]:
    t = get_tournament(store)
    if not t.rounds or t.rounds[-1]["closed"]:
        raise Refused(msg("there is no open round to close"))
    r = t.rounds[-1]
    known = outcome_of or _read_outcomes(store)
    tables = views.paired(t, r["number"]).tables
    pending = [tb.number for tb in tables if not table_result(t, tb, known).decided]
    if pending:
        raise Refused(
            msg(
                "round %(round)s cannot close: table(s) %(tables)s not decided",
                round=r["number"],
                tables=tuple(pending),
            )
        )
    for tb in tables:  # the heads of matches finished while nobody recorded them
        for number in tb.matches.values():
            if number not in t.heads:
                match = store.get_match(number)
                if match.head is None:
                    continue
                t.record_head(match=number, events=len(match.lines), head=match.head, by=by)
    t.close_round(number=r["number"], by=by)
    save(store, t)
    return r


def in_closed_round(store: Store, number: str) -> bool:
    """Whether a table of a closed round plays the match: every move on it is then a correction,
    previewed and stored once confirmed (:func:`tournament.services.corrections.record_correction`).
    """
    try:
        t = get_tournament(store)
    except Refused:
        return False  # a match on its own, or a database with no tournament
    table = views.table_of(t, number)
    return table is not None and views.paired(t, table.round).closed
