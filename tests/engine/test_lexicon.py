"""The lexicon (EQ-4) and the shipped word list."""

from __future__ import annotations

import hashlib

import pytest

from engine.lexicon import DATA, DEFAULT_FILE, Lexicon, LexiconError, default_lexicon
from engine.text import fold

SEED_WORDS = (
    "casa rasa resa rese rete reti remi gemi geme seme sete rate rase case "  # La catena
    "pace pecca capace "  # L'asta
    "passamontagna "  # La roulette russa
    "sano onta sonata incasso satanico canoista"  # Texas Word'em
).split()


def test_every_word_of_the_seed_examples_is_admitted(lexicon: Lexicon) -> None:
    assert [w for w in SEED_WORDS if w not in lexicon] == []


def test_words_the_seeds_say_cannot_be_made(lexicon: Lexicon) -> None:
    # L'asta: Verde cannot make a 6-letter word from PECCA + T or O. (PECCATO has 7.)
    assert "peccato" in lexicon


def test_eq4_accents_and_case_are_folded(lexicon: Lexicon) -> None:
    assert fold("Città") == "citta"
    assert "città" in lexicon and "CITTÀ" in lexicon and "citta" in lexicon


@pytest.mark.parametrize("word", ["xiv", "mcm", "know", "love", "http", "roma", "dell'"])
def test_dropped_forms(lexicon: Lexicon, word: str) -> None:
    """Roman numerals, English words, proper nouns (capitalised) and elisions are out."""
    assert word not in lexicon


@pytest.mark.parametrize("word", ["i", "di", "mi", "vi", "ci", "li", "mix"])
def test_roman_spelt_italian_words_stay(lexicon: Lexicon, word: str) -> None:
    assert word in lexicon


def test_inflected_forms_are_there(lexicon: Lexicon) -> None:
    assert all(w in lexicon for w in ("mangiavamo", "belle", "cantassero", "dirglielo"))
    assert len(lexicon) > 3_000_000


def test_the_recorded_sha256_is_the_shipped_file() -> None:
    recorded = (DATA / "it_hunspell.sha256").read_text().strip()
    assert hashlib.sha256(DEFAULT_FILE.read_bytes()).hexdigest() == recorded
    assert default_lexicon().identity == {"name": "hunspell-it-7.5.0", "sha256": recorded}


def test_an_organizer_word_list(tmp_path) -> None:
    path = tmp_path / "club.txt"
    path.write_text("Casa\nperò\n\n", encoding="utf-8")
    lexicon = Lexicon.from_file(path)
    assert "casa" in lexicon and "pero" in lexicon and "rete" not in lexicon
    assert lexicon.name == "club"
    assert lexicon.sha256 == hashlib.sha256(path.read_bytes()).hexdigest()


def test_bad_word_lists(tmp_path) -> None:
    with pytest.raises(LexiconError, match="cannot read"):
        Lexicon.from_file(tmp_path / "missing.txt")
    (tmp_path / "bin.txt").write_bytes(b"\xff\xfe\x00")
    with pytest.raises(LexiconError, match="not UTF-8"):
        Lexicon.from_file(tmp_path / "bin.txt")
    (tmp_path / "bad.marisa").write_bytes(b"not a trie")
    with pytest.raises(LexiconError, match="not a marisa trie"):
        Lexicon.from_file(tmp_path / "bad.marisa")
