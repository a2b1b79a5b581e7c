"""La parola nascosta: guess the others' hidden words; Morra decides a silent table
(RULES PN-1..PN-7).

Words are sealed: the log holds sha256(salt + ":" + word) until the player reveals word and
salt, so nobody can change a word after writing it (PN-3). Every reveal is checked against its
seal, and every answer and hint against the revealed word (PN-4, PN-5): a contradiction is
shown to the referee, whose ruling on the guess decides.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from engine.decks import BEATS, TIEBREAK_WORDS, WORD_KINDS, Card, deck_from_header
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
)
from engine.games.contract import About
from engine.games.hidden_words import lies, seal
from engine.games.parola_computer import computer_move  # noqa: F401 (its computer player)
from engine.header import Header
from engine.message import Msg, msg
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


@dataclass(frozen=True)
class Pending:
    """A guess waiting for its answer."""

    guesser: str
    target: str
    word: str
    position: int
    verdict: bool | None  # the referee's ruling on the guess, if any (REF-1)


@dataclass(frozen=True)
class State:
    header: Header
    deck: Mapping[str, Card]
    cards: Mapping[str, str] = field(default_factory=dict)  # player or "table" -> card id
    seals: Mapping[str, str] = field(default_factory=dict)
    current: str | None = None  # whose guess it is; None until the start (PN-4)
    pending: Pending | None = None
    round_guessed: frozenset[str] = frozenset()
    round_right: bool = False
    silent: int = 0  # full rounds with no right guess (PN-5)
    hints_owed: frozenset[str] = frozenset()
    # (position, target, guess, answered right, the referee's ruling on the guess if any)
    answers: tuple[tuple[int, str, str, bool, bool | None], ...] = ()
    hints: tuple[tuple[int, str, str, str], ...] = ()  # (position, player, first|last, letter)
    revealed: Mapping[str, str] = field(default_factory=dict)
    tied: tuple[str, ...] = ()  # the players still in after the final Morra, when more than one
    winners: tuple[str, ...] = ()
    out: tuple[OutRecord, ...] = ()
    notes: tuple[Note, ...] = ()


def start(header: Header, rules: int = CURRENT) -> State:
    if len(header.players) > max_players:
        raise BadHeader("La parola nascosta seats 2 to 10 players", "PN-1")
    return State(header, deck_from_header(header.options.get("deck")))


def _in(state: State) -> list[str]:
    gone = {o.player for o in state.out}
    return [p for p in state.header.players if p not in gone]


def card_of(state: State, who: str) -> Card:
    return state.deck[state.cards[who]]


def _step(state: State, player: str) -> int:
    """+1 clockwise (the seating order), -1 anticlockwise, by the table card's clock (PN-4)."""
    return 1 if card_of(state, TABLE).clock == "cw" else -1


def _next(state: State, after: str, step: int, among: list[str]) -> str:
    order = list(state.header.players)
    i = order.index(after)
    for k in range(1, len(order) + 1):
        p = order[(i + step * k) % len(order)]
        if p in among:
            return p
    return after


def _reveals_owed(state: State) -> list[str]:
    """Players out (and, at the end, everyone) who must still show their word."""
    gone = [o.player for o in state.out]
    owed = list(state.header.players) if state.winners else gone
    return [p for p in owed if p not in state.revealed]


def turns(state: State) -> tuple[Turn, ...]:
    if outcome(state):
        return ()
    dealt = [p for p in (*state.header.players, TABLE) if p not in state.cards]
    unsealed = [p for p in state.header.players if p not in state.seals]
    if dealt or unsealed or state.current is None:
        out = []
        if dealt:
            to = tuple(msg("table") if p == TABLE else p for p in dealt)
            out.append(
                Turn(
                    "referee",
                    ("card",),
                    expecting("deal a card to %(players)s", players=to),
                    "PN-2",
                )
            )
        out += [
            Turn(p, ("seal",), expecting("seal the word written for the card"), "PN-3")
            for p in unsealed
            if p in state.cards
        ]
        if not dealt and not unsealed:
            out.append(
                Turn(
                    "referee",
                    ("start",),
                    expecting("name the player the table card points at"),
                    "PN-4",
                )
            )
        return tuple(out)
    owed = _reveals_owed(state)
    voluntary = [
        Turn(p, ("reveal",), expecting("may show their word"), "PN-3")
        for p in state.header.players
        if p not in state.revealed and p not in owed
    ]
    if owed:
        return tuple(
            Turn(p, ("reveal",), expecting("reveal the word and its salt"), "PN-4") for p in owed
        )
    if state.pending:
        p = state.pending
        return (
            Turn(
                p.target,
                ("answer",),
                expecting("answer %(player)s's guess: right or wrong", player=p.guesser),
                "PN-4",
            ),
            *voluntary,
        )
    if state.hints_owed:
        which = (
            expecting("say the first letter of the word")
            if state.silent == 1
            else expecting("say the last letter of the word")
        )
        return tuple(
            Turn(p, ("hint",), which, "PN-5") for p in state.header.players if p in state.hints_owed
        ) + tuple(voluntary)
    return (
        Turn(state.current, ("guess",), expecting("guess another player's word"), "PN-4"),
        *voluntary,
    )


