"""Human output with rich: what a referee reads on the screen."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table


def show_match(info: dict[str, Any], console: Console | None = None) -> None:
    """Print ``summary()`` of a match for a person."""
    console = console or Console()
    players = ", ".join(info["players"])
    outside = f" (outside: {', '.join(info['outside'])})" if info["outside"] else ""
    console.print(f"[bold]{info['id']}[/bold] {info['title']}: {players}{outside}")
    console.print(f"{info['events']} events, head hash {info['head'] or '-'}", soft_wrap=True)
    if info.get("state"):
        console.print(f"state: {escape(info['state'])}", highlight=False, soft_wrap=True)
    if info["notes"]:
        table = Table("#", "player", "judged", "rule", show_edge=False)
        for n in info["notes"]:
            mark = "[green]ok[/green]" if n["ok"] else "[red]no[/red]"
            table.add_row(str(n["position"]), n["player"], f"{mark} {n['text']}", n["rule"])
        console.print(table)
    for o in info["out_reasons"]:
        console.print(f"out: {o['player']}: {o['reason']} ({o['rule']})")
    if info["voided"]:
        console.print(f"voided positions: {', '.join(map(str, info['voided']))}")
    if info["status"] == "finished":
        winners = ", ".join(info["winners"]) or "nobody (no point)"
        points = ", ".join(f"{p} {n}" for p, n in info["points"].items())
        console.print(f"[bold green]finished[/bold green]: winners {winners}; points {points}")
    else:
        for t in info["next"]:
            # escaped: rich would read "[roll]" as a style and print nothing of it (#11)
            console.print(
                f"next: [bold]{escape(t['player'])}[/bold]: {escape(t['expects'])} "
                f"{escape('[' + '/'.join(t['events']) + ']')} ({t['rule']})",
                highlight=False,
            )
