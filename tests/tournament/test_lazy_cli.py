"""The lazy command line (issue 15): a call builds only its own command, help stays whole."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import typer

from tournament.cli import full_app, lazy
from tournament.cli.common import app


def names(t: typer.Typer) -> set[str]:
    return {lazy._name(i) for i in [*t.registered_commands, *t.registered_groups]}


def test_each_first_word_is_registered_by_the_module_it_names() -> None:
    assert {"match", "day", "audit", "season"} <= set(lazy.command_modules())
    full_app()
    registered = names(app)
    assert set(lazy.MODULES) <= registered
    for word, module in lazy.MODULES.items():
        found = [*app.registered_commands, *app.registered_groups]
        info = next(i for i in found if lazy._name(i) == word)
        where = (
            info.typer_instance.registered_commands[0].callback
            if hasattr(info, "typer_instance") and info.typer_instance
            else info.callback
        )
        modules = (module,) if isinstance(module, str) else module
        assert where.__module__ in {f"tournament.cli.{m}" for m in modules}, word


def test_only_keeps_the_command_that_runs_and_gives_everything_back() -> None:
    full_app()
    before = names(app)
    match_app = next(g for g in app.registered_groups if g.name == "match").typer_instance
    verbs = names(match_app)
    with lazy.only(app, ["match", "roll", "M1"]):
        assert names(app) == {"match"}
        assert names(match_app) == {"roll"}
    with lazy.only(app, ["standings"]):
        assert names(app) == {"standings"}
    with lazy.only(app, ["match", "rol"]):  # a typo: click's suggestions need every verb
        assert names(match_app) == verbs
    with lazy.only(app, []):
        assert names(app) == before
    assert names(app) == before and names(match_app) == verbs


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "from tournament.cli import main; main()", *args],
        capture_output=True,
        text=True,
        check=False,
    )


def test_a_recording_call_imports_only_its_module_and_help_lists_everything(
    tmp_path: Path,
) -> None:
    db = str(tmp_path / "t.db")
    code = (
        "import sys; from tournament.cli import main\n"
        "try: main()\n"
        "except SystemExit: pass\n"
        "print(sorted(m for m in sys.modules if m.startswith('tournament.cli.')), file=sys.stderr)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, "--db", db, "match", "new", "ventuno", "giallo", "blu"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.strip() == "M1"
    assert "tournament.cli.day" not in done.stderr and "tournament.cli.match" in done.stderr
    helped = run("--help").stdout
    for word in lazy.MODULES:
        assert word in helped
    assert "roll" in run("match", "--help").stdout
    typo = run("--db", db, "match", "rol", "M1")
    assert typo.returncode == 2 and "Did you mean 'roll'" in typo.stderr


# What a recording call must not import (#15): each costs start-up and none is used to record a
# move. The read path, the exports and their templates, the day's tournament, pairing, the word
# list's trie, OpenSSL (hashlib), rich's console, a PostgreSQL server's location (a dataclass,
# #27) and the other command modules.
NOT_FOR_A_ROLL = (
    "jinja2",
    "sqlite_utils",
    "exports",
    "babel",
    "marisa_trie",
    "networkx",
    "rustworkx",
    "hashlib",
    "secrets",
    "rich.console",
    "tournament.readside.reading",
    "tournament.readside.readmodels",
    "tournament.storage.pgserver",
    "tournament.verify",
    "tournament.services.day",
    "tournament.services.effects",
    "tournament.domain.pairing",
    "tournament.cli.render",
    "tournament.cli.day",
    "tournament.cli.players",
    "tournament.cli.rounds",
    "tournament.cli.tables",
    "tournament.cli.audit",
    "tournament.cli.export",
)


def test_a_recording_call_imports_nothing_it_does_not_use(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    code = (
        "import sys; from tournament.cli import main\n"
        "try: main()\n"
        "except SystemExit: pass\n"
        "print(' '.join(sys.modules), file=sys.stderr)"
    )

    # No language chosen: the tournament's is looked up in the store, as on a referee's phone
    # with no locale (that look-up once loaded OpenSSL, #27).
    env = {k: v for k, v in os.environ.items() if k not in ("TOURNAMENT_LANG", "LANG", "LC_ALL")}

    def call(*args: str) -> tuple[str, set[str]]:
        done = subprocess.run(
            [sys.executable, "-c", code, "--db", db, "match", *args],
            capture_output=True,
            text=True,
            check=True,
            env=env,
        )
        return done.stdout, set(done.stderr.split())

    call("new", "ventuno", "giallo", "blu")
    out, imported = call("roll", "M1", "giallo", "d6", "4", "5")
    assert out.startswith("M1 #1 roll giallo d6 4 5\nsituazione:")  # recorded; the store's Italian
    heavy = {
        m for m in imported for name in NOT_FOR_A_ROLL if m == name or m.startswith(f"{name}.")
    } - {"exports", "exports.i18n"}  # the catalogue (gettext's .mo), the CLI's words (#28)
    assert not heavy, f"a recording call imported {sorted(heavy)}"
    # A sanity check of the check: the names are the modules' real ones.
    assert {"tournament.storage.store", "tournament.services.matches", "engine.match"} <= imported


def test_a_match_call_ends_without_tearing_the_modules_down(tmp_path: Path) -> None:
    """#27: after a ``match`` call the program ends at once (``os._exit``), its output flushed,
    its exit code and what was registered to run at exit kept; any other call ends as ever."""
    db = str(tmp_path / "t.db")
    code = (
        "import atexit, os, sys\n"
        "atexit.register(lambda: print('at exit', file=sys.stderr))\n"
        "end = os._exit\n"
        "os._exit = lambda code: (print('ended at once', code, file=sys.stderr), end(code))\n"
        "from tournament.cli import run; run()"
    )

    def call(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-c", code, "--db", db, *args], capture_output=True, text=True
        )

    assert call("match", "new", "ventuno", "giallo", "blu").stdout == "M1\n"
    rolled = call("match", "roll", "M1", "giallo", "d6", "4", "5")
    assert rolled.returncode == 0 and rolled.stdout.startswith("M1 #1 roll giallo d6 4 5\n")
    assert rolled.stderr == "at exit\nended at once 0\n"
    refused = call("match", "roll", "M1", "giallo", "d6", "4", "5")  # a choice is awaited
    assert refused.returncode == 1 and refused.stderr.startswith("error: ")
    assert refused.stderr.endswith("at exit\nended at once 1\n")
    assert call("match", "rol", "M1").returncode == 2  # a usage error, click's code
    shown = call("status")  # no tournament here: refused, and ended as ever
    assert shown.returncode == 1 and shown.stderr.endswith("first\nat exit\n")


def test_the_collector_is_off_while_a_match_call_runs_and_on_again_after(tmp_path: Path) -> None:
    """#27: importing the program, and all of a ``match`` call, run with the garbage collector
    off (it found nothing to free there, and cost a recording call its walks); any other call
    collects once its command is built; ``main`` gives back the collector as it found it."""
    db = str(tmp_path / "t.db")
    code = (
        "import gc, sys, traceback\n"
        "from tournament.cli import main\n"
        "runs = []\n"
        "def seen(phase, info):  # a collection while main runs\n"
        "    stack = [f.f_code.co_name for f, _ in traceback.walk_stack(sys._getframe())]\n"
        "    if phase == 'start' and 'main' in stack: runs.append(1)\n"
        "gc.callbacks.append(seen)\n"
        "try: main()\n"
        "except SystemExit: pass\n"
        "print(len(runs), gc.isenabled(), file=sys.stderr)"
    )

    def collections(*args: str) -> tuple[int, str]:
        done = subprocess.run(
            [sys.executable, "-c", code, "--db", db, *args], capture_output=True, text=True
        )
        count, enabled = done.stderr.split()[-2:]
        return int(count), enabled

    assert collections("match", "new", "ventuno", "giallo", "blu") == (0, "True")
    assert collections("match", "roll", "M1", "giallo", "d6", "4", "5") == (0, "True")
    many, enabled = collections("--help")  # every command built, with the collector on
    assert enabled == "True" and many > 0
    # A call over a whole file or store collects as ever: its garbage grows with what it reads.
    log = tmp_path / "m1.jsonl"
    subprocess.run([sys.executable, "-m", "tournament", "--db", db, "match", "export", "M1",
                    "-o", str(log)], check=True)  # fmt: skip
    for long in (["match", "import", str(log)], ["match", "list"]):
        many, enabled = collections(*long)
        assert enabled == "True" and many > 0, long


def test_the_values_a_roll_imports_are_records_not_dataclasses() -> None:
    """A dataclass generates code for each class as it is imported (~5-7M instructions each on a
    roll, #27): the engine's replay, header and games' states are Records instead."""
    from importlib import import_module

    from engine.games import GAMES
    from engine.header import Header
    from engine.match import Replay
    from engine.record import Record

    states = [vars(import_module(f"engine.games.{name}")).get("State") for name in GAMES]
    for cls in [Replay, Header, *(s for s in states if s is not None)]:
        assert issubclass(cls, Record) and not hasattr(cls, "__dataclass_fields__"), cls


def test_a_call_reads_its_commands_annotations_once_and_builds_the_same_command() -> None:
    """#27: typer read every annotation of the command a call builds four times, each string
    compiled anew (~8M instructions a roll); ``lazy.only`` reads them once before typer does,
    an alias (``ID``) only looked up, and the command built is the one built from the strings."""
    code = (
        "import builtins, json, sys, typer.main\n"
        "from tournament.cli import lazy, full_app\n"
        "app = full_app()\n"
        "def params(command):\n"
        "    roll = command.commands['match'].commands['roll']\n"
        "    top = [*command.params, *command.commands['match'].params, *roll.params]\n"
        "    return [[p.name, p.opts, getattr(p, 'help', None), repr(p.default), p.required,\n"
        "             p.nargs, p.envvar, repr(p.type), p.is_eager] for p in top] + [roll.help]\n"
        "before = params(typer.main.get_command(app))  # everything, from the strings\n"
        "compiled = []\n"
        "compile_, eval_ = builtins.compile, builtins.eval\n"
        "def counted(real):\n"
        "    def call(source, *args, **kwargs):\n"
        "        if isinstance(source, str): compiled.append(source)\n"
        "        return real(source, *args, **kwargs)\n"
        "    return call\n"
        "with lazy.only(app, ['match', 'roll', 'M1']):\n"
        "    builtins.compile, builtins.eval = counted(compile_), counted(eval_)\n"
        "    after = params(typer.main.get_command(app))\n"
        "    builtins.compile, builtins.eval = compile_, eval_\n"
        "print(json.dumps([before == after, compiled, after]))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    same, compiled, after = json.loads(done.stdout)
    assert same and compiled == []
    roll = [p[0] for p in after[:-1]][-4:]  # the roll's own parameters come last
    assert roll == ["match_id", "by", "die", "values"]
