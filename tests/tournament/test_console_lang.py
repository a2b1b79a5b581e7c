"""The table console speaks the table's language (#11): Italian by default, English with
``tournament play --lang en``; the moves typed stay in the notation either way.

Every game is played through ``tournament play`` to its end (with a help, a pause, a typo
and a move out of turn among the moves, and a match of digital dice), and what the console
wrote is searched for the words of the other language: the English words of the messages the
console shows (its own, the engine's turns, notes, refusals, the recorded moves), or their
Italian translations. A tournament's partita (the four games of a table) is played the same way.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

import pytest

pytest.importorskip("babel", reason="Babel is a test dependency (pip install -e '.[test]')")

from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_file  # noqa: E402

from engine.games import GAMES, game  # noqa: E402
from engine.notation.words import (  # noqa: E402
    ANSWERS,
    CALLS,
    DECISIONS,
    DIE_NAMES,
    FLAGS,
    KEYWORDS,
    VERBS,
)
from exports.i18n import translator  # noqa: E402
from tests.exports.test_i18n import played_words  # noqa: E402
from tests.support import EXAMPLES  # noqa: E402
from tests.tournament.test_console import line_for, new_match  # noqa: E402
from tests.tournament.test_match_cli import app, ok, runner  # noqa: E402
from tournament.storage.store import Store  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
# Where the texts the console shows are written: its own, the match service's refusals, the
# engine's turns, notes, summaries and refusals, and the recorded moves' sentences.
SOURCES = [
    "tournament/cli/console.py",
    "tournament/cli/play.py",
    "tournament/cli/lines.py",
    "tournament/services/matches.py",
    "exports/wording.py",
    *(str(p.relative_to(ROOT)) for p in sorted((ROOT / "engine").rglob("*.py"))),
]
KEYWORD_ARGS = {**DEFAULT_KEYWORDS, "msg": None, "nmsg": (1, 2)}
# The notation's words (typed as they are in either language) and the digital dice's verb.
NOTATION = {
    *VERBS, *DIE_NAMES, *CALLS, *ANSWERS, *DECISIONS, *FLAGS, *KEYWORDS, "expression", "ruling",
    "d", "x", "tournament", "verify", "play", "docs", "md",
}  # fmt: skip
WORD = re.compile(r"[^\W\d_]+")


def words_of(text: str) -> set[str]:
    text = re.sub(r"%\(\w+\)[sdr]", " ", text)  # a message's placeholders
    text = re.sub(r"\b[0-9a-f]{8,}\b", " ", text)  # seals, salts and seeds
    return {w.lower() for w in WORD.findall(text)}


@cache
def console_ids() -> tuple[str | tuple[str, str], ...]:
    """The English message ids of everything the console shows (a pair: plural forms)."""
    ids = []
    for path in SOURCES:
        for _, message, _, _ in extract_from_file("python", ROOT / path, KEYWORD_ARGS):
            ids.append(message)
    return tuple(ids)


@cache
def vocabulary(lang: str) -> frozenset[str]:
    """The words of the console's messages in ``lang`` (for Italian: their translations)."""
    t = translator(lang)
    found: set[str] = set()
    for message in console_ids():
        if isinstance(message, tuple):
            forms = [t.ngettext(message[0], message[1], n) for n in (1, 2)]
        else:
            forms = [t.gettext(message)]
        if lang == "it" and forms[0] == (message[0] if isinstance(message, tuple) else message):
            continue  # untranslated: its English words do not become Italian ones
        for text in forms:
            found |= words_of(text)
    return frozenset(found)


@cache
def foreign(lang: str) -> frozenset[str]:
    """The words that must not appear when the console speaks ``lang``: those of the other
    language's messages that this language's messages never use (nor the notation)."""
    other = "it" if lang == "en" else "en"
    return frozenset(vocabulary(other) - vocabulary(lang) - NOTATION)


TITLES = sorted((game(g).title for g in GAMES), key=len, reverse=True)


def spoken(text: str, played: frozenset[str], names: set[str]) -> set[str]:
    """The words the console wrote, without the games' titles (proper names), the players'
    names, the words played at the table and the letters rolled (DO, TN + OA)."""
    for title in TITLES:
        text = text.replace(title, " ")
    text = re.sub(r"\b[A-Z]{1,3}\b", " ", text)
    return {w for w in words_of(text) if w not in played and w not in names}


def typed(db: Path) -> frozenset[str]:
    """The words played, and the referee's own words in the examples (a void's reason, a
    ruling's note: text typed at the table, stored as typed)."""
    store = Store(db)
    notes = set()
    for match in store.matches():
        for line in match.lines:
            e = json.loads(line)
            if e["type"] in ("void", "ruling"):
                notes |= words_of(e.get("reason") or e.get("note") or "")
    return played_words(store) | notes


def play_all(db: Path, lang: list[str]) -> str:
    """Every example played through ``tournament play``, with a few mistakes on the way, and a
    match of digital dice; all the console wrote."""
    said = []
    for path in sorted(EXAMPLES.glob("*.jsonl")):
        header, *events = [json.loads(x) for x in path.read_text().splitlines()]
        number = new_match(db, header)
        lines = [line for e in events if (line := line_for(e))]
        # A help, a typo, a move out of turn, a pause and its resume, then the match; Enter at
        # the end (no undo of the last move).
        lines[1:1] = ["help", "fly", "seal nobody", "pause", "resume"]
        result = runner.invoke(
            app, ["--db", str(db), "play", number, "--no-timers", *lang], input="\n".join(lines)
        )
        assert result.exit_code == 0, result.output
        said.append(result.stdout)
    number = ok(db, "match", "new", "updown", "giallo", "blu").strip()
    moves = "\n".join(["roll"] + ["bet blu up", "roll", "bet giallo down", "roll"] * 20)
    result = runner.invoke(
        app, ["--db", str(db), "play", number, "--digital", "--no-timers", *lang], input=moves
    )
    assert result.exit_code == 0, result.output
    said.append(result.stdout)
    return "\n".join(said)


