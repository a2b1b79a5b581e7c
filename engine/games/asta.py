"""L'asta lessicale random: an anagram auction, one letter more each turn (RULES AST-1..AST-5)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from engine.dice import face_letters
from engine.events import Choose, Event, Pass, Roll, Timeout, Word
from engine.games.base import (
    Context,
    Due,
    Note,
    Outcome,
    OutRecord,
    Turn,
    expecting,
    last_standing,
    next_player,
    not_a_letter,
    replace,
    roll_turn,
    take_roll,
)
from engine.games.contract import About, Clock, Seat
from engine.header import Header
from engine.lexicon import Lexicon
from engine.message import Msg, msg
from engine.record import Record
from engine.refusals import choosing_nothing
from engine.rules import CURRENT
from engine.text import fold

ABOUT = About(
    name="asta",
    title="L'asta lessicale random",
    min_players=2,
    max_players=None,  # CH-1 sets none
    clock=Clock(60),  # CH-4
    sheet="sheet_asta.html",
    events=("roll", "choose", "word", "pass", "timeout"),
)
BASE: Due = (("vowel", 2), ("consonant", 1))  # AST-1
BASE_FACES = sum(n for _, n in BASE)
TURN: Due = (("vowel", 1), ("consonant", 1))  # AST-2
JOLLY = "Z"  # AST-3

# A slot is the letters one position of the next word may hold; JOLLY_SLOT holds any letter.
Slot = frozenset[str]
JOLLY_SLOT: Slot = frozenset("*")


class State(Record):
    header: Header
    current: str
    owed: Due = BASE
    base: tuple[str, ...] = ()  # the base faces (AST-1), kept for AST-5
    last_word: str | None = None  # the last valid word; None while play is on the base
    new: tuple[str, ...] = ()  # this turn's two faces
    chosen: tuple[str, ...] = ()  # letters chosen for U/A, U/O faces this turn (EQ-3)
    rescuer: str | None = None  # AST-5: the opponent trying to win from the base
    winner: str | None = None
    out: tuple[OutRecord, ...] = ()
    notes: tuple[Note, ...] = ()


def start(header: Header, rules: int = CURRENT) -> State:
    return State(header, current=header.players[0])


def slot(face: str, chosen: Sequence[str] = ()) -> Slot:
    """The letters a face offers: a Z any letter (AST-3), U/A either letter unless chosen (EQ-3)."""
    if face == JOLLY:
        return JOLLY_SLOT
    options = face_letters(face)
    picked = [c for c in chosen if c in options]
    return frozenset(picked[:1] or options)


def fits(word: str, slots: Sequence[Slot], jolly: str | None = None) -> bool:
    """Whether the word's letters fill exactly these slots, one letter each, in any order.

    >>> base = [frozenset("e"), frozenset("c"), frozenset("a")]
    >>> fits("pace", base + [frozenset("p")])
    True
    >>> fits("pecca", [frozenset(c) for c in "pace"] + [JOLLY_SLOT], jolly="c")
    True
    >>> fits("pecca", [frozenset(c) for c in "pace"] + [JOLLY_SLOT], jolly="t")
    False
    """
    left = Counter(fold(word))
    if sum(left.values()) != len(slots):
        return False
    wild: list[Slot] = []
    for s in slots:
        if s == JOLLY_SLOT:
            wild.append(frozenset(fold(jolly)) if jolly else JOLLY_SLOT)
        elif len(s) == 1:
            (c,) = s
            if not left[c]:
                return False
            left[c] -= 1
        else:
            wild.append(s)
    return _match(+left, wild)


def _match(left: Counter[str], slots: list[Slot]) -> bool:
    """Backtracking over the few slots that offer a choice (U/A, U/O, Z)."""
    if not slots:
        return not left
    first, rest = slots[0], slots[1:]
    for c in list(left):
        if first == JOLLY_SLOT or c in first:
            fewer = left.copy()
            fewer[c] -= 1
            if _match(+fewer, rest):
                return True
    return False


def previous_slots(state: State) -> list[Slot]:
    """The previous word's letters, or the base's faces before any word stands (AST-2, AST-5)."""
    if state.last_word is not None:
        return [frozenset(c) for c in state.last_word]
    return [slot(f, state.chosen) for f in state.base]


def formable(state: State, word: str, jolly: str | None) -> bool:
    """AST-2: all the previous word's letters plus exactly one of this turn's two letters."""
    before = previous_slots(state)
    return any(fits(word, [*before, slot(f, state.chosen)], jolly) for f in state.new)


def _double_faces(state: State) -> list[str]:
    faces = list(state.new) + (list(state.base) if state.last_word is None else [])
    return [f for f in faces if "/" in f]


def turns(state: State) -> tuple[Turn, ...]:
    if outcome(state):
        return ()
    if state.owed:
        rule = "AST-1" if len(state.base) < BASE_FACES else "AST-5" if state.rescuer else "AST-2"
        # The base is rolled, not played: only a player's own turn can run out (CH-4).
        events: tuple[str, ...] = ("roll",) if len(state.base) < BASE_FACES else ("roll", "timeout")
        return (roll_turn(state.current, state.owed, rule, events),)
    target = len(state.last_word or state.base) + 1
    events = ("word", "pass", "timeout") + (("choose",) if _double_faces(state) else ())
    letters = "".join(state.new)
    rule = "AST-5" if state.rescuer else "AST-2"
    choices = tuple(c for f in _double_faces(state) for c in face_letters(f))
    return (
        Turn(
            state.current,
            events,
            expecting("a %(n)s-letter word adding one of %(letters)s", n=target, letters=letters),
            rule,
            choices=choices,
        ),
    )


# EQ-3: a choice of letter with no U/A or U/O face open (engine.refusals).
refusal = choosing_nothing(turns)


def _next_turn(state: State, current: str, **changes: object) -> State:
    return replace(state, current=current, owed=TURN, new=(), chosen=(), **changes)  # type: ignore[arg-type]


def apply(state: State, event: Event, ctx: Context) -> State:
    if isinstance(event, Roll):
        on_base = len(state.base) < BASE_FACES
        owed, faces = take_roll(
            {state.current: state.owed}, event, state.header, "AST-1" if on_base else "AST-2"
        )
        rest = owed[state.current]
        if on_base:
            return replace(state, base=state.base + faces, owed=rest or TURN)
        return replace(state, new=state.new + faces, owed=rest)
    if isinstance(event, Choose):
        value = str(event.value).lower()
        if not any(value in face_letters(f) for f in _double_faces(state)):
            raise not_a_letter(event)
        return replace(state, chosen=(*state.chosen, value))
    if isinstance(event, (Word, Pass, Timeout)):
        return _judge(state, event, ctx)
    raise AssertionError(f"asta cannot apply {event!r}")  # turns() admits no other type


def _judge(state: State, event: Word | Pass | Timeout, ctx: Context) -> State:
    players = state.header.players
    challenger = players[0]
    if isinstance(event, Word):
        word = fold(event.word)
        shape = formable(state, word, event.jolly)
        valid = shape and ctx.admitted(word)
        if valid:
            text = msg("%(word)s stands", word=word)
        elif shape:
            text = msg("%(word)s is not admitted", word=word)
        else:
            text = msg(
                "%(word)s does not add exactly one new letter to the previous letters", word=word
            )
    else:
        valid, word, text = False, "", msg("no word")
    note = Note(ctx.position, state.current, text, "AST-2", valid)
    state = replace(state, notes=(*state.notes, note))
    gone = {o.player for o in state.out}
    if state.rescuer is not None:
        # AST-5: the opponent wins only with a 4-letter word from the same base; else back to
        # the challenger, from the base.
        if valid:
            return replace(state, winner=state.current, owed=())
        return _next_turn(state, challenger, rescuer=None)
    if state.last_word is None and state.current == challenger:
        if valid:
            return _next_turn(state, next_player(players, gone, challenger), last_word=word)
        opponent = next_player(players, gone, challenger)
        return _next_turn(state, opponent, rescuer=opponent)
    if valid:
        return _next_turn(state, next_player(players, gone, state.current), last_word=word)
    # AST-4: a player who cannot is out; the next goes on from the last valid word.
    out = (*state.out, OutRecord(state.current, text, "AST-4"))
    return _next_turn(state, next_player(players, gone | {state.current}, state.current), out=out)


def outcome(state: State) -> Outcome | None:
    return last_standing(state.header.players, state.out, state.winner)  # AST-4, AST-5


def summary(state: State) -> Msg:
    """The state in words, for the audit."""
    base = " ".join(state.base) or msg("not rolled")
    word = state.last_word or msg("none yet")
    if state.new:
        return msg(
            "base %(base)s; last word %(word)s; rolled %(rolled)s",
            base=base,
            word=word,
            rolled=" ".join(state.new),
        )
    return msg("base %(base)s; last word %(word)s", base=base, word=word)


# --- the contract's optional parts (engine.games.contract) -------------------------------------


def _legal(state: State, lexicon: Lexicon) -> list[tuple[str, str | None]]:
    """Every legal word now (AST-2), with the letter its jolly stands for (AST-3)."""
    from engine.solve import asta_words

    return asta_words(lexicon, previous_slots(state), [slot(f, state.chosen) for f in state.new])


def best_play(before: State, event: Event, lexicon: Lexicon, memo: dict[str, Any]) -> str:
    """The audit, for a word, a pass or a timeout: the legal words there were (AST-2)."""
    if not isinstance(event, (Word, Pass, Timeout)) or not before.new:
        return ""
    words = sorted({w for w, _ in _legal(before, lexicon)})
    if not words:
        return "no legal word existed"
    more = f" ({len(words)} in all)" if len(words) > 6 else ""
    return f"legal words: {', '.join(words[:6])}{more}"


def computer_move(seat: Seat) -> dict[str, Any] | None:
    """A computer player's word: one of the legal words, the jolly said where one is used."""
    if seat.kind != "word":
        return None
    legal = _legal(seat.state, seat.lexicon)
    if not legal:
        return None
    word, jolly = seat.rng.choice(legal)
    event = {"type": "word", "by": seat.turn.player, "word": word}
    return {**event, "jolly": jolly} if jolly else event
