"""La roulette russa: add a consonant or doubt the last roller (RULES RR-1..RR-6)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from engine.dice import face_letters
from engine.events import Doubt, Event, Pass, Roll, Timeout, Word
from engine.games.base import (
    Context,
    Note,
    Outcome,
    OutRecord,
    Turn,
    expecting,
    last_standing,
    next_player,
    replace,
    roll_turn,
    still_in,
    take_roll,
)
from engine.games.contract import About, Clock, Seat
from engine.header import Header
from engine.lexicon import Lexicon
from engine.message import Msg, msg
from engine.record import Record
from engine.rules import CURRENT
from engine.text import consonants, fold

ABOUT = About(
    name="roulette_russa",
    title="La roulette russa",
    min_players=2,
    max_players=None,  # CH-1 sets none
    clock=Clock(60),  # CH-4
    sheet="sheet_roulette_russa.html",
    events=("roll", "doubt", "word", "pass", "timeout"),
)
ONE = (("consonant", 1),)


class State(Record):
    header: Header
    current: str
    consonants: tuple[tuple[str, str], ...] = ()  # (letter, who rolled it), in play
    doubts: frozenset[tuple[str, str]] = frozenset()  # standing (doubter, doubted)
    writer: str | None = None  # RR-3: L, called on to write
    winner: str | None = None
    out: tuple[OutRecord, ...] = ()
    notes: tuple[Note, ...] = ()
    rules: int = CURRENT  # the revision of the rules in force (engine.rules): see turns()


def start(header: Header, rules: int = CURRENT) -> State:
    return State(header, current=header.players[0], rules=rules)


# The events open on a turn to doubt again (RR-5), to roll or doubt (RR-1) and to roll, by the
# revision of the rules: since revision 2 each may run out (CH-4); revision 1 (0.1) let only the
# call to write time out (RR-3) and refused a timeout anywhere else.
_DOUBT = {1: ("doubt",), 2: ("doubt", "timeout")}
_ROLL_OR_DOUBT = {1: ("roll", "doubt"), 2: ("roll", "doubt", "timeout")}
_ROLL = {1: ("roll",), 2: ("roll", "timeout")}


def last_roller(state: State) -> str | None:
    """L (RR-2): who rolled the last consonant still in play.

    Engine reading where the seed is silent: a consonant whose roller is already out cannot make
    them L (they cannot write); L is then the roller of the last consonant of a player still in.
    """
    gone = {o.player for o in state.out}
    for _, roller in reversed(state.consonants):
        if roller not in gone:
            return roller
    return None


def listed(state: State) -> str:
    return "-".join(c.upper() for c, _ in state.consonants) or msg("none")


def _bound(state: State, player: str) -> bool:
    """RR-5: a player with a standing doubt may not roll until the doubted player is out."""
    return any(doubter == player for doubter, _ in state.doubts)


def turns(state: State) -> tuple[Turn, ...]:
    if outcome(state):
        return ()
    if state.writer is not None:
        say = expecting("write a word with the consonants %(letters)s", letters=listed(state))
        return (Turn(state.writer, ("word", "pass", "timeout"), say, "RR-3"),)
    # CH-4: every turn has its time, so a roll or doubt turn may run out too (see apply), since
    # revision 2 of the rules (see _ROLL).
    target = last_roller(state)
    can_doubt = target is not None and target != state.current
    if can_doubt and _bound(state, state.current):
        return (
            Turn(
                state.current,
                _DOUBT[state.rules],
                expecting("doubt %(player)s again", player=target),
                "RR-5",
            ),
        )
    if can_doubt:
        return (
            roll_turn(
                state.current,
                ONE,
                "RR-1",
                _ROLL_OR_DOUBT[state.rules],
                expecting("roll the consonant die or doubt %(player)s", player=target),
            ),
        )
    return (roll_turn(state.current, ONE, "RR-1", _ROLL[state.rules]),)


def _call_to_write(state: State) -> State:
    """RR-3: when every other player still in doubts L, L must write."""
    target = last_roller(state)
    if target is None:
        return state
    others = [p for p in still_in(state.header.players, state.out) if p != target]
    if others and all((p, target) in state.doubts for p in others):
        return replace(state, writer=target)
    return state


def covers(word: str, letters: list[str]) -> bool:
    """RR-3: the word's consonants include every listed consonant, with multiplicity.

    >>> covers("passamontagna", list("sstpgnm"))
    True
    >>> covers("pasta", list("sstp"))
    False
    """
    return not (Counter(letters) - consonants(word))


def apply(state: State, event: Event, ctx: Context) -> State:
    players = state.header.players
    gone = {o.player for o in state.out}
    if isinstance(event, Roll):
        _, (face,) = take_roll({state.current: ONE}, event, state.header, "RR-1")
        letter = face_letters(face)[0]  # RR-1: Z is a plain letter here
        return replace(
            state,
            consonants=(*state.consonants, (letter, state.current)),
            current=next_player(players, gone, state.current),
        )
    if isinstance(event, Doubt):
        target = last_roller(state)
        assert target is not None
        state = replace(state, doubts=state.doubts | {(state.current, target)})
        state = _call_to_write(state)
        if state.writer is None:
            state = replace(state, current=next_player(players, gone, state.current))
        return state
    if isinstance(event, Timeout) and state.writer is None:
        return _timed_out(state, ctx)
    if isinstance(event, (Word, Pass, Timeout)):
        writer = state.writer
        assert writer is not None
        needed = [c for c, _ in state.consonants]
        if isinstance(event, Word):
            word = fold(event.word)
            valid = covers(word, needed) and ctx.admitted(word)
            if valid:
                text = msg("%(word)s covers %(letters)s", word=word, letters=listed(state))
            elif not covers(word, needed):
                text = msg("%(word)s does not cover %(letters)s", word=word, letters=listed(state))
            else:
                text = msg("%(word)s is not admitted", word=word)
        else:
            valid, text = False, msg("no word")
        state = replace(
            state, notes=(*state.notes, Note(ctx.position, writer, text, "RR-3", valid))
        )
        if valid:
            return replace(state, winner=writer, writer=None)
        # RR-4: L is out, L's last consonant is struck, doubts at L lapse, play goes on after L.
        i = max(i for i, (_, roller) in enumerate(state.consonants) if roller == writer)
        struck = state.consonants[i][0].upper()
        state = replace(
            state,
            consonants=state.consonants[:i] + state.consonants[i + 1 :],
            doubts=frozenset(d for d in state.doubts if d[1] != writer),
            out=(
                *state.out,
                OutRecord(
                    writer, msg("%(text)s; %(letter)s struck", text=text, letter=struck), "RR-4"
                ),
            ),
            writer=None,
            current=next_player(players, gone | {writer}, writer),
        )
        if outcome(state):
            return state
        return _call_to_write(state)
    raise AssertionError(f"roulette russa cannot apply {event!r}")  # turns() admits no other type


def _timed_out(state: State, ctx: Context) -> State:
    """CH-4 on a roll or doubt turn: the player could not answer, so is out (as RR-4 puts out a
    player who cannot write). Their consonants stay in the list, as RR-4 keeps an out player's
    other consonants; doubts at them lapse (RR-4) and so do their own; then RR-3 is checked again
    at once (RR-4), since the players still in may now all doubt L."""
    player = state.current
    gone = {o.player for o in state.out} | {player}
    state = replace(
        state,
        doubts=frozenset(d for d in state.doubts if player not in d),
        out=(*state.out, OutRecord(player, msg("time ran out on a roll or doubt turn"), "CH-4")),
        current=next_player(state.header.players, gone, player),
        notes=(*state.notes, Note(ctx.position, player, msg("timeout: out"), "CH-4", False)),
    )
    return state if outcome(state) else _call_to_write(state)


def outcome(state: State) -> Outcome | None:
    return last_standing(state.header.players, state.out, state.winner)  # RR-4, RR-6


def summary(state: State) -> Msg:
    """The state in words, for the audit."""
    doubts = tuple(msg("%(a)s doubts %(b)s", a=a, b=b) for a, b in sorted(state.doubts))
    if doubts:
        return msg("consonants %(letters)s; %(doubts)s", letters=listed(state), doubts=doubts)
    return msg("consonants %(letters)s", letters=listed(state))


# --- the contract's optional parts (engine.games.contract) -------------------------------------


def best_play(before: State, event: Event, lexicon: Lexicon, memo: dict[str, Any]) -> str:
    """The audit, for the word the player called to write wrote (RR-3): one that covered the
    consonants."""
    from engine.solve import roulette_word

    if not isinstance(event, (Word, Pass, Timeout)) or before.writer != event.by:
        return ""
    found = roulette_word(lexicon, [c for c, _ in before.consonants])
    return f"a word that covers them: {found}" if found else "no word covers them"


def computer_move(seat: Seat) -> dict[str, Any] | None:
    """A computer player's word: one that covers the consonants, where one is found."""
    if seat.kind != "word":
        return None
    from engine.solve import roulette_word

    found = roulette_word(seat.lexicon, [c for c, _ in seat.state.consonants], extra=1)
    return {"type": "word", "by": seat.turn.player, "word": found} if found else None
