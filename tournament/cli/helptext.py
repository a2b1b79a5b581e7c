"""``--help`` in the run's language, reading as prose (#28).

typer builds its help from the functions' docstrings and the options' ``help=`` when the module
is imported, in English: those texts are the catalogue's message ids. Before click parses a
command line, :func:`translate` walks the commands it will use and says each text in the run's
language (:mod:`tournament.cli.words`), shaped for a terminal: a docstring's lines joined into
paragraphs (typer keeps them broken where the source wraps), code written ```x``` or ``x`` shown
bold rather than as raw markup. The message id is the text as :func:`prose` gives it.

typer's own words (the panels' titles, ``[default: ...]``, ``[required]``) and click's "Usage:"
and "Show this message and exit." come from the catalogue too.
"""

from __future__ import annotations

import inspect
import re
from typing import Any

from exports.i18n import N_
from tournament.cli.words import gettext, lang

CODE = re.compile(r"``(.+?)``|`(.+?)`")
ISSUE = re.compile(r"\s*\(#\d+\)|\s*\(issue \d+\)")

# typer's words, by the name rich_utils gives them.
TYPER_WORDS = {
    "ARGUMENTS_PANEL_TITLE": N_("Arguments"),
    "OPTIONS_PANEL_TITLE": N_("Options"),
    "COMMANDS_PANEL_TITLE": N_("Commands"),
    "DEFAULT_STRING": N_("[default: {}]"),
    "ENVVAR_STRING": N_("[env var: {}]"),
    "REQUIRED_LONG_STRING": N_("[required]"),
    "DEPRECATED_STRING": N_("(deprecated) "),
}
USAGE = N_("Usage:")
OPTIONS_METAVAR = N_("[OPTIONS]")
SUBCOMMAND_METAVAR = N_("COMMAND [ARGS]...")
HELP_OPTION = N_("Show this message and exit.")


def prose(text: str) -> str:
    """A help text as one paragraph a line: the docstring's own wrapping undone, ``x`` as `x`.

    >>> prose('''Record dice: ``--lang en``
    ...     or `roll`.
    ...
    ...     A second paragraph.''')
    'Record dice: `--lang en` or `roll`.\\n\\nA second paragraph.'
    """
    text = inspect.cleandoc(text).partition("\f")[0]
    paragraphs = []
    for paragraph in text.replace("\b\n", "").split("\n\n"):
        lines = [line.strip() for line in paragraph.splitlines() if line.strip()]
        if any(line.startswith(("- ", "* ", "$ ")) for line in lines):
            paragraphs.append("\n".join(lines))  # a list or a transcript: line by line
        else:
            paragraphs.append(" ".join(lines))
    joined = "\n\n".join(p for p in paragraphs if p)
    return CODE.sub(lambda m: f"`{m.group(1) or m.group(2)}`", joined)


def shown(text: str) -> str:
    """A translated help text as rich markup: brackets kept as they are, `x` in bold."""
    text = text.replace("[", r"\[")
    return CODE.sub(lambda m: f"[bold]{m.group(2) or m.group(1)}[/bold]", text)


def filled() -> dict[str, str]:
    """What a help text may name by placeholder: the games, from the registry (which loads
    no game for it), so that a new game needs no new message."""
    from engine.games import names, tetragon

    return {"games": ", ".join(names()), "tetragon": ", ".join(tetragon())}


def say(text: str | None) -> str | None:
    """A help text of the source in the run's language, ready for typer's rich help."""
    if not text:
        return text
    said = gettext(prose(text))
    return shown(said % filled() if "%(" in said else said)


def translate(command: Any) -> None:
    """Say ``command``'s help, its parameters' and its subcommands' in the run's language."""
    _patch_click()
    _translate(command)


def _translate(command: Any) -> None:
    if getattr(command, "_help_said", None) == lang():
        return
    original = getattr(command, "_help_source", None)
    if original is None:
        texts = [getattr(p, "help", None) for p in command.params]
        original = (command.help, command.short_help, texts)
        command._help_source = original
    help, short, params = original
    command.help, command.short_help = say(help), say(short)
    for param, text in zip(command.params, params, strict=True):
        if text is not None:
            param.help = say(text)
        if param.param_type_name == "argument" and param.metavar is None:
            # as a usage error names it: BY (typer would write {by} here, BY there)
            param.metavar = param.name.upper() + ("..." if param.nargs != 1 else "")
    command.options_metavar = gettext(OPTIONS_METAVAR)
    if hasattr(command, "subcommand_metavar"):
        command.subcommand_metavar = gettext(SUBCOMMAND_METAVAR)
    command._help_said = lang()
    for sub in getattr(command, "commands", {}).values():
        _translate(sub)


def _rich_words() -> None:
    """typer's words (rich_utils' constants) in the run's language: only when help is drawn,
    as rich is imported only then."""
    from typer import rich_utils

    for name, text in TYPER_WORDS.items():
        setattr(rich_utils, name, gettext(text))


def _patch_click() -> None:
    """The texts typer's click writes as literals ("Usage: ", the help option's help) and
    typer's words said in the run's language: three of its methods wrapped, once."""
    from typer._click import core, formatting

    if getattr(core.Command.get_help_option, "_said", False):
        return
    get_help_option, get_help = core.Command.get_help_option, core.Command.get_help
    write_usage = formatting.HelpFormatter.write_usage

    def help_option(self: Any, ctx: Any) -> Any:
        option = get_help_option(self, ctx)
        if option is not None:
            option.help = gettext(HELP_OPTION)
        return option

    def help_page(self: Any, ctx: Any) -> str:
        _rich_words()
        return str(get_help(self, ctx))

    def usage(self: Any, prog: str, args: str = "", prefix: str | None = None) -> None:
        write_usage(self, prog, args, f"{gettext(USAGE)} " if prefix is None else prefix)

    help_option._said = True  # type: ignore[attr-defined]
    core.Command.get_help_option = help_option  # type: ignore[method-assign]
    core.Command.get_help = help_page  # type: ignore[method-assign]
    formatting.HelpFormatter.write_usage = usage  # type: ignore[method-assign]
