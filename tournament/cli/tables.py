"""The tables' commands: start a challenge at a table; check a table out to a table file, check
it in, release it (#26)."""

from __future__ import annotations

from typing import Annotated

import typer

from tournament.cli.common import app, guarded, settings, store
from tournament.cli.options import BY, REFEREE, refresh
from tournament.cli.words import t

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


@table_app.command("checkout")
@guarded
def table_checkout(
    round_number: Annotated[int, typer.Argument(metavar="ROUND", help="The round, e.g. 1.")],
    table: Annotated[int, typer.Argument(metavar="TABLE", help="The table, as paired.")],
    to: Annotated[str, typer.Option("--to", help="The new table file (SQLite), e.g. t7.db.")],
    by: BY = "organizer",
) -> None:
    """Check a table out to a table file, for a table with no network: its matches are recorded
    there (every usual command, with --db FILE) until `table checkin FILE`."""
    from tournament.services import tablefiles

    s = store()
    out = tablefiles.checkout(s, round_number, table, to, by)
    refresh(s)
    typer.echo(
        t(
            "Table %(table)s of round %(round)s is out: its matches %(matches)s are recorded "
            "in the table file %(file)s (tournament --db %(file)s ...).",
            table=out.table,
            round=out.round,
            matches=", ".join(f"{n} ({g})" for g, n in out.matches.items()),
            file=out.file,
        )
    )


@table_app.command("checkin")
@guarded
def table_checkin(
    file: Annotated[str, typer.Argument(metavar="FILE", help="The table file, e.g. t7.db.")],
    by: BY = "organizer",
) -> None:
    """Take back what a table file recorded: each match goes on as the file recorded it
    (its events, times and hashes), all or nothing."""
    from tournament.services import tablefiles

    s = store()
    done = tablefiles.checkin(s, file, by)
    refresh(s)
    for number, count in done.added.items():
        if number in done.new:
            typer.echo(t("%(match)s (started in the table file): %(count)s events taken in.",
                         match=number, count=count))  # fmt: skip
        else:
            typer.echo(t("%(match)s: %(count)s events taken in.", match=number, count=count))
    typer.echo(
        t(
            "Table %(table)s of round %(round)s is back in the tournament.",
            table=done.table,
            round=done.round,
        )
    )
    if not done.file_closed:
        typer.echo(t("The table file could not be marked as checked in: do not record in it "
                     "any more."), err=True)  # fmt: skip


@table_app.command("release")
@guarded
def table_release(
    round_number: Annotated[int, typer.Argument(metavar="ROUND", help="The round, e.g. 1.")],
    table: Annotated[int, typer.Argument(metavar="TABLE", help="The table, as paired.")],
    reason: Annotated[str, typer.Option("--reason", help="Why (kept in the log).")] = "",
    by: BY = "organizer",
) -> None:
    """Take a table back without its table file (what the file recorded is not taken in)."""
    from tournament.services import tablefiles

    s = store()
    tablefiles.release(s, round_number, table, reason, by)
    refresh(s)
    typer.echo(
        t(
            "Table %(table)s of round %(round)s is back in the tournament; its table file is "
            "not taken in.",
            table=table,
            round=round_number,
        )
    )
