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
from engine.message import Msg, msg
from tournament.domain import knockouts, views
from tournament.domain.names import admitted, registered
from tournament.domain.results import (  # noqa: F401 - the names the services' callers ask here
    PARTITA,
    OutcomeOf,
    current_standings,
    played_result,
    status,
    table_games,
    table_result,
)
from tournament.domain.rounds import active_in, pairings_for, pod_minimum, unpaired  # noqa: F401
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
    return retried(lambda: _create(store, name, by, settings), store=store)


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
        # Stored by every tournament created since #24; one without it keeps the old meaning
        # (a drawn knockout table went to the seeded lot: tournament.domain.knockouts).
        "knockout_draw": settings.get("knockout_draw") or "replay",
        "cut": settings.get("cut"),
        "table_size": int(settings.get("table_size", 4)),
        "demo": bool(settings.get("demo", False)),
    }
    if settings.get("check_in"):  # create --check-in: rounds pair those checked in (#24)
        config["check_in"] = True  # (absent when off: a tournament as before)
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
    _check_knockout(config)
    if config.get("check_in") and config["format"] not in ("swiss", "pods"):
        raise Refused(
            msg("check-in is for Swiss and pods tournaments: their rounds pair who is there")
        )
    if config["lang"] not in ("it", "en"):
        raise Refused(msg("printed material is in Italian (it) or English (en)"))
    smallest = pod_minimum(config["plays"], config["games"])
    if not smallest <= config["table_size"] <= 10:
        raise Refused(msg("tables of several players seat %(smallest)s to 10", smallest=smallest))


def _check_knockout(config: dict[str, Any]) -> None:
    """A drawn knockout table's rule, and a Swiss's cut: 2 or more of its players into a
    bracket after its rounds (byes to the top seeds when it is not a power of two)."""
    if config["knockout_draw"] not in knockouts.DRAW_RULES:
        raise Refused(
            msg(
                "a drawn knockout table is decided by replay or seed, not %(rule)r",
                rule=config["knockout_draw"],
            )
        )
    cut = config["cut"]
    if cut is None:
        return
    if config["format"] != "swiss" or not config["rounds"]:
        raise Refused(msg("a cut follows the rounds of a Swiss: --format swiss --rounds N"))
    if not isinstance(cut, int) or isinstance(cut, bool) or cut < 2:
        raise Refused(msg("a cut takes at least the top 2 players"))


def add_players(store: Store, names: Sequence[str], by: str = "organizer") -> Tournament:
    """Register players; a name already registered in other case or accents is refused (#11)."""
    return retried(lambda: _add_players(store, names, by), store=store)


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


def withdraw(
    store: Store,
    name: str,
    reason: str,
    by: str = "organizer",
    outcome_of: OutcomeOf | None = None,
) -> Tournament:
    """Withdraw an active player (before the first round) or drop them (after it). Seated at a
    table of the open round that is not decided, they forfeit its challenges not yet ended, in
    the same transaction (#24): see :func:`forfeited_table` for what it did."""
    return retried(lambda: _withdraw(store, name, reason, by, outcome_of), store=store)


def _withdraw(
    store: Store, name: str, reason: str, by: str, outcome_of: OutcomeOf | None
) -> Tournament:
    t = get_tournament(store)
    if not name.strip():
        raise Refused(msg("name the player to withdraw"))
    name = registered(name, t.players) or name
    if name not in t.players or t.players[name]["status"] != "active":
        raise Refused(msg("%(name)s is not an active player of this tournament", name=name))
    t.withdraw(player=name, reason=reason, by=by)
    current = views.open_round(t)
    seated = [tb for tb in current.tables if name in tb.players] if current else []
    if seated and not seated[0].bye:
        known = outcome_of or _read_outcomes(store)
        if current and not table_result(t, seated[0], known).decided:
            t.forfeit_table(
                round=current.number, table=seated[0].number, player=name, reason=reason, by=by
            )
    save(store, t)
    return t


def forfeited_table(t: Tournament, name: str) -> views.Table | None:
    """The table of the open round that ``name`` forfeited by withdrawing, if any (#24)."""
    current = views.open_round(t)
    tables = current.tables if current else ()
    return next((tb for tb in tables if name in tb.forfeited), None)


def forfeit_said(t: Tournament, name: str) -> Msg | None:
    """What withdrawing ``name`` did at their table, in one sentence (None: nothing there)."""
    tb = forfeited_table(t, name)
    if tb is None:
        return None
    staying = [p for p in tb.players if p not in tb.forfeited]
    where = {"name": name, "table": tb.number, "round": tb.round}
    if len(staying) == 1:
        return msg(
            "%(name)s forfeits the challenges of table %(table)s (round %(round)s) not yet "
            "ended: %(winner)s wins the table",
            winner=staying[0],
            **where,
        )
    return msg(
        "%(name)s forfeits the challenges of table %(table)s (round %(round)s) not yet "
        "ended: %(others)s play on without them",
        others=", ".join(staying),
        **where,
    )


