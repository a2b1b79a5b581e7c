"""The command line speaks Italian or English from the one catalogue (#28).

The language is chosen as docs/cli.md says (``--lang``, ``TOURNAMENT_LANG``, the locale, the
tournament's own, Italian); the README's tour and the demo, said in Italian, hold no English
word (the sheets' word list, tests/exports/test_i18n.py), and said in English no Italian word of
the command line's catalogue; every command's ``--help`` reads as prose in both languages.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from engine.notation.words import ANSWERS, CALLS, DECISIONS, DIE_NAMES
from exports.i18n import translator
from tests.exports.test_i18n import english_in, played_words
from tests.fuzzing import built_once
from tests.test_readme_tour import tour_blocks, words
from tournament.cli import full_app
from tournament.cli.helptext import prose
from tournament.cli.words import locale_lang
from tournament.storage.store import Store

app = full_app()
runner = CliRunner()
NAMES = {"giallo", "blu", "verde", "rosso", "nero", "bianco", "viola", "arancio", "anna"}
# A stored move (``M1 #3 roll verde d20 11``) and the moves open (``[expression/pass]``) are
# the notation, typed the same in either language (docs/format.md, "Moves as text").
NOTATION = re.compile(r"^\S+ #\d+ .*$|\[[\w/-]+\]", re.M)
# A command line suggested (``Prova: tournament status, tournament round show 1``) is typed as is.
# ... and so are the formats' names (docs/format.md: "match chain v2").
TYPED = re.compile(r"\btournament(?: [a-z_]+| M?\d+| --?[\w-]+)+|\b(match|tournament) chain v\d")


def notation_column(audit: str) -> str:
    """The audit's table without its "what" column: the move in the notation (README)."""
    rows = []
    for line in audit.splitlines():
        cells = line.split("│")
        rows.append("│".join(cells[:3] + cells[4:]) if len(cells) > 4 else line)
    return "\n".join(rows)


def said(lang: str, *args: str, env: dict[str, str] | None = None) -> str:
    result = runner.invoke(app, ["--lang", lang, *args], env=env)
    assert result.exception is None or isinstance(result.exception, SystemExit), args
    return result.stdout + result.stderr


# --- the order of the choice --------------------------------------------------------------------


def test_the_locale_names_the_language_as_gettext_reads_it() -> None:
    assert locale_lang({"LANG": "it_IT.UTF-8"}) == "it"
    assert locale_lang({"LC_MESSAGES": "en_US.UTF-8", "LANG": "it_IT.UTF-8"}) == "en"
    assert locale_lang({"LC_ALL": "C", "LANG": "it_IT.UTF-8"}) is None
    assert locale_lang({"LANGUAGE": "de:it", "LANG": "de_DE"}) == "it"


