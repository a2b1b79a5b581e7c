"""La parola nascosta: guess the others' hidden words; Morra decides a silent table
(RULES PN-1..PN-7).

Words are sealed: the log holds sha256(salt + ":" + word) until the player reveals word and
salt, so nobody can change a word after writing it (PN-3). Every reveal is checked against its
seal, and every answer and hint against the revealed word (PN-4, PN-5): a contradiction is
shown to the referee, whose ruling on the guess decides.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.decks import WORD_KINDS, Card, deck_from_header
from engine.errors import BadHeader, RuleViolation
from engine.events import Answer, Event, Guess, Hint, Reveal, Seal, Start
from engine.events import Card as CardEvent
from engine.games.base import (
    Context,
    Note,
    Outcome,
    OutRecord,
    Turn,
    expecting,
    outcome_for,
    replace,
    still_in,
)
from engine.games.contract import About
from engine.games.hidden_words import AnswerGiven, HintGiven, hint_refused, lies, seal
from engine.games.morra import decide, following, morra, morra_order, why_no_ruling
from engine.games.parola_computer import computer_move  # noqa: F401 (its computer player)
from engine.header import Header
from engine.message import Msg, msg
from engine.record import EMPTY, Record
from engine.rules import CURRENT
from engine.text import fold

name = "parola_nascosta"
title = "La parola nascosta"
min_players = 2
max_players = 10
ABOUT = About(  # the contract (engine.games.contract); CH-4 names no time for it
    name,
    title,
    min_players,
    max_players,
    None,
    "sheet_parola_nascosta.html",
    events=("card", "start", "seal", "guess", "answer", "hint", "reveal"),
)
TABLE = "table"
SILENT_ROUNDS_TO_FINAL = 3  # PN-5


class Pending(Record):
    """A guess waiting for its answer."""

    guesser: str
    target: str
    word: str
    position: int
    verdict: bool | None  # the referee's ruling on the guess, if any (REF-1)


class State(Record):
    header: Header
    deck: Mapping[str, Card]
    cards: Mapping[str, str] = EMPTY  # player or "table" -> card id
    seals: Mapping[str, str] = EMPTY
    current: str | None = None  # whose guess it is; None until the start (PN-4)
    pending: Pending | None = None
    round_guessed: frozenset[str] = frozenset()
    round_right: bool = False
    silent: int = 0  # full rounds with no right guess (PN-5)
    hints_owed: frozenset[str] = frozenset()
    answers: tuple[AnswerGiven, ...] = ()  # checked when the word is revealed (PN-4)
    hints: tuple[HintGiven, ...] = ()  # checked likewise (PN-5)
    revealed: Mapping[str, str] = EMPTY
    tied: tuple[str, ...] = ()  # the players still in after the final Morra, when more than one
    winners: tuple[str, ...] = ()
    out: tuple[OutRecord, ...] = ()
    notes: tuple[Note, ...] = ()


def start(header: Header, rules: int = CURRENT) -> State:
    if len(header.players) > max_players:
        raise BadHeader("La parola nascosta seats 2 to 10 players", "PN-1")
    return State(header, deck_from_header(header.options.get("deck")))


def _in(state: State) -> tuple[str, ...]:
    return still_in(state.header.players, state.out)


def card_of(state: State, who: str) -> Card:
    return state.deck[state.cards[who]]


def _next(state: State, after: str, among: tuple[str, ...]) -> str:
    """The next of ``among`` after ``after`` in the direction of the table card's clock (PN-4)."""
    return following(state.header.players, card_of(state, TABLE).clock, after, among)


def _reveals_owed(state: State) -> list[str]:
    """Players out (and, at the end, everyone) who must still show their word."""
    gone = [o.player for o in state.out]
    owed = list(state.header.players) if state.winners else gone
    return [p for p in owed if p not in state.revealed]


def turns(state: State) -> tuple[Turn, ...]:
    if outcome(state):
        return ()
    return _before_the_start(state) or _reveals_owed_turns(state) or _playing(state)


def _before_the_start(state: State) -> tuple[Turn, ...]:
    """PN-2..PN-4: the cards to deal, the words to seal, then the referee names who starts
    (nothing once a player is named)."""
    dealing = _dealing(state)
    sealing = _sealing(state)
    if dealing or sealing:
        return (*dealing, *sealing)
    if state.current is None:
        say = expecting("name the player the table card points at")
        return (Turn("referee", ("start",), say, "PN-4"),)
    return ()


def _dealing(state: State) -> tuple[Turn, ...]:
    """PN-2: a card to every player and one to the table."""
    dealt = [p for p in (*state.header.players, TABLE) if p not in state.cards]
    if not dealt:
        return ()
    to = tuple(msg("table") if p == TABLE else p for p in dealt)
    return (
        Turn("referee", ("card",), expecting("deal a card to %(players)s", players=to), "PN-2"),
    )


