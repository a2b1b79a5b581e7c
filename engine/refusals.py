"""Why a move that is not open now is refused: the rule it breaks, in words (#23).

The replay (:meth:`engine.match.Replay.apply`) checks each event against the turns open; when
none of its player's turns admits its kind, :func:`refused` says why. The rule it cites is the
one the move breaks, which is not always the rule of the move expected:

- a ``timeout`` breaks CH-4 wherever it is refused: only a turn with a time limit runs out, and
  only the turn of the player who must act;
- a game says it better where it knows more, in its optional ``refusal(state, event)``
  (La Roulette Alphatiana's attack is over after five throws, ALP-3; Texas Word'em reads a U/A
  face as U only, EQ-3), which returns the violation or None;
- else the move is not the one the rules expect now, and the rule of the turn open says what is.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from engine.errors import NotAllowedNow, NotYourTurn, RuleViolation
from engine.events import REFEREE, Choose, Event
from engine.message import Msg, msg

if TYPE_CHECKING:
    from engine.games.contract import Game

# What each kind of event is, said as a verb: "Blu may not choose now", not "Blu's choose" (#11).
DOING = {
    "roll": msg("roll"),
    "choose": msg("choose"),
    "doubt": msg("doubt"),
    "pass": msg("pass"),
    "reroll": msg("reroll"),
    "stand": msg("stand"),
    "word": msg("write a word"),
    "chain": msg("write a chain"),
    "expression": msg("write an expression"),
    "bet": msg("bet"),
    "timeout": msg("run out of time"),
    "card": msg("be dealt a card"),
    "seal": msg("seal a word"),
    "start": msg("start"),
    "guess": msg("guess"),
    "answer": msg("answer"),
    "reveal": msg("reveal the word"),
    "hint": msg("give a hint"),
    "dice-commit": msg("seal the dice's seed"),
    "dice-reveal": msg("reveal the dice's seed"),
}


def doing(kind: str) -> Msg | str:
    """The kind of an event said as a verb (``doing("word")`` -> 'write a word')."""
    return DOING.get(kind, kind)


def refused(
    rules: Game, state: Any, event: Event, by: str, kind: str, turns: Sequence[Any]
) -> RuleViolation:
    """The violation of ``event`` (of ``kind``, by ``by``), which no turn open to its player
    admits; ``turns`` are the turns open now (``rules.turns(state)``), ``rules`` the game."""
    mine = [t for t in turns if t.player == by]
    if by == REFEREE and not mine:
        # Some games give the referee a move (dealing cards, naming who starts).
        return NotAllowedNow(
            msg("the referee cannot record a %(kind)s now (rulings and voids only)", kind=kind),
            "REF-1",
        )
    if rules.refusal is not None:
        violation = rules.refusal(state, event)
        if violation is not None:
            return violation
    if kind == "timeout":
        return ran_out(by, turns)
    if not mine:
        return NotYourTurn(
            msg(
                "it is not %(player)s's turn; now: %(who)s (%(expected)s)",
                player=by,
                who=tuple(dict.fromkeys(t.player for t in turns)),
                expected=turns[0].say,
            ),
            turns[0].rule,
        )
    return NotAllowedNow(
        msg(
            "%(player)s may not %(doing)s now; expected: %(expected)s",
            player=by,
            doing=doing(kind),
            expected=mine[0].say,
        ),
        mine[0].rule,
    )


def ran_out(by: str, turns: Sequence[Any]) -> RuleViolation:
    """CH-4: a timeout where none is open. Only a turn with a time limit runs out, and only
    the turn of the player who must act: said as such, whose turn it is or not."""
    mine = [t for t in turns if t.player == by]
    if not mine:
        return NotYourTurn(
            msg(
                "it is not %(player)s's turn, so %(player)s's time cannot run out; "
                "now: %(who)s (%(expected)s)",
                player=by,
                who=tuple(dict.fromkeys(t.player for t in turns)),
                expected=turns[0].say,
            ),
            "CH-4",
        )
    return NotAllowedNow(
        msg(
            "this turn of %(player)s's has no time limit, so it cannot run out; "
            "expected: %(expected)s",
            player=by,
            expected=mine[0].say,
        ),
        "CH-4",
    )


def untimed(title: str, event: Event) -> RuleViolation:
    """CH-4: a timeout in a game with no time limit at all (``title``: the game's)."""
    return NotAllowedNow(
        msg(
            "%(game)s has no time limit: %(player)s's turn cannot run out",
            game=title,
            player=getattr(event, "by", REFEREE),
        ),
        "CH-4",
    )


def nothing_to_choose(event: Choose) -> RuleViolation:
    """EQ-3: a choice where the player has no U/A or U/O face whose letter is still open."""
    return NotAllowedNow(
        msg(
            "%(player)s has no U/A or U/O face to choose a letter of now",
            player=event.by,
        ),
        "EQ-3",
    )


def choosing_nothing(
    turns: Callable[[Any], Sequence[Any]],
) -> Callable[[Any, Event], RuleViolation | None]:
    """A game's ``refusal`` (the contract's optional part) for a game whose letters come from
    U/A and U/O faces: a choice of letter by a player whose turn is open, but who has no such
    face whose letter is still open, breaks EQ-3 (not the rule of the turn expected)."""

    def refusal(state: Any, event: Event) -> RuleViolation | None:
        if isinstance(event, Choose) and any(t.player == event.by for t in turns(state)):
            return nothing_to_choose(event)
        return None

    return refusal
