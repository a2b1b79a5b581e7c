"""The play flows, one function each, called alike by every front end (``table start`` and the
recording verbs of the CLI, the console, the organizer's and the referee's pages):

- :func:`start_challenge`: a table's next challenge, with its referee and its digital dice;
- :func:`record_move`: one move of the notation, with the digital dice rolled from their seed
  and revealed when the match ends, and a stale position refused;
- :func:`doubtful`: what makes a move look like a typo rather than an answer (a malformed
  expression, a word the lexicon does not hold), for a front end to ask before it stores it.

A save of the tournament that meets another terminal's is made again
(:mod:`tournament.services.retry`); a move never is: the position the writer saw is checked.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from engine.events import Chain, Event, Expression, Word
from engine.message import Msg, msg
from engine.notation import NotationError, parse
from tournament.errors import UserError
from tournament.services import dice, matches
from tournament.services.matches import Loaded
from tournament.storage.failures import as_user_errors
from tournament.storage.store import normalise_number

if TYPE_CHECKING:
    from tournament.services.tables import Start
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


def start_challenges(
    store: Store, starts: Sequence[Start], digital: Sequence[bool]
) -> list[Match | UserError]:
    """Several tables' challenges started in one transaction (a server's referees starting at
    once, :func:`tournament.services.tables.start_matches`), each with its referee (checked by
    the caller) and, where ``digital`` says so, its dice sealed after it; for each, its match
    or why not."""
    from tournament.services import tables  # (as start_challenge: not for a recording call)

    made = tables.start_matches(store, starts)
    for i, (match, start, seal) in enumerate(zip(made, starts, digital, strict=True)):
        if seal and not isinstance(match, UserError):
            try:
                with as_user_errors():  # (each seal's failure its own table's)
                    dice.seal(store, match.number, start.lexicon)
            except UserError as e:  # (started, as a start whose seal fails alone is)
                made[i] = e
    return made


def record_move(
    store: Store,
    number: str,
    text: str,
    lexicon: str | None = None,
    expected: int | None = None,
    *,
    sealer: Callable[[str], str] | None = None,
    reveal: bool = True,
    read_match: Match | None = None,
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
        seed=lambda: dice.seed(store, normalise_number(number)),  # (read when sealed, #27)
        sealer=sealer,
        reveal=reveal,
        read_match=read_match,  # the aggregate the caller read for it (#27)
    )


def malformed(expr: str) -> Msg | None:
    """Why ``expr`` is not an expression at all (its syntax, before any dice: ``6 x (``), or
    None. A wrong use of the dice is an answer (a miss, TIR-2); a malformed one is far more
    often a typo, so the front ends store it only when told it is the answer as written (#28).

    >>> print(malformed("6 x (5:6+1)"))
    None
    >>> malformed("6 x (")
    "'6 x (' is not a well-formed expression: the expression ends too early"
    """
    from engine import arithmetic  # only an expression's move needs it (a roll's call: #27)

    try:
        arithmetic.parse(expr)
    except arithmetic.ExpressionError as e:
        return msg("%(expr)r is not a well-formed expression: %(why)s", expr=expr, why=e.args[0])
    return None


def doubtful(loaded: Loaded, text: str) -> Msg | None:
    """What makes the move ``text`` look like a typo rather than the answer given at the table:
    a malformed expression (:func:`malformed`), or a word (of a chain too) that the match's
    lexicon does not hold (EQ-4); None when it reads as meant, or when the rules refuse it
    anyway (they say why when it is recorded). Nothing is stored here."""
    try:
        event = parse(text, loaded.replay)
    except NotationError:
        return None
    if isinstance(event, Expression):
        return malformed(event.expr)
    words = (event.word,) if isinstance(event, Word) else ()
    if isinstance(event, Chain):
        words = event.words
    unknown = [w for w in words if w not in loaded.replay.lexicon]
    if not unknown:
        return None
    return msg(
        "%(words)s: not in the lexicon (%(lexicon)s)",
        words=tuple(unknown),
        lexicon=loaded.replay.lexicon.name,
    )
