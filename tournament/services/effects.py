"""What a correction changes in its tournament: the standings, and the later rounds that would
now be paired otherwise (published pairings are never changed), said in one sentence each.

Reckoned by :mod:`tournament.services.corrections` for every front end; the CLI and the console
say a later round with :func:`paired_otherwise`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.message import Msg, msg
from engine.record import NamedTuple
from tournament.errors import Refused

if TYPE_CHECKING:
    from tournament.domain.tournaments import Tournament
    from tournament.services.day import OutcomeOf


class Effect(NamedTuple):
    """What a correction changes: the standings' rows (each with its rank and points before)
    and the later rounds that would now be paired otherwise (rows as ``--json`` prints them)."""

    standings: list[dict[str, Any]]
    later_pairings: list[dict[str, Any]]


def effect(
    t: Tournament,
    outcome_of: OutcomeOf,
    changed: Tournament,
    changed_outcome_of: OutcomeOf,
    from_round: int,
) -> Effect:
    """What a correction to round ``from_round`` changes: the standings, and the later rounds
    that would now be paired otherwise (published pairings are never changed).

    Both sides are the tournament as it stands, the earlier corrections included: a later round
    is listed when the correction changes how it would be paired now (``before``: as it stands;
    ``would_be``: with the correction), whatever its ``published`` pairing was.
    """
    from tournament.domain import views  # only when a correction asks (#15)
    from tournament.services.day import current_standings, pairings_for

    old = {r.player: r for r in current_standings(t, outcome_of)}
    new = current_standings(changed, changed_outcome_of)
    rows = [
        {
            "player": r.player,
            "rank": r.rank,
            "points": r.points,
            "rank_before": old[r.player].rank,
            "points_before": old[r.player].points,
        }
        for r in new
    ]
    later = []
    for k in range(from_round + 1, len(t.rounds) + 1):
        try:
            before = [list(tb.players) for tb in pairings_for(t, k, outcome_of)]
            would = [list(tb.players) for tb in pairings_for(changed, k, changed_outcome_of)]
        except Refused:
            continue
        if sorted(map(sorted, would)) != sorted(map(sorted, before)):
            published = [list(tb.players) for tb in views.paired(t, k).tables]
            later.append({"round": k, "published": published, "before": before, "would_be": would})
    return Effect(rows, later)


def round_of_match(t: Tournament, number: str) -> int | None:
    """The round whose table plays this match, if any."""
    from tournament.domain import views  # only when a correction asks (#15)

    table = views.table_of(t, number)
    return None if table is None else table.round


def paired_otherwise(later: dict[str, Any]) -> Msg:
    """A later round that a correction would pair otherwise (its published pairing stands)."""

    def shown(tables: list[list[str]]) -> str:
        return ", ".join(" - ".join(p) for p in tables)

    published, before = later["published"], later["before"]
    if sorted(map(sorted, published)) == sorted(map(sorted, before)):
        return msg(
            "round %(round)s was paired %(published)s; it would now be %(after)s",
            round=later["round"],
            published=shown(published),
            after=shown(later["would_be"]),
        )
    return msg(  # an earlier correction changed it already: this one's change, said apart
        "round %(round)s was paired %(published)s, would be paired %(before)s as "
        "the tournament stands, and %(after)s with this",
        round=later["round"],
        published=shown(published),
        before=shown(before),
        after=shown(later["would_be"]),
    )