def apply(state: State, event: Event, ctx: Context) -> State:
    if isinstance(event, CardEvent):
        return _deal(state, event)
    if isinstance(event, Seal):
        return replace(state, seals={**state.seals, event.by: event.commitment})
    if isinstance(event, Start):
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
    if isinstance(event, Guess):
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
    if isinstance(event, Answer):
        return _answered(state, event, ctx)
    if isinstance(event, Hint):
        return _hint(state, event, ctx)
    if isinstance(event, Reveal):
        return _reveal(state, event, ctx)
    raise AssertionError(f"parola nascosta cannot apply {event!r}")  # turns() admits no other


def _deal(state: State, event: CardEvent) -> State:
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
    answers = (*state.answers, (p.position, p.target, p.word, event.right, p.verdict))
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
    following = _next(state, guesser, _step(state, guesser), left)
    if not set(left) <= state.round_guessed:
        return replace(state, current=following)
    was_silent = not state.round_right
    state = replace(
        state,
        current=following,
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
    hints = (*state.hints, (ctx.position, event.by, which, fold(event.letter)))
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
    left = _in(state)
    first = min(left, key=lambda p: (card_of(state, p).percentile, state.header.players.index(p)))
    step = 1 if card_of(state, first).clock == "cw" else -1
    order = [first]
    while len(order) < len(left):
        order.append(_next(state, order[-1], step, [p for p in left if p not in order]))
    out = list(state.out)
    for a, b in zip(order[0::2], order[1::2], strict=False):  # odd: the last sits out (Ruling)
        ha, hb = card_of(state, a).morra, card_of(state, b).morra
        if BEATS[ha] == hb:
            out.append(
                OutRecord(
                    b,
                    msg("Morra: %(lost)s loses to %(player)s's %(won)s", lost=hb, player=a, won=ha),
                    "PN-6",
                )
            )
        elif BEATS[hb] == ha:
            out.append(
                OutRecord(
                    a,
                    msg("Morra: %(lost)s loses to %(player)s's %(won)s", lost=ha, player=b, won=hb),
                    "PN-6",
                )
            )
    state = replace(state, out=tuple(out))
    left = _in(state)
    if len(left) == 1:
        return replace(state, winners=(left[0],))
    return _tie_break(replace(state, tied=tuple(left)), ctx)


def _tie_break(state: State, ctx: Context) -> State:
    """PN-6 and PN-1: the tie-breaker decides among the players still in, unless the referee
    records the decision: a ruling on the card of a player in the tie-break gives it to that
    player (accept) or takes them out of it (reject)."""
    ruled = {p: ctx.ruled[("card", p)] for p in state.tied if ("card", p) in ctx.ruled}
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
    if chosen:
        note = Note(
            ctx.position, chosen[0], msg("wins the tie-break by the referee's ruling"), "PN-1", True
        )
        return replace(state, winners=(chosen[0],), notes=(*state.notes, note))
    left = [p for p in state.tied if p not in ruled]
    if not left:
        raise RuleViolation(
            msg("the referee's rulings take every player out of the tie-break: accept one"), "PN-1"
        )
    # PN-6: the tie-breaker of the first player out's card; nobody out yet: the table card's.
    decider = card_of(state, state.out[0].player if state.out else TABLE)
    rule = decider.tiebreak
    sign = 1 if rule.startswith("highest") else -1

    def key(p: str) -> tuple[int, int]:
        # Reading: a D10 still tied is settled by the whole percentile, in the same sense
        # (PN-1: the D% and the D10 are read together as the percentile).
        c = card_of(state, p)
        primary = c.percentile if rule.endswith("percentile") else c.d10
        return (sign * primary, sign * c.percentile)

    if ctx.rules == 1:
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
    notes = tuple(Note(ctx.position, p, why, "PN-6", True) for p in winners)
    return replace(state, winners=winners, notes=(*state.notes, *notes))


def why_no_tie_break_ruling(state: State, event: CardEvent) -> str | None:
    """PN-1: why the referee cannot rule on this card now (it needs a tie-break with its holder)."""
    if not state.tied:
        return msg("a ruling on a card decides the final tie-break (PN-6), and there has been none")
    if event.to not in state.tied:
        return msg(
            "%(player)s is not in the tie-break (only %(tied)s are)",
            player=event.to,
            tied=tuple(state.tied),
        )
    return None


def outcome(state: State) -> Outcome | None:
    if not state.winners or _reveals_owed(state):
        return None  # PN-7, and at the end every player still hiding a word reveals it
    return outcome_for(state.header.players, state.winners)


def summary(state: State) -> Msg:
    """The state in words, for the audit (sealed words stay sealed)."""
    shown = tuple(f"{p} {fold(w)}" for p, w in state.revealed.items()) or msg("none")
    return msg("silent rounds %(silent)s; words shown: %(shown)s", silent=state.silent, shown=shown)
