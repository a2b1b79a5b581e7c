"""``tournament export ...``: printable HTML (A4) and CSV, JSON, Markdown files; says where."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from tournament.cli.common import app, fail, guarded, settings, store

export_app = typer.Typer(help="Printable sheets and files for posting.", no_args_is_help=True)
app.add_typer(export_app, name="export")

OUT = Annotated[Path, typer.Option("--out", help="The folder to write into.")]
LANG = Annotated[str | None, typer.Option("--lang", help="it or en (default: the tournament's).")]
TEMPLATES = Annotated[
    Path | None, typer.Option("--templates", help="A folder of templates that replace ours.")
]
FORMATS = Annotated[str, typer.Option("--format", help="html, csv, json, md (comma-separated).")]


def _printer(out: Path, lang: str | None, templates: Path | None, create: bool = False) -> Any:
    from tournament.printing import Printer

    if lang not in (None, "it", "en"):
        fail("printed material is in Italian (it) or English (en)")
    if templates is not None and not templates.is_dir():
        fail(f"--templates {templates} is not a folder of templates")
    return Printer(store(create=create), out, lang, templates, settings().lexicon)


def _said(paths: list[Path]) -> None:
    for p in paths:
        typer.echo(f"wrote {p}")


def _formats(text: str) -> tuple[str, ...]:
    from tournament.cli.common import fail

    chosen = tuple(f.strip() for f in text.split(",") if f.strip())
    bad = [f for f in chosen if f not in ("html", "csv", "json", "md")]
    if bad or not chosen:
        fail(f"formats are html, csv, json and md, not {text!r}")
    return chosen


@export_app.command("sheet")
@guarded
def export_sheet(
    game: Annotated[str, typer.Argument(help="A game, or partita (a Tetragon partita).")],
    players: Annotated[int, typer.Option(help="How many players the sheet has rows for.")] = 2,
    out: OUT = Path("exports-out"),
    lang: LANG = None,
    templates: TEMPLATES = None,
) -> None:
    """A blank score sheet laid out for one game, one A4 page."""
    from exports.render import GAMES_WITH_SHEETS
    from tournament.cli.common import fail

    if game not in GAMES_WITH_SHEETS:
        fail(f"no sheet for {game!r} (sheets: {', '.join(GAMES_WITH_SHEETS)})")
    if not 2 <= players <= 10:
        fail("a sheet has rows for 2 to 10 players")
    printer = _printer(out, lang or "it", templates, create=True)
    _said([printer.blank_sheet(game, players)])


@export_app.command("scoresheet")
@guarded
def export_scoresheet(
    match_id: Annotated[str, typer.Argument(metavar="MATCH")],
    out: OUT = Path("exports-out"),
    lang: LANG = None,
    templates: TEMPLATES = None,
) -> None:
    """The filled score sheet of a match (with its head hash as text and QR) and its report."""
    _said(_printer(out, lang, templates).match_files(match_id))


@export_app.command("pairings")
@guarded
def export_pairings(
    round_number: Annotated[int | None, typer.Argument(metavar="[ROUND]")] = None,
    format: FORMATS = "html,csv,json,md",
    out: OUT = Path("exports-out"),
    lang: LANG = None,
    templates: TEMPLATES = None,
) -> None:
    """The pairings of a round (default: the last) for the wall, and to post."""
    _said(_printer(out, lang, templates).pairings(round_number, _formats(format)))


@export_app.command("standings")
@guarded
def export_standings(
    format: FORMATS = "html,csv,json,md",
    out: OUT = Path("exports-out"),
    lang: LANG = None,
    templates: TEMPLATES = None,
) -> None:
    """The standings with their tie-break columns."""
    _said(_printer(out, lang, templates).standings(_formats(format)))


@export_app.command("bracket")
@guarded
def export_bracket(
    out: OUT = Path("exports-out"),
    lang: LANG = None,
    templates: TEMPLATES = None,
) -> None:
    """A single-elimination bracket, drawn as SVG on one landscape page."""
    _said([_printer(out, lang, templates).bracket()])


@export_app.command("all")
@guarded
def export_all(
    out: OUT = Path("exports-out"),
    lang: LANG = None,
    templates: TEMPLATES = None,
) -> None:
    """Every output: blank sheets, pairings, standings, bracket, each match's sheet and report."""
    paths = _printer(out, lang, templates).everything()
    typer.echo(f"wrote {len(paths)} files into {out.resolve()}")
