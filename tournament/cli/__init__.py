"""The ``tournament`` command line (typer): one sub-app per noun.

Errors are one sentence on stderr and exit 1, never a traceback. Heavy modules are imported
inside the commands that need them, so a referee's recording call starts fast; for the same
reason a ``match`` or ``words`` call registers only those commands (see :func:`main`).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

import typer

from tournament.cli import match  # noqa: F401 - registers the match and words commands
from tournament.cli.common import app

__all__ = ["app", "main"]

GLOBAL_OPTIONS_WITH_VALUE = ("--db", "--lexicon")
MATCH_GROUPS = ("match", "words")


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
        export,
        play,
        season,
        serve,
    )


def main() -> None:
    # Building every command costs a recording call several milliseconds; a match or words call
    # needs only its own group. Anything else (the day's commands, --help) gets them all.
    if command_word(sys.argv[1:]) not in MATCH_GROUPS:
        register_all()
    app()


def full_app() -> typer.Typer:
    """The app with every command registered (for tests and tools that embed the CLI)."""
    register_all()
    return app
