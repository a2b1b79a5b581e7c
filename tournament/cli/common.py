"""What every command shares: the app, the global options, errors as one sentence."""

from __future__ import annotations

import functools
import json
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, NoReturn, TypeVar

import click
import typer

app = typer.Typer(
    help="Club tournaments of Tetragon, La Roulette Alphatiana and La parola nascosta.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class Settings:
    db: str  # a file path or a postgresql:// URL (tournament.persistence.locate)
    lexicon: str | None


@app.callback()
def options(
    db: Annotated[
        str,
        typer.Option(
            "--db",
            envvar="TOURNAMENT_DB",
            help="The tournament's SQLite file, or a postgresql://user:password@host/name URL.",
        ),
    ] = "tournament.db",
    lexicon: Annotated[
        str | None,
        typer.Option(
            "--lexicon",
            envvar="TOURNAMENT_LEXICON",
            help="An organizer's word list (.marisa, or text with one word a line).",
        ),
    ] = None,
) -> None:
    global _settings
    _settings = Settings(db, lexicon)


def fail(message: str) -> NoReturn:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(1)


def guarded(fn: F) -> F:
    """Turn every error a user can cause into one sentence on stderr and exit 1."""

    @functools.wraps(fn)
    def run(*args: Any, **kwargs: Any) -> Any:
        from eventsourcing.persistence import PersistenceError

        from engine.errors import RuleViolation
        from engine.lexicon import LexiconError
        from tournament.matches import Refused
        from tournament.matchlog import LogError
        from tournament.store import StoreError

        try:
            return fn(*args, **kwargs)
        except (Refused, LogError, StoreError, LexiconError) as e:
            fail(str(e))
        except RuleViolation as e:
            fail(str(e))
        except (sqlite3.Error, PersistenceError) as e:
            fail(f"the database cannot be used: {e}")
        except OSError as e:
            fail(f"{e.strerror}: {e.filename}" if e.filename else str(e))

    return run  # type: ignore[return-value]


_settings = Settings("tournament.db", None)


def settings() -> Settings:
    """The global options of this call (set by the callback before any command runs)."""
    return _settings


def store(create: bool = False) -> Any:
    """The event store of ``--db``; reading commands refuse a database that does not exist."""
    from tournament.persistence import SqliteFile, locate
    from tournament.store import Store

    where = locate(settings().db)
    if not create and not where.exists():
        fail(f"there is no database at {where} (import or create a match first, or pass --db)")
    if isinstance(where, SqliteFile) and where.path.is_dir():
        fail(f"{where} is a folder, not a database file")
    from tournament.persistence import close

    s = Store(where)
    context = click.get_current_context(silent=True)
    if context is not None:
        context.call_on_close(lambda: close(s))  # a server's connections, given back
    return s


def read_text(path: Path) -> str:
    """A file the user named, as UTF-8 text (a wrong file is one sentence, not a traceback)."""
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        fail(f"{path} is not UTF-8 text")


def print_json(obj: Any) -> None:
    typer.echo(json.dumps(obj, ensure_ascii=False, indent=2))
