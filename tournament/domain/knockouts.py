"""Knockouts in a tournament: which rounds are a bracket (an elimination, or the rounds after a
Swiss's cut), when a bracket's table is decided, who goes through, and the standings' groups.

A knockout table needs a winner. A drawn table (the most challenge points shared: a Tiro won by
both, or by nobody) is never decided silently: under the ``replay`` rule (the default) it stays
undecided until a decider is played at the same table, one more challenge whose points add to
the table's (CH-2); under ``seed`` the higher seed goes through, and the sheets and pages say
so. A tournament created before the rule could be chosen (no ``knockout_draw`` in its settings)
keeps what it always meant: most challenge points, then the seeded lot.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from tournament.domain import views
from tournament.domain.pairing.bracket import (
    KnockoutTable,
    is_third_place,
    placing,
    round_code,
    seeds,
)
from tournament.domain.standings import TableResult, lot

if TYPE_CHECKING:
    from tournament.domain.tournaments import Tournament

DRAW_RULES = ("replay", "seed")
LEGACY_DRAW = "lot"  # the rule of the tournaments created before it could be chosen


def first_round(t: Tournament) -> int | None:
    """The bracket's first round: 1 in an elimination, the round after the Swiss's last with a
    cut (``create --cut``); None when the tournament has no bracket."""
    if t.settings["format"] == "elimination":
        return 1
    if t.settings["format"] == "swiss" and t.settings.get("cut"):
        return int(t.settings["rounds"]) + 1
    return None


def is_knockout(t: Tournament, number: int) -> bool:
    """Whether round ``number`` is a round of the bracket."""
    start = first_round(t)
    return start is not None and number >= start


def draw_rule(t: Tournament) -> str:
    """What decides a drawn knockout table: ``replay``, ``seed``, or the old stores' lot."""
    return str(t.settings.get("knockout_draw", LEGACY_DRAW))


def drawn(result: TableResult) -> bool:
    """Whether a played table's most challenge points are shared among those who stayed
    (nobody won it alone; a player who withdrew forfeits, #24)."""
    if result.bye or result.points is None or len(result.players) < 2:
        return False
    return len(leaders(result)) > 1


def needs_decider(t: Tournament, table: views.Table, played: TableResult) -> bool:
    """Whether a knockout table, as played, waits for a decider (the ``replay`` rule)."""
    return is_knockout(t, table.round) and draw_rule(t) == "replay" and drawn(played)


def settle(t: Tournament, table: views.Table, played: TableResult) -> TableResult:
    """A table's result as the tournament counts it: a drawn knockout table under the
    ``replay`` rule is undecided until a decider breaks the tie."""
    return TableResult(played.players) if needs_decider(t, table, played) else played


def seeds_of(t: Tournament) -> dict[str, int]:
    """The bracket's seeds, read back from its first round as paired (empty before it)."""
    start = first_round(t)
    if start is None or len(t.rounds) < start:
        return {}
    return seeds([tb.players for tb in views.paired(t, start).tables])


def leaders(result: TableResult) -> list[str]:
    """The players with the most challenge points of a decided table (a bye's player); a
    player who withdrew from the table is never among them while another stayed (#24)."""
    if result.bye:
        return [result.players[0]]
    assert result.points is not None
    staying = [p for p in result.players if p not in result.forfeits] or list(result.players)
    top = max(result.points[p] for p in staying)
    return [p for p in staying if result.points[p] == top]


def by_seed(t: Tournament, number: int, result: TableResult) -> bool:
    """Whether a decided table of round ``number`` went to the higher seed as a draw."""
    return is_knockout(t, number) and draw_rule(t) == "seed" and len(leaders(result)) > 1


def winner(t: Tournament, number: int, result: TableResult) -> str:
    """Who goes through from a decided table of round ``number``: most challenge points; among
    those level, the higher seed (the ``seed`` rule), else the seeded lot (as always before)."""
    level = leaders(result)
    if len(level) > 1 and by_seed(t, number, result):
        seeded = seeds_of(t)
        return min(level, key=lambda p: seeded.get(p, len(seeded) + 1))
    return min(level, key=lambda p: lot(t.settings["seed"], p))


def round_name(t: Tournament, number: int) -> tuple[str, int] | None:
    """A paired round of the bracket's name code and the players it starts with
    (:func:`tournament.domain.pairing.bracket.round_code`); None for another round."""
    if not is_knockout(t, number) or number > len(t.rounds):
        return None
    return round_code(sum(not is_third_place(tb.why) for tb in views.paired(t, number).tables))


def decider_key(game: str, challenges: int) -> str:
    """The key a decider's match is attached under beside the table's games: the game and
    which challenge of the table it is (``tiro #2``), so the table's games keep their own."""
    return f"{game} #{challenges + 1}"


def knockout_rounds(
    t: Tournament, results: Sequence[Sequence[TableResult]]
) -> list[list[KnockoutTable]]:
    """The bracket's rounds among the first ``len(results)`` rounds, with who went through."""
    start = first_round(t)
    if start is None:
        return []
    out = []
    for r, tables in zip(views.rounds(t)[start - 1 :], results[start - 1 :], strict=False):
        out.append(
            [
                KnockoutTable(
                    tb.players,
                    tb.bye,
                    is_third_place(tb.why),
                    winner(t, r.number, res) if res.decided else None,
                )
                for tb, res in zip(r.tables, tables, strict=True)
            ]
        )
    return out


def groups(
    t: Tournament, results: Sequence[Sequence[TableResult]], before: Sequence[str] = ()
) -> Mapping[str, Any] | None:
    """The standings' groups once a bracket is paired (None before it, or without one): the
    bracket's places first; below them the players who did not make the cut, in ``before``'s
    order (the Swiss standings at the cut)."""
    start = first_round(t)
    if start is None or len(results) < start:
        return None
    place = placing(knockout_rounds(t, results))
    rank = {p: i for i, p in enumerate(before)}
    return {
        p: (1, *place[p]) if p in place else (0, -rank.get(p, len(rank))) for p in t.ranked_players
    }
