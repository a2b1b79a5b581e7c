"""Results from the match logs' outcomes: a table's challenge points, the rounds' results, the
standings. Pure: the outcomes are handed in (``outcome_of``), by the services or the read side.

A table is decided when every challenge it plays has ended, and its players' challenge points
are the points of those challenges (CH-2, CH-3); an amendment by the organizer stands over them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from engine.games.base import Outcome
from tournament.domain import knockouts, views
from tournament.domain.standings import Row, Scoring, TableResult, standings

if TYPE_CHECKING:
    from tournament.domain.tournaments import Tournament

OutcomeOf = Callable[[str], Outcome | None]
PARTITA = "partita"


def scoring_of(t: Tournament) -> Scoring:
    """The tournament's scoring settings."""
    s = t.settings["scoring"]
    return Scoring(s["win"], s["draw"], s["loss"], s["bye"], tuple(t.settings["placement"]))


def table_games(t: Tournament, table: views.Table | Mapping[str, Any]) -> list[str]:
    """The games a table plays: the partita's four once chosen, or the tournament's one game
    (``table``: its view, or the stored table)."""
    if t.settings["plays"] != PARTITA:
        return [t.settings["plays"]]
    if isinstance(table, views.Table):
        return list(table.games)
    return list(table.get("games", []))


def table_result(t: Tournament, table: views.Table, outcome_of: OutcomeOf) -> TableResult:
    """A table's result: a bye, the amended points, the challenge points once every game
    ended, or undecided (also a drawn knockout table waiting for its decider,
    :mod:`tournament.domain.knockouts`)."""
    return knockouts.settle(t, table, played_result(t, table, outcome_of))


def played_result(t: Tournament, table: views.Table, outcome_of: OutcomeOf) -> TableResult:
    """A table's result as played: a bye, the amended points, or the challenge points of its
    games and of its deciders (a knockout's further challenges) once every one ended.

    A player who withdrew while the table played forfeits its challenges not yet ended (#24):
    at a duel the table is then decided (the challenges that ended count, the others count
    for nobody), and the one who stayed wins; at a table of three or more the others play on
    (the challenges begun without the player, or that end with them in it) and the one who
    withdrew is placed below them all.
    """
    players = table.players
    if table.bye:
        return TableResult(players, bye=True)
    games = table_games(t, table)
    deciders = [key for key in table.matches if key not in games]
    ended = {}
    for g in [*games, *deciders]:
        outcome = outcome_of(table.matches[g]) if g in table.matches else None
        if outcome is not None:
            ended[g] = outcome
    challenges = {p: sum(p in o.points for o in ended.values()) for p in players}
    if table.amended is not None:  # the organizer's amended result stands over the matches
        return TableResult(players, points=dict(table.amended.points), challenges=challenges)
    forfeits = table.forfeited
    staying = [p for p in players if p not in forfeits]
    if len(staying) > 1 or not forfeits:  # every challenge is played to its end
        if not games or len(ended) < len(games) + len(deciders):
            return TableResult(players)
    points = {p: sum(o.points.get(p, 0) for o in ended.values()) for p in players}
    return TableResult(players, points=points, forfeits=forfeits, challenges=challenges)


def round_results(
    t: Tournament, outcome_of: OutcomeOf, upto: int | None = None
) -> list[list[TableResult]]:
    """Each table's result, round by round (of the first ``upto`` rounds)."""
    return [[table_result(t, tb, outcome_of) for tb in r.tables] for r in views.rounds(t)[:upto]]


def current_standings(t: Tournament, outcome_of: OutcomeOf, upto: int | None = None) -> list[Row]:
    """The standings on the decided tables (of the first ``upto`` rounds)."""
    return standings_of(t, round_results(t, outcome_of, upto))


def standings_of(t: Tournament, results: list[list[TableResult]]) -> list[Row]:
    """The standings on these rounds' results: by points and the tie-breaks, or once a bracket
    is paired by its places (the players left out by a cut below, in the Swiss's order)."""

    def ranked(rounds: list[list[TableResult]], groups: Any = None) -> list[Row]:
        return standings(
            t.ranked_players,
            rounds,
            scoring_of(t),
            t.settings["tiebreaks"],
            t.settings["seed"],
            ranked_by=groups,
        )

    start = knockouts.first_round(t)
    if start is None or len(results) < start:
        return ranked(results)
    before = [r.player for r in ranked(results[: start - 1])] if start > 1 else []
    return ranked(results, knockouts.groups(t, results, before))


def table_winner(t: Tournament, result: TableResult, number: int | None = None) -> str:
    """Who goes through from a decided table (of round ``number``): most challenge points,
    then, among those level, the knockout's rule (:func:`tournament.domain.knockouts.winner`)."""
    return knockouts.winner(t, number or 0, result)


def table_state(
    t: Tournament, tb: views.Table, outcome_of: OutcomeOf, *, why: bool = False
) -> dict[str, Any]:
    """A table as ``status`` and the round's page show it (``why``: with the pairing's reasons):
    who plays, its games and matches, whether it is decided and its points."""
    played = played_result(t, tb, outcome_of)
    result = knockouts.settle(t, tb, played)
    state: dict[str, Any] = {"table": tb.number, "players": list(tb.players), "bye": tb.bye}
    if why:  # the why's codes too, for translations
        state |= {"why": tb.why, "reasons": [dict(code) for code in tb.reasons]}
    return state | {
        "games": table_games(t, tb),
        "matches": dict(tb.matches),
        "decided": result.decided,
        "points": dict(result.points) if result.points else None,
        "amended": tb.amended.to_json() if tb.amended else None,
        # A drawn knockout table: its points as played, waiting for a decider (or decided by
        # the seeds, said where it is shown).
        "decider": knockouts.needs_decider(t, tb, played),
        "played": dict(played.points) if played.points else None,
        "by_seed": result.decided and knockouts.by_seed(t, tb.round, result),
        "forfeits": [f.to_json() for f in tb.forfeits],
    }


def status(
    t: Tournament, outcome_of: OutcomeOf, tables: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    """Where the day stands: the round, which tables wait for what (``tables``: the round's
    tables' states as :func:`table_state` gave them already, for a server that keeps them)."""
    current = views.last_round(t)
    if tables is None:
        tables = [table_state(t, tb, outcome_of) for tb in (current.tables if current else ())]
    return {
        "name": t.settings["name"],
        "format": t.settings["format"],
        "plays": t.settings["plays"],
        "players": len(t.active),
        "round": current.number if current else 0,
        "round_closed": bool(current and current.closed),
        "tables": tables,
    }
