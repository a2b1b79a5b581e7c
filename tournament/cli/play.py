"""``tournament play``: the live referee console (see :mod:`tournament.cli.console`)."""

from __future__ import annotations

import os
import select
import sys
import time
from typing import Annotated

import typer

from tournament.cli.common import app, fail, guarded, settings, store, tournament_lang
from tournament.cli.words import given, t


def tty_read_line(prompt: str, seconds: float | None, hidden: bool) -> str | None:
    """Read a line with a live countdown in front of the prompt; None when time runs out.

    The terminal is put in cbreak mode so that the clock can tick while the referee types;
    a hidden line (a sealed word) shows stars.
    """
    import termios
    import tty

    fd = sys.stdin.fileno()
    old = termios.tcgetattr(fd)
    tty.setcbreak(fd)
    typed = b""
    deadline = None if seconds is None else time.monotonic() + seconds
    try:
        while True:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            text = typed.decode("utf-8", errors="ignore")
            shown = "*" * len(text) if hidden else text
            clock = "" if left is None else f"[{int(left + 0.999):>3}s] "
            sys.stdout.write(f"\r\x1b[K{clock}{prompt}{shown}")
            sys.stdout.flush()
            if left == 0.0:
                sys.stdout.write("\n")
                return None
            ready, _, _ = select.select([fd], [], [], 1.0 if left is None else min(1.0, left))
            if not ready:
                continue
            byte = os.read(fd, 1)
            if byte in (b"\n", b"\r"):
                sys.stdout.write("\n")
                return typed.decode("utf-8", errors="replace")
            if byte in (b"\x7f", b"\x08"):
                typed = typed[:-1]
                while typed and (typed[-1] & 0xC0) == 0x80:  # a whole UTF-8 character
                    typed = typed[:-1]
            elif byte == b"\x03":
                raise KeyboardInterrupt
            elif byte == b"\x04" and not typed:
                sys.stdout.write("\n")
                return "quit"
            elif byte >= b" ":
                typed += byte
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, old)


def plain_read_line(prompt: str, seconds: float | None, hidden: bool) -> str | None:
    """Without a terminal (a script feeding moves): no clock, no echo to hide."""
    line = sys.stdin.readline()
    return line.rstrip("\n") if line else "quit"


@app.command("play")
@guarded
def play(
    match_id: Annotated[str, typer.Argument(metavar="MATCH")],
    digital: Annotated[bool, typer.Option(help="Roll the program's auditable dice.")] = False,
    beginner: Annotated[bool, typer.Option(help="La catena: 120 seconds a turn (CH-4).")] = False,
    timers: Annotated[bool, typer.Option(help="Turn timers (CH-4).")] = True,
    lang: Annotated[
        str | None,
        typer.Option("--lang", help="it or en (default: the tournament's)."),
    ] = None,
) -> None:
    """The referee's console: the game, who acts, what is legal; one short line a move.

    It speaks the language `play --lang` or `tournament --lang` names, else the tournament's
    (Italian unless it was created with `--lang en`; a match outside a tournament: Italian).
    Moves are typed in the notation, the same in both languages.
    """
    from rich.console import Console as Screen
    from rich.panel import Panel
    from rich.text import Text

    from exports.i18n import LANGS, say
    from tournament.cli.console import SAVED, Console

    if lang is not None and lang not in LANGS:
        fail(t("the console speaks Italian (it) or English (en), not %(lang)r", lang=lang))

    screen = Screen(highlight=False)

    def panel(title: str, lines: list[str]) -> None:
        screen.print(Panel(Text("\n".join(lines)), title=Text(title), title_align="left"))

    s = store()
    read = tty_read_line if sys.stdin.isatty() else plain_read_line
    number = s.get_match(match_id).number
    lang = lang or given() or tournament_lang(s) or "it"
    console = Console(
        s,
        number,
        read,
        typer.echo,
        settings().lexicon,
        digital,
        beginner,
        timers,
        panel=panel if sys.stdout.isatty() else None,
        lang=lang,
    )
    try:
        console.run()
    except KeyboardInterrupt:
        typer.echo("\n" + say(SAVED, lang))
