"""Texas Word'em: the longest word from two personal consonants and the common letters
(RULES TEX-1..TEX-4)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from engine.dice import face_letters
from engine.errors import NotAllowedNow, RuleViolation
from engine.events import Choose, Event, Pass, Roll, Timeout, Word
from engine.games.base import (
    Context,
    Due,
    Note,
    Outcome,
    OutRecord,
    Turn,
    describe_due,
    expecting,
    outcome_for,
    replace,
    roll_turn,
    roll_turns,
    take_roll,
)
from engine.games.contract import About, Clock, Seat
from engine.header import Header
from engine.lexicon import Lexicon
from engine.message import Msg, msg
from engine.record import EMPTY, Record
from engine.rules import CURRENT
from engine.text import fold

ABOUT = About(
    name="texas",
    title="Texas Word'em",
    min_players=2,
    max_players=None,  # CH-1 sets none
    clock=Clock(60),  # CH-4
    sheet="sheet_texas.html",
    events=("roll", "word", "pass", "timeout"),
)
ROUNDS = 3
FIRST_ROUND: Due = (("vowel", 2),)
LATER_ROUND: Due = (("consonant", 1), ("vowel", 1))


class State(Record):
    header: Header
    owed: Mapping[str, Due]  # the personal consonants (TEX-1)
    round: int = 1
    common_owed: Due = FIRST_ROUND
    personal: Mapping[str, tuple[str, ...]] = EMPTY
    common: tuple[str, ...] = ()
    scores: Mapping[str, tuple[int, ...]] = EMPTY  # per round written
    out: tuple[OutRecord, ...] = ()
    notes: tuple[Note, ...] = ()


def common_rollers(header: Header) -> tuple[str, ...]:
    """TEX-2: a player outside the challenge rolls the common letters (else the challenger)."""
    return header.outside or header.players[:1]


def letter(face: str) -> str:
    """EQ-3: in Texas Word'em a U/A or U/O face counts as U only."""
    return face_letters(face)[0]


def refusal(state: State, event: Event) -> RuleViolation | None:
    """The rule a move not open now breaks, where it is not the rule of the turn expected
    (:mod:`engine.refusals`): EQ-3, a choice of letter, which this game never asks for."""
    if isinstance(event, Choose):
        return NotAllowedNow(
            msg(
                "in Texas Word'em a U/A or U/O face counts as U only: %(player)s has nothing "
                "to choose",
                player=event.by,
            ),
            "EQ-3",
        )
    return None


def start(header: Header, rules: int = CURRENT) -> State:
    return State(header, owed={p: (("consonant", 2),) for p in header.players})


def available(state: State, player: str) -> Counter[str]:
    """The letters a player may use this round: their two consonants and the common letters."""
    return Counter(state.personal[player] + state.common)


def score(word: str, letters: Counter[str], admitted: bool) -> tuple[int, Msg]:
    """TEX-3: the word's length, +1 when it uses every available letter; 0 when not valid.

    >>> from collections import Counter
    >>> score("sonata", Counter("tnoasa"), True)
    (7, 'sonata: 6 letters, all of them used: 7')
    """
    w = fold(word)
    if not admitted:
        return 0, msg("%(word)s is not admitted: 0", word=w)
    need = Counter(w)
    # (Said without Counter's arithmetic, which builds new counters: this runs for every word
    # replayed, #15.)
    missing = "".join(c * (n - letters[c]) for c, n in need.items() if n > letters[c])
    if missing:
        return 0, msg(
            "%(word)s needs letters that are not available (%(missing)s): 0",
            word=w,
            missing="".join(sorted(missing)),
        )
    if len(w) == letters.total():  # every needed letter is available: all of them used
        return len(w) + 1, msg(
            "%(word)s: %(n)s letters, all of them used: %(points)s",
            word=w,
            n=len(w),
            points=len(w) + 1,
        )
    return len(w), msg("%(word)s: %(n)s letters: %(points)s", word=w, n=len(w), points=len(w))


