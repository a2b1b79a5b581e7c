"""The play flows, one function each, called alike by every front end (``table start`` and the
recording verbs of the CLI, the console, the organizer's and the referee's pages):

- :func:`start_challenge`: a table's next challenge, with its referee and its digital dice;
- :func:`record_move`: one move of the notation, with the digital dice rolled from their seed
  and revealed when the match ends, and a stale position refused.

A save of the tournament that meets another terminal's is made again
(:mod:`tournament.services.retry`); a move never is: the position the writer saw is checked.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from engine.events import Event
from tournament.services import dice, matches
from tournament.services.matches import Loaded
from tournament.storage.store import normalise_number

if TYPE_CHECKING:
    from tournament.storage.store import Match, Store


def start_challenge(
    store: Store,
    round_number: int,
    table_number: int,
    game: str,
    outside: Sequence[str] = (),
    *,
    by: str = "organizer",
    referee: str | None = None,
    digital: bool = False,
    lexicon: str | None = None,
) -> Match:
    """Create the match of a table's challenge and attach it, with its referee's name, in one
    transaction; with ``digital``, seal the program's dice in its log before anything is
    rolled (the seed stays in the store until the match ends)."""
    from tournament.services import referees, tables  # not imported by a recording call (#15)

    named = referees.checked(referee) if referee is not None else None
    match = tables.start_match(
        store, round_number, table_number, game, outside, by, lexicon, referee=named
    )
    if digital:
        dice.seal(store, match.number, lexicon)
    return match


def record_move(
    store: Store,
    number: str,
    text: str,
    lexicon: str | None = None,
    expected: int | None = None,
    *,
    sealer: Callable[[str], str] | None = None,
    reveal: bool = True,
) -> tuple[Loaded, list[Event]]:
    """Record one move of the notation with the derived events it implies; returns the match
    after it and the events stored.

    In a match whose digital dice are sealed, a roll written without its faces takes them from
    the seed, and the move that ends the match reveals the seed in the same transaction (unless
    ``reveal`` is False: the console first offers to undo a typo, then calls
    :func:`tournament.services.dice.reveal`). ``expected`` is the position the writer saw:
    when the match has moved on since, nothing is stored and the refusal says so.
    """
    return matches.record_move(
        store,
        number,
        text,
        lexicon,
        expected,
        seed=dice.seed(store, normalise_number(number)),
        sealer=sealer,
        reveal=reveal,
    )
