"""La catena: a word ladder through three anchor words (RULES CAT-1..CAT-4)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from string import ascii_lowercase
from typing import Any

from engine.dice import face_letters, is_double_face
from engine.errors import BadHeader
from engine.events import Chain, Choose, Event, Pass, Roll, Timeout, Word
from engine.games.base import (
    Context,
    Due,
    Note,
    Outcome,
    OutRecord,
    Turn,
    expecting,
    not_a_letter,
    outcome_for,
    replace,
    roll_turns,
    take_roll,
)
from engine.games.contract import About, Clock, Seat
from engine.header import Header
from engine.lexicon import Lexicon
from engine.message import Msg, msg, nmsg
from engine.record import EMPTY, Record
from engine.refusals import choosing_nothing
from engine.rules import CURRENT
from engine.text import fold

ABOUT = About(
    name="catena",
    title="La catena",
    min_players=2,
    max_players=None,  # CH-1 sets none
    clock=Clock(60, beginners=120),  # CH-4
    sheet="sheet_catena.html",
    events=("roll", "choose", "word", "chain", "pass", "timeout"),
)
LENGTH = 4
ANCHOR_DICE: Due = (("consonant", 1), ("vowel", 1))


class Anchor(Record):
    """One anchor player's dice and word (CAT-1)."""

    faces: Mapping[str, str] = EMPTY  # die -> face
    chosen: Mapping[str, str] = EMPTY  # die -> letter chosen on U/A, U/O
    word: str | None = None


class State(Record):
    header: Header
    owed: Mapping[str, Due]
    anchors: Mapping[str, Anchor]
    chains: Mapping[str, int | None] = EMPTY  # length of a valid chain
    out: tuple[OutRecord, ...] = ()
    notes: tuple[Note, ...] = ()


def anchor_players(header: Header) -> tuple[str, ...]:
    """The duellists and a third player: outside in a simple challenge, in it otherwise (CAT-1)."""
    if header.simple:
        if not header.outside:
            raise BadHeader(
                "a simple challenge of La catena needs a third player outside it "
                "to roll the third anchor word",
                "CAT-1",
            )
        return (*header.players, header.outside[0])
    return header.players[:3]


def start(header: Header, rules: int = CURRENT) -> State:
    owners = anchor_players(header)
    return State(
        header, owed={p: ANCHOR_DICE for p in owners}, anchors={p: Anchor() for p in owners}
    )


def letters_of(anchor: Anchor, die: str) -> tuple[str, ...]:
    """The letters the player may use for a die: the chosen one, or every letter of the face."""
    if die in anchor.chosen:
        return (anchor.chosen[die],)
    return face_letters(anchor.faces[die])


def _undecided(anchor: Anchor) -> list[str]:
    return [d for d, f in anchor.faces.items() if is_double_face(f) and d not in anchor.chosen]


def _anchoring(state: State) -> bool:
    return any(a.word is None for a in state.anchors.values())


def turns(state: State) -> tuple[Turn, ...]:
    if _anchoring(state):
        return roll_turns(state.owed, "CAT-1") + _word_turns(state)
    return tuple(
        Turn(
            p,
            ("chain", "pass", "timeout"),
            expecting("write a chain through %(words)s", words=tuple(anchor_words(state))),
            "CAT-2",
        )
        for p in state.header.players
        if p not in state.chains
    )


def _word_turns(state: State) -> tuple[Turn, ...]:
    out = []
    for p, a in state.anchors.items():
        if a.word is not None or len(a.faces) < len(ANCHOR_DICE):
            continue
        first = "/".join(letters_of(a, "consonant")).upper()
        last = "/".join(letters_of(a, "vowel")).upper()
        events = ("word", "pass", "timeout") + (("choose",) if _undecided(a) else ())
        choices = tuple(c for d in _undecided(a) for c in face_letters(a.faces[d]))
        out.append(
            Turn(
                p,
                events,
                expecting(
                    "write a 4-letter word from %(first)s to %(last)s", first=first, last=last
                ),
                "CAT-1",
                choices=choices,
            )
        )
    return tuple(out)


# EQ-3: a choice of letter with no U/A or U/O face open (engine.refusals).
refusal = choosing_nothing(turns)


def anchor_words(state: State) -> tuple[str, ...]:
    return tuple(a.word for a in state.anchors.values() if a.word is not None)


def check_anchor(word: str, anchor: Anchor, admitted: bool) -> Msg | None:
    """Why a word cannot be this anchor (CAT-1), or None when it can."""
    w = fold(word)
    if len(w) != LENGTH:
        return msg("%(word)s has %(n)s letters, not 4", word=w, n=len(w))
    if w[0] not in letters_of(anchor, "consonant"):
        start = "/".join(letters_of(anchor, "consonant")).upper()
        return msg("%(word)s does not start with %(letters)s", word=w, letters=start)
    if w[-1] not in letters_of(anchor, "vowel"):
        end = "/".join(letters_of(anchor, "vowel")).upper()
        return msg("%(word)s does not end with %(letters)s", word=w, letters=end)
    if not admitted:
        return msg("%(word)s is not admitted", word=w)
    return None