def turns(state: State) -> tuple[Turn, ...]:
    if any(state.owed.values()):
        return roll_turns(state.owed, "TEX-1")
    if state.round > ROUNDS:
        return ()
    if state.common_owed:
        say = expecting(
            "round %(round)s: %(roll)s (common letters)",
            round=state.round,
            roll=describe_due(state.common_owed),
        )
        return tuple(
            roll_turn(p, state.common_owed, "TEX-2", say=say) for p in common_rollers(state.header)
        )
    common = "".join(state.common).upper()
    return tuple(
        Turn(
            p,
            ("word", "pass", "timeout"),
            expecting(
                "round %(round)s: a word from %(own)s + %(common)s",
                round=state.round,
                own="".join(state.personal[p]).upper(),
                common=common,
            ),
            "TEX-3",
        )
        for p in state.header.players
        if len(state.scores.get(p, ())) < state.round
    )


def _written(state: State, player: str, points: int, note: Note) -> State:
    scores = {**state.scores, player: (*state.scores.get(player, ()), points)}
    state = replace(state, scores=scores, notes=(*state.notes, note))
    if all(len(scores.get(p, ())) == state.round for p in state.header.players):
        state = replace(
            state, round=state.round + 1, common_owed=LATER_ROUND if state.round < ROUNDS else ()
        )
    return state


def apply(state: State, event: Event, ctx: Context) -> State:
    if isinstance(event, Roll) and any(state.owed.values()):
        owed, faces = take_roll(state.owed, event, state.header, "TEX-1")
        return replace(
            state, owed=owed, personal={**state.personal, event.by: tuple(map(letter, faces))}
        )
    if isinstance(event, Roll):
        rest, faces = take_roll({event.by: state.common_owed}, event, state.header, "TEX-2")
        return replace(
            state, common_owed=rest[event.by], common=state.common + tuple(map(letter, faces))
        )
    if isinstance(event, Word):
        points, text = score(event.word, available(state, event.by), ctx.admitted(event.word))
        return _written(
            state,
            event.by,
            points,
            Note(
                ctx.position,
                event.by,
                msg("round %(round)s: %(text)s", round=state.round, text=text),
                "TEX-3",
                points > 0,
            ),
        )
    if isinstance(event, (Pass, Timeout)):
        text = msg("round %(round)s: no word: 0", round=state.round)
        note = Note(ctx.position, event.by, text, "TEX-3", False)
        return _written(state, event.by, 0, note)
    raise AssertionError(f"texas cannot apply {event!r}")  # turns() admits no other type


def totals(state: State) -> dict[str, int]:
    return {p: sum(state.scores.get(p, ())) for p in state.header.players}


def outcome(state: State) -> Outcome | None:
    if state.round <= ROUNDS:
        return None
    # TEX-4: the highest total wins; equal totals draw (Ruling). A total of 0 wins nothing.
    best = max(totals(state).values())
    return outcome_for(
        state.header.players, [p for p, t in totals(state).items() if t == best and best > 0]
    )


def summary(state: State) -> Msg:
    """The state in words, for the audit."""
    common = " ".join(state.common).upper() or msg("none yet")
    scores = tuple(f"{p} {t}" for p, t in totals(state).items())
    return msg(
        "round %(round)s; common letters %(common)s; totals %(totals)s",
        round=min(state.round, ROUNDS),
        common=common,
        totals=scores,
    )


# --- the contract's optional parts (engine.games.contract) -------------------------------------


def best_play(before: State, event: Event, lexicon: Lexicon, memo: dict[str, Any]) -> str:
    """The audit, for a word, a pass or a timeout: the best word the letters made (TEX-3)."""
    from engine.solve import texas_best

    if not isinstance(event, (Word, Pass, Timeout)) or event.by not in before.personal:
        return ""
    best = texas_best(lexicon, list(available(before, event.by).elements()))
    return f"best: {best[0]} ({best[1]})" if best else "no word could be made"


def computer_move(seat: Seat) -> dict[str, Any] | None:
    """A computer player's word: the best its letters make, where they make one."""
    if seat.kind != "word":
        return None
    from engine.solve import texas_best

    best = texas_best(seat.lexicon, list(available(seat.state, seat.turn.player).elements()))
    return {"type": "word", "by": seat.turn.player, "word": best[0]} if best else None
