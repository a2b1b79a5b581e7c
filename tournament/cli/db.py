"""``tournament db``: move a tournament between stores, keep a server's read models live."""

from __future__ import annotations

from typing import Annotated

import typer

from tournament.cli.common import app, fail, guarded, print_json, settings, store
from tournament.cli.words import said, t, tn

db_app = typer.Typer(help="Copy a tournament between stores (SQLite, PostgreSQL).",
                     no_args_is_help=True)  # fmt: skip
app.add_typer(db_app, name="db")


@db_app.command("copy")
@guarded
def copy(
    source: Annotated[str, typer.Argument(help="A file, or a postgresql:// URL.")],
    target: Annotated[str, typer.Argument(help="A new file, or an empty database or schema.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Copy a whole tournament (every match, the tournament's events, their hash chains) into
    an empty store, then compare and verify the copy before saying done."""
    from engine.header import Header
    from engine.lexicon import Lexicon
    from tournament.services.copy import copy as copy_store
    from tournament.services.matches import lexicon_for

    lexicon = settings().lexicon

    def words(header: Header) -> Lexicon:
        return lexicon_for(header, lexicon)

    result = copy_store(
        source, target, words, None if as_json else lambda line: typer.echo(said(line))
    )
    if as_json:
        print_json(result.to_json())
    if result.failures:
        for failure in result.failures:
            typer.echo(t("FAILED %(what)s", what=said(failure)), err=True)
        fail(t("the copy in %(target)s did not verify, and was taken away", target=result.target))
    if not as_json:
        if result.tournament:
            n = result.matches
            held = tn("%(n)s match and the tournament", "%(n)s matches and the tournament", n, n=n)
        else:
            held = tn("%(n)s match", "%(n)s matches", result.matches, n=result.matches)
        typer.echo(
            tn(
                "copied %(n)s event (%(held)s) from %(source)s to %(target)s: every row "
                "identical, every hash chain intact and every replay agrees",
                "copied %(n)s events (%(held)s) from %(source)s to %(target)s: every row "
                "identical, every hash chain intact and every replay agrees",
                result.events,
                n=result.events,
                held=held,
                source=result.source,
                target=result.target,
            )
        )


@db_app.command("follow")
@guarded
def follow(
    seconds: Annotated[
        float | None, typer.Option(help="Stop after this many seconds (default: never).")
    ] = None,
) -> None:
    """Keep the read models of a PostgreSQL store live: apply each event as it is stored
    (LISTEN/NOTIFY), for the organizer's SQL tools."""
    from tournament.services.stores import follow as follow_server
    from tournament.services.stores import locate

    if not locate(settings().db).is_server:
        fail(
            t(
                "db follow keeps a PostgreSQL server's read models live; a file's are kept by "
                "the commands that write it"
            )
        )
    s = store()
    for progress in follow_server(s, seconds):
        typer.echo(t("read models: %(events)s new events applied", events=progress.events))
