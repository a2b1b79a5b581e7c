"""``tournament serve``: the tournament on the web (public pages, referees' tables, organizer)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from tournament.cli.common import app, fail, guarded, settings

LOCAL = ("127.0.0.1", "localhost", "::1")


@app.command("serve")
@guarded
def serve(
    host: Annotated[str, typer.Option(help="Where to listen (127.0.0.1: this machine only).")] = (
        "127.0.0.1"
    ),
    port: Annotated[int, typer.Option(help="The TCP port.")] = 8000,
    organizer_passphrase: Annotated[
        str | None,
        typer.Option(
            "--organizer-passphrase",
            envvar="TOURNAMENT_ORGANIZER_PASSPHRASE",
            help="The organizer's passphrase (default: a new one, printed once).",
        ),
    ] = None,
    season: Annotated[
        Path | None,
        typer.Option(
            help="The season file (TOML) naming this tournament: each player's page shows "
            "their season chart."
        ),
    ] = None,
) -> None:
    """Serve the tournament on the web: live public pages, the referees' table pages (private
    links on QR cards) and the organizer's pages behind a passphrase."""
    import os
    import secrets

    from tournament.services.stores import SqliteFile, holds_store, is_url, locate

    if is_url(str(settings().db)):
        # A server's threads each take a connection of the store's pool (a command needs one).
        os.environ.setdefault("POSTGRES_POOL_SIZE", "4")
        os.environ.setdefault("POSTGRES_MAX_OVERFLOW", "16")
    path = locate(settings().db)
    if isinstance(path, SqliteFile) and path.path.is_dir():
        fail(f"{path} is a folder, not a database file")
    if not holds_store(path):
        fail(f"there is no database at {path} (create a tournament first, or pass --db)")
    if season is not None:
        season = season_of(season, path)
    if not 1 <= port <= 65535:
        fail(f"{port} is not a TCP port")
    passphrase = organizer_passphrase or secrets.token_urlsafe(12)
    if len(passphrase) < 8:
        fail("the organizer's passphrase needs at least 8 characters")
    import uvicorn

    from tournament.web.app import Settings, create_app

    web = create_app(
        Settings(db=path, passphrase=passphrase, lexicon=settings().lexicon, season=season)
    )
    if host not in LOCAL:
        typer.echo(
            f"warning: listening on {host}: anyone on that network can open the public pages; "
            "put it behind HTTPS before the organizer logs in from elsewhere",
            err=True,
        )
    typer.echo(f"serving {path} on http://{host}:{port}/ (Ctrl-C stops)", err=True)
    if organizer_passphrase is None:
        typer.echo(f"organizer's passphrase (shown once): {passphrase}", err=True)
    uvicorn.run(web, host=host, port=port, log_level="warning", access_log=False)


def season_of(file: Path, where: Any) -> Path:
    """The season file, once it is known to name the served tournament (one sentence if not)."""
    from tournament.season.config import load_season
    from tournament.services.stores import SqliteFile

    found = load_season(file)  # a mistake in it: its own sentence
    if not isinstance(where, SqliteFile) or where.path.resolve() not in found.sources:
        fail(f"the season {file} does not name the tournament at {where}")
    return file.resolve()
