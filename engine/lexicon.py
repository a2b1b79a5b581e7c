"""The lexicon: which words the games admit (RULES EQ-4).

The default is the Italian hunspell dictionary expanded to all its forms, folded, and stored as a
marisa trie that is memory-mapped, so opening it costs a few milliseconds and little memory
(``lexicon_data/build_it_lexicon.py`` documents how it is made). An organizer may name a word list
of their own: a ``.marisa`` file, or a text file with one word per line.

Loading a lexicon is the one piece of I/O the engine owns; rules receive a :class:`Lexicon`.
"""

from __future__ import annotations

from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any

from engine.text import fold

DATA = Path(__file__).with_name("lexicon_data")
DEFAULT_NAME = "hunspell-it-7.5.0"
ANAGRAM_LENGTH = 10  # as lexicon_data/build_it_lexicon.py indexes them
VOWELS = frozenset("aeiou")
LETTERS = "abcdefghijklmnopqrstuvwxyz"
DEFAULT_FILE = DATA / "it_hunspell.marisa"


class LexiconError(ValueError):
    """A word list that cannot be opened, or that is not the one a match was recorded with."""


class Lexicon:
    """A set of folded words with a name and a sha256 that identify it in a match header."""

    def __init__(self, name: str, sha256: str, words: Any) -> None:
        """``words``: a marisa trie or a set, or a function that opens one when first needed."""
        self.name = name
        self.sha256 = sha256
        self._source = words

    @cached_property
    def _words(self) -> Any:
        # Opened on first use, so that a command that judges no word never maps the file.
        return self._source() if callable(self._source) else self._source

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and fold(word) in self._words

    def __len__(self) -> int:
        return len(self._words)

    def anagrams(self, key: str) -> list[str]:
        """The words (up to 10 letters) made of exactly these letters: ``key`` sorted."""
        return self._indexes[0].get(key, [])

    def by_consonants(self, key: str) -> list[str]:
        """The shortest word whose consonants are exactly ``key`` (sorted), if any."""
        return self._indexes[1].get(key, [])

    @cached_property
    def _indexes(self) -> tuple[Any, Any]:
        # The shipped list has its indexes built beside it; another list gets them in memory.
        if self.name == DEFAULT_NAME:
            return _IndexView(DATA / "it_anagrams.marisa"), _IndexView(
                DATA / "it_consonants.marisa"
            )
        anagrams: dict[str, list[str]] = {}
        shortest: dict[str, list[str]] = {}
        for w in sorted(self._all_words()):
            if len(w) <= ANAGRAM_LENGTH:
                anagrams.setdefault("".join(sorted(w)), []).append(w)
            key = "".join(sorted(c for c in w if c not in VOWELS))
            if key not in shortest or len(w) < len(shortest[key][0]):
                shortest[key] = [w]
        return anagrams, shortest

    def _all_words(self) -> list[str]:
        keys = getattr(self._words, "keys", None)
        return list(keys()) if keys else list(self._words)

    def words_of_length(self, length: int) -> list[str]:
        """Every word of ``length`` letters: a walk of the trie that prunes absent prefixes."""
        words = self._words
        iterkeys = getattr(words, "iterkeys", None)
        if iterkeys is None:
            return sorted(w for w in words if len(w) == length)

        def has_prefix(prefix: str) -> bool:
            return next(iterkeys(prefix), None) is not None

        found: list[str] = []
        prefixes = [""]
        for depth in range(length):
            last = depth == length - 1
            grown = []
            for p in prefixes:
                for c in LETTERS:
                    w = p + c
                    if last:
                        if w in words:
                            found.append(w)
                    elif has_prefix(w):
                        grown.append(w)
            prefixes = grown
        return found

    @property
    def identity(self) -> dict[str, str]:
        """What a match header records: ``{"name": ..., "sha256": ...}``."""
        return {"name": self.name, "sha256": self.sha256}

    @classmethod
    def open(cls, path: str | Path | None) -> Lexicon:
        """The organizer's word list when one is named, else the shipped one."""
        return cls.from_file(path) if path else default_lexicon()

    @classmethod
    def from_file(cls, path: str | Path) -> Lexicon:
        """Open an organizer's word list: a ``.marisa`` trie or a text file, one word a line."""
        path = Path(path)
        try:
            data = path.read_bytes()
        except OSError as e:
            raise LexiconError(f"cannot read the word list {path}: {e.strerror}") from None
        import hashlib  # only an organizer's word list is hashed here (#15: a call's start-up)

        digest = hashlib.sha256(data).hexdigest()
        if path.suffix == ".marisa":
            return cls(path.stem, digest, _mmap_trie(path))
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise LexiconError(f"the word list {path} is not UTF-8 text") from None
        words = {fold(line) for line in text.splitlines()}
        words = {w for w in words if w.isalpha()}
        if not words:
            raise LexiconError(f"the word list {path} holds no words")
        import marisa_trie

        return cls(path.stem, digest, marisa_trie.Trie(words))


class _IndexView:
    """A shipped index (marisa BytesTrie, key -> words), memory-mapped on first use."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @cached_property
    def _trie(self) -> Any:
        import marisa_trie

        trie = marisa_trie.BytesTrie()
        trie.mmap(str(self.path))
        return trie

    def get(self, key: str, default: list[str]) -> list[str]:
        if "\x00" in key:  # no word holds NUL, and marisa's BytesTrie misreads such a key
            return default
        found = self._trie.get(key)
        return [w.decode() for w in found] if found else default


def _mmap_trie(path: Path) -> Any:
    import marisa_trie  # imported here: only commands that judge words pay for it

    trie = marisa_trie.Trie()
    try:
        trie.mmap(str(path))
    except Exception:  # marisa raises bare exceptions for a file that is not a trie
        raise LexiconError(f"{path} is not a marisa trie word list") from None
    return trie


@lru_cache(maxsize=1)
def default_lexicon() -> Lexicon:
    """The shipped Italian lexicon, memory-mapped once per process."""
    sha = (DATA / "it_hunspell.sha256").read_text().strip()
    return Lexicon(DEFAULT_NAME, sha, lambda: _mmap_trie(DEFAULT_FILE))
