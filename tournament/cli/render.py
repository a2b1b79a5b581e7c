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
    outside = f" (outside: {joined(info['outside'])})" if info["outside"] else ""
    console.print(f"[bold]{info['id']}[/bold] {info['title']}: {players}{outside}")
    console.print(f"{info['events']} events, head hash {info['head'] or '-'}", soft_wrap=True)
    if info.get("state"):
        console.print(f"state: {escape(info['state'])}", highlight=False, soft_wrap=True)
    if info["notes"]:
        table = Table("#", "player", "judged", "rule", show_edge=False)
        for n in info["notes"]:
            mark = "[green]ok[/green]" if n["ok"] else "[red]no[/red]"
            table.add_row(str(n["position"]), cell(n["player"]), f"{mark} {n['text']}", n["rule"])
        console.print(table)
    for o in info["out_reasons"]:
        console.print(f"out: {cell(o['player'])}: {o['reason']} ({o['rule']})")
    if info["voided"]:
        console.print(f"voided positions: {', '.join(map(str, info['voided']))}")
    if info["status"] == "finished":
        winners = joined(info["winners"]) or "nobody (no point)"
        points = ", ".join(f"{cell(p)} {n}" for p, n in info["points"].items())
        console.print(f"[bold green]finished[/bold green]: winners {winners}; points {points}")
    else:
        for t in info["next"]:
            # escaped: rich would read "[roll]" as a style and print nothing of it (#11)
            console.print(
                f"next: [bold]{cell(t['player'])}[/bold]: {escape(t['expects'])} "
                f"{escape('[' + '/'.join(t['events']) + ']')} ({t['rule']})",
                highlight=False,
            )
