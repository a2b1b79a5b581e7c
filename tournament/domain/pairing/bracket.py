"""A single-elimination bracket read back from its rounds: the seeds, the names of its rounds,
and where each player finished (the bracket's standings).

Pure functions over the knockout rounds as paired and decided, first to last. A player's place
is the round they lost in: the champion first, the final's loser second, then the third-place
match's winner and loser (or the two semi-finals' losers together when it is not played), then
the losers of each earlier round together, later rounds first. The standings order each group
by the tournament's tie-breaks (:func:`tournament.domain.standings.standings`, ``ranked_by``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tournament.domain.pairing.schedules import bracket_order

THIRD_PLACE = "third place"  # how the third-place match's why begins (schedules)


@dataclass(frozen=True)
class KnockoutTable:
    """One table of a knockout round: its players (one with a bye), whether it is the match
    for third place, and who went through (None while undecided)."""

    players: tuple[str, ...]
    bye: bool = False
    third: bool = False
    winner: str | None = None


def is_third_place(why: str) -> bool:
    """Whether a paired table is the match for third place (by its recorded why).

    >>> is_third_place("third place: the semi-finals' losers"), is_third_place("seed 1 - seed 4")
    (True, False)
    """
    return why.startswith(THIRD_PLACE)


def seeds(first_round: Sequence[Sequence[str]]) -> dict[str, int]:
    """Each player's seed, read back from the first knockout round's tables in order (the
    bracket's order: table k seats seeds ``bracket_order[2k]`` and ``bracket_order[2k+1]``, the
    lower number first; a bye's player is the lower number).

    >>> seeds([("A", "D"), ("B", "C")])
    {'A': 1, 'D': 4, 'B': 2, 'C': 3}
    >>> seeds([("A",), ("D", "E"), ("B",), ("C", "F")])
    {'A': 1, 'D': 4, 'E': 5, 'B': 2, 'C': 3, 'F': 6}
    """
    order = bracket_order(2 * len(first_round))
    out: dict[str, int] = {}
    for k, players in enumerate(first_round):
        for j, p in enumerate(players):
            out[p] = order[2 * k + j]
    return out


def main_tables(tables: Sequence[KnockoutTable]) -> list[KnockoutTable]:
    """A round's bracket tables, without the match for third place."""
    return [tb for tb in tables if not tb.third]


def round_code(tables: int) -> tuple[str, int]:
    """A knockout round's name by how many bracket tables it has (byes included): ``final``,
    ``semi_finals``, ``quarter_finals``, ``round_of_16``, ``round_of_32``, else ``round_of``,
    with the players it starts with.

    >>> round_code(1), round_code(4), round_code(8), round_code(32)
    (('final', 2), ('quarter_finals', 8), ('round_of_16', 16), ('round_of', 64))
    """
    names = {1: "final", 2: "semi_finals", 4: "quarter_finals", 8: "round_of_16", 16: "round_of_32"}
    return names.get(tables, "round_of"), 2 * tables


def placing(rounds: Sequence[Sequence[KnockoutTable]]) -> dict[str, tuple[int, int]]:
    """Where each player of the bracket stands, as a key that sorts the better place higher:
    how far they went (twice the rounds won, plus one while still in), then the match for third
    place (2 won, 0 lost, 1 not played or not decided).

    >>> r1 = [KnockoutTable(("A", "D"), winner="A"), KnockoutTable(("B", "C"), winner="C")]
    >>> final = [KnockoutTable(("A", "C"), winner="C"),
    ...          KnockoutTable(("D", "B"), third=True, winner="B")]
    >>> p = placing([r1, final])
    >>> sorted(p, key=p.__getitem__, reverse=True)
    ['C', 'A', 'B', 'D']
    """
    place: dict[str, tuple[int, int]] = {}
    for i, tables in enumerate(rounds):
        for tb in main_tables(tables):
            for p in tb.players:
                if tb.winner is None:  # playing round i + 1: between its winners and losers
                    place[p] = (2 * i + 2, 1)
                elif p == tb.winner:
                    place[p] = (2 * i + 4, 1)
                else:
                    place[p] = (2 * i + 1, 1)
        for tb in tables:
            if tb.third and tb.winner is not None:
                for p in tb.players:
                    place[p] = (place[p][0], 2 if p == tb.winner else 0)
    return place
