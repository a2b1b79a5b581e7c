"""La parola nascosta's final challenge (RULES PN-6, PN-1): Morra in pairs, then the
tie-breaker of a card, or the referee's decision; and the seating read in a card's clock.

Used by the game (:mod:`engine.games.parola_nascosta`), over its cards by player.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from engine.decks import BEATS, TIEBREAK_WORDS, Card
from engine.errors import RuleViolation
from engine.games.base import Note, OutRecord, next_player
from engine.message import msg

CardOf = Callable[[str], Card]  # a player's card


def seated(players: Sequence[str], clock: str) -> Sequence[str]:
    """The seating order read in the direction of a card's clock (PN-4, PN-6).

    >>> seated(("giallo", "blu", "verde"), "ccw")
    ('verde', 'blu', 'giallo')
    """
    return players if clock == "cw" else players[::-1]


def following(players: Sequence[str], clock: str, after: str, among: Sequence[str]) -> str:
    """The first of ``among`` after ``after``, going round the table by ``clock``."""
    return next_player(seated(players, clock), set(players) - set(among), after)


def morra_order(players: Sequence[str], left: Sequence[str], card: CardOf) -> list[str]:
    """PN-6: from the lowest percentile (the first in turn order of equals), in that player's
    clock direction."""
    first = min(left, key=lambda p: (card(p).percentile, players.index(p)))
    order = [first]
    while len(order) < len(left):
        rest = [p for p in left if p not in order]
        order.append(following(players, card(first).clock, order[-1], rest))
    return order


def morra(order: Sequence[str], card: CardOf) -> list[OutRecord]:
    """PN-6: the losers of the pairs, in order; equal hands both stay in, and with an odd
    number the last one sits the round out (Ruling)."""
    out = []
    for a, b in zip(order[0::2], order[1::2], strict=False):
        loser = _loser(a, b, card)
        if loser is not None:
            winner = b if loser == a else a
            lost, won = card(loser).morra, card(winner).morra
            reason = msg(
                "Morra: %(lost)s loses to %(player)s's %(won)s", lost=lost, player=winner, won=won
            )
            out.append(OutRecord(loser, reason, "PN-6"))
    return out


def _loser(a: str, b: str, card: CardOf) -> str | None:
    ha, hb = card(a).morra, card(b).morra
    if BEATS[ha] == hb:
        return b
    if BEATS[hb] == ha:
        return a
    return None


def decide(
    tied: Sequence[str],
    ruled: Mapping[str, bool],
    decider: Card,
    card: CardOf,
    revision: int,
    position: int,
) -> tuple[tuple[str, ...], tuple[Note, ...]]:
    """PN-6 and PN-1: the winners of the tie-break among ``tied`` and the notes saying why. The
    tie-breaker of the ``decider`` card decides, unless the referee records the decision
    (``ruled``: the rulings on the cards of players in the tie-break): a ruling gives the
    tie-break to that card's holder (accept) or takes them out of it (reject)."""
    chosen = ruled_winner(tied, ruled)
    if chosen is not None:
        why = msg("wins the tie-break by the referee's ruling")
        return (chosen,), (Note(position, chosen, why, "PN-1", True),)
    left = [p for p in tied if p not in ruled]
    return tie_break(left, decider, card, revision, position)


def why_no_ruling(tied: Sequence[str], holder: str) -> str | None:
    """PN-1: why the referee cannot rule on ``holder``'s card now (it needs a tie-break with
    them)."""
    if not tied:
        return msg("a ruling on a card decides the final tie-break (PN-6), and there has been none")
    if holder not in tied:
        return msg(
            "%(player)s is not in the tie-break (only %(tied)s are)",
            player=holder,
            tied=tuple(tied),
        )
    return None


def ruled_winner(tied: Sequence[str], ruled: Mapping[str, bool]) -> str | None:
    """PN-1: the player a ruling on their card gives the tie-break to, if any (``ruled``: the
    rulings on the cards of the players in the tie-break)."""
    chosen = [p for p, accept in ruled.items() if accept]
    if len(chosen) > 1:
        raise RuleViolation(
            msg(
                "the referee's rulings give the tie-break to both %(a)s and %(b)s: "
                "void one of them",
                a=chosen[0],
                b=chosen[1],
            ),
            "PN-1",
        )
    if not chosen and set(tied) <= set(ruled):
        raise RuleViolation(
            msg("the referee's rulings take every player out of the tie-break: accept one"), "PN-1"
        )
    return chosen[0] if chosen else None


def tie_break(
    left: Sequence[str], decider: Card, card: CardOf, revision: int, position: int
) -> tuple[tuple[str, ...], tuple[Note, ...]]:
    """PN-6: the winners by the tie-breaker of the ``decider`` card, and the notes saying so."""
    rule = decider.tiebreak
    sign = 1 if rule.startswith("highest") else -1

    def key(p: str) -> tuple[int, int]:
        # Reading: a D10 still tied is settled by the whole percentile, in the same sense
        # (PN-1: the D% and the D10 are read together as the percentile).
        c = card(p)
        primary = c.percentile if rule.endswith("percentile") else c.d10
        return (sign * primary, sign * c.percentile)

    if revision == 1:
        # Revision 1 of the rules (0.1): of players the tie-breaker cannot part (equal
        # percentiles), the first in turn order wins it (max keeps the first of equal keys).
        winners: tuple[str, ...] = (max(left, key=key),)
    else:
        best = max(map(key, left))
        # CH-2: players the tie-breaker cannot part (equal percentiles) draw (since revision 2).
        winners = tuple(p for p in left if key(p) == best)
    why = msg(
        "wins the tie-breaker %(rule)s of card %(card)s",
        rule=TIEBREAK_WORDS.get(rule, rule),
        card=decider.id,
    )
    return winners, tuple(Note(position, p, why, "PN-6", True) for p in winners)
