"""The tables' commands: start a challenge at a table."""

from __future__ import annotations

from typing import Annotated

import typer

from tournament.cli.common import app, guarded, settings, store
from tournament.cli.options import BY, REFEREE, refresh

table_app = typer.Typer(help="The matches of a table.", no_args_is_help=True)
app.add_typer(table_app, name="table")


@table_app.command("start")
@guarded
def table_start(
    round_number: Annotated[int, typer.Argument(metavar="ROUND", help="The round, e.g. 1.")],
    table: Annotated[int, typer.Argument(metavar="TABLE", help="The table, as paired.")],
    game: Annotated[
        str, typer.Argument(help="The challenge to start, one the table plays: %(games)s.")
    ],
    outside: Annotated[
        list[str] | None,
        typer.Option(
            "--outside",
            "-o",
            help="A registered player outside the challenge who rolls for it (repeatable).",
        ),
    ] = None,
    referee: REFEREE = None,
    by: BY = "organizer",
) -> None:
    """Create the match of one challenge of a table; print its id (then record as usual)."""
    from tournament.services import play

    s = store()
    lexicon = settings().lexicon
    match = play.start_challenge(
        s, round_number, table, game, outside or (), by=by, referee=referee, lexicon=lexicon
    )
    refresh(s)
    typer.echo(match.number)