def _sealing(state: State) -> tuple[Turn, ...]:
    """PN-3: every player with a card seals a word for it."""
    say = expecting("seal the word written for the card")
    players = state.header.players
    return tuple(
        Turn(p, ("seal",), say, "PN-3")
        for p in players
        if p not in state.seals and p in state.cards
    )


def _reveals_owed_turns(state: State) -> tuple[Turn, ...]:
    """PN-4: the players out (at the end, everyone) reveal their words before anything else."""
    say = expecting("reveal the word and its salt")
    return tuple(Turn(p, ("reveal",), say, "PN-4") for p in _reveals_owed(state))


def _playing(state: State) -> tuple[Turn, ...]:
    """Once the game is under way: the move expected, and any player may show their word
    (PN-3)."""
    say = expecting("may show their word")
    shown = state.revealed
    voluntary = tuple(
        Turn(p, ("reveal",), say, "PN-3", optional=True)
        for p in state.header.players
        if p not in shown
    )
    return (*_expected(state), *voluntary)


def _expected(state: State) -> tuple[Turn, ...]:
    """PN-4, PN-5: the answer a guess waits for, else the hints owed, else the next guess."""
    p = state.pending
    if p:
        say = expecting("answer %(player)s's guess: right or wrong", player=p.guesser)
        return (Turn(p.target, ("answer",), say, "PN-4"),)
    if state.hints_owed:
        say = (
            expecting("say the first letter of the word")
            if state.silent == 1
            else expecting("say the last letter of the word")
        )
        return tuple(
            Turn(p, ("hint",), say, "PN-5") for p in state.header.players if p in state.hints_owed
        )
    assert state.current is not None  # (set at the start)
    return (Turn(state.current, ("guess",), expecting("guess another player's word"), "PN-4"),)


def refusal(state: State, event: Event) -> RuleViolation | None:
    """The rule a move not open now breaks, where it is not the rule of the turn expected (the
    replay asks the game, #23): a letter is said only as PN-5 owes it, after a full round with
    no right guess, once by each player still in."""
    if not isinstance(event, Hint) or state.current is None or event.by not in _in(state):
        return None  # (before the start, or from a player out: the turn expected says why)
    owed = ("first" if state.silent == 1 else "last") if state.hints_owed else None
    return hint_refused(event.by, owed)


def apply(state: State, event: Event, ctx: Context) -> State:
    applying = _APPLY.get(type(event))  # (the event types have no subclasses)
    if applying is None:
        raise AssertionError(f"parola nascosta cannot apply {event!r}")  # turns() admits no other
    return applying(state, event, ctx)


def _sealed(state: State, event: Seal, ctx: Context) -> State:
    return replace(state, seals={**state.seals, event.by: event.commitment})


def _started(state: State, event: Start, ctx: Context) -> State:
    if event.player not in state.header.players:
        raise RuleViolation(msg("%(player)s is not at the table", player=event.player), "PN-4")
    suit = card_of(state, TABLE).suit
    note = Note(
        ctx.position,
        event.player,
        msg("starts; words are %(kind)s (%(suit)s)", kind=WORD_KINDS[suit], suit=suit),
        "PN-2",
        True,
    )
    return replace(state, current=event.player, notes=(*state.notes, note))


def _guessed(state: State, event: Guess, ctx: Context) -> State:
    if event.target == event.by or event.target not in _in(state):
        raise RuleViolation(
            msg("%(player)s is not another player still in", player=event.target), "PN-4"
        )
    # REF-1: a ruling on the same guess at the same player earlier holds (PN-3: the word
    # is sealed, so the same guess is as right or wrong as it was).
    verdict = ctx.decided("guess", event.target, fold(event.word))
    return replace(
        state, pending=Pending(event.by, event.target, event.word, ctx.position, verdict)
    )


def _deal(state: State, event: CardEvent, ctx: Context) -> State:
    if event.card not in state.deck:
        raise RuleViolation(msg("card %(card)r is not in the deck", card=event.card), "PN-1")
    if event.to != TABLE and event.to not in state.header.players:
        raise RuleViolation(
            msg("%(player)r is neither a player nor the table", player=event.to), "PN-2"
        )
    if event.to in state.cards:
        raise RuleViolation(msg("%(player)s already has a card", player=event.to), "PN-2")
    if event.card in state.cards.values():
        raise RuleViolation(msg("card %(card)s was already dealt", card=event.card), "PN-2")
    return replace(state, cards={**state.cards, event.to: event.card})


def _answered(state: State, event: Answer, ctx: Context) -> State:
    p = state.pending
    assert p is not None
    right = p.verdict if p.verdict is not None else event.right
    answers = (*state.answers, AnswerGiven(p.position, p.target, p.word, event.right, p.verdict))
    out = state.out
    if right:  # PN-4: a right guess puts the word's owner out
        out = (
            *out,
            OutRecord(
                p.target, msg("%(player)s guessed %(word)r", player=p.guesser, word=p.word), "PN-4"
            ),
        )
    state = replace(
        state,
        pending=None,
        answers=answers,
        out=out,
        round_right=state.round_right or right,
        round_guessed=state.round_guessed | {p.guesser},
    )
    state = _check_lies(state, p.target, ctx)
    left = _in(state)
    if len(left) == 1:  # PN-7
        return replace(state, winners=(left[0],))
    return _advance(state, p.guesser, ctx)


