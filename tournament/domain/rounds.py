"""What a round's pairing is: who plays it, in what order, and the tables each format gives.

Pure decisions over the tournament as it is (and the outcomes handed in): the services pair a
round with :func:`pairings_for` and record it; a correction re-pairs a past round the same way.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.games import game
from engine.message import msg
from tournament.domain import knockouts, views
from tournament.domain.pairing import (
    History,
    Table,
    berger,
    first_elimination_round,
    next_elimination_round,
    pods,
    swiss,
)
from tournament.domain.pairing.bracket import is_third_place
from tournament.domain.results import (
    PARTITA,
    OutcomeOf,
    current_standings,
    table_result,
    table_winner,
)
from tournament.domain.tournaments import Tournament
from tournament.errors import Refused


def pod_minimum(plays: str, games: Sequence[str]) -> int:
    """The smallest table of a pods tournament: 3 for multiple challenges, 2 for La parola
    nascosta (tables of 2 to 10)."""
    if plays == "parola_nascosta":
        return 2
    return max(3, *(game(g).min_players for g in ([plays] if plays != PARTITA else games)))


def initial_ranking(t: Tournament, players: Sequence[str]) -> list[str]:
    """The players before the first round: in the seed order given at creation (a season's
    ratings), players it does not know after them; otherwise, and among those, as registered."""
    order = {p: i for i, p in enumerate(t.settings.get("seed_order") or [])}
    return sorted(players, key=lambda p: (order.get(p, len(order)), t.players[p]["seed"]))


def seed_numbers(t: Tournament) -> dict[str, int]:
    """Each player's seed as shown: the registration order, or the place in the seed order
    given at creation (a season's ratings, then the others as registered)."""
    if not t.settings.get("seed_order"):
        return {p: info["seed"] for p, info in t.players.items()}
    return {p: i for i, p in enumerate(initial_ranking(t, list(t.players)), 1)}


def history(t: Tournament, upto: int | None = None) -> History:
    """What the rounds before ``upto`` say to the pairing (who met whom, seats, byes)."""
    return History.from_rounds(t.rounds[:upto])


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


def checked_in(t: Tournament, number: int) -> list[str]:
    """Who round ``number`` pairs: the active players, and where the tournament asks for check-in
    (``create --check-in``, Swiss and pods) only those checked in for it (#24)."""
    active = active_in(t, number)
    if not t.settings.get("check_in"):
        return active
    here = set(t.checked_in_for(number))
    return [p for p in active if p in here]


def unpaired(t: Tournament, number: int) -> list[str]:
    """The active players round ``number`` (paired) left out: not checked in for it (#24)."""
    seated = {p for tb in views.paired(t, number).tables for p in tb.players}
    return [p for p in active_in(t, number) if p not in seated]


def pairings_for(t: Tournament, number: int, outcome_of: OutcomeOf) -> list[Table]:
    """Round ``number``'s pairings from the rounds before it (also to re-pair a past round)."""
    fmt = t.settings["format"]
    active = checked_in(t, number) if fmt in ("swiss", "pods") else active_in(t, number)
    before = number - 1
    if len(active) < 2 and t.settings.get("check_in"):
        raise Refused(
            msg(
                "%(count)s players checked in for round %(round)s: at least two are needed",
                count=len(active),
                round=number,
            )
        )
    if len(active) < 2:
        raise Refused(msg("at least two active players are needed to pair a round"))
    limit = t.settings.get("rounds")
    if knockouts.is_knockout(t, number):  # an elimination, or the bracket after a Swiss's cut
        return _knockout_round(t, number, active, outcome_of)
    if fmt in ("swiss", "pods") and limit and number > limit:
        raise Refused(msg("the tournament has %(rounds)s rounds: all are paired", rounds=limit))
    if fmt == "swiss":
        rows = current_standings(t, outcome_of, before)
        ranked = [r.player for r in rows if r.player in active]
        if before == 0:  # round one by seed, never by the lot (#24; README, "Round one")
            ranked = initial_ranking(t, ranked)
            seeds = seed_numbers(t)
            return swiss(ranked, {}, history(t, 0), seeds={p: seeds[p] for p in ranked})
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
    # pods
    rows = current_standings(t, outcome_of, before)
    ranked = [r.player for r in rows if r.player in active]
    if before == 0:  # round one by seed, as a Swiss's (README, "Round one"), never by the lot
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


def _knockout_round(
    t: Tournament, number: int, active: Sequence[str], outcome_of: OutcomeOf
) -> list[Table]:
    """A round of the bracket: the first seeds the players (an elimination's by their seeds, a
    cut's top ``cut`` by the Swiss standings, with byes to the top seeds); the next ones pair
    the winners, and the semi-finals' losers for third place when the tournament plays it."""
    start = knockouts.first_round(t)
    if number == start:
        if start == 1:
            return first_elimination_round(initial_ranking(t, active))
        cut = int(t.settings["cut"])
        rows = current_standings(t, outcome_of, start - 1)
        ranked = [r.player for r in rows if r.player in active]
        if cut > len(ranked):
            raise Refused(
                msg(
                    "the cut takes the top %(cut)s, but only %(players)s players are active",
                    cut=cut,
                    players=len(ranked),
                )
            )
        return first_elimination_round(ranked[:cut])
    previous = views.paired(t, number - 1).tables
    main = [tb for tb in previous if not is_third_place(tb.why)]
    if len(main) <= 1:
        raise Refused(msg("the bracket is complete: the final has been played"))
    results = [table_result(t, tb, outcome_of) for tb in main]
    winners = {i: table_winner(t, r, number - 1) for i, r in enumerate(results)}
    prev_tables = [Table(tb.players, tb.bye) for tb in main]
    return next_elimination_round(prev_tables, winners, t.settings["third_place"])
