"""The rounds' commands: pair, close and show a round; a table's partita."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from tournament.cli.common import app, fail, guarded, print_json, store
from tournament.cli.options import BY, JSON, console, refresh
from tournament.cli.words import lang, t

round_app = typer.Typer(help="Pair and close rounds.", no_args_is_help=True)
app.add_typer(round_app, name="round")


def _show_round(stored: dict[str, Any], as_json: bool, tournament: Any = None) -> None:
    """A round's pairings: ``--json`` prints the round as stored (its documented shape); a
    round of a bracket (of ``tournament``) says its name (#24)."""
    if as_json:
        print_json(stored)
        return
    from exports.wording import pairing_reason
    from tournament.cli.render import Table, cell, joined
    from tournament.domain import knockouts, views

    r = views.round_of(stored)
    title = t("Round %(n)s", n=r.number)
    named = knockouts.round_name(tournament, r.number) if tournament is not None else None
    if named is not None:
        from exports.bracket import round_name

        title += f": {round_name(*named, lang())}"
    table = Table(t("table"), t("players"), t("why"), title=title)
    for tb, as_stored in zip(r.tables, stored["tables"], strict=True):
        bye = t(" (bye)")
        players = joined(tb.players, " - ") + (bye if tb.bye else "")
        table.add_row(str(tb.number), players, cell(pairing_reason(as_stored, lang())))
    console().print(table)


@round_app.command("pair")
@guarded
def round_pair(by: BY = "organizer", as_json: JSON = False) -> None:
    """Pair the next round and show the pairings and why."""
    from tournament.readside import readmodels
    from tournament.services import day

    s = store()
    readmodels.update(s, write=True)
    r = day.pair_next_round(s, by=by)
    refresh(s)
    missing = day.unpaired(day.get_tournament(s), r["number"])  # not checked in (#24)
    if as_json:
        print_json({**r, "missing": missing} if missing else r)
        return
    _show_round(r, as_json, day.get_tournament(s))
    if missing:
        typer.echo(t("Not checked in, not paired: %(players)s.", players=", ".join(missing)))


@round_app.command("close")
@guarded
def round_close(by: BY = "organizer", as_json: JSON = False) -> None:
    """Close the current round once every table is decided."""
    from tournament.readside import readmodels
    from tournament.services import day

    s = store()
    readmodels.update(s, write=True)
    from tournament.domain import views

    number = views.round_of(day.close_round(s, by=by)).number
    refresh(s)
    if as_json:
        print_json({"round": number, "closed": True})
    else:
        typer.echo(t("round %(round)s closed", round=number))


@round_app.command("show")
@guarded
def round_show(
    number: Annotated[int | None, typer.Argument(help="The round (default: the last).")] = None,
    as_json: JSON = False,
) -> None:
    """The pairings of a round."""
    from tournament.domain import views
    from tournament.services import day

    tournament = day.get_tournament(store())
    last = views.last_round(tournament)
    if last is None:
        fail(t("no round has been paired yet"))
    n = last.number if number is None else number  # round 0 is no round, not the last
    if not 1 <= n <= last.number:
        fail(t("there is no round %(n)s (rounds 1 to %(last)s)", n=n, last=last.number))
    _show_round(tournament.rounds[n - 1], as_json, tournament)  # as stored, for --json


@app.command("partita")
@guarded
def partita(
    round_number: Annotated[int, typer.Argument(metavar="ROUND", help="The round, e.g. 1.")],
    table: Annotated[int, typer.Argument(metavar="TABLE", help="The table, as paired.")],
    games: Annotated[
        list[str], typer.Argument(help="The four different games chosen (CH-3): %(tetragon)s.")
    ],
    by: BY = "organizer",
    as_json: JSON = False,
) -> None:
    """Record the four games a table's partita plays."""
    from tournament.services import tables

    s = store()
    tables.choose_partita(s, round_number, table, games, by=by)
    refresh(s)
    if as_json:
        print_json({"round": round_number, "table": table, "games": games})
    else:
        typer.echo(
            t(
                "round %(round)s, table %(table)s: %(games)s",
                round=round_number,
                table=table,
                games=", ".join(games),
            )
        )
