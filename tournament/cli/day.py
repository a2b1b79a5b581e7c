"""Commands for the organizer's day: create, standings, status, rebuild, amend.

(The players', rounds' and tables' commands are in players.py, rounds.py and tables.py.)
Every command that changes the tournament brings the read models in the file up to date
afterwards, so an organizer's SQLite tool sees what the program sees; a reading command never
writes: when they are behind, it brings a copy up to date in memory (see readmodels).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from exports.i18n import N_  # marks the CLI's sentences for the catalogue (its extraction)
from tournament.cli.common import app, fail, guarded, print_json, settings, store
from tournament.cli.options import (
    BY,
    JSON,
    active_players,
    console,
    csv,
    numbers,
    query_rows,
    refresh,
)
from tournament.cli.words import said, t


@app.command("create")
@guarded
def create(
    name: Annotated[str, typer.Argument(help="The tournament's name.")],
    date: Annotated[str, typer.Option(help="e.g. 2026-12-13")] = "",
    venue: Annotated[str, typer.Option(help="Where it is played.")] = "",
    format: Annotated[str, typer.Option(help="swiss, round_robin, elimination or pods.")] = "swiss",
    rounds: Annotated[int | None, typer.Option(help="Rounds of a Swiss or pods tournament.")] = 3,
    plays: Annotated[
        str, typer.Option(help="partita (four games, CH-3) or one game: %(games)s.")
    ] = "partita",
    games: Annotated[str | None, typer.Option(help="Games allowed, comma-separated.")] = None,
    scoring: Annotated[str, typer.Option(help="Points for win,draw,loss,bye.")] = "3,1,0,3",
    placement: Annotated[
        str | None, typer.Option(help="Tables of 3+: points by place, e.g. 3,2,1,0.")
    ] = None,
    tiebreaks: Annotated[str | None, typer.Option(help="Tie-break order, comma-separated.")] = None,
    lang: Annotated[str, typer.Option(help="Printed material: it or en.")] = "it",
    seed: Annotated[str | None, typer.Option(help="The seed of the final lot.")] = None,
    third_place: Annotated[bool, typer.Option(help="Elimination: play for third place.")] = False,
    table_size: Annotated[int, typer.Option(help="Pods: preferred players a table.")] = 4,
    cut: Annotated[
        int | None,
        typer.Option(help="Swiss: then the top N by the standings play a single elimination."),
    ] = None,
    knockout_draw: Annotated[
        str,
        typer.Option(
            help="A drawn knockout table: replay (a decider at the table) or seed (the higher "
            "seed goes through)."
        ),
    ] = "replay",
    check_in: Annotated[
        bool, typer.Option("--check-in", help="Pair each round only who checked in for it.")
    ] = False,
    seed_from: Annotated[
        Path | None,
        typer.Option("--seed-from", help="Seed the players by their ratings in this season file."),
    ] = None,
    by: BY = "organizer",
    as_json: JSON = False,
) -> None:
    """Create the tournament of this database."""
    from tournament.services import day

    if not name.strip():
        fail(t("give the tournament a name"))
    _check_date(date)
    points = numbers(scoring, "--scoring")
    if len(points) != 4:
        fail(t("--scoring takes four numbers: win,draw,loss,bye"))
    seed_order: list[str] = []
    if seed_from is not None:  # read before anything is created, so a bad season stores nothing
        from tournament.season import service

        seed_order = service.seed_order(
            service.open_season(seed_from, jobs=0, lexicon=settings().lexicon)
        )
    s = store(create=True)
    made = day.create(
        s,
        name,
        by=by,
        date=date,
        venue=venue,
        format=format,
        rounds=rounds,
        plays=plays,
        games=csv(games),
        scoring=dict(zip(("win", "draw", "loss", "bye"), points, strict=True)),
        placement=numbers(placement, "--placement"),
        tiebreaks=csv(tiebreaks),
        lang=lang,
        seed=seed if seed is not None else name,
        third_place=third_place,
        table_size=table_size,
        seed_order=seed_order,
        cut=cut,
        knockout_draw=knockout_draw,
        check_in=check_in,
    )
    refresh(s)
    if as_json:
        print_json(made.settings)
    else:
        said = dict(name=name, format=made.settings["format"], plays=made.settings["plays"])
        if seed_from is not None:
            typer.echo(
                t(
                    "created %(name)s: %(format)s, plays %(plays)s; seeded by the ratings of "
                    "%(season)s",
                    season=seed_from,
                    **said,
                )
            )
        else:
            typer.echo(t("created %(name)s: %(format)s, plays %(plays)s", **said))


def _check_date(date: str) -> None:
    """A tournament's date is a calendar date, as ISO 8601 writes it (#11)."""
    import datetime

    if date:
        try:
            datetime.date.fromisoformat(date)
        except ValueError:
            fail(t("--date %(date)r is not a date: write it as 2026-12-13", date=date))


@app.command("standings")
@guarded
def standings(as_json: JSON = False) -> None:
    """The standings, with their tie-break columns."""
    from tournament.readside import queries

    rows = query_rows(queries.standings)
    if as_json:
        print_json(rows)
        return
    from tournament.services import day

    stage = day.swiss_stage(store())  # a Swiss with a cut: its table first, then the bracket's
    if stage is None:
        show_standings(rows)
        return
    show_standings(
        stage[1], t(N_("The Swiss: the standings after round %(round)s"), round=stage[0])
    )
    show_standings(rows, t(N_("The final standings: the bracket, then the Swiss")))


