"""Hostile names from the command line (#29): look-alikes, invisible and overlong names refused
by ``players add``; a name stored by an earlier version, whatever it holds, read and written to
the terminal with its control characters made visible."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.tournament.test_match_cli import ok, refused
from tournament.domain.names import key, registered
from tournament.services.stored import get_tournament, save
from tournament.storage.store import Store

INVISIBLE = "a player's name cannot hold an invisible or control character"


@pytest.fixture
def db(tmp_path: Path) -> Path:
    db = tmp_path / "t.db"
    ok(db, "create", "Sera al circolo", "--plays", "tiro")
    ok(db, "players", "add", "Giallo", "Blu")
    return db


def names(db: Path) -> list[str]:
    return [p["name"] for p in json.loads(ok(db, "players", "list", "--json"))]


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("Gi\u200dallo", f"{INVISIBLE} (U+200D)"),
        ("Blu\u200b", f"{INVISIBLE} (U+200B)"),
        ("\u200b", f"{INVISIBLE} (U+200B)"),
        ("\u2800", f"{INVISIBLE} (U+2800)"),
        ("\u202eollaiG", f"{INVISIBLE} (U+202E)"),
        ("Gi\x1b[2Jallo", f"{INVISIBLE} (U+001B)"),
        ("Gi\x9b2Jallo", f"{INVISIBLE} (U+009B)"),
        ("G\u0456allo", "G\u0456allo (as Giallo) is already registered"),  # Cyrillic і
        ("\u0412lu", "\u0412lu (as Blu) is already registered"),  # Cyrillic В
        ("\uff27iallo", "\uff27iallo (as Giallo) is already registered"),  # full-width G
        ("...", "a player's name needs a letter or a digit that shows"),
        ("x" * 61, "a player's name has at most 60 characters, not 61"),
        ("x" * 3000, "a player's name has at most 60 characters, not 3000"),
    ],
)
def test_a_look_alike_invisible_or_overlong_name_is_refused(db: Path, name: str, said: str) -> None:
    assert said in refused(db, "players", "add", name)
    assert names(db) == ["Giallo", "Blu"]  # nothing stored


def test_a_name_is_stored_normalised(db: Path) -> None:
    ok(db, "players", "add", "  Verde   Chiaro ", "Citta\u0300", "x" * 60)
    assert names(db)[2:] == ["Verde Chiaro", "Citt\u00e0", "x" * 60]  # NFC: one à


def stored_as_before(db: Path, *players: str) -> None:
    """Players registered as an earlier version did: whatever their names hold."""
    store = Store(db)
    t = get_tournament(store)
    for name in players:
        t.register(player=name, by="organizer")
    save(store, t)


def test_a_stored_name_is_never_written_raw_to_the_terminal(db: Path) -> None:
    ansi, bidi = "Ros\x1b[2J\x1b[31mso", "\u202eollaiG"
    stored_as_before(db, ansi, bidi)
    assert names(db)[2:] == [ansi, bidi]  # read as stored (JSON escapes it)
    for args in (("players", "list"), ("standings",), ("round", "pair"), ("status",)):
        out = ok(db, *args)
        assert "\x1b" not in out and "\u202e" not in out, args
        assert "\\x1b[2J\\x1b[31mso" in out, args  # the escape shown, as a Python string
    assert "\\u202eollaiG" in ok(db, "players", "list")
    out = ok(db, "players", "withdraw", ansi)  # typed as stored: found, and said visibly
    assert "\x1b" not in out and "\\x1b[2J" in out


def test_a_names_key_is_worked_out_once_and_a_long_text_still_read_whole() -> None:
    """#27: a server compares the same names at every start (the players of each table): the
    key of a name is kept (the same string given back), the key of a long text worked out
    afresh, and both as the rule reads them."""
    assert key("Ｇ\u0456allo Città") is key("Ｇ\u0456allo Città") == "giallo citta"
    long = "G\u0456allo " * 100
    assert key(long) == key(long.upper()) == " ".join(["giallo"] * 100)
    assert registered("GIALLO", ["Blu", "Giallo"]) == "Giallo"
