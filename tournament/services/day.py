"""The organizer's day: create, register, pair, play, close, rank. Thin services over the store.

Results come from the match logs: a table is decided when every challenge it plays has ended,
and its players' challenge points are the points of those challenges (CH-2, CH-3). A round's
tables at play (the partita chosen, the matches opened) are :mod:`tournament.services.tables`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.persistence import IntegrityError

from engine.games import GAMES, TETRAGON, game
from engine.message import msg
from tournament.domain import views
from tournament.domain.names import registered
from tournament.domain.pairing import (
    History,
    Table,
    berger,
    first_elimination_round,
    next_elimination_round,
    pods,
    swiss,
)
from tournament.domain.results import (  # noqa: F401 - the services' names for them
    PARTITA,
    OutcomeOf,
    current_standings,
    round_results,
    scoring_of,
    status,
    table_games,
    table_result,
    table_winner,
)
from tournament.domain.standings import TIEBREAKS
from tournament.domain.tournaments import FORMATS, TOURNAMENT_ID, Tournament
from tournament.services.matches import Refused, load
from tournament.storage.store import Conflict, Match, Store, StoreError

PARTITA_GAMES = 4  # CH-3
ATTEMPTS = 50  # saves tried against other terminals changing the tournament at the same moment
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

    return queries.outcome_of(store)


def get_tournament(store: Store) -> Tournament:
    try:
        t: Tournament = store.get(TOURNAMENT_ID, msg("the tournament"))
        return t
    except AggregateNotFoundError:
        raise Refused(msg("there is no tournament in this database: create one first")) from None


def create(store: Store, name: str, by: str = "organizer", **settings: Any) -> Tournament:
    """Create the database's tournament; the settings are checked and recorded as given."""
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
        "games": list(settings.get("games") or TETRAGON),
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
    if config["format"] not in FORMATS:
        raise Refused(
            msg(
                "unknown format %(format)r (known: %(known)s)",
                format=config["format"],
                known=tuple(FORMATS),
            )
        )
    if config["plays"] != PARTITA and config["plays"] not in GAMES:
        raise Refused(
            msg(
                "a pairing plays %(partita)r or one game (%(games)s)",
                partita=PARTITA,
                games=tuple(GAMES),
            )
        )
    bad = [g for g in config["games"] if g not in GAMES]
    if bad:
        raise Refused(
            msg("unknown game %(game)r (known: %(known)s)", game=bad[0], known=tuple(GAMES))
        )
    if config["plays"] == PARTITA and len(set(config["games"])) < PARTITA_GAMES:
        raise Refused(msg("a Tetragon partita chooses four games: allow at least four (CH-3)"))
    if config["plays"] != PARTITA and config["format"] == "pods":
        if getattr(game(config["plays"]), "max_players", 10) < 3:
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


def pod_minimum(plays: str, games: Sequence[str]) -> int:
    """The smallest table of a pods tournament: 3 for multiple challenges, 2 for La parola
    nascosta (tables of 2 to 10)."""
    if plays == "parola_nascosta":
        return 2
    return max(3, *(game(g).min_players for g in ([plays] if plays != PARTITA else games)))


SNAPSHOT_EVERY = 100


def save(store: Store, t: Tournament, *matches: Match) -> None:
    """Save the tournament (with new ``matches``, in the same transaction), and snapshot it
    each time it passes another hundred events.

    A season gathers tens of thousands of tournament events; loading it from its latest
    snapshot keeps every command quick (eventsourcing's snapshots, taken here rather than
    by the application so that recording a move never loads the tournament's classes).
    Raises :class:`Conflict` (nothing stored) when another terminal saved it first.
    """
    before = t.version - len(t.pending_events)
    try:
        store.save(*matches, t)
    except IntegrityError:
        raise Conflict(
            "another terminal changed the tournament at the same moment; nothing was stored: repeat"
        ) from None
    snapshot(store, t, before)


def snapshot(store: Store, t: Tournament, before: int) -> None:
    """Snapshot the tournament saved at ``t.version`` if it passed another hundred events since
    version ``before``."""
    if t.version // SNAPSHOT_EVERY > before // SNAPSHOT_EVERY:
        store.take_snapshot(TOURNAMENT_ID, version=t.version)


def record_head(store: Store, match: Match, by: str = "program") -> None:
    """Record a finished match's head hash in its tournament (if it is one of its matches), so
    that ``tournament verify`` finds its last events removed. Retried against other terminals.

    Never fails the recording that called it: the match is stored already, and closing the
    round records every head not recorded yet (a tournament that cannot be read is said by the
    next command that reads it).
    """
    for _ in range(ATTEMPTS):
        try:
            t = get_tournament(store)
        except (Refused, StoreError):
            return
        head = match.head
        if head is None or not attached(t, match.number):
            return
        if t.heads.get(match.number) == [len(match.lines), head]:
            return
        t.record_head(match=match.number, events=len(match.lines), head=head, by=by)
        try:
            save(store, t)
            return
        except Conflict:
            continue


def attached(t: Tournament, number: str) -> bool:
    """Whether a table of the tournament plays this match."""
    return views.table_of(t, number) is not None


