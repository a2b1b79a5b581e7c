"""Seats in a duel (first and second, like colours in chess), after FIDE's colour rules.

A player's seat history is a string of the duels played, oldest first: ``F`` for the first seat,
``S`` for the second. Two limits are absolute as far as the pairing can keep them: the number of
first seats minus the number of second seats stays within -2..2, and nobody sits the same seat
three times in a row. Within them, each player has a preference: a strong one to even out a
difference of one, a mild one to alternate (FIDE C.04.3, colour allocation).
"""

from __future__ import annotations

from functools import lru_cache

from tournament.domain.pairing.tables import Reason

FIRST, SECOND = "F", "S"
LIMIT = 2  # the largest difference first minus second, either way
SEAT_NAMES = {FIRST: "first", SECOND: "second"}


def difference(seats: str) -> int:
    """First seats minus second seats.

    >>> difference("FSFF")
    2
    """
    return seats.count(FIRST) - seats.count(SECOND)


@lru_cache(maxsize=4096)  # a field has few distinct seat histories; a round asks thousands of times
def breaks(seats: str, seat: str) -> tuple[int, int]:
    """Which limits taking ``seat`` breaks: (beyond the difference of 2, three in a row)."""
    after = difference(seats) + (1 if seat == FIRST else -1)
    return int(abs(after) > LIMIT), int(seats[-2:] == seat * 2)


def cost(seats: str, seat: str) -> int:
    """The limits broken by taking ``seat``, as one number that sums and compares by level:
    a difference beyond 2 weighs 4, three in a row 1 (two players' sums stay apart)."""
    beyond, triple = breaks(seats, seat)
    return 4 * beyond + triple


def preference(seats: str) -> tuple[int, str | None]:
    """How strongly a player wants which seat: 2 to even out a difference, 1 to alternate."""
    if not seats:
        return 0, None
    d = difference(seats)
    if d:
        return 2, SECOND if d > 0 else FIRST
    return 1, SECOND if seats[-1] == FIRST else FIRST


def assign(a: str, b: str, seats_a: str, seats_b: str) -> tuple[tuple[str, str], Reason]:
    """Seat ``a`` (the higher ranked) and ``b``: who sits first, and why.

    The limits first, then both preferences, then the stronger one, then the most recent duel
    in which the two sat differently (each takes the other seat this time), then the ranking.

    >>> assign("x", "y", "SF", "FS")[0]
    ('y', 'x')
    """
    broken_ab = cost(seats_a, FIRST) + cost(seats_b, SECOND)
    broken_ba = cost(seats_b, FIRST) + cost(seats_a, SECOND)
    if broken_ab != broken_ba:
        first, second = (a, b) if broken_ab < broken_ba else (b, a)
        return (first, second), Reason("seat_limit", {"player": first})
    strength_a, want_a = preference(seats_a)
    strength_b, want_b = preference(seats_b)
    wants = {a: (strength_a, want_a, seats_a), b: (strength_b, want_b, seats_b)}
    if want_a != want_b or strength_a != strength_b:
        # Both can have their wish, or the stronger wish wins.
        if want_a == want_b:
            decider = a if strength_a > strength_b else b
        else:
            decider = a if want_a is not None else b
        want = wants[decider][1]
        first = decider if want == FIRST else (b if decider == a else a)
        return _seated(first, a, b, wants)
    if want_a is not None:
        # The same wish, equally strong: alternate from the last duel where they differed.
        for x, y in zip(reversed(seats_a), reversed(seats_b), strict=False):
            if x != y:
                first = a if x == SECOND else b
                return (first, b if first == a else a), Reason("seat_history", {"player": first})
    return (a, b), Reason("seat_rank", {"player": a})


def _seated(
    first: str, a: str, b: str, wants: dict[str, tuple[int, str | None, str]]
) -> tuple[tuple[str, str], Reason]:
    second = b if first == a else a
    _, want, seats = wants[first]
    if want == FIRST:
        code = "seat_balance" if difference(seats) < 0 else "seat_alternate"
        return (first, second), Reason(code, {"player": first})
    # The first player had no wish: the second player's wish for the second seat decided.
    _, _, other = wants[second]
    code = "seat_balance_other" if difference(other) > 0 else "seat_alternate_other"
    return (first, second), Reason(code, {"player": first, "other": second})
