"""Pairings fixed by a schedule: round robin (Berger tables), single elimination, and tables of
3 to 10 dealt by ranking."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from tournament.domain.pairing.tables import History, Table

# --- round robin ----------------------------------------------------------------------------------


def berger(players: Sequence[str], round_number: int) -> list[Table]:
    """Round ``round_number`` (from 1) of the Berger tables for ``players`` in seeding order.

    With an odd number of players, whoever meets the missing last seat has the bye.

    >>> [t.players for t in berger(["1", "2", "3", "4"], 2)]
    [('4', '3'), ('1', '2')]
    """
    seeds = list(players) + ([None] if len(players) % 2 else [])
    n = len(seeds)
    rounds = n - 1
    if not 1 <= round_number <= rounds:
        raise ValueError(f"a round robin of {len(players)} players has {rounds} rounds")
    r = round_number

    def seat(k: int) -> str | None:  # 1-based, wrapping over 1..n-1
        return seeds[(k - 1) % (n - 1)]

    # The last seed meets p where 2p = r + 1 (mod n - 1); the others pair around p.
    p = next(k for k in range(1, n) if (2 * k - r - 1) % (n - 1) == 0)
    last = seeds[n - 1]
    first_pair = (last, seat(p)) if r % 2 == 0 else (seat(p), last)
    tables = [first_pair]
    for step in range(1, n // 2):
        i, j = p + step, p - step
        hi, lo = ((i - 1) % (n - 1)) + 1, ((j - 1) % (n - 1)) + 1
        a, b = (min(hi, lo), max(hi, lo))
        # FIDE colours: the lower number sits first when the numbers differ by an odd amount.
        first, second = (a, b) if (b - a) % 2 else (b, a)
        tables.append((seat(first), seat(second)))
    out = []
    for x, y in tables:
        if x is None or y is None:
            alone: str = x if y is None else y  # type: ignore[assignment]
            out.append(Table((alone,), bye=True, why=f"bye: {alone}, round robin of an odd number"))
        else:
            out.append(Table((x, y), why=f"Berger table, round {r}"))
    return out


# --- single elimination ---------------------------------------------------------------------------


def bracket_order(size: int) -> list[int]:
    """Seed numbers in bracket order, so that 1 and 2 can meet only in the final.

    >>> bracket_order(8)
    [1, 8, 4, 5, 2, 7, 3, 6]
    """
    order = [1]
    while len(order) < size:
        n = len(order) * 2
        order = [x for s in order for x in (s, n + 1 - s)]
    return order


def first_elimination_round(seeded: Sequence[str]) -> list[Table]:
    """Round 1 of a seeded bracket; the seeds without an opponent (the top ones) get byes."""
    size = 1 << max(1, math.ceil(math.log2(max(2, len(seeded)))))
    order = bracket_order(size)
    tables = []
    for k in range(0, size, 2):
        a, b = order[k], order[k + 1]
        pa = seeded[a - 1] if a <= len(seeded) else None
        pb = seeded[b - 1] if b <= len(seeded) else None
        if pa and pb:
            tables.append(Table((pa, pb), why=f"seed {a} - seed {b}"))
        elif pa or pb:
            alone: str = pa or pb  # type: ignore[assignment]
            seed = a if pa else b
            tables.append(Table((alone,), bye=True, why=f"bye: {alone}, seed {seed}"))
    return tables


def next_elimination_round(
    previous: Sequence[Table], winners: Mapping[int, str], third_place: bool = False
) -> list[Table]:
    """The round after ``previous``: table winners meet in bracket order (1-2, 3-4 ...).

    ``winners`` maps each table index of ``previous`` to its winner (a bye's player wins).
    With ``third_place``, a semi-final round adds the losers' match for third place.
    """
    advancing = [winners[i] for i in range(len(previous))]
    tables = [
        Table((advancing[k], advancing[k + 1]), why=f"winners of tables {k + 1} and {k + 2}")
        for k in range(0, len(advancing) - 1, 2)
    ]
    if third_place and len(previous) == 2 and all(not t.bye for t in previous):
        losers = [next(p for p in t.players if p != winners[i]) for i, t in enumerate(previous)]
        tables.append(Table(tuple(losers), why="third place: the semi-finals' losers"))
    return tables


# --- tables of 3 to 10 ----------------------------------------------------------------------------


def table_sizes(count: int, minimum: int, preferred: int = 4, maximum: int = 10) -> list[int]:
    """How to split ``count`` players into tables no smaller than ``minimum`` nor above 10.

    As many tables as ``preferred`` size asks for, sizes differing by one at most.

    >>> table_sizes(10, 3)
    [4, 3, 3]
    >>> table_sizes(7, 3, preferred=4)
    [4, 3]
    """
    minimum, preferred = max(minimum, 2), max(minimum, min(preferred, maximum))
    if count < minimum:
        raise ValueError(f"{count} players cannot fill a table of at least {minimum}")
    tables = max(1, math.ceil(count / preferred))
    while tables > 1 and count // tables < minimum:
        tables -= 1
    while math.ceil(count / tables) > maximum:
        tables += 1
    base, extra = divmod(count, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def pods(ranked: Sequence[str], minimum: int, history: History, preferred: int = 4) -> list[Table]:
    """Tables for a game played as a multiple challenge (3 to 10 players a table).

    Players are dealt to tables by ranking, then swapped between tables while a swap lowers the
    number of opponents met before; seats rotate so the challenger is who sat first least often.
    """
    sizes = table_sizes(len(ranked), minimum, preferred)
    tables: list[list[str]] = []
    start = 0
    for size in sizes:
        tables.append(list(ranked[start : start + size]))
        start += size

    def repeats(table: list[str]) -> int:
        return sum(history.met(a, b) for i, a in enumerate(table) for b in table[i + 1 :])

    improved = True
    while improved:
        improved = False
        for x in range(len(tables)):
            for y in range(x + 1, len(tables)):
                for i in range(len(tables[x])):
                    for j in range(len(tables[y])):
                        before = repeats(tables[x]) + repeats(tables[y])
                        tables[x][i], tables[y][j] = tables[y][j], tables[x][i]
                        if repeats(tables[x]) + repeats(tables[y]) < before:
                            improved = True
                        else:
                            tables[x][i], tables[y][j] = tables[y][j], tables[x][i]
    out = []
    for table in tables:
        seated = sorted(table, key=lambda p: (history.first_seats.get(p, 0), ranked.index(p)))
        met = repeats(table)
        why = f"table of {len(table)}" + (f"; {met} pairs met before" if met else "")
        out.append(Table(tuple(seated), why=why))
    return out