def test_lang_then_env_then_locale_then_the_tournament(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    english = {"TOURNAMENT_LANG": "", "LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": ""}
    created = runner.invoke(app, ["--db", db, "create", "Sera", "--lang", "en"], env=english)
    assert created.stdout.startswith("created Sera")  # C.UTF-8 or none: the tournament's (en)
    runner.invoke(app, ["--db", db, "players", "add", "Giallo", "Blu"])

    def status(*args: str, **env: str) -> str:
        return runner.invoke(app, [*args, "--db", db, "status"], env={**english, **env}).stdout

    assert "no round paired yet" in status(LANG="C.UTF-8")  # the tournament's: English
    assert "ancora nessun turno abbinato" in status(LANG="it_IT.UTF-8")  # the locale
    assert "no round paired yet" in status(LANG="it_IT.UTF-8", TOURNAMENT_LANG="en")
    assert "ancora nessun turno abbinato" in status("--lang", "it", TOURNAMENT_LANG="en")
    # Nothing names one and no tournament is opened: Italian.
    assert "Crea il torneo" in runner.invoke(app, ["--help"], env=english | {"LANG": "C"}).stdout
    # Read from the tournament's first event, not its aggregate: a recording call loads no
    # tournament (#15); the same id as the aggregate's.
    from tournament.domain.tournaments import TOURNAMENT_ID
    from tournament.services.language import TOURNAMENT, tournament_lang

    assert TOURNAMENT == TOURNAMENT_ID and tournament_lang(Store(Path(db))) == "en"
    assert tournament_lang(Store(tmp_path / "none.db")) is None
    refused = runner.invoke(app, ["--lang", "fr", "--db", db, "status"])
    assert refused.exit_code == 1
    assert refused.stderr.startswith("error: the command line speaks Italian (it) or English")


def test_a_refusal_from_the_services_is_said_in_the_cli_language(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    runner.invoke(app, ["--db", db, "match", "new", "ventuno", "giallo", "blu"])
    refused = runner.invoke(
        app, ["--lang", "it", "--db", db, "match", "roll", "M1", "blu", "d6", "1"]
    )
    assert refused.exit_code == 1 and refused.stderr.startswith("errore: ")
    assert english_in(refused.stderr, frozenset(NAMES)) == [], refused.stderr
    usage = runner.invoke(app, ["--lang", "it", "--db", db, "match", "roll", "M1"])
    assert usage.stderr.startswith("errore: manca l'argomento BY (vedi '")


# --- the README's tour and the demo, in both languages ------------------------------------------


def walk_tour(lang: str) -> str:
    """Every command of the README's tour, said in ``lang`` (what a transcript shows is not
    compared here: tests/test_readme_tour.py does that in English)."""
    out = []
    for block in tour_blocks():
        for line in block:
            if block[0].startswith("$ ") and not line.startswith("$ "):
                continue  # a transcript's output
            command = words(line.removeprefix("$ "))
            if command:
                out.append(said(lang, *command))
    return "\n".join(out)


@pytest.fixture(scope="module")
def spoken(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, tuple[str, frozenset]]]:
    """The tour and the demo (and what an organizer reads of it next), in each language, and the
    words played in them."""
    import os

    here = Path.cwd()
    found = {}
    with built_once(app):
        for lang in ("it", "en"):
            os.chdir(tmp_path_factory.mktemp(f"tour-{lang}"))
            try:
                text = walk_tour(lang)
                played = played_words(Store(Path("sera.db"))) | played_words(
                    Store(Path("tournament.db"))
                )
                if lang == "it":  # the demo once; read in both languages
                    text += said(lang, "--db", "demo.db", "demo", "--no-pdf")
                    demo = Path("demo.db").resolve()
                for command in (["status"], ["round", "show", "2"], ["players", "list"],
                                ["match", "show", "M1"], ["audit", "M2"], ["verify", "M3"],
                                ["match", "list"]):  # fmt: skip
                    shown = said(lang, "--db", str(demo), *command)
                    text += notation_column(shown) if command[0] == "audit" else shown
                found[lang] = (text, played | played_words(Store(demo)))
            finally:
                os.chdir(here)
    yield found


def test_the_tour_and_the_demo_in_italian_hold_no_english(spoken) -> None:
    text, played = spoken["it"]
    flat = " ".join(text.split())
    assert "Torneo dimostrativo: sistema svizzero, 3 turni di partite di Tetragon" in flat
    assert "tocca a " in text and "situazione: " in text and "turno 1 chiuso" in text
    found = english_in(TYPED.sub(" ", NOTATION.sub(" ", text)), played | NAMES)
    assert found == [], found


def italian_words() -> frozenset[str]:
    """The words of the command line's Italian that its English never uses."""
    it, en = set(), set()
    catalogue = translator("it")._catalog  # every id and its Italian
    for key, text in catalogue.items():
        english = key[0] if isinstance(key, tuple) else key
        if english and text != english:
            it |= set(re.findall(r"[^\W\d_]+", text.lower()))
            en |= set(re.findall(r"[^\W\d_]+", english.lower()))
    return frozenset(w for w in it - en if len(w) > 2)  # not "i", "da": letters, names


def test_the_tour_and_the_demo_in_english_hold_no_italian(spoken) -> None:
    text, played = spoken["en"]
    assert "finished: winner Giallo" in text and "next: " in text
    text = TYPED.sub(" ", NOTATION.sub(" ", text))
    for name in ("Torneo dimostrativo", "Sera al circolo", "Circolo", "Tiro di precisione"):
        text = text.replace(name, " ")
    shown = set(re.findall(r"[^\W\d_]+", text.lower())) - played - NAMES
    assert sorted(shown & italian_words()) == []


# --- every command's help, in both languages ----------------------------------------------------


def commands(command, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], object]]:
    yield path, command
    for name, sub in getattr(command, "commands", {}).items():
        yield from commands(sub, (*path, name))


