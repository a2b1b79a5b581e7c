"""The engine's contract as code: what a game declares, what it must offer, what it may offer.

DESIGN.md, "The engine's contract": a game starts from the header, applies one event to a
state (or raises the rule it breaks), says whose turn it is and what is open, and says its
outcome. Every game is a :class:`Game` in the registry (:mod:`engine.games`), and everything
outside the engine that lists or reads games reads it there: the help texts, the sheets, the
console's clocks (CH-4), the audit's best plays, the computer players.

A game's module stays the one place its rules live: it declares what it is (:class:`About`, at
its top) and defines ``start``, ``apply``, ``turns``, ``outcome`` and ``summary``; it may define
the optional parts (``best_play``, ``computer_move``, ``why_no_tie_break_ruling``), which
otherwise take the defaults below. :meth:`Game.of` reads a module so; a game that is no module
(the toy game of the tests) is a :class:`Game` built directly.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import ModuleType
from typing import TYPE_CHECKING, Any

from engine.events import Card, Event
from engine.games.base import Context, Outcome, Turn
from engine.header import Header
from engine.lexicon import Lexicon
from engine.message import Msg
from engine.record import NamedTuple, Record

if TYPE_CHECKING:
    import random

    from engine.errors import RuleViolation


class Clock(NamedTuple):
    """CH-4: the time a turn has, in seconds (``beginners``: by agreement, for beginners)."""

    seconds: int
    beginners: int | None = None


class Hint(NamedTuple):
    """A time the rules mention and do not enforce (the console shows it, never times out):
    ``seconds`` for a turn where ``on`` is open (La Roulette Alphatiana's six-second defence)."""

    seconds: int
    on: str
    rule: str


class About(NamedTuple):
    """What a game is, declared at the top of its module."""

    name: str  # the header's name (FORMAT.md), ``tiro``
    title: str  # as players say it, ``Tiro di precisione``
    min_players: int  # in the challenge (CH-1)
    max_players: int | None  # None: the rules set no limit
    clock: Clock | None  # CH-4's time per turn; None: CH-4 gives the game no time limit
    sheet: str | None  # its blank sheet's template (exports/templates); None: the default one
    events: tuple[str, ...]  # the kinds of event its turns open (FORMAT.md), its notation's verbs
    hint: Hint | None = None


class Seat(NamedTuple):
    """What a computer player's move is made from: the match now, the turn it plays and the
    kind of event it makes (:mod:`engine.bots`), with its seeded generator, the words the
    computer players sealed (word, salt: La parola nascosta's log never holds them) and the
    words they know."""

    header: Header
    lexicon: Lexicon
    state: Any
    turn: Turn
    kind: str
    rng: random.Random
    secrets: dict[str, tuple[str, str]]
    words: tuple[str, ...]  # a few real words of every length the games ask for


# The optional parts' signatures.
BestPlay = Callable[[Any, Event, Lexicon, dict[str, Any]], str]
ComputerMove = Callable[[Seat], "dict[str, Any] | None"]
TieBreakRuling = Callable[[Any, Card], "Msg | str | None"]
Refusal = Callable[[Any, Event], "RuleViolation | None"]


def no_best_play(before: Any, event: Event, lexicon: Lexicon, memo: dict[str, Any]) -> str:
    """The default: no solver judges this move (the audit leaves its column empty)."""
    return ""


def no_computer_move(seat: Seat) -> dict[str, Any] | None:
    """The default: the computer player makes a random event of the kind (:mod:`engine.bots`)."""
    return None


class Game(Record):
    """One game as the engine, the replay and every front end see it (a Record, not a
    dataclass: every command imports it, and a dataclass generates code at start-up, #27)."""

    about: About
    start: Callable[[Header, int], Any]
    apply: Callable[[Any, Event, Context], Any]
    turns: Callable[[Any], tuple[Turn, ...]]
    outcome: Callable[[Any], Outcome | None]
    summary: Callable[[Any], Msg | str]  # the state in a few words (Il Ventuno's total)
    # The best play for the audit: what a solver says of ``event``, played at the state
    # ``before`` it, in English (``memo``: what it keeps between moves of one match).
    best_play: BestPlay = no_best_play
    # A computer player's event, as a JSON object; None: the generic random one.
    computer_move: ComputerMove = no_computer_move
    # PN-1: why a referee's ruling on a dealt card cannot decide a tie-break now (None: it
    # can); None for a game whose tie-breaks no ruling on a card decides.
    why_no_tie_break_ruling: TieBreakRuling | None = None
    # The rule an event no open turn admits breaks, where the game knows it better than the
    # turn expected does (ALP-3 after the attack, EQ-3 for a choice there is none to make);
    # None: the turn's rule (engine.refusals).
    refusal: Refusal | None = None

    @property
    def name(self) -> str:
        return self.about.name

    @property
    def title(self) -> str:
        return self.about.title

    @property
    def min_players(self) -> int:
        return self.about.min_players

    @property
    def max_players(self) -> int | None:
        return self.about.max_players

    @property
    def clock(self) -> Clock | None:
        return self.about.clock

    @property
    def hint(self) -> Hint | None:
        return self.about.hint

    @property
    def sheet(self) -> str:
        """Its blank sheet's template: its own, else the default one (``sheet.html``)."""
        return self.about.sheet or "sheet.html"

    @classmethod
    def of(cls, module: ModuleType) -> Game:
        """The game a rules module declares: its ``ABOUT``, its five functions, and the
        optional parts it defines (the defaults for those it does not)."""
        found: Mapping[str, Any] = vars(module)
        missing = [
            n for n in ("ABOUT", "start", "apply", "turns", "outcome", "summary") if n not in found
        ]
        if missing:
            raise TypeError(f"{module.__name__} does not define {', '.join(missing)}")
        optional = ("best_play", "computer_move", "why_no_tie_break_ruling", "refusal")
        return cls(
            found["ABOUT"],
            found["start"],
            found["apply"],
            found["turns"],
            found["outcome"],
            found["summary"],
            **{n: found[n] for n in optional if n in found},
        )
