"""The ``tournament`` command line (typer): one sub-app per noun.

Errors are one sentence on stderr and exit 1, never a traceback. Heavy modules are imported
inside the commands that need them, so a referee's recording call starts fast; for the same
reason a ``match`` or ``words`` call registers only those commands (see :func:`main`).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path

import typer

from tournament.cli import match  # noqa: F401 - registers the match and words commands
from tournament.cli.common import app

__all__ = ["app", "main"]

GLOBAL_OPTIONS_WITH_VALUE = ("--db", "--lexicon")
MATCH_GROUPS = ("match", "words")
DEBUG = "TOURNAMENT_DEBUG"  # set to 1: an unexpected error shows its traceback
REPORT_TO = "the project's issue tracker (README, 'Reporting a bug')"


def command_word(argv: Sequence[str]) -> str | None:
    """The first word of the command line that is not a global option or its value.

    >>> command_word(["--db", "x.db", "match", "roll", "M1"])
    'match'
    >>> command_word(["--db=x.db", "standings"])
    'standings'
    """
    skip = False
    for arg in argv:
        if skip:
            skip = False
        elif arg in GLOBAL_OPTIONS_WITH_VALUE:
            skip = True
        elif not arg.startswith("-"):
            return arg
    return None


def register_all() -> None:
    from tournament.cli import (  # noqa: F401 - registers the others
        audit,
        day,
        db,
        export,
        play,
        season,
    )


def main() -> None:
    # Building every command costs a recording call several milliseconds; a match or words call
    # needs only its own group. Anything else (the day's commands, --help) gets them all.
    if command_word(sys.argv[1:]) not in MATCH_GROUPS:
        register_all()
    try:
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
        sys.stderr.write(
            f"error: this is a bug in tournament ({type(e).__name__}{place}): please report it "
            f"with the command you ran on {REPORT_TO}; {DEBUG}=1 shows the traceback\n"
        )
        sys.exit(70)  # EX_SOFTWARE (sysexits.h): an internal error


def full_app() -> typer.Typer:
    """The app with every command registered (for tests and tools that embed the CLI)."""
    register_all()
    return app
