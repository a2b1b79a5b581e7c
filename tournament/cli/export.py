"""``tournament export ...``: printable HTML (A4) and CSV, JSON, Markdown files; says where."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from tournament.cli.common import app, fail, guarded, settings, store
from tournament.cli.words import said, t

export_app = typer.Typer(help="Printable sheets and files for posting.", no_args_is_help=True)
app.add_typer(export_app, name="export")

OUT = Annotated[Path, typer.Option("--out", help="The folder to write into.")]
LANG = Annotated[str | None, typer.Option("--lang", help="it or en (default: the tournament's).")]
TEMPLATES = Annotated[
    Path | None, typer.Option("--templates", help="A folder of templates that replace ours.")
]
PDF = Annotated[
    bool, typer.Option("--pdf", help="Also write each printable page as a PDF (WeasyPrint).")
]
FORMATS = Annotated[str, typer.Option("--format", help="html, csv, json, md (comma-separated).")]


def _printer(
    out: Path, lang: str | None, templates: Path | None, pdf: bool, create: bool = False
) -> Any:
    from tournament.services.printing import Printer

    if lang not in (None, "it", "en"):
        fail(t("printed material is in Italian (it) or English (en)"))
    if templates is not None and not templates.is_dir():
        fail(t("--templates %(folder)s is not a folder of templates", folder=templates))
    return Printer(store(create=create), out, lang, templates, settings().lexicon, pdf=pdf)


def _said(printer: Any) -> None:
    """Every file the printer wrote (the PDFs beside their HTML), then any PDF warning."""
    for p in printer.written:
        typer.echo(t("wrote %(file)s", file=p))
    _no_pdf(printer)


def _no_pdf(printer: Any) -> None:
    """One line on stderr when PDFs were asked for and could not be written."""
    if printer is not None and printer.pdf_missing:
        typer.echo(t("warning: %(why)s", why=said(printer.pdf_missing)), err=True)


def _formats(text: str) -> tuple[str, ...]:
    from tournament.cli.common import fail

    chosen = tuple(f.strip() for f in text.split(",") if f.strip())
    bad = [f for f in chosen if f not in ("html", "csv", "json", "md")]
    if bad or not chosen:
        fail(t("formats are html, csv, json and md, not %(text)r", text=text))
    return chosen


@export_app.command("sheet")
@guarded
def export_sheet(
    game: Annotated[str, typer.Argument(help="A game, or partita (a Tetragon partita).")],
    players: Annotated[int, typer.Option(help="How many players the sheet has rows for.")] = 2,
    out: OUT = Path("exports-out"),
    lang: LANG = None,
    templates: TEMPLATES = None,
    pdf: PDF = False,
) -> None:
    """A blank score sheet laid out for one game, one A4 page."""
    from exports.render import sheets
    from tournament.cli.common import fail

    if game not in sheets():
        fail(t("no sheet for %(game)r (sheets: %(sheets)s)", game=game, sheets=", ".join(sheets())))
    if not 2 <= players <= 10:
        fail(t("a sheet has rows for 2 to 10 players"))
    printer = _printer(out, lang or "it", templates, pdf, create=True)
    printer.blank_sheet(game, players)
    _said(printer)


@export_app.command("scoresheet")
@guarded
def export_scoresheet(
    match_id: Annotated[str, typer.Argument(metavar="MATCH")],
    out: OUT = Path("exports-out"),
    lang: LANG = None,
    templates: TEMPLATES = None,
    pdf: PDF = False,
) -> None:
    """The filled score sheet of a match (with its head hash as text and QR) and its report."""
    printer = _printer(out, lang, templates, pdf)
    printer.match_files(match_id)
    _said(printer)


@export_app.command("pairings")
@guarded
def export_pairings(
    round_number: Annotated[int | None, typer.Argument(metavar="[ROUND]")] = None,
    format: FORMATS = "html,csv,json,md",
    out: OUT = Path("exports-out"),
    lang: LANG = None,
    templates: TEMPLATES = None,
    pdf: PDF = False,
) -> None:
    """The pairings of a round (default: the last) for the wall, and to post."""
    printer = _printer(out, lang, templates, pdf)
    printer.pairings(round_number, _formats(format))
    _said(printer)


@export_app.command("standings")
@guarded
def export_standings(
    format: FORMATS = "html,csv,json,md",
    out: OUT = Path("exports-out"),
    lang: LANG = None,
    templates: TEMPLATES = None,
    pdf: PDF = False,
) -> None:
    """The standings with their tie-break columns."""
    printer = _printer(out, lang, templates, pdf)
    printer.standings(_formats(format))
    _said(printer)


@export_app.command("bracket")
@guarded
def export_bracket(
    out: OUT = Path("exports-out"),
    lang: LANG = None,
    templates: TEMPLATES = None,
    pdf: PDF = False,
) -> None:
    """A single-elimination bracket, drawn as SVG on one landscape page."""
    printer = _printer(out, lang, templates, pdf)
    printer.bracket()
    _said(printer)


@export_app.command("all")
@guarded
def export_all(
    out: OUT = Path("exports-out"),
    lang: LANG = None,
    templates: TEMPLATES = None,
    pdf: PDF = False,
) -> None:
    """Every output: blank sheets, pairings, standings, bracket, each match's sheet and report."""
    from tournament.cli.progress import bar, wanted

    printer = _printer(out, lang, templates, pdf)
    with bar(t("writing"), None, wanted(False)) as written:
        paths = printer.everything(written.done)
    typer.echo(t("wrote %(n)s files into %(folder)s", n=len(paths), folder=out.resolve()))
    _no_pdf(printer)