LOT_MARK = "†"  # a place the seeded lot decided (the last tie-break), as the sheets mark it


def show_standings(rows: list[dict[str, Any]], title: str | None = None) -> None:
    from tournament.cli.render import Table, cell

    def num(v: Any) -> str:
        return "" if v is None else (str(int(v)) if float(v).is_integer() else f"{v:g}")

    drawn = any(r.get("by_lot") for r in rows)  # the seeded lot set some places (#27)
    table = Table(
        "#",
        t("player"),
        t("points"),
        t("challenges"),
        "Buchholz",
        t("cut-1"),
        "S-B",
        title=t("Standings") if title is None else title,
        caption=f"{LOT_MARK} {t('order drawn by lot')}" if drawn else None,
    )
    for r in rows:
        table.add_row(
            f"{r['rank']} {LOT_MARK}" if r.get("by_lot") else str(r["rank"]),
            cell(r["player"]),
            num(r["points"]),
            num(r["challenge"]),
            num(r["buchholz"]),
            num(r["buchholz_cut1"]),
            num(r["sonneborn_berger"]),
        )
    console().print(table)


@app.command("status")
@guarded
def status(as_json: JSON = False) -> None:
    """Where the day stands: the round and what each table waits for."""
    from tournament.cli.render import echo
    from tournament.readside import queries, readmodels
    from tournament.services import day
    from tournament.services.tablefiles import tables_out

    s = store()
    readmodels.update(s)
    info = day.status(day.get_tournament(s), queries.outcome_of(s))
    out = tables_out(s, info["round"]) if info["round"] else {}
    for tb in info["tables"]:  # in a table file (#26): recorded there, not here
        if tb["table"] in out:
            tb["out"] = out[tb["table"]]
    if as_json:
        print_json(info)
        return
    if not info["round"]:
        where = t("no round paired yet (tournament round pair)")
    elif info["round_closed"]:
        where = t("round %(round)s closed", round=info["round"])
    else:
        where = t("round %(round)s in play", round=info["round"])
    echo(f"{info['name']}: {active_players(info['players'])}, {where}")
    for tb in info["tables"]:  # the status as --json prints it (docs/cli.md), not stored state
        who = " - ".join(tb["players"])
        if tb["bye"]:
            echo("  " + t("table %(table)s: %(who)s (bye)", table=tb["table"], who=who))
            continue
        done = t("decided") if tb["decided"] else t("playing")
        played = [f"{g} {tb['matches'].get(g, '-')}" for g in tb["games"]]
        played += [f"{g} {n}" for g, n in tb["matches"].items() if g not in tb["games"]]
        games = ", ".join(played)
        echo(
            "  "
            + t(
                "table %(table)s: %(who)s: %(done)s; %(games)s",
                table=tb["table"],
                who=who,
                done=done,
                games=games or t("no games yet"),
            )
        )
        if tb.get("decider"):  # a drawn knockout table (#24)
            echo(
                "    "
                + t(
                    N_(
                        "drawn (%(points)s): a decider is to be played at the table "
                        "(table start %(round)s %(table)s %(game)s)"
                    ),
                    points=", ".join(f"{p} {v}" for p, v in (tb["played"] or {}).items()),
                    round=info["round"],
                    table=tb["table"],
                    game=tb["games"][0],
                )
            )
        elif tb.get("by_seed"):
            echo("    " + t(N_("drawn: the higher seed goes through")))
        for f in tb.get("forfeits", ()):  # a withdrawal at the table (#24)
            echo("    " + t(N_("%(player)s withdrew: forfeit (%(reason)s)"), **f))
        if tb.get("out"):
            echo("    " + said(tb["out"]))


@app.command("rebuild")
@guarded
def rebuild(as_json: JSON = False) -> None:
    """Drop the read models and rebuild them from the event log."""
    from tournament.cli.progress import bar, wanted
    from tournament.readside import readmodels

    with bar(t("rebuilding the read models (events)"), None, wanted(as_json)) as counted:
        progress = readmodels.rebuild(store(), counted.at)
    if as_json:
        print_json({"events": progress.events})
    else:
        typer.echo(t("rebuilt the read models from %(events)s events", events=progress.events))


@app.command("amend")
@guarded
def amend(
    round_number: Annotated[int, typer.Argument(metavar="ROUND")],
    table: Annotated[int, typer.Argument(metavar="TABLE")],
    points: Annotated[list[str], typer.Argument(help="Challenge points: giallo=3 blu=1 ...")],
    reason: Annotated[str, typer.Option(help="Why the result is amended.")],
    yes: Annotated[bool, typer.Option("--yes", help="Record it even in a closed round.")] = False,
    by: BY = "organizer",
    as_json: JSON = False,
) -> None:
    """Amend a table's result (the match logs stay as they are); in a closed round, first show
    what it changes, and record it with ``--yes``."""
    from tournament.cli.record import show_effect
    from tournament.services import corrections

    given = corrections.read_points(points)
    s = store()
    preview = corrections.amend(s, round_number, table, given, reason, by, confirmed=yes)
    if preview.stored:
        refresh(s)
    if as_json:
        print_json(preview.to_json())
        return
    show_effect(preview.to_json())
    if preview.stored:
        typer.echo(
            t(
                "round %(round)s, table %(table)s: result amended (%(reason)s)",
                round=round_number,
                table=table,
                reason=reason,
            )
        )
    else:
        typer.echo(t("nothing stored: the round is closed; repeat with --yes to record it"))