def check_in(
    store: Store, names: Sequence[str], by: str = "organizer", here: bool = True
) -> Tournament:
    """Check players in for the next round to pair (``here=False``: out again). Check-ins
    reset each round: each counts for one round, the next one paired (#24)."""
    return retried(lambda: _check_in(store, names, by, here), store=store)


def _check_in(store: Store, names: Sequence[str], by: str, here: bool) -> Tournament:
    t = get_tournament(store)
    _checked(t, names, by, here)
    save(store, t)
    return t


def _checked(t: Tournament, names: Sequence[str], by: str, here: bool) -> None:
    """Check ``names`` in (or out) on ``t``; the caller saves."""
    asks_check_in(t)
    number = len(t.rounds) + 1
    for given in names:
        name = registered(given, t.players) or given
        if name not in t.players or t.players[name]["status"] != "active":
            raise Refused(msg("%(name)s is not an active player of this tournament", name=name))
        if here and name not in t.checked_in_for(number):
            t.check_in(player=name, round=number, by=by)
        elif not here and name in t.checked_in_for(number):
            t.check_out(player=name, round=number, by=by)


def asks_check_in(t: Tournament) -> None:
    """Nothing when the tournament asks for check-in; else one sentence saying so."""
    if not t.settings.get("check_in"):
        raise Refused(msg("this tournament does not ask for check-in (create --check-in)"))


def set_checked_in(store: Store, names: Sequence[str], by: str = "organizer") -> Tournament:
    """Who is here for the next round, exactly (the organizer's ticks): those ticked are
    checked in, the others out, in one transaction."""

    def once() -> Tournament:
        t = get_tournament(store)
        ticked = {registered(n, t.players) or n for n in names}
        here = set(t.checked_in_for(len(t.rounds) + 1))
        _checked(t, sorted(ticked - here), by, True)
        _checked(t, sorted(here - ticked), by, False)
        save(store, t)
        return t

    return retried(once, store=store)


def check_in_state(t: Tournament) -> dict[str, Any]:
    """The next round's check-in: who is checked in, who is not yet (in seed order)."""
    number = len(t.rounds) + 1
    here = set(t.checked_in_for(number))
    active = [p for p in active_in(t, number) if t.players[p]["status"] == "active"]
    return {
        "round": number,
        "players": active,
        "checked_in": [p for p in active if p in here],
        "missing": [p for p in active if p not in here],
    }


def pair_next_round(
    store: Store, outcome_of: OutcomeOf | None = None, by: str = "organizer"
) -> dict[str, Any]:
    """Pair the next round and record it; the previous round must be closed. The outcomes are
    the read models' brought up to the last stored event unless given (#29)."""
    return retried(lambda: _pair_next_round(store, outcome_of, by), store=store)


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
    return retried(lambda: _close_round(store, outcome_of, by), store=store)


def _close_round(store: Store, outcome_of: OutcomeOf | None, by: str) -> dict[str, Any]:
    t = get_tournament(store)
    if not t.rounds or t.rounds[-1]["closed"]:
        raise Refused(msg("there is no open round to close"))
    r = t.rounds[-1]
    known = outcome_of or _read_outcomes(store)
    tables = views.paired(t, r["number"]).tables
    for tb in tables:  # a drawn knockout table first: it says what to play (#24)
        played = played_result(t, tb, known)
        if knockouts.needs_decider(t, tb, played) and tb.amended is not None:
            raise Refused(  # the amendment stands over the matches: a decider would not count
                msg(
                    "round %(round)s cannot close: table %(table)s is amended to a draw, and a "
                    "knockout table needs a winner: amend it with one",
                    round=r["number"],
                    table=tb.number,
                )
            )
        if knockouts.needs_decider(t, tb, played):
            raise Refused(
                msg(
                    "round %(round)s cannot close: table %(table)s is drawn (%(points)s), and "
                    "a knockout table needs a winner: play a decider at the same table "
                    "(table start %(round)s %(table)s %(game)s)",
                    round=r["number"],
                    table=tb.number,
                    points=", ".join(f"{p} {v}" for p, v in (played.points or {}).items()),
                    game=table_games(t, tb)[0],
                )
            )
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


def swiss_stage(store: Store) -> tuple[int, list[dict[str, Any]]] | None:
    """A Swiss with a cut, once its bracket is paired: its last Swiss round and the standings
    after it, the table the bracket was seeded from (None otherwise), as the standings' rows."""
    t = get_tournament(store)
    start = knockouts.first_round(t)
    if start is None or start == 1 or len(t.rounds) < start:
        return None
    rows = current_standings(t, _read_outcomes(store), start - 1)
    return start - 1, [
        {"rank": r.rank, "player": r.player, "points": r.points, "played": r.played, **r.values,
         "by_lot": int(r.by_lot)}  # (as the standings table holds it)
        for r in rows
    ]  # fmt: skip


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
