"""Word folding: how the games compare letters (RULES EQ-4)."""

from __future__ import annotations

import unicodedata
from collections import Counter


def fold(word: str) -> str:
    """Lowercase a word and strip its accents, as RULES EQ-4 compares words.

    >>> fold("Città")
    'citta'
    >>> fold("PaSSaMoNTaGNa")
    'passamontagna'
    """
    if word.isascii():  # the common case: nothing to strip but case and spaces
        return word.strip().lower()
    decomposed = unicodedata.normalize("NFD", word.strip().lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def letters(word: str) -> Counter[str]:
    """The multiset of a folded word's letters.

    >>> sorted(letters("casa").items())
    [('a', 2), ('c', 1), ('s', 1)]
    """
    return Counter(fold(word))


VOWELS = frozenset("aeiou")


def consonants(word: str) -> Counter[str]:
    """The multiset of a word's consonants (every letter that is not a e i o u).

    >>> sorted(consonants("passamontagna").elements())
    ['g', 'm', 'n', 'n', 'p', 's', 's', 't']
    """
    return Counter(c for c in fold(word) if c not in VOWELS)