@pytest.fixture(scope="module")
def helps() -> dict[str, dict[tuple[str, ...], str]]:
    """Every command's and group's ``--help``, in Italian and English, on an 80-column screen."""
    found: dict[str, dict[tuple[str, ...], str]] = {"it": {}, "en": {}}
    with built_once(app):
        root = typer.main.get_command(app)
        for path, _ in commands(root):
            for lang in found:
                result = runner.invoke(
                    app, ["--lang", lang, *path, "--help"], env={"COLUMNS": "80"}
                )
                assert result.exit_code == 0, (path, result.stdout)
                found[lang][path] = result.stdout
    return found


def test_every_help_is_walked(helps) -> None:
    assert len(helps["en"]) > 70  # every command and group
    assert {("play",), ("match", "roll"), ("table", "start"), ()} <= set(helps["en"])


def test_help_shows_no_markup_nor_issue_numbers(helps) -> None:
    for lang, pages in helps.items():
        for path, page in pages.items():
            assert "``" not in page and "`" not in page, (lang, path)
            assert not re.search(r"#\d+\b", page), (lang, path)  # no "(#11)"


def test_help_breaks_lines_only_where_the_screen_does() -> None:
    """A description is one paragraph a line, wrapped by the screen alone: never broken where the
    docstring's source wrapped (``demo``: "...in a fresh database; its" / "printable ...")."""
    from tournament.cli.helptext import translate

    root = typer.main.get_command(app)
    translate(root)
    for path, command in commands(root):
        for text in [command.help, *(getattr(p, "help", None) for p in command.params)]:
            for paragraph in (text or "").split("\n\n"):
                lines = paragraph.splitlines()
                assert len(lines) == 1 or all(x.startswith(("- ", "$ ")) for x in lines), path
    wide = runner.invoke(app, ["--lang", "en", "--help"], env={"COLUMNS": "200"}).stdout
    demo = next(line for line in wide.splitlines() if line.startswith("│ demo "))
    assert demo.rstrip(" │").endswith("(HTML, and PDF with WeasyPrint).")  # whole, on one line


def test_help_in_italian_holds_no_english(helps) -> None:
    # The commands' own names and the notation's words are typed as they are.
    names = {n for path in helps["it"] for n in path} | set(DIE_NAMES) | set(CALLS)
    names |= set(ANSWERS) | set(DECISIONS)
    names |= {"replay", "seed"}  # the values of --knockout-draw, typed as they are
    for path, page in helps["it"].items():
        text = re.sub(
            r"--?[\w-]+|<\w+>|\b[A-Z_]{2,}\b|\{\w+\}|\S+\.(md|db|marisa|toml)\b", " ", page
        )
        text = re.sub(r"\[predefinito: [^\]]*\]", " ", text)  # a default is a value, as typed
        words_found = [w for w in english_in(text) if w.lower() not in names]
        assert words_found == [], (path, words_found)
    assert "Registra dadi lanciati insieme" in helps["it"][("match", "roll")]
    assert "Mostra questo aiuto ed esce." in helps["it"][("match", "roll")]


def test_help_is_the_docstrings_prose() -> None:
    assert prose("Amend it; in a closed round, first show\n    what it changes.") == (
        "Amend it; in a closed round, first show what it changes."
    )


