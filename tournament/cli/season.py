"""``tournament season ...``: standings, ratings, audit and printing across a season's
tournaments, each recomputed from the tournaments' logs (read-only) on every call."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from engine.message import msg
from tournament.cli.common import app, guarded, print_json
from tournament.cli.words import said, t

season_app = typer.Typer(
    help="A club season: standings and ratings across tournaments.", no_args_is_help=True
)
app.add_typer(season_app, name="season")

SEASON = Annotated[Path, typer.Argument(metavar="SEASON.toml", help="The season file.")]
JSON = Annotated[bool, typer.Option("--json", help="Print JSON.")]


def _console() -> Any:
    from rich.console import Console

    return Console()


def _open(path: Path) -> Any:
    """The season, its matches replayed against ``--lexicon`` where they were recorded with it;
    on a terminal, a progress bar while a long season is read (stderr, gone once read)."""
    import sys

    from tournament.cli.common import settings
    from tournament.season import service

    lexicon = settings().lexicon
    if not sys.stderr.isatty():
        return service.open_season(path, jobs=0, lexicon=lexicon)
    from rich.console import Console
    from rich.progress import Progress

    with Progress(console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("reading the season's tournaments", total=None)
        return service.open_season(
            path,
            jobs=0,
            lexicon=lexicon,
            progress=lambda done, total: bar.update(task, completed=done, total=total),
        )


def _num(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else f"{v:g}"


@season_app.command("standings")
@guarded
def standings(path: SEASON, as_json: JSON = False) -> None:
    """Season points for each tournament's final place, best N counted."""
    from rich.table import Table

    from tournament.season import service

    report = service.standings_report(_open(path))
    if as_json:
        print_json(report)
        return
    tournaments = report["tournaments"]
    best = report["scoring"]["best"]
    counted = t(", best %(best)s of %(n)s counted", best=best, n=len(tournaments)) if best else ""
    table = Table(
        "#",
        t("player"),
        t("points"),
        *(f"T{one['number']}" for one in tournaments),
        title=report["season"],
    )
    for row in report["standings"]:
        cells = [""] * len(tournaments)
        for r in row["results"]:
            text = f"{r['rank']}. ({_num(r['points'])})"
            cells[r["tournament"] - 1] = text if r["counted"] else f"[dim]{text}[/dim]"
        table.add_row(str(row["rank"]), row["player"], _num(row["points"]), *cells)
    console = _console()
    console.print(table)
    for one in tournaments:
        state = "" if one["rounds"] and one["closed"] == one["rounds"] else t(" (in play)")
        console.print(f"T{one['number']}: {one['name']} ({one['label']}){state}")
    console.print(t("Season points: place (points)%(counted)s.", counted=counted))


@season_app.command("ratings")
@guarded
def ratings(
    path: SEASON,
    player: Annotated[
        str | None, typer.Option("--player", help="One player's rating history.")
    ] = None,
    game: Annotated[str | None, typer.Option("--game", help="The ratings of one game.")] = None,
    as_json: JSON = False,
) -> None:
    """OpenSkill ratings overall and per game, with their uncertainty (or one player's history)."""
    from rich.table import Table

    from tournament.season import service
    from tournament.season.config import SeasonError

    data = _open(path)
    if player is not None:
        history = service.history_report(data, player)
        if as_json:
            print_json(history)
            return
        table = Table(
            "T", t("tournament"), "mu", "sigma", t("ordinal"), t("contests"), title=player
        )
        for h in history["history"]:
            table.add_row(
                str(h["tournament"]),
                h["name"] + f" ({h['label']})",
                f"{h['mu']:.2f}",
                f"{h['sigma']:.2f}",
                f"{h['ordinal']:.2f}",
                str(h["contests"]),
            )
        _console().print(table)
        o = history["overall"]
        _console().print(
            t(
                "%(player)s: #%(rank)s overall, mu %(mu)s ± %(sigma)s; %(games)s",
                player=player,
                rank=o["rank"],
                mu=f"{o['mu']:.2f}",
                sigma=f"{o['sigma']:.2f}",
                games=", ".join(f"{g} #{r['rank']}" for g, r in history["games"].items()),
            )
        )
        return
    report = service.ratings_report(data)
    if game is not None and game not in report["games"]:
        raise SeasonError(
            msg(
                "no match of %(game)r was played in the season (played: %(played)s)",
                game=game,
                played=", ".join(report["games"]) or msg("none"),
            )
        )
    rows = report["overall"] if game is None else report["games"][game]
    if as_json:
        print_json(report if game is None else {"season": report["season"], game: rows})
        return
    title = f"{report['season']}: " + (t("overall") if game is None else game)
    table = Table("#", t("player"), t("ordinal"), "mu", "sigma", t("contests"), title=title)
    for r in rows:
        table.add_row(
            str(r["rank"]),
            r["player"],
            f"{r['ordinal']:.2f}",
            f"{r['mu']:.2f}",
            f"{r['sigma']:.2f}",
            str(r["contests"]),
        )
    _console().print(table)
    _console().print(t("OpenSkill; ordinal = mu - 3 sigma (the rating a player surely has)."))


@season_app.command("audit")
@guarded
def audit(path: SEASON, as_json: JSON = False) -> None:
    """Which correction (late ruling, void, amended result) moved whom in the season."""
    from tournament.season import audit as season_audit

    found = season_audit.audit(_open(path))
    if as_json:
        print_json(found)
        return
    if not found:
        typer.echo(t("no correction after the end of a match in this season"))
        return
    for f in found:
        where = t(
            "%(label)s, round %(round)s, table %(table)s",
            label=f["label"],
            round=f["round"],
            table=f["table"],
        )
        what = f"{f['match']}: " if f["match"] else ""
        typer.echo(f"{where}: {what}{'; '.join(said(c) for c in f['corrections'])}")
        if not f["moved"]:
            typer.echo("  " + t("moved nobody"))
        for m in f["moved"]:
            place = ""
            if (m["rank_before"], m["points_before"]) != (m["rank"], m["points"]):
                place = t(
                    "#%(rank)s with %(points)s (was #%(rank_before)s with %(before)s); ",
                    rank=m["rank"],
                    points=_num(m["points"] or 0),
                    rank_before=m["rank_before"],
                    before=_num(m["points_before"] or 0),
                )
            rating = t(
                "rating %(now)s (was %(before)s)",
                now=f"{m['ordinal']:.2f}",
                before=f"{m['ordinal_before']:.2f}",
            )
            typer.echo(f"  {m['player']}: {place}{rating}")


@season_app.command("print")
@guarded
def print_(
    path: SEASON,
    out: Annotated[Path, typer.Option("--out", help="The folder to write into.")] = Path(
        "season-out"
    ),
    lang: Annotated[str, typer.Option(help="it or en.")] = "it",
    templates: Annotated[
        Path | None, typer.Option(help="An organizer's templates, searched before ours.")
    ] = None,
    pdf: Annotated[
        bool, typer.Option("--pdf", help="Also write the season sheet as a PDF (WeasyPrint).")
    ] = False,
    as_json: JSON = False,
) -> None:
    """Write the season sheet (HTML for A4, and PDF with --pdf) and each player's rating
    chart (SVG)."""
    from tournament.season import service

    written, pdf_missing = service.print_season(_open(path), out, lang, templates, pdf=pdf)
    if pdf_missing:
        typer.echo(t("warning: %(why)s", why=said(pdf_missing)), err=True)
    if as_json:
        print_json([str(p) for p in written])
        return
    typer.echo(t("wrote %(n)s files into %(folder)s", n=len(written), folder=out))
