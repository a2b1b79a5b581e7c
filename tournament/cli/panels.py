"""``tournament --help`` in the order an organizer works: the day, recording, reading, printing,
disputes (typer's rich help panels, #11), titled in the run's language.

The commands are registered module by module (and a recording call registers only its own
group, see :func:`tournament.cli.main`), so the order is set here, once, when help or a command
is looked up: each command gets its panel, and the root lists them panel by panel.
"""

from __future__ import annotations

from typing import Any

from exports.i18n import N_

PANELS: dict[str, list[str]] = {
    N_("The day"): ["create", "players", "round", "partita", "table", "status", "standings"],
    N_("Recording at the table"): ["play", "match"],
    N_("Reading and trying"): ["words", "solve", "season", "simulate", "demo", "rebuild"],
    N_("Printing"): ["export"],
    N_("Disputes"): ["audit", "verify", "amend"],
}
# Within `match`: recording first, the referee's corrections, then reading and moving logs.
MATCH_PANELS: dict[str, list[str]] = {
    N_("Referee"): ["rule", "void"],
    N_("Reading and moving logs"): ["show", "list", "export", "import"],
}
RECORDING = None  # typer's first panel, "Commands": the recording verbs come first
OTHER = N_("Other")
_RANK = {name: rank for rank, name in enumerate(n for names in PANELS.values() for n in names)}


def _panel_of(name: str, panels: dict[str, list[str]], default: str | None) -> str | None:
    return next((panel for panel, names in panels.items() if name in names), default)


def arrange(root: Any) -> None:
    """Give every command of the root, and of ``match``, its help panel."""
    from tournament.cli.words import gettext

    for name, command in root.commands.items():
        command.rich_help_panel = gettext(_panel_of(name, PANELS, OTHER) or OTHER)
    match = root.commands.get("match")
    for name, command in getattr(match, "commands", {}).items():
        panel = _panel_of(name, MATCH_PANELS, RECORDING)
        command.rich_help_panel = gettext(panel) if panel else None


def ordered(names: list[str]) -> list[str]:
    """The root's commands in the organizer's order (anything newer last, as registered).

    >>> ordered(["verify", "export", "create", "serve"])
    ['create', 'export', 'verify', 'serve']
    """
    return sorted(names, key=lambda n: _RANK.get(n, len(_RANK)))
