"""What the day's commands share: their common options and small readers of what was typed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

import typer

from tournament.cli.common import fail, store
from tournament.cli.words import t, tn

JSON = Annotated[bool, typer.Option("--json", help="Print JSON.")]
BY = Annotated[str, typer.Option("--by", help="Who records this (kept in the log).")]
REFEREE = Annotated[
    str | None,
    typer.Option("--referee", help="The referee's name (free text), printed on the score sheets."),
]


def csv(text: str | None) -> list[str]:
    return [x.strip() for x in text.split(",") if x.strip()] if text else []


def numbers(text: str | None, what: str) -> list[float]:
    try:
        return [float(x) for x in csv(text)]
    except ValueError:
        fail(t("%(what)s must be numbers separated by commas, not %(text)r", what=what, text=text))


def refresh(s: Any) -> None:
    from tournament.readside import readmodels

    readmodels.update(s)


def console() -> Any:
    from rich.console import Console

    return Console()


def query_rows(query: Callable[[Any], list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """Rows of a read-side query, the read models brought up to date first."""
    from tournament.readside import readmodels
    from tournament.services import day

    s = store()
    day.get_tournament(s)  # a clear message when there is none
    readmodels.update(s)
    return query(s)


def active_players(n: int) -> str:
    """``1 active player``, ``5 active players``."""
    return tn("%(n)s active player", "%(n)s active players", n, n=n)
