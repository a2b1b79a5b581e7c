"""La Roulette Alphatiana (Ekrenor): a two-player dice duel to ten damage (RULES ALP-1..ALP-6)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from engine.dice import check_roll
from engine.errors import BadHeader, MalformedEvent, NotAllowedNow, NotYourTurn, RuleViolation
from engine.events import Choose, Event, Reroll, Roll, Stand, Timeout, actor, type_name
from engine.games.base import (
    Context,
    Note,
    Outcome,
    OutRecord,
    Turn,
    expecting,
    last_standing,
    replace,
    roll_turn,
)
from engine.games.contract import About, Hint
from engine.header import Header
from engine.message import Msg, msg
from engine.record import EMPTY, Record
from engine.refusals import doing, untimed
from engine.rules import CURRENT

ABOUT = About(
    name="alphatiana",
    title="La Roulette Alphatiana",
    min_players=2,
    max_players=2,  # ALP-1
    clock=None,  # CH-4 names no time for it
    sheet="sheet_alphatiana.html",
    events=("roll", "reroll", "stand", "choose"),
    hint=Hint(6, "choose", "ALP-4"),  # "only six seconds" to pick the face: not timed
)
DEATH = 10  # ALP-1
HAND = 5
MAX_THROWS = 5  # ALP-3
FIVE: tuple[tuple[str, int], ...] = (("d6", HAND),)


class State(Record):
    header: Header
    attacker: str | None  # None during a roll-off (ALP-2)
    damage: Mapping[str, int]
    rolloff: Mapping[str, tuple[int, ...]] = EMPTY
    hand: tuple[int, ...] = ()  # the attack as it stands
    last_throw: tuple[int, ...] = ()  # the dice thrown in the last throw
    throws: int = 0
    standing: bool = False  # the attack is over; the defender chooses
    face: int | None = None  # the face the defender rerolls (ALP-4)
    out: tuple[OutRecord, ...] = ()
    notes: tuple[Note, ...] = ()

    @property
    def defender(self) -> str:
        a, b = self.header.players
        return b if self.attacker == a else a


def start(header: Header, rules: int = CURRENT) -> State:
    if len(header.players) != 2:
        raise BadHeader("La Roulette Alphatiana is a duel of two players", "ALP-1")
    how = header.options.get("start", "agreement")
    if how not in ("agreement", "roll-off"):
        raise MalformedEvent('the header\'s "start" must be "agreement" or "roll-off"')
    damage = dict.fromkeys(header.players, 0)
    # ALP-2: by agreement the first player listed attacks first; else a roll-off.
    return State(header, None if how == "roll-off" else header.players[0], damage)


def turns(state: State) -> tuple[Turn, ...]:
    if state.attacker is None:
        return tuple(
            roll_turn(
                p, FIVE, "ALP-2", say=expecting("roll-off: roll d6 x5, most sixes attacks first")
            )
            for p in state.header.players
            if p not in state.rolloff
        )
    if not state.hand:
        return (roll_turn(state.attacker, FIVE, "ALP-3", say=expecting("attack: roll d6 x5")),)
    if not state.standing:
        hand = " ".join(map(str, sorted(state.hand, reverse=True)))
        if len(state.last_throw) > 1:
            events: tuple[str, ...] = ("reroll", "stand")
            says = expecting("attack %(hand)s: reroll or stand", hand=hand)
        else:  # a reroll keeps at least one die of the last throw: one die leaves none (#28)
            events = ("stand",)
            says = expecting(
                "attack %(hand)s: stand (the last throw was one die: a reroll keeps at least "
                "one, ALP-3)",
                hand=hand,
            )
        return (Turn(state.attacker, events, says, "ALP-3", numbers=state.last_throw),)
    if state.face is None:
        faces = tuple(sorted(set(state.hand), reverse=True))
        return (
            Turn(
                state.defender,
                ("choose",),
                expecting("defend: choose a face shown"),
                "ALP-4",
                choices=faces,
            ),
        )
    count = state.hand.count(state.face)
    return (
        roll_turn(
            state.defender,
            (("d6", count),),
            "ALP-4",
            say=expecting("defend the %(face)ss: roll d6 x%(n)s", face=state.face, n=count),
        ),
    )


def apply(state: State, event: Event, ctx: Context) -> State:
    if isinstance(event, Roll) and state.attacker is None:
        return _rolloff(state, event, ctx)
    if isinstance(event, Roll) and not state.hand:
        values = _dice(state, event, HAND, "ALP-3")
        return replace(state, hand=values, last_throw=values, throws=1)
    if isinstance(event, Reroll):
        return _reroll(state, event)
    if isinstance(event, Stand):
        return replace(state, standing=True)
    if isinstance(event, Choose):
        if event.value not in state.hand:
            shown = " ".join(map(str, sorted(set(state.hand))))
            raise RuleViolation(
                msg(
                    "%(value)r is not a face of the attack (%(faces)s)",
                    value=event.value,
                    faces=shown,
                ),
                "ALP-4",
            )
        return replace(state, face=event.value)
    if isinstance(event, Roll):
        assert state.face is not None and state.attacker is not None
        return _defended(state, _dice(state, event, state.hand.count(state.face), "ALP-4"), ctx)
    raise AssertionError(f"alphatiana cannot apply {event!r}")  # turns() admits no other type


def refusal(state: State, event: Event) -> RuleViolation | None:
    """The rule a move not open now breaks, where it is not the rule of the turn expected
    (:mod:`engine.refusals`): the duel has no time limit (CH-4, which times Tetragon's games
    only); once the attack is over the attacker may not go on with it (ALP-3); the defender,
    not the attacker, chooses the face to defend (ALP-4)."""
    if isinstance(event, Timeout):
        return untimed(ABOUT.title, event)
    attacking = state.attacker is not None and actor(event) == state.attacker
    if attacking and state.standing and isinstance(event, (Roll, Reroll, Stand)):
        why = (
            msg("five throws")
            if state.throws >= MAX_THROWS
            else msg("%(player)s stood", player=event.by)
        )
        return NotYourTurn(
            msg(
                "the attack is over (%(why)s): %(player)s may not %(doing)s now; "
                "the defender, %(defender)s, chooses a face to defend",
                why=why,
                player=event.by,
                doing=doing(type_name(event)),
                defender=state.defender,
            ),
            "ALP-3",
        )
    if attacking and isinstance(event, Choose):
        return NotAllowedNow(
            msg(
                "%(player)s attacks: the defender, %(defender)s, chooses the face to defend",
                player=event.by,
                defender=state.defender,
            ),
            "ALP-4",
        )
    return None


def _dice(state: State, event: Roll, count: int, rule: str) -> tuple[int, ...]:
    if event.die != "d6":
        raise RuleViolation(msg("La Roulette Alphatiana uses d6, not %(die)s", die=event.die), rule)
    if len(event.values) != count:
        raise RuleViolation(
            msg(
                "%(player)s must throw %(n)s %(die)s dice together, not %(count)s",
                player=event.by,
                n=count,
                die="d6",
                count=len(event.values),
            ),
            rule,
        )
    return _d6(state, event.values)


def _d6(state: State, values: tuple[object, ...]) -> tuple[int, ...]:
    return tuple(int(v) for v in check_roll("d6", values, state.header.dice))  # type: ignore[call-overload]


def _rolloff(state: State, event: Roll, ctx: Context) -> State:
    """ALP-2: most sixes attacks first; equal, both roll again."""
    rolls = {**state.rolloff, event.by: _dice(state, event, HAND, "ALP-2")}
    if len(rolls) < 2:
        return replace(state, rolloff=rolls)
    a, b = state.header.players
    sixes = {p: rolls[p].count(6) for p in (a, b)}
    if sixes[a] == sixes[b]:
        text = msg("roll-off: %(n)s sixes each, roll again", n=sixes[a])
        note = Note(ctx.position, event.by, text, "ALP-2", False)
        return replace(state, rolloff={}, notes=(*state.notes, note))
    first = a if sixes[a] > sixes[b] else b
    note = Note(
        ctx.position,
        first,
        msg(
            "roll-off: %(player)s attacks first (%(sixes)s sixes)",
            player=first,
            sixes=f"{sixes[a]}-{sixes[b]}",
        ),
        "ALP-2",
        True,
    )
    return replace(state, attacker=first, rolloff=rolls, notes=(*state.notes, note))


def _reroll(state: State, event: Reroll) -> State:
    """ALP-3: part of the last throw, keeping at least one of it; five throws at most."""
    taken = Counter(event.dice)
    if taken - Counter(state.last_throw):
        shown = " ".join(map(str, state.last_throw))
        raise RuleViolation(
            msg("the dice taken back must come from the last throw (%(dice)s)", dice=shown), "ALP-3"
        )
    if not 1 <= len(event.dice) < len(state.last_throw):
        raise RuleViolation(
            msg(
                "a reroll takes back 1 to %(n)s of the last throw's dice",
                n=len(state.last_throw) - 1,
            ),
            "ALP-3",
        )
    if len(event.values) != len(event.dice):
        raise RuleViolation(msg("a reroll throws as many dice as it takes back"), "ALP-3")
    values = _d6(state, event.values)
    hand = list(state.hand)
    for v in event.dice:
        hand.remove(v)
    throws = state.throws + 1
    return replace(
        state,
        hand=(*hand, *values),
        last_throw=values,
        throws=throws,
        standing=throws >= MAX_THROWS,
    )


def damage_if_failed(hand: tuple[int, ...]) -> int:
    """ALP-5: one per 6 in the attack, plus one.

    >>> damage_if_failed((6, 6, 5, 5, 3))
    3
    >>> damage_if_failed((6, 6, 6, 6, 6))
    6
    """
    return hand.count(6) + 1


def damage_if_defended(hand: tuple[int, ...], face: int) -> int:
    """ALP-5: the face rerolled minus the lowest attack die (possibly 0).

    >>> damage_if_defended((6, 6, 5, 5, 3), 5)
    2
    >>> damage_if_defended((6, 6, 6, 5, 1), 1)
    0
    """
    return face - min(hand)


def _defended(state: State, rolled: tuple[int, ...], ctx: Context) -> State:
    assert state.face is not None and state.attacker is not None
    attacker, defender = state.attacker, state.defender
    hand = " ".join(map(str, sorted(state.hand, reverse=True)))
    if any(v > state.face for v in rolled):  # ALP-4
        hurt, amount = attacker, damage_if_defended(state.hand, state.face)
        text = msg(
            "%(defender)s defends the %(face)ss of %(hand)s: %(attacker)s takes %(amount)s",
            defender=defender,
            face=state.face,
            hand=hand,
            attacker=attacker,
            amount=amount,
        )
    else:
        hurt, amount = defender, damage_if_failed(state.hand)
        text = msg(
            "%(defender)s fails to defend the %(face)ss of %(hand)s: takes %(amount)s",
            defender=defender,
            face=state.face,
            hand=hand,
            amount=amount,
        )
    damage = {**state.damage, hurt: state.damage[hurt] + amount}
    out = state.out
    if damage[hurt] >= DEATH:  # ALP-1
        out = (*out, OutRecord(hurt, msg("%(n)s damage", n=damage[hurt]), "ALP-1"))
    note = Note(ctx.position, defender, text, "ALP-5", hurt == attacker)
    # ALP-6: the roles swap.
    return State(state.header, defender, damage, out=out, notes=(*state.notes, note))


def outcome(state: State) -> Outcome | None:
    return last_standing(state.header.players, state.out)


def summary(state: State) -> Msg:
    """The state in words, for the audit."""
    damage = tuple(f"{p} {d}" for p, d in state.damage.items())
    if state.hand:
        attack = " ".join(map(str, state.hand))
        return msg("damage %(damage)s; attack %(attack)s", damage=damage, attack=attack)
    return msg("damage %(damage)s", damage=damage)
