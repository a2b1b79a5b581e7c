"""Human output with rich: what a referee reads on the screen.

A name (or any text a user typed and the store kept) is written with :func:`cell` in a rich
table or line, with :func:`echo` in a plain line: a control character in it (an ANSI escape
that would repaint the terminal, a bidi override) is written as its escape, ``\\x1b``, never
as itself (#29). Names stored by earlier versions may hold anything.
"""

from __future__ import annotations

from typing import Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from engine.message import msg
from tournament.cli.words import said, t
from tournament.domain.names import hidden

__all__ = ["Table", "cell", "echo", "joined", "show_match", "visible"]  # Table: rich's, for day


def visible(text: str) -> str:
    """``text`` with every control or invisible character written as its Python escape.

    >>> visible("Gi\\x1b[2Jallo \\u202eBlu")
    'Gi\\\\x1b[2Jallo \\\\u202eBlu'
    """
    if text.isprintable():  # the common case (a space is printable; a control never is)
        return text
    return "".join(_escaped(c) if hidden(c) else c for c in text)


def _escaped(c: str) -> str:
    n = ord(c)
    return f"\\x{n:02x}" if n < 0x100 else f"\\u{n:04x}" if n < 0x10000 else f"\\U{n:08x}"


def cell(text: str) -> str:
    """A stored text in rich's markup: visible (see :func:`visible`), its brackets literal."""
    return escape(visible(text))


def joined(players: Any, sep: str = ", ") -> str:
    """Names joined for rich's markup, each made visible."""
    return sep.join(cell(p) for p in players)


def echo(line: str, err: bool = False) -> None:
    """A plain line holding stored text: its control characters visible."""
    typer.echo(visible(line), err=err)


def show_match(info: dict[str, Any], console: Console | None = None) -> None:
    """Print ``summary()`` of a match for a person."""
    console = console or Console()
    players = joined(info["players"])
    outside = t(" (outside: %(players)s)", players=joined(info["outside"]))
    outside = outside if info["outside"] else ""
    console.print(f"[bold]{info['id']}[/bold] {info['title']}: {players}{outside}")
    console.print(
        t("%(n)s events, head hash %(head)s", n=info["events"], head=info["head"] or "-"),
        soft_wrap=True,
    )
    if info.get("state"):
        state = said(msg("state: %(state)s", state=info["state"]))
        console.print(escape(state), highlight=False, soft_wrap=True)
    if info["notes"]:
        table = Table("#", t("player"), t("judged"), t("rule"), show_edge=False)
        for n in info["notes"]:
            mark = f"[green]{t('ok')}[/green]" if n["ok"] else f"[red]{t('no')}[/red]"
            text = escape(said(n["text"]))
            table.add_row(str(n["position"]), cell(n["player"]), f"{mark} {text}", n["rule"])
        console.print(table)
    for o in info["out_reasons"]:
        reason = escape(said(o["reason"]))
        console.print(
            t("out: %(player)s: %(reason)s", player=cell(o["player"]), reason=reason)
            + f" ({o['rule']})"
        )
    if info["voided"]:
        console.print(
            t("voided positions: %(positions)s", positions=", ".join(map(str, info["voided"])))
        )
    if info["status"] == "finished":
        winners = joined(info["winners"]) or t("nobody (no point)")
        points = ", ".join(f"{cell(p)} {n}" for p, n in info["points"].items())
        said_points = t("winners %(winners)s; points %(points)s", winners=winners, points=points)
        console.print(f"[bold green]{t('finished')}[/bold green]: {said_points}")
    else:
        for turn in info["next"]:
            # escaped: rich would read "[roll]" as a style and print nothing of it (#11)
            events = escape("[" + "/".join(turn["events"]) + "]")
            line = t(
                "next: %(player)s: %(expects)s %(events)s",
                player=f"[bold]{cell(turn['player'])}[/bold]",
                expects=escape(said(turn["expects"])),
                events=events,
            )
            console.print(f"{line} ({turn['rule']})", highlight=False)
