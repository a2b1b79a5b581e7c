"""The ``tournament`` command line (typer): one sub-app per noun.

Errors are one sentence on stderr and exit 1, never a traceback. Heavy modules are imported
inside the commands that need them, so a referee's recording call starts fast; for the same
reason a call imports and builds only the command it runs (:mod:`tournament.cli.lazy`), and
``--version`` is answered before typer or any command is imported.
"""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tournament.cli import lazy

if TYPE_CHECKING:
    import typer

    from tournament.cli.common import app

__all__ = ["app", "main", "run"]

GLOBAL_OPTIONS_WITH_VALUE = lazy.GLOBAL_OPTIONS_WITH_VALUE
DEBUG = "TOURNAMENT_DEBUG"  # set to 1: an unexpected error shows its traceback


def command_word(argv: Sequence[str]) -> str | None:
    """The first word of the command line that is not a global option or its value.

    >>> command_word(["--db", "x.db", "match", "roll", "M1"])
    'match'
    >>> command_word(["--db=x.db", "standings"])
    'standings'
    """
    words = lazy.command_words(argv)
    return words[0] if words else None


def register_all() -> None:
    lazy.register([])


def __getattr__(name: str) -> Any:
    """``tournament.cli.app``, imported when asked for (``--version`` never imports it)."""
    if name == "app":
        from tournament.cli.common import app

        return app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def main() -> None:
    if lazy.asks_version(sys.argv[1:]):
        # Before typer, the store or the engine: only the package's metadata is read.
        from tournament import version

        sys.stdout.write(f"tournament {version()}\n")
        return
    words = lazy.command_words(sys.argv[1:])
    # Importing the program makes hundreds of thousands of objects and no garbage to speak of:
    # the collector, left on, walks them again and again while they are made (a fortieth of a
    # recording call's work, #27). It is off while the program is imported; a ``match`` call
    # (one move at the table, one match shown) keeps it off to its end, as the modules its
    # command imports are most of its work; anything else, and a ``match`` call over many
    # matches or a file of any length (import, list), collects as ever once its command is
    # built. Whatever was on is on again when ``main`` returns.
    collecting = gc.isenabled()
    gc.disable()
    try:
        _main(words, collect=collecting and not at_the_table(words))
    finally:
        if collecting:
            gc.enable()


LONG_MATCH_CALLS = ("import", "list")  # their work grows with the file or the store


def at_the_table(words: list[str]) -> bool:
    """Whether the command is a ``match`` call of a referee at a table: one move, one match."""
    return words[:1] == ["match"] and words[1:2] != [] and words[1] not in LONG_MATCH_CALLS


def _main(words: list[str], collect: bool) -> None:
    app = globals().get("app") or __getattr__("app")  # this module's, as a test may set it
    # Building every command costs a recording call more than importing the program: a call
    # imports and builds only its own (--help and anything unknown get them all).
    lazy.register(words)
    # What is imported so far (typer, click, the program's modules) lives as long as the process:
    # frozen, the garbage collector leaves it alone, above all in the full collection as the
    # interpreter exits, a twentieth of a recording call's work (#15). It holds no file or
    # connection to finalize; everything made later is collected as ever.
    gc.freeze()
    if collect:
        gc.enable()
    try:
        with lazy.only(app, words):
            app()
    except Exception as e:  # noqa: BLE001 - the last line of defence, not error handling
        # Every error a user can cause is handled where it arises (commands are ``guarded``);
        # reaching here is a bug in the program, and the user is told so in one sentence.
        if os.environ.get(DEBUG, "") not in ("", "0"):
            raise
        where = e.__traceback__
        while where is not None and where.tb_next is not None:
            where = where.tb_next
        place = ""
        if where is not None:
            place = f" in {Path(where.tb_frame.f_code.co_filename).name}:{where.tb_lineno}"
        from tournament.cli.words import t

        why = t(
            "this is a bug in tournament (%(what)s): please report it with the command you ran "
            "on the project's issue tracker (README, 'Reporting a bug'); %(debug)s=1 shows the "
            "traceback",
            what=f"{type(e).__name__}{place}",
            debug=DEBUG,
        )
        sys.stderr.write(t("error: %(why)s", why=why) + "\n")
        sys.exit(70)  # EX_SOFTWARE (sysexits.h): an internal error


def run() -> None:
    """The program (``tournament``, ``python -m tournament``): :func:`main`, and then, after a
    ``match`` call (a referee's, at the table), the process ends at once (#27).

    Ending normally tears every imported module down, a thirtieth of a recording call's work,
    for nothing: the store is closed by then (the command's context closes it), and output is
    flushed here. What was registered to run at exit still runs; a process with a thread left,
    or output that cannot be flushed, ends normally. ``main`` itself never ends the process so
    (tests and tools call it).
    """
    recording = lazy.command_words(sys.argv[1:])[:1] == ["match"]
    code = 0
    try:
        main()
    except SystemExit as e:
        if not recording or not isinstance(e.code, int | None):
            raise
        code = e.code or 0
    if not recording or _threads_left():
        sys.exit(code)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        sys.exit(code)  # as before: Python's own exit says what it says of a closed pipe
    import atexit

    atexit._run_exitfuncs()
    os._exit(code)


def _threads_left() -> bool:
    threading = sys.modules.get("threading")
    return threading is not None and threading.active_count() > 1


def full_app() -> typer.Typer:
    """The app with every command registered (for tests and tools that embed the CLI)."""
    from tournament.cli.common import app

    register_all()
    return app
