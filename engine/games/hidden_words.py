"""La parola nascosta's hidden words (RULES PN-3, PN-4, PN-5): a word's seal, whether a guess
finds it, and, once it is revealed, the answers and hints about it that contradict it.

Used by the game (:mod:`engine.games.parola_nascosta`) and by the computer players.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from engine.errors import NotAllowedNow
from engine.games.base import Note
from engine.message import msg
from engine.record import NamedTuple
from engine.text import fold


# Named tuples, as the engine's other values replayed at nearly every move (#15); a tuple still
# unpacks as before (the filled sheets read the hints so).
class AnswerGiven(NamedTuple):
    """An answer to a guess, as given (PN-4), kept to be checked when the word is revealed."""

    position: int  # the guess's position in the log
    target: str  # whose word was guessed
    guess: str
    said_right: bool  # what the target answered
    ruling: bool | None  # the referee's ruling on the guess, if any (REF-1)


class HintGiven(NamedTuple):
    """A letter said after a silent round (PN-5)."""

    position: int
    player: str
    which: str  # "first" or "last"
    letter: str  # folded


def seal(word: str, salt: str) -> str:
    """The commitment of a word (PN-3, FORMAT): sha256 of salt, a colon and the word.

    >>> seal("cassaforte", "s4lt") == hashlib.sha256(b"s4lt:cassaforte").hexdigest()
    True
    """
    return hashlib.sha256(f"{salt}:{word}".encode()).hexdigest()


def guessed(guess: str, word: str) -> bool:
    """PN-4: right when the guess is the word or a part of it of at least 3 letters.

    >>> guessed("cassa", "Cassaforte"), guessed("ca", "cassaforte"), guessed("forte", "casa")
    (True, False, False)
    """
    g, w = fold(guess), fold(word)
    return g == w or (len(g) >= 3 and g in w)


def hint_refused(player: str, which: str | None) -> NotAllowedNow:
    """PN-5: a letter ``player`` does not owe now. ``which``: the letter ("first" or "last") the
    round owes, which they have said already; None when no round owes one."""
    if which is not None:
        said = msg("first") if which == "first" else msg("last")
        text = msg("%(player)s has said the %(which)s letter already", player=player, which=said)
        return NotAllowedNow(text, "PN-5")
    return NotAllowedNow(
        msg(
            "%(player)s may not give a hint now: a letter is owed only at the end of a full "
            "round with no right guess",
            player=player,
        ),
        "PN-5",
    )


def lies(
    player: str,
    word: str,
    answers: Iterable[AnswerGiven],
    hints: Iterable[HintGiven],
    seen: set[tuple[int, str]],
    revision: int,
) -> list[Note]:
    """PN-4, PN-5: the answers and hints about ``player``'s revealed ``word`` that contradict
    it, each once (``seen``: the contradictions noted already, by position and rule)."""
    w = fold(word)
    return [
        *(_answer_note(a, word) for a in _wrong_answers(player, word, answers, revision, seen)),
        *(_hint_note(h, w) for h in hints if h.player == player and _wrong_hint(h, w, seen)),
    ]


def _wrong_answers(
    player: str,
    word: str,
    answers: Iterable[AnswerGiven],
    revision: int,
    seen: set[tuple[int, str]],
) -> list[AnswerGiven]:
    """PN-4: the answers about ``player``'s word that disagree with it, not noted yet."""
    return [
        a
        for a in answers
        if a.target == player
        and _lies_about(a, word, revision)
        and (a.position, "PN-4") not in seen
    ]


def _wrong_hint(hint: HintGiven, folded: str, seen: set[tuple[int, str]]) -> bool:
    """PN-5: the letter is not the one the word has there, and is not noted yet."""
    return hint.letter != _letter(folded, hint.which) and (hint.position, "PN-5") not in seen


def _lies_about(answer: AnswerGiven, word: str, revision: int) -> bool:
    """PN-4: the answer disagrees with the word. A guess the referee has ruled on is decided
    (REF-1): no mismatch left to show. (Under revision 1 of the rules, as 0.1 did, every answer
    was checked, ruled on or not.)"""
    checked = answer.ruling is None or revision == 1
    return checked and guessed(answer.guess, word) != answer.said_right


def _letter(folded: str, which: str) -> str:
    return folded[0] if which == "first" else folded[-1]


def _answer_note(answer: AnswerGiven, word: str) -> Note:
    truth = msg("right") if guessed(answer.guess, word) else msg("wrong")
    text = msg(
        "answered %(said)s to %(guess)r, but the guess is %(truth)s: the referee decides",
        said=msg("right") if answer.said_right else msg("wrong"),
        guess=answer.guess,
        truth=truth,
    )
    return Note(answer.position, answer.target, text, "PN-4", False)


def _hint_note(hint: HintGiven, folded: str) -> Note:
    text = msg(
        "said %(letter)r as the %(which)s letter, but it is %(expected)r",
        letter=hint.letter,
        which=msg("first") if hint.which == "first" else msg("last"),
        expected=_letter(folded, hint.which),
    )
    return Note(hint.position, hint.player, text, "PN-5", False)