def check_chain(
    words: Sequence[str], anchors: Sequence[str], admitted: Callable[[str], bool]
) -> Msg | None:
    """Why a chain is not valid (CAT-2), or None when it is.

    ``admitted`` says whether a word is admitted (EQ-4): the referee's ruling on the whole
    chain, else a ruling on that word earlier in the match, else the lexicon (REF-1).

    >>> check_chain(["casa", "case", "cane"], ["casa", "cane", "case"], lambda w: True)
    >>> check_chain(["casa", "cose"], ["casa"], lambda w: True)
    'casa-cose changes 2 letters, not 1'
    """
    chain = [fold(w) for w in words]
    for w in chain:
        if len(w) != LENGTH:
            return msg("%(word)s has %(n)s letters, not 4", word=w, n=len(w))
        if not admitted(w):
            return msg("%(word)s is not admitted", word=w)
    for a, b in zip(chain, chain[1:], strict=False):
        changed = sum(x != y for x, y in zip(a, b, strict=True))
        if changed != 1:
            return msg("%(link)s changes %(n)s letters, not 1", link=f"{a}-{b}", n=changed)
    missing = [a for a in anchors if a not in chain]
    if missing:
        return msg("the chain does not pass through %(anchors)s", anchors=tuple(missing))
    return None


def apply(state: State, event: Event, ctx: Context) -> State:
    if isinstance(event, Roll):
        owed, (face,) = take_roll(state.owed, event, state.header, "CAT-1")
        a = state.anchors[event.by]
        a = replace(a, faces={**a.faces, event.die: face})
        return replace(state, owed=owed, anchors={**state.anchors, event.by: a})
    if isinstance(event, Choose):
        a = state.anchors[event.by]
        value = str(event.value).lower()
        for die in _undecided(a):
            if value in face_letters(a.faces[die]):
                a = replace(a, chosen={**a.chosen, die: value})
                return replace(state, anchors={**state.anchors, event.by: a})
        raise not_a_letter(event)
    if isinstance(event, Word):
        a = state.anchors[event.by]
        why = check_anchor(event.word, a, ctx.admitted(event.word))
        if why:
            # FORMAT: an anchor word that breaks CAT-1 is rejected and the player writes another.
            text = msg("anchor rejected: %(why)s; write another", why=why)
            note = Note(ctx.position, event.by, text, "CAT-1", False)
            return replace(state, notes=(*state.notes, note))
        a = replace(a, word=fold(event.word))
        note = Note(ctx.position, event.by, msg("anchor word %(word)s", word=a.word), "CAT-1", True)
        return replace(state, anchors={**state.anchors, event.by: a}, notes=(*state.notes, note))
    if isinstance(event, Chain):
        # REF-1, EQ-4: a ruling on an anchor (or any earlier word) holds in the chains too.
        why = check_chain(event.words, anchor_words(state), ctx.admitted)
        length = None if why else len(event.words)
        text = (
            nmsg("chain of %(n)s word", "chain of %(n)s words", length)
            if length
            else msg("chain not valid: %(why)s", why=why)
        )
        note = Note(ctx.position, event.by, text, "CAT-2" if why else "CAT-3", not why)
        return replace(state, chains={**state.chains, event.by: length}, notes=(*state.notes, note))
    if isinstance(event, (Pass, Timeout)) and _anchoring(state):
        # Engine reading: an anchor player who finds no word (CH-4) rolls both dice again.
        note = Note(ctx.position, event.by, msg("no anchor word: roll again"), "CAT-1", False)
        return replace(
            state,
            owed={**state.owed, event.by: ANCHOR_DICE},
            anchors={**state.anchors, event.by: Anchor()},
            notes=(*state.notes, note),
        )
    if isinstance(event, (Pass, Timeout)):
        note = Note(ctx.position, event.by, msg("no chain"), "CAT-4", False)
        return replace(state, chains={**state.chains, event.by: None}, notes=(*state.notes, note))
    raise AssertionError(f"catena cannot apply {event!r}")  # turns() admits no other type


def outcome(state: State) -> Outcome | None:
    if _anchoring(state) or len(state.chains) < len(state.header.players):
        return None
    # CAT-4: the shortest valid chain wins, equal lengths draw, no valid chain no point.
    valid = {p: n for p, n in state.chains.items() if n is not None}
    best = min(valid.values(), default=None)
    return outcome_for(state.header.players, [p for p, n in valid.items() if n == best])


def summary(state: State) -> Msg:
    """The state in words, for the audit."""
    anchors = anchor_words(state) or msg("none yet")
    chains = tuple(
        f"{p} {n}" if n else msg("%(player)s no chain", player=p) for p, n in state.chains.items()
    )
    if chains:
        return msg("anchors: %(anchors)s; chains: %(chains)s", anchors=anchors, chains=chains)
    return msg("anchors: %(anchors)s", anchors=anchors)


# --- the contract's optional parts (engine.games.contract) -------------------------------------


def best_play(before: State, event: Event, lexicon: Lexicon, memo: dict[str, Any]) -> str:
    """The audit, for a chain: the shortest chain that joined the anchors (CAT-3, CAT-4)."""
    if not isinstance(event, Chain):
        return ""
    from engine.solve import WordGraph, shortest_chain

    graph = memo.get("graph")
    if graph is None:
        graph = memo["graph"] = WordGraph.from_lexicon(lexicon)
    chain = shortest_chain(graph, anchor_words(before))
    if not chain:
        return "no chain joins the anchors"
    return f"shortest possible: {len(chain)} words ({'-'.join(chain)})"


def computer_move(seat: Seat) -> dict[str, Any] | None:
    """A computer player's anchor word: a real one from its letters where one exists (CAT-1)."""
    if seat.kind != "word":
        return None
    anchor = seat.state.anchors[seat.turn.player]
    firsts, lasts = letters_of(anchor, "consonant"), letters_of(anchor, "vowel")
    found = [
        w
        for f in firsts
        for x in ascii_lowercase
        for y in ascii_lowercase
        for z in lasts
        if (w := f + x + y + z) in seat.lexicon
    ]
    if not found:
        return None
    return {"type": "word", "by": seat.turn.player, "word": seat.rng.choice(found)}