def _advance(state: State, guesser: str, ctx: Context) -> State:
    """The next guesser; at the end of a full round, PN-5's hints or the final challenge."""
    left = _in(state)
    after = _next(state, guesser, left)
    if not set(left) <= state.round_guessed:
        return replace(state, current=after)
    was_silent = not state.round_right
    state = replace(
        state,
        current=after,
        round_guessed=frozenset(),
        round_right=False,
        silent=state.silent + was_silent,
    )
    if not was_silent:
        return state
    if state.silent >= SILENT_ROUNDS_TO_FINAL:
        return _final_challenge(state, ctx)
    return replace(state, hints_owed=frozenset(left))


def _hint(state: State, event: Hint, ctx: Context) -> State:
    if len(fold(event.letter)) != 1 or not fold(event.letter).isalpha():
        raise RuleViolation(msg("a hint is one letter"), "PN-5")
    which = "first" if state.silent == 1 else "last"
    hints = (*state.hints, HintGiven(ctx.position, event.by, which, fold(event.letter)))
    state = replace(state, hints=hints, hints_owed=state.hints_owed - {event.by})
    return _check_lies(state, event.by, ctx)


def _reveal(state: State, event: Reveal, ctx: Context) -> State:
    if event.by not in state.seals:
        raise RuleViolation(msg("%(player)s has sealed no word", player=event.by), "PN-3")
    if seal(event.word, event.salt) != state.seals[event.by]:
        raise RuleViolation(
            msg(
                "%(player)s's word and salt do not match the seal: a word cannot change after "
                "it is sealed",
                player=event.by,
            ),
            "PN-3",
        )
    state = replace(state, revealed={**state.revealed, event.by: event.word})
    note = Note(
        ctx.position, event.by, msg("reveals %(word)s", word=fold(event.word)), "PN-3", True
    )
    return _check_lies(replace(state, notes=(*state.notes, note)), event.by, ctx)


def _check_lies(state: State, player: str, ctx: Context) -> State:
    """PN-4, PN-5: once a word is known, every answer and hint about it is checked (once)."""
    word = state.revealed.get(player)
    if word is None:
        return state
    seen = {(n.position, n.rule) for n in state.notes if not n.ok}
    found = lies(player, word, state.answers, state.hints, seen, ctx.rules)
    return replace(state, notes=(*state.notes, *found))


def _final_challenge(state: State, ctx: Context) -> State:
    """PN-6: Morra in pairs from the lowest percentile, in that player's clock direction."""
    card = _cards(state)
    order = morra_order(state.header.players, _in(state), card)
    state = replace(state, out=(*state.out, *morra(order, card)))
    left = _in(state)
    if len(left) == 1:
        return replace(state, winners=(left[0],))
    return _tie_break(replace(state, tied=left), ctx)


def _tie_break(state: State, ctx: Context) -> State:
    """PN-6 and PN-1: the tie-breaker, or the referee's ruling on a card, decides."""
    ruled = {p: ctx.ruled[("card", p)] for p in state.tied if ("card", p) in ctx.ruled}
    # PN-6: the tie-breaker of the first player out's card; nobody out yet: the table card's.
    decider = card_of(state, state.out[0].player if state.out else TABLE)
    winners, notes = decide(state.tied, ruled, decider, _cards(state), ctx.rules, ctx.position)
    return replace(state, winners=winners, notes=(*state.notes, *notes))


def _cards(state: State) -> Callable[[str], Card]:
    return lambda who: card_of(state, who)


def why_no_tie_break_ruling(state: State, event: CardEvent) -> str | None:
    """PN-1: why the referee cannot rule on this card now (it needs a tie-break with its holder)."""
    return why_no_ruling(state.tied, event.to)


_APPLY: dict[type, Callable[[State, Any, Context], State]] = {
    CardEvent: _deal,
    Seal: _sealed,
    Start: _started,
    Guess: _guessed,
    Answer: _answered,
    Hint: _hint,
    Reveal: _reveal,
}


def outcome(state: State) -> Outcome | None:
    if not state.winners or _reveals_owed(state):
        return None  # PN-7, and at the end every player still hiding a word reveals it
    return outcome_for(state.header.players, state.winners)


def summary(state: State) -> Msg:
    """The state in words, for the audit (sealed words stay sealed)."""
    shown = tuple(f"{p} {fold(w)}" for p, w in state.revealed.items()) or msg("none")
    return msg("silent rounds %(silent)s; words shown: %(shown)s", silent=state.silent, shown=shown)
