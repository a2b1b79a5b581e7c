"""Referee assist: what the best play was, as pure functions over the dice and the lexicon.

Used by the referee to settle "was that reachable?" and by the computer players.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations, combinations_with_replacement, permutations, product
from string import ascii_lowercase

from engine.arithmetic import BinOp, Node, Num, to_text
from engine.lexicon import Lexicon
from engine.text import fold

Key = tuple[int, int, int]  # divisions, multiplications, subtractions (TIR-3)
_OP_KEY = {"/": (1, 0, 0), "*": (0, 1, 0), "-": (0, 0, 1), "+": (0, 0, 0)}


@dataclass(frozen=True)
class Shot:
    """The best expression for a target: its tie-break key (TIR-3) and its text."""

    key: Key
    expression: str


def _add(a: Key, b: Key, c: Key) -> Key:
    return (a[0] + b[0] + c[0], a[1] + b[1] + c[1], a[2] + b[2] + c[2])


def expressions(numbers: Sequence[int]) -> dict[Fraction, tuple[Key, Node]]:
    """Every value the numbers can make, each number used once (TIR-2, BAT-2), with the best
    key reaching it.

    Dynamic programming over subsets of the dice: a sub-expression worth v is only ever kept with
    its best key, which is enough, as keys add up and TIR-3 compares them in order.
    """
    n = len(numbers)
    best: dict[int, dict[Fraction, tuple[Key, Node]]] = {
        1 << i: {Fraction(v): ((0, 0, 0), Num(v))} for i, v in enumerate(numbers)
    }
    for size in range(2, n + 1):
        for chosen in combinations(range(n), size):
            mask = sum(1 << i for i in chosen)
            table: dict[Fraction, tuple[Key, Node]] = {}
            sub = (mask - 1) & mask
            while sub:
                rest = mask ^ sub
                if sub in best and rest in best:
                    for va, (ka, na) in best[sub].items():
                        for vb, (kb, nb) in best[rest].items():
                            for op in "+-*/":
                                if op == "/" and vb == 0:
                                    continue
                                value = (
                                    va + vb
                                    if op == "+"
                                    else va - vb
                                    if op == "-"
                                    else va * vb
                                    if op == "*"
                                    else va / vb
                                )
                                key = _add(ka, kb, _OP_KEY[op])
                                if value not in table or key > table[value][0]:
                                    table[value] = (key, BinOp(op, na, nb))
                sub = (sub - 1) & mask
            best[mask] = table
    return best[(1 << n) - 1]


def best_shot(numbers: Sequence[int], target: int) -> Shot | None:
    """TIR-3: the expression hitting ``target`` with the highest key, or None if none can.

    >>> best_shot([6, 6, 5, 1], 11)
    Shot(key=(1, 1, 0), expression='(1+5/6)*6')
    >>> best_shot([1, 1, 1, 1], 20) is None
    True
    """
    found = expressions(numbers).get(Fraction(target))
    return Shot(found[0], to_text(found[1])) if found else None


# --- La catena ----------------------------------------------------------------------------------


class WordGraph:
    """The 4-letter admitted words and their one-letter neighbours (CAT-2), each word's
    neighbours in alphabetical order (so that nothing depends on the order of a set)."""

    def __init__(self, words: Iterable[str]) -> None:
        self.words = frozenset(words)
        buckets: dict[str, list[str]] = {}
        for w in sorted(self.words):
            for i in range(len(w)):
                buckets.setdefault(w[:i] + "_" + w[i + 1 :], []).append(w)
        found: dict[str, set[str]] = {w: set() for w in self.words}
        for group in buckets.values():
            for w in group:
                found[w].update(x for x in group if x != w)
        self.neighbours: dict[str, list[str]] = {w: sorted(n) for w, n in found.items()}

    @classmethod
    def from_lexicon(cls, lexicon: Lexicon, length: int = 4) -> WordGraph:
        return cls(lexicon.words_of_length(length))

    def path(self, start: str, goal: str) -> list[str] | None:
        """The alphabetically first of the shortest chains from ``start`` to ``goal``, both
        included (compared word by word): the same chain whatever the order of the words.

        Breadth first from ``goal`` until ``start`` is reached (every word nearer the goal then
        has its distance), then from ``start`` always to the alphabetically first neighbour
        one step nearer.
        """
        if start not in self.words or goal not in self.words:
            return None
        distance = {goal: 0}
        queue = deque([goal])
        while queue:
            w = queue.popleft()
            if w == start:
                break
            for x in self.neighbours[w]:
                if x not in distance:
                    distance[x] = distance[w] + 1
                    queue.append(x)
        else:
            return None
        out = [start]
        while out[-1] != goal:
            nearer = distance[out[-1]] - 1
            out.append(next(x for x in self.neighbours[out[-1]] if distance.get(x) == nearer))
        return out


def shortest_chain(graph: WordGraph, anchors: Sequence[str]) -> list[str] | None:
    """CAT-2, CAT-3: the shortest chain through the three anchor words, in any order; among
    chains of that length, the alphabetically first (compared word by word), so the answer
    never depends on the order in which words or anchors come.

    Any chain through three words passes them in some order; the best in that order joins a
    shortest path from the first to the middle one with one from the middle to the last (the
    alphabetically first of each gives the alphabetically first of the chains in that order).
    """
    a, b, c = (fold(w) for w in anchors)
    best: list[str] | None = None
    for first, middle, last in permutations((a, b, c)):  # both directions of each order
        left, right = graph.path(first, middle), graph.path(middle, last)
        if left and right:
            chain = left + right[1:]
            if best is None or (len(chain), chain) < (len(best), best):
                best = chain
    return best


# --- words: Texas Word'em, L'asta, La roulette russa ----------------------------------------------

CONSONANT_LETTERS = "bcdfghjklmnpqrstvwxyz"


def texas_best(lexicon: Lexicon, letters: Sequence[str]) -> tuple[str, int] | None:
    """TEX-3: the best-scoring admitted word from these letters (length, +1 using them all).

    >>> from engine.lexicon import default_lexicon
    >>> texas_best(default_lexicon(), "tnoasaci")[1]  # Blu's round 3: 8 letters, all used
    9
    """
    pool = sorted(fold("".join(letters)))
    seen: set[str] = set()
    for size in range(len(pool), 1, -1):
        found = []
        for combo in combinations(pool, size):
            key = "".join(combo)
            if key not in seen:
                seen.add(key)
                found += lexicon.anagrams(key)
        if found:
            word = min(found)
            return word, size + (1 if size == len(pool) else 0)
    return None


def asta_words(
    lexicon: Lexicon, previous: Sequence[Iterable[str]], added: Iterable[Iterable[str]]
) -> list[tuple[str, str | None]]:
    """AST-2, AST-3: every admitted word of the previous letters plus one of the added ones.

    ``previous`` and ``added`` are slots: the letters each may be (``*`` a jolly, any letter).
    Returns (word, the letter a jolly stands for, or None), sorted.

    >>> from engine.lexicon import default_lexicon
    >>> ("pecca", "c") in asta_words(default_lexicon(), ["p", "a", "c", "e"], ["*", "a"])
    True
    >>> asta_words(default_lexicon(), list("pecca"), ["t", "o"])  # Verde, in the seed
    []
    """
    out: set[tuple[str, str | None]] = set()
    for extra in added:
        slots = [sorted(s) for s in previous] + [sorted(extra)]
        for letters in product(*slots):
            jokers = letters.count("*")
            if jokers > 1:
                continue  # one jolly at a time keeps the search small
            fills = ascii_lowercase if jokers else [None]
            for c in fills:
                word = "".join(sorted(c if x == "*" else x for x in letters))  # type: ignore[misc]
                out.update((w, c) for w in lexicon.anagrams(word))
    return sorted(out, key=lambda wj: (wj[0], wj[1] or ""))


def roulette_word(lexicon: Lexicon, consonants: Sequence[str], extra: int = 2) -> str | None:
    """RR-3: a short admitted word whose consonants include all these (up to ``extra`` more).

    >>> from engine.lexicon import default_lexicon
    >>> roulette_word(default_lexicon(), list("sstpgnm"))
    'pigmentasse'
    """
    base = sorted(fold("".join(consonants)))
    for more in range(extra + 1):
        found = [
            w
            for added in combinations_with_replacement(CONSONANT_LETTERS, more)
            for w in lexicon.by_consonants("".join(sorted(base + list(added))))
        ]
        if found:
            return min(found, key=lambda w: (len(w), w))
    return None
