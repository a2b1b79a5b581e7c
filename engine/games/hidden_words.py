"""La parola nascosta's hidden words (RULES PN-3, PN-4, PN-5): a word's seal, whether a guess
finds it, and, once it is revealed, the answers and hints about it that contradict it.

Used by the game (:mod:`engine.games.parola_nascosta`) and by the computer players.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from engine.games.base import Note
from engine.message import msg
from engine.text import fold

Answer = tuple[int, str, str, bool, bool | None]  # position, target, guess, said right, ruling
Hint = tuple[int, str, str, str]  # position, player, first|last, letter


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


def lies(
    player: str,
    word: str,
    answers: Iterable[Answer],
    hints: Iterable[Hint],
    seen: set[tuple[int, str]],
    revision: int,
) -> list[Note]:
    """PN-4, PN-5: the answers and hints about ``player``'s revealed ``word`` that contradict
    it, each once (``seen``: the contradictions noted already, by position and rule)."""
    notes: list[Note] = []
    for position, target, guess, said_right, ruled in answers:
        # A guess the referee has ruled on is decided (REF-1): no mismatch left to show. (Under
        # revision 1 of the rules, as 0.1 did, every answer was checked, ruled on or not.)
        if (
            target == player
            and (ruled is None or revision == 1)
            and guessed(guess, word) != said_right
            and (position, "PN-4") not in seen
        ):
            truth = msg("right") if guessed(guess, word) else msg("wrong")
            notes.append(
                Note(
                    position,
                    player,
                    msg(
                        "answered %(said)s to %(guess)r, but the guess is %(truth)s: "
                        "the referee decides",
                        said=msg("right") if said_right else msg("wrong"),
                        guess=guess,
                        truth=truth,
                    ),
                    "PN-4",
                    False,
                )
            )
    w = fold(word)
    for position, who, which, letter in hints:
        expected = w[0] if which == "first" else w[-1]
        if who == player and letter != expected and (position, "PN-5") not in seen:
            notes.append(
                Note(
                    position,
                    player,
                    msg(
                        "said %(letter)r as the %(which)s letter, but it is %(expected)r",
                        letter=letter,
                        which=msg("first") if which == "first" else msg("last"),
                        expected=expected,
                    ),
                    "PN-5",
                    False,
                )
            )
    return notes