def test_the_console_speaks_the_command_lines_lang_else_the_tables(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    runner.invoke(app, ["--db", db, "match", "new", "ventuno", "giallo", "blu"])
    play = ["--db", db, "play", "M1", "--no-timers"]
    assert "tocca a giallo" in runner.invoke(app, play, input="quit\n").stdout  # Italian
    assert "next: giallo" in runner.invoke(app, ["--lang", "en", *play], input="quit\n").stdout
    both = runner.invoke(app, ["--lang", "en", *play, "--lang", "it"], input="quit\n")
    assert "tocca a giallo" in both.stdout  # play's own --lang first


def test_the_refusals_of_files_stores_and_seasons_speak_italian(tmp_path: Path) -> None:
    """A missing database, a folder given as one, a season file that is not there or not
    TOML, a copy onto itself: one Italian sentence each, exit 1, nothing made."""
    (tmp_path / "folder").mkdir()
    (tmp_path / "bad.toml").write_text("name = [", encoding="utf-8")
    (tmp_path / "empty.db").write_bytes(b"")
    missing = tmp_path / "nowhere.db"
    cases = {
        ("--db", str(missing), "match", "show", "M1"): "non esiste un database in",
        ("--db", str(tmp_path / "folder"), "match", "show", "M1"): "è una cartella, non un file",
        ("--db", str(tmp_path / "empty.db"), "match", "show", "M1"): "è un file vuoto",
        ("season", "standings", str(tmp_path / "none.toml")): "non esiste un file di stagione",
        ("season", "standings", str(tmp_path / "bad.toml")): "non è TOML valido",
        ("db", "copy", str(missing), str(missing)): "sono lo stesso archivio",
        ("db", "copy", str(missing), str(tmp_path / "new.db")): "non esiste un database in",
    }
    for args, italian in cases.items():
        result = runner.invoke(app, ["--lang", "it", *args])
        text = result.stdout + result.stderr
        assert result.exit_code == 1 and italian in text, (args, text)
        assert "Traceback" not in text and " is not " not in text and "there is" not in text
        assert text.strip().count("\n") == 0, text  # one sentence
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.toml", "empty.db", "folder"]
    english = runner.invoke(app, ["--lang", "en", "--db", str(missing), "match", "show", "M1"])
    assert f"there is no database at {missing}" in english.stdout + english.stderr


def test_a_copy_says_its_steps_in_italian(tmp_path: Path) -> None:
    source, target = tmp_path / "a.db", tmp_path / "b.db"
    assert (
        runner.invoke(app, ["--db", str(source), "match", "new", "tiro", "Anna", "Bruno"]).exit_code
        == 0
    )
    result = runner.invoke(app, ["--lang", "it", "db", "copy", str(source), str(target)])
    assert result.exit_code == 0, result.stdout + result.stderr
    assert "letto 1 evento e 0 istantanee da" in result.stdout
    assert "confronto e verifica" in result.stdout and "comparing" not in result.stdout


def test_a_copy_that_does_not_verify_says_why_and_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tournament.services import copy as copying
    from tournament.verify.findings import Failure, Report

    source, target = tmp_path / "a.db", tmp_path / "b.db"
    assert (
        runner.invoke(app, ["--db", str(source), "match", "new", "tiro", "Anna", "Bruno"]).exit_code
        == 0
    )
    broken = Report(
        failures=[
            Failure("M1", 1, copying.msg("an event is missing here, or the order was changed"))
        ]
    )
    import tournament.verify

    monkeypatch.setattr(tournament.verify, "verify_store", lambda *_: broken)
    for lang, said in (
        ("it", "la copia: M1, posizione 1: qui manca un evento"),
        ("en", "the copy: M1, position 1: an event is missing here"),
    ):
        result = runner.invoke(app, ["--lang", lang, "db", "copy", str(source), str(target)])
        assert result.exit_code == 1 and said in result.stderr, result.stderr
        assert "Traceback" not in result.stderr and not target.exists()