def names_in(db: Path) -> set[str]:
    store = Store(db)
    return {n.lower() for m in store.matches() for n in json.loads(m.header)["players"]} | {
        n.lower() for m in store.matches() for n in json.loads(m.header).get("outside", [])
    }


def test_the_word_lists_are_the_console_messages() -> None:
    english, italian = foreign("it"), foreign("en")
    assert {"recorded", "finished", "next", "state", "error", "turn", "nothing"} <= english
    assert {"registrato", "finita", "tocca", "situazione", "errore", "nulla"} <= italian
    assert not (english | italian) & NOTATION


@pytest.mark.parametrize(
    ("lang", "args", "lines"),
    [
        # Italian by default, at the table.
        (
            "it",
            [],
            ("registrato #1:", "tocca a", "partita finita: vince", "dadi digitali rivelati"),
        ),
        (
            "en",
            ["--lang", "en"],
            ("recorded #1:", "next: ", "finished: winner", "digital dice revealed"),
        ),
    ],
)
def test_a_whole_match_of_every_game_speaks_one_language(
    tmp_path: Path, lang: str, args: list[str], lines: tuple[str, ...]
) -> None:
    db = tmp_path / f"{lang}.db"
    out = play_all(db, args)
    found = spoken(out, typed(db), names_in(db))
    assert sorted(found & foreign(lang)) == [], f"words of the other language at a {lang} table"
    # The same detector finds plenty of this language's words: the console did speak it.
    assert len(found & foreign("en" if lang == "it" else "it")) > 40
    for line in lines:
        assert line in out


def test_the_console_language_is_it_or_en(tmp_path: Path) -> None:
    db = tmp_path / "l.db"
    ok(db, "match", "new", "ventuno", "giallo", "blu")
    result = runner.invoke(app, ["--db", str(db), "play", "M1", "--lang", "fr"], input="quit\n")
    assert result.exit_code == 1 and "Italian (it) or English (en), not 'fr'" in result.stderr
    # The console's own commands are read in either language; the log is the same.
    result = runner.invoke(
        app, ["--db", str(db), "play", "M1"], input="aiuto\nroll giallo d6 4 5\nannulla\nesci\n"
    )
    assert result.exit_code == 0, result.output
    assert "console: annulla [motivo]" in result.stdout
    assert "il registro è salvato" in result.stdout
    log = [json.loads(x) for x in ok(db, "match", "export", "M1").splitlines()[1:]]
    assert [e["type"] for e in log] == ["roll", "void"]
    assert log[1]["reason"] == "annullata al tavolo"  # the table's words, stored as said


def test_a_partita_at_a_table_is_played_in_italian(tmp_path: Path) -> None:
    """A tournament's partita (CH-3): the four games of one table, each started as its turn
    comes and played through ``tournament play`` (Italian, the default) to its end."""
    db = tmp_path / "p.db"
    ok(db, "create", "Sera", "--plays", "partita")
    ok(db, "players", "add", "Giallo", "Blu", "Verde", "Rosso")
    ok(db, "round", "pair")
    games = ["tiro", "battaglia", "catena", "texas"]
    ok(db, "partita", "1", "1", *games)
    out = []
    for name in games:
        number = ok(db, "table", "start", "1", "1", name, "--outside", "Verde").strip()
        first, second = json.loads(ok(db, "match", "show", number, "--json"))["players"]
        assert "Verde" not in (first, second)  # the pairing is seeded: Verde sits at table 2
        # The example's moves, with its players in the seats of this table.
        seats = {"giallo": first, "blu": second, "verde": "Verde"}
        _, *events = (EXAMPLES / f"{name}-seed.jsonl").read_text().splitlines()
        lines = [
            re.sub(r"\b(giallo|blu|verde)\b", lambda m, seats=seats: seats[m[1]], line)
            for e in events
            if (line := line_for(json.loads(e)))
        ]
        result = runner.invoke(app, ["--db", str(db), "play", number], input="\n".join(lines))
        assert result.exit_code == 0, result.output
        assert "partita finita: vince" in result.stdout
        out.append(result.stdout)
    found = spoken("\n".join(out), typed(db), names_in(db))
    assert sorted(found & foreign("it")) == []
    table = json.loads(ok(db, "status", "--json"))["tables"][0]
    assert len(table["matches"]) == 4


def test_the_console_speaks_the_tournaments_language_unless_asked(tmp_path: Path) -> None:
    """A tournament created with ``--lang en`` (its sheets in English) has its console in
    English too; ``--lang`` still chooses."""
    db = tmp_path / "en.db"
    ok(db, "create", "Evening", "--plays", "ventuno", "--lang", "en")
    ok(db, "players", "add", "Giallo", "Blu")
    ok(db, "round", "pair")
    number = ok(db, "table", "start", "1", "1", "ventuno").strip()
    english = runner.invoke(app, ["--db", str(db), "play", number], input="help\nquit\n")
    assert english.exit_code == 0, english.output
    assert "the log is saved" in english.stdout and "il registro è salvato" not in english.stdout
    italian = runner.invoke(app, ["--db", str(db), "play", number, "--lang", "it"], input="quit\n")
    assert "il registro è salvato" in italian.stdout
