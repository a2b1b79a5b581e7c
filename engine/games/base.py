"""What every game module shares: turns, outcomes, the context of an event, roll bookkeeping.

Each game module offers the same small surface (DESIGN.md, "The engine's contract", as code in
:mod:`engine.games.contract`): ``start(header, rules)``, ``apply(state, event, ctx)``,
``turns(state)``, ``outcome(state)`` and ``summary(state)``, over frozen state values. Every
state carries ``out`` (who went out, in order, and why) and ``notes`` (how each played move was
judged), which the match replay and the CLI read. ``rules`` (and ``ctx.rules``) is the revision
of the rules in force (:mod:`engine.rules`): a game whose rules changed between revisions asks
it where they did.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import fields
from functools import lru_cache
from types import MappingProxyType
from typing import Any, TypeVar

from engine.dice import DICE, check_roll
from engine.errors import MalformedEvent, NotAllowedNow, RuleViolation
from engine.events import Card, Chain, Choose, Event, Guess, Roll, Word
from engine.header import Header
from engine.lexicon import Lexicon
from engine.message import Msg, msg
from engine.record import NamedTuple, Record
from engine.rules import CURRENT
from engine.text import fold

# What one player still has to roll: (die, how many dice thrown together), in any order.
Due = tuple[tuple[str, int], ...]


_Value = TypeVar("_Value")
_FIELD_NAMES: dict[type, frozenset[str]] = {}


def replace(value: _Value, /, **changes: Any) -> _Value:
    """``dataclasses.replace`` for the engine's frozen values (the games' states, the replay;
    Records, or dataclasses):
    the copy takes the value's fields as they are and then the changes, without running the
    generated ``__init__`` again field by field (the replay makes one or two per event).

    These values have no ``__post_init__`` and no field that ``__init__`` leaves out, so
    the copy is the one ``dataclasses.replace`` makes; an unknown field is refused as there.
    """
    cls = type(value)
    names = cls._names if isinstance(value, Record) else _FIELD_NAMES.get(cls)
    if names is None:  # a dataclass (the engine's own values are Records, #27)
        names = _FIELD_NAMES[cls] = frozenset(f.name for f in fields(cls))  # type: ignore[arg-type]
    if not names.issuperset(changes):
        raise TypeError(f"{cls.__name__} has no field {min(set(changes) - names)!r}")
    copy = object.__new__(cls)
    copy.__dict__.update(value.__dict__, **changes)
    return copy


class Said(NamedTuple):
    """A message put into words only when it is read: what a turn expects. The replay checks
    every event against the turns open then and seldom shows them, so their words are not made
    for each event (#15). ``expecting(id, **params)`` is ``msg(id, **params)``, later."""

    id: str
    params: Mapping[str, Any]

    def text(self) -> Msg:
        return Msg(self.id, self.params)

    def __hash__(self) -> int:  # (its parameters are a dict)
        return hash(self.text())


def expecting(id: str, **params: Any) -> Said:
    """:func:`~engine.message.msg`, put into words when read (Babel extracts it as msg)."""
    return Said(id, params)


# Named tuples: the replay builds one or more turns for every event it checks, and a tuple is
# built several times faster than a frozen dataclass (#15).
class Turn(NamedTuple):
    """One player who may act now, the event types open to them, and what is expected.

    Two turns are equal when every field is (``expects`` as given: a game words each kind of
    turn one way, so the replays of one log give equal turns).
    """

    player: str
    events: tuple[str, ...]
    expects: Said | str  # what is expected, as said to people: ``say``
    rule: str
    dice: Due = ()  # the rolls expected, where a roll is open
    choices: tuple[Any, ...] = ()  # the values open to a choose or a bet
    numbers: tuple[int, ...] = ()  # the dice an expression must use
    optional: bool = False  # a move the player may make, never one the game waits for

    @property
    def say(self) -> str:
        """What is expected, in words (a :class:`~engine.message.Msg` where the game said one)."""
        expects = self.expects
        return expects.text() if isinstance(expects, Said) else expects


# Named tuples (and Records), not dataclasses, where no field needs a factory: a dataclass
# generates code for each class as it is imported (a sixth of a recording call's start-up for
# the engine's few), and a tuple is the fastest to build of all, for the values the replay
# makes at nearly every event (#15).
class OutRecord(Record):
    """A player out of the challenge, and why."""

    player: str
    reason: str
    rule: str


class Note(NamedTuple):  # (a tuple: one for nearly every move replayed, #15)
    """How a played move was judged: shown to the referee and in the outcome."""

    position: int
    player: str
    text: str
    rule: str
    ok: bool


class Outcome(NamedTuple):  # (a tuple: the read models make one for every match, #15)
    """How a challenge ended: its winners (maybe none) and each player's points (CH-2)."""

    winners: tuple[str, ...]
    points: Mapping[str, int]


def outcome_for(players: Sequence[str], winners: Iterable[str]) -> Outcome:
    """CH-2: each winner scores 1 point, a tie between winners is a draw, no winner no point."""
    won = set(winners)
    ordered = tuple(p for p in players if p in won)
    return Outcome(ordered, {p: int(p in won) for p in players})


def last_standing(
    players: Sequence[str], out: Sequence[OutRecord], winner: str | None = None
) -> Outcome | None:
    """The outcome of a game won outright by ``winner``, or by the last player still in."""
    if winner is not None:
        return outcome_for(players, [winner])
    if len(out) < len(players) - 1:
        return None  # two or more are still in (the common case: said without counting them)
    gone = {o.player for o in out}
    left = [p for p in players if p not in gone]
    return outcome_for(players, left) if len(left) == 1 else None


# What a ruling on an event decides for the rest of the match, by key (see ``ruled_keys``).
RuledKey = tuple[str, ...]


def ruled_keys(event: Event, accept: bool) -> tuple[RuledKey, ...]:
    """What a ruling on ``event`` decides beyond the event itself, for every later event.

    REF-1 and EQ-4: a word the referee admits (or rejects) is admitted (or rejected) wherever it
    is used afterwards, so a chain through a ruled anchor word is judged with that ruling. An
    accepted chain admits each of its words; a rejected one says only that some word fails, so
    it rules on none of them. A ruling on a guess holds for the same guess at the same player
    (their sealed word cannot change, PN-3). A ruling on a dealt card decides the tie-break for
    its holder (PN-1). Expressions carry nothing: the same text with other dice is another question.

    >>> ruled_keys(Chain("blu", ("Città", "cxxa")), True)
    (('word', 'citta'), ('word', 'cxxa'))
    >>> ruled_keys(Chain("blu", ("casa", "cxxa")), False)
    ()
    """
    if isinstance(event, Word):
        return (("word", fold(event.word)),)
    if isinstance(event, Chain):
        return tuple(("word", fold(w)) for w in event.words) if accept else ()
    if isinstance(event, Guess):
        return (("guess", event.target, fold(event.word)),)
    if isinstance(event, Card):
        return (("card", event.to),)
    return ()


class Context(NamedTuple):  # (a tuple: built for every event replayed, #15)
    """What an event is applied with besides the state: the words, its position, any ruling."""

    lexicon: Lexicon
    position: int
    verdict: bool | None = None  # a referee's ruling on this event (REF-1), if any
    # What the standing rulings on earlier events decided (``ruled_keys``): key -> accepted.
    # Always empty under revision 1 of the rules, where a ruling held for its event alone.
    ruled: Mapping[RuledKey, bool] = MappingProxyType({})
    rules: int = CURRENT  # the revision of the rules in force (engine.rules)

    def admitted(self, word: str) -> bool:
        """EQ-4 and REF-1: this event's ruling, else a ruling on the word earlier, else the
        lexicon."""
        if self.verdict is not None:
            return self.verdict
        earlier = self.ruled.get(("word", fold(word)))
        return earlier if earlier is not None else word in self.lexicon

    def decided(self, *key: str) -> bool | None:
        """This event's ruling, else what a ruling on an earlier event decided for ``key``."""
        return self.verdict if self.verdict is not None else self.ruled.get(key)


# --- turn order ----------------------------------------------------------------------------


def still_in(order: Sequence[str], out: Iterable[OutRecord]) -> tuple[str, ...]:
    """The players of ``order`` not yet out, in order."""
    gone = {o.player for o in out}
    return tuple(p for p in order if p not in gone)


def next_player(order: Sequence[str], gone: Collection[str], after: str) -> str:
    """The first player after ``after`` in cyclic ``order`` who is not in ``gone``.

    >>> next_player(["giallo", "blu", "verde"], {"blu"}, "giallo")
    'verde'
    """
    i = order.index(after)
    for step in range(1, len(order) + 1):
        p = order[(i + step) % len(order)]
        if p not in gone:
            return p
    raise RuleViolation("nobody is left to play")  # pragma: no cover - games end before this


# --- rolls that several players owe, in any order ------------------------------------------


# The dice by the names a referee may type in either language (engine.notation reads both).
DIE_WORDS = {"consonant": msg("consonant"), "vowel": msg("vowel")}


def dice_due(due: Due) -> Msg:
    """``dice_due((("consonant", 1), ("vowel", 1)))`` -> 'consonant x1, vowel x1'."""
    return msg(
        "%(dice)s",
        dice=tuple(msg("%(die)s x%(n)s", die=DIE_WORDS.get(d, d), n=n) for d, n in due),
    )


@lru_cache(maxsize=256)  # the same few dues come back at every turn
def describe_due(due: Due) -> Msg:
    """``describe_due((("consonant", 1), ("vowel", 1)))`` -> 'roll consonant x1, vowel x1'."""
    return msg("roll %(dice)s", dice=dice_due(due))


def roll_turn(
    player: str,
    due: Due,
    rule: str,
    events: tuple[str, ...] = ("roll",),
    say: Said | str | None = None,
) -> Turn:
    """A turn whose open event is a roll of ``due`` (and maybe others, such as a timeout)."""
    return Turn(player, events, say or describe_due(due), rule, dice=due)


def roll_turns(owed: Mapping[str, Due], rule: str) -> tuple[Turn, ...]:
    """A turn for each player who still owes rolls."""
    return tuple(roll_turn(p, d, rule) for p, d in owed.items() if d)


def not_a_letter(event: Choose) -> RuleViolation:
    """EQ-3: a choice that is no letter of the player's double faces."""
    return RuleViolation(
        msg("%(value)r is not a letter %(player)s can choose", value=event.value, player=event.by),
        "EQ-3",
    )


def take_roll(
    owed: Mapping[str, Due], event: Roll, header: Header, rule: str
) -> tuple[dict[str, Due], tuple[Any, ...]]:
    """Check a roll against what its player owes; return what is still owed and the faces."""
    if event.die not in DICE:
        raise MalformedEvent(
            msg("unknown die %(die)r: use one of %(dice)s", die=event.die, dice=DICE)
        )
    due = owed.get(event.by, ())
    for i, (die, count) in enumerate(due):
        if die == event.die:
            if len(event.values) != count:
                raise RuleViolation(
                    msg(
                        "%(player)s must throw %(n)s %(die)s dice together, not %(count)s",
                        player=event.by,
                        n=count,
                        die=die,
                        count=len(event.values),
                    ),
                    rule,
                )
            faces = check_roll(die, event.values, header.dice)
            rest = {**owed, event.by: due[:i] + due[i + 1 :]}
            return rest, faces
    raise NotAllowedNow(
        msg(
            "%(player)s cannot roll the %(die)s now; expected: %(expected)s",
            player=event.by,
            die=event.die,
            expected=describe_due(due),
        ),
        rule,
    )