def initial_ranking(t: Tournament, players: Sequence[str]) -> list[str]:
    """The players before the first round: in the seed order given at creation (a season's
    ratings), players it does not know after them; otherwise, and among those, as registered."""
    order = {p: i for i, p in enumerate(t.settings.get("seed_order") or [])}
    return sorted(players, key=lambda p: (order.get(p, len(order)), t.players[p]["seed"]))


def add_players(store: Store, names: Sequence[str], by: str = "organizer") -> Tournament:
    t = get_tournament(store)
    for name in names:
        name = name.strip()
        if not name or name == "referee":
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
    t = get_tournament(store)
    if not name.strip():
        raise Refused(msg("name the player to withdraw"))
    name = registered(name, t.players) or name
    if name not in t.players or t.players[name]["status"] != "active":
        raise Refused(msg("%(name)s is not an active player of this tournament", name=name))
    t.withdraw(player=name, reason=reason, by=by)
    save(store, t)
    return t


# --- rounds ----------------------------------------------------------------------------


def history(t: Tournament, upto: int | None = None) -> History:
    return History.from_rounds(t.rounds[:upto])


def pair_next_round(
    store: Store, outcome_of: OutcomeOf | None = None, by: str = "organizer"
) -> dict[str, Any]:
    """Pair the next round and record it; the previous round must be closed. The outcomes are
    the read models' unless given."""
    t = get_tournament(store)
    if t.rounds and not t.rounds[-1]["closed"]:
        raise Refused(msg("round %(round)s is not closed yet", round=len(t.rounds)))
    number = len(t.rounds) + 1
    tables = pairings_for(t, number, outcome_of or _read_outcomes(store))
    records = [tb.to_json(i) for i, tb in enumerate(tables, 1)]
    t.pair_round(number=number, tables=records, by=by)
    save(store, t)
    return t.rounds[-1]


def active_in(t: Tournament, number: int) -> list[str]:
    """Who plays round ``number``: registered by then, and not withdrawn or dropped before it."""
    return [
        p
        for p, info in t.players.items()
        if info["since"] <= number
        and (
            info["status"] == "active" or (info["status"] == "dropped" and number <= info["until"])
        )
    ]


def pairings_for(t: Tournament, number: int, outcome_of: OutcomeOf) -> list[Table]:
    """Round ``number``'s pairings from the rounds before it (also to re-pair a past round)."""
    fmt = t.settings["format"]
    active = active_in(t, number)
    before = number - 1
    if len(active) < 2:
        raise Refused(msg("at least two active players are needed to pair a round"))
    limit = t.settings.get("rounds")
    if fmt in ("swiss", "pods") and limit and number > limit:
        raise Refused(msg("the tournament has %(rounds)s rounds: all are paired", rounds=limit))
    if fmt == "swiss":
        rows = current_standings(t, outcome_of, before)
        ranked = [r.player for r in rows if r.player in active]
        if before == 0 and t.settings.get("seed_order"):
            ranked = initial_ranking(t, ranked)
        return swiss(ranked, {r.player: r.points for r in rows}, history(t, before))
    if fmt == "round_robin":
        order = [
            p
            for p, _ in sorted(t.players.items(), key=lambda kv: kv[1]["seed"])
            if t.players[p]["status"] != "withdrawn"
        ]
        rounds = len(order) - 1 + len(order) % 2
        if number > rounds:
            raise Refused(
                msg("the round robin has %(rounds)s rounds: all are paired", rounds=rounds)
            )
        tables = berger(order, number)
        # A player who dropped out forfeits: the opponent has a bye.
        out = []
        for tb in tables:
            present = tuple(p for p in tb.players if p in active)
            if len(present) == len(tb.players):
                out.append(tb)
            elif present:
                out.append(
                    Table(present[:1], bye=True, why=f"bye: {present[0]}, the opponent dropped out")
                )
        return out
    if fmt == "elimination":
        if number == 1:
            seeded = initial_ranking(t, active)
            return first_elimination_round(seeded)
        previous = views.paired(t, before).tables
        main = [tb for tb in previous if "third place" not in tb.why]
        if len(main) <= 1:
            raise Refused(msg("the bracket is complete: the final has been played"))
        results = [table_result(t, tb, outcome_of) for tb in main]
        winners = {i: table_winner(t, r) for i, r in enumerate(results)}
        prev_tables = [Table(tb.players, tb.bye) for tb in main]
        return next_elimination_round(prev_tables, winners, t.settings["third_place"])
    # pods
    rows = current_standings(t, outcome_of, before)
    ranked = [r.player for r in rows if r.player in active]
    if before == 0 and t.settings.get("seed_order"):
        ranked = initial_ranking(t, ranked)
    minimum = pod_minimum(t.settings["plays"], t.settings["games"])
    if len(ranked) < minimum:
        raise Refused(
            msg(
                "tables of several players need at least %(minimum)s active players",
                minimum=minimum,
            )
        )
    return pods(ranked, minimum, history(t, before), t.settings["table_size"])


def close_round(
    store: Store, outcome_of: OutcomeOf | None = None, by: str = "organizer"
) -> dict[str, Any]:
    """Close the current round once every table is decided (the outcomes are the read models'
    unless given)."""
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
