"""Tournaments the computer's players play: `simulate` (a whole tournament from a seed) and
`demo` (a small club tournament, the rules' examples and every printable sheet)."""

from __future__ import annotations

from typing import Annotated

import typer

from tournament.cli.common import app, fail, guarded, print_json, settings
from tournament.cli.day import show_standings
from tournament.cli.options import JSON, console
from tournament.cli.words import said, t


@app.command("simulate")
@guarded
def simulate(
    players: Annotated[int, typer.Option(help="How many players.")] = 8,
    format: Annotated[str, typer.Option(help="swiss, round_robin, elimination, pods.")] = "swiss",
    rounds: Annotated[int, typer.Option(help="Rounds of a Swiss or pods tournament.")] = 3,
    plays: Annotated[str, typer.Option(help="partita or one game: %(games)s.")] = "partita",
    seed: Annotated[int, typer.Option(help="Same seed, same tournament.")] = 1,
    third_place: Annotated[bool, typer.Option(help="A bracket plays for third place.")] = False,
    cut: Annotated[
        int | None, typer.Option(help="Swiss: then the top N play a single elimination.")
    ] = None,
    knockout_draw: Annotated[
        str, typer.Option(help="A drawn knockout table: replay or seed.")
    ] = "replay",
    as_json: JSON = False,
) -> None:
    """Simulate a whole tournament with computer players, into a database without one."""
    from tournament.readside import queries, readmodels
    from tournament.services import simulate as sim

    if players < 2:
        fail(t("a tournament needs at least two players, not %(n)s", n=players))
    from tournament.cli.progress import bar, wanted
    from tournament.services.stores import close, locate

    where = locate(settings().db)
    # The rounds to play: a round robin's every opponent once, a bracket's halvings (#11).
    total = {
        "round_robin": players - 1 + players % 2,
        "elimination": (players - 1).bit_length(),
    }.get(format, rounds) + ((cut or 1) - 1).bit_length()
    with bar(t("simulating"), total, wanted(as_json)) as advance:  # quiet when piped (#11)
        game = sim.Simulation(players, format, rounds, plays, seed, progress=advance)
        game.knockout = {"third_place": third_place, "cut": cut, "knockout_draw": knockout_draw}
        s = sim.run_whole(where, game, settings().lexicon)  # whole or not at all (#28)
    try:
        readmodels.update(s)
        rows = queries.standings(s)
    finally:
        close(s)  # a server's connections, given back
    if as_json:
        print_json(rows)
    else:
        show_standings(rows, t("Standings after the simulation"))


@app.command("demo")
@guarded
def demo(
    as_json: JSON = False,
    pdf: Annotated[
        bool, typer.Option("--pdf/--no-pdf", help="Write each printable page as PDF too.")
    ] = True,
) -> None:
    """A small club tournament and the examples of the rules, in a fresh database; its
    printable sheets are written beside it (HTML, and PDF with WeasyPrint)."""
    from tournament.cli.progress import bar, wanted
    from tournament.readside import queries
    from tournament.services.demo import NAME, build_demo
    from tournament.services.printing import Printer
    from tournament.services.stores import locate

    where = locate(settings().db)
    with bar(t("building the demo"), None, wanted(as_json)) as built:
        s = build_demo(where, built.done)
    out = where.exports_folder()
    printer = Printer(s, out, pdf=pdf)
    with bar(t("writing its sheets"), None, wanted(as_json)) as printed:
        written = printer.everything(printed.done)
    if printer.pdf_missing:
        typer.echo(t("warning: %(why)s", why=said(printer.pdf_missing)), err=True)
    rows = queries.standings(s)
    examples = [
        {k: m[k] for k in ("id", "game", "players", "status", "winners")}
        for m in queries.matches(s, outside_rounds=True)
    ]
    if as_json:
        print_json(
            {
                "standings": rows,
                "examples": examples,
                "database": where.full_name(),
                "exports": [str(p) for p in written],
            }
        )
        return
    show_standings(rows, t("%(name)s: Swiss, 3 rounds of Tetragon partite", name=NAME))
    from rich.table import Table

    table = Table("id", t("game"), t("players"), t("winners"), title=t("The examples of the rules"))
    for m in examples:
        table.add_row(
            m["id"],
            m["game"],
            ", ".join(m["players"]),
            ", ".join(m["winners"] or []) or t("nobody")
            if m["status"] == "finished"
            else t("(a turn, in play)"),
        )
    console().print(table)
    console().print(t("Demo database: %(where)s", where=where.full_name()))
    console().print(t("Printable sheets and files (%(n)s): %(out)s", n=len(written), out=out))
    console().print(t("Try: tournament status, tournament round show 1, tournament match show M1"))
