"""Build the default Italian lexicon shipped with the package (``it_hunspell.marisa``).

Provenance: the LibreOffice Italian dictionary (hunspell ``it_IT``), Debian package
``hunspell-it`` 1:7.5.0-1 (source ``libreoffice-dictionaries``), GPL-3.0, by LibreItalia
(Marina Latini) and, for earlier versions, Gianluca Turconi, Davide Prina, Andrea Pescetti and
the OpenOffice.org and PLIO volunteers. Every affix form is expanded with hunspell's ``unmunch``
(Debian ``hunspell-tools``).

Which forms are kept, and why:
- only entries written wholly in lowercase: drops proper nouns, acronyms and the elided forms
  ("dell'", "l'amico") that the games never ask for;
- accents folded (RULES EQ-4: ``città`` = ``citta``), so the trie holds only the letters a-z;
- Roman numerals dropped (the dictionary lists ``xiv``, ``mcm`` ...) except the Italian words
  that happen to be spelt like one: i ci di li mi vi mix;
- a short deny-list of English words the dictionary carries (``DENYLIST`` below).

Run on a Debian machine (as root)::

    apt-get install -y hunspell-it hunspell-tools
    python engine/lexicon_data/build_it_lexicon.py

It rewrites ``it_hunspell.marisa`` (and its ``.sha256``) beside this file, then the two
indexes the referee assist uses, derived from it alone (``--indexes`` rebuilds only those):

- ``it_anagrams.marisa``: sorted letters -> the words of up to 10 letters with them (Texas
  Word'em's best word, L'asta's legal next words);
- ``it_consonants.marisa``: sorted consonants -> the shortest word with exactly them (a word
  for La roulette russa).
"""

from __future__ import annotations

import hashlib
import re
import subprocess
import sys
import unicodedata
from pathlib import Path

import marisa_trie

DIC = Path("/usr/share/hunspell/it_IT.dic")
AFF = Path("/usr/share/hunspell/it_IT.aff")
OUT = Path(__file__).with_name("it_hunspell.marisa")
ANAGRAMS = OUT.with_name("it_anagrams.marisa")
CONSONANTS = OUT.with_name("it_consonants.marisa")
ANAGRAM_LENGTH = 10
VOWELS = frozenset("aeiou")

ROMAN = re.compile(r"^m{0,4}(cm|cd|d?c{0,3})(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})$")
ROMAN_BUT_ITALIAN = frozenset({"i", "ci", "di", "li", "mi", "vi", "mix"})
DENYLIST = frozenset(
    {
        "day",
        "game",
        "help",
        "http",
        "https",
        "know",
        "love",
        "made",
        "site",
        "some",
        "time",
        "word",
        "www",
    }
)
LETTERS = re.compile(r"^[a-z]+$")


def fold(word: str) -> str:
    """Lowercase and strip accents: the same folding as ``engine.text.fold``."""
    decomposed = unicodedata.normalize("NFD", word.lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def keep(form: str) -> str | None:
    """The folded word to store for one expanded dictionary form, or None to drop it."""
    if not form or form != form.lower():
        return None
    word = fold(form)
    if not LETTERS.match(word):
        return None
    if ROMAN.match(word) and word not in ROMAN_BUT_ITALIAN:
        return None
    if word in DENYLIST:
        return None
    return word


def build_indexes() -> None:
    """The assist's indexes, from the shipped trie (deterministic: sorted input)."""
    trie = marisa_trie.Trie()
    trie.mmap(str(OUT))
    words = sorted(trie.iterkeys())
    anagrams = [("".join(sorted(w)), w.encode()) for w in words if len(w) <= ANAGRAM_LENGTH]
    marisa_trie.BytesTrie(anagrams).save(str(ANAGRAMS))
    shortest: dict[str, str] = {}
    for w in words:
        key = "".join(sorted(c for c in w if c not in VOWELS))
        if key not in shortest or (len(w), w) < (len(shortest[key]), shortest[key]):
            shortest[key] = w
    marisa_trie.BytesTrie([(k, w.encode()) for k, w in shortest.items()]).save(str(CONSONANTS))
    print(f"{len(anagrams)} words by anagram key, {len(shortest)} consonant keys")


def main() -> int:
    if "--indexes" in sys.argv:
        build_indexes()
        return 0
    expanded = subprocess.run(
        ["unmunch", str(DIC), str(AFF)], capture_output=True, check=True
    ).stdout.decode("utf-8")
    words = {w for w in (keep(line.strip()) for line in expanded.splitlines()) if w}
    trie = marisa_trie.Trie(sorted(words))
    trie.save(str(OUT))
    digest = hashlib.sha256(OUT.read_bytes()).hexdigest()
    OUT.with_suffix(".sha256").write_text(digest + "\n")
    print(f"{len(words)} words -> {OUT} ({OUT.stat().st_size} bytes, sha256 {digest})")
    build_indexes()
    return 0


if __name__ == "__main__":
    sys.exit(main())
