"""The command line's messages for the catalogue: a Babel extraction method (babel.cfg).

Besides the sentences marked in the code (``t()``, ``tn()``, ``N_()``, ``msg()``...), which
Babel's Python extraction finds, the command line's ``--help`` is made of its commands'
docstrings and their options' ``help=``; :mod:`tournament.cli.helptext` says each by its
:func:`~tournament.cli.helptext.prose` as the message id. This method yields those too, so the
refresh of exports/i18n.py keeps them::

    [tournament.cli.catalogue:extract: tournament/cli/**.py]

Imported by Babel only, never when the command line runs.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import IO, Any

# Where the command line's own words are marked, beside the catalogue's usual keywords, and
# the usual keyword each is reported as (``t`` is a gettext, ``tn`` an ngettext).
KEYWORDS = {"t": None, "tn": (1, 2)}
REPORTED_AS = {"t": None, "tn": "ngettext"}


def helps(source: str) -> Iterator[tuple[int, str]]:
    """The help texts of a module of commands, as typer shows them: each command's docstring,
    each ``help=`` given as a literal; with their line numbers.

    >>> list(helps('@app.command("x")\\ndef x(a: A = typer.Option(help="One.")):\\n    "Do."'))
    [(2, 'Do.'), (2, 'One.')]
    """
    from tournament.cli.helptext import prose

    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef) and any(
            isinstance(d, ast.Call)
            and isinstance(d.func, ast.Attribute)
            and d.func.attr in ("command", "callback")
            for d in node.decorator_list
        ):
            doc = ast.get_docstring(node, clean=True)
            if doc:
                yield node.lineno, prose(doc)
        elif isinstance(node, ast.keyword) and node.arg == "help":
            if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
                yield node.value.lineno, prose(node.value.value)


def extract(
    fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: dict[str, Any]
) -> Iterator[tuple[int, str | None, Any, list[str]]]:
    """Babel's extraction method: the Python extraction's messages, and the help texts."""
    from babel.messages.extract import extract_python

    source = fileobj.read()
    fileobj.seek(0)
    every = {**{k: None for k in keywords}, **KEYWORDS}
    for lineno, funcname, messages, comments in extract_python(
        fileobj, every, comment_tags, options
    ):
        yield lineno, REPORTED_AS.get(funcname, funcname), messages, comments
    for lineno, text in helps(source.decode("utf-8")):
        yield lineno, None, text, []
