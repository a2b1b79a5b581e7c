"""The ``tournament`` command line (typer): one sub-app per noun.

Errors are one sentence on stderr and exit 1, never a traceback. Heavy modules are imported
inside the commands that need them, so a referee's recording call starts fast.
"""

from __future__ import annotations

from tournament.cli import day, match  # noqa: F401 - registers the commands
from tournament.cli.common import app

__all__ = ["app", "main"]


def main() -> None:
    app()
