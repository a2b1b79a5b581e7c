"""Commands for the organizer's day: create, players, rounds, partite, standings, status.

Every command that changes the tournament brings the read models in the file up to date
afterwards, so an organizer's SQLite tool sees what the program sees; a reading command never
writes: when they are behind, it brings a copy up to date in memory (see readmodels).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from engine.games import names, tetragon
from tournament.cli.common import app, fail, guarded, print_json, settings, store
from tournament.domain.names import admitted, registered

# The games a tournament plays, for --help, from the registry (which loads no game for it).
GAMES_HELP = ", ".join(tetragon())
ALL_GAMES_HELP = ", ".join(names())
players_app = typer.Typer(help="Register, list and withdraw players.", no_args_is_help=True)
round_app = typer.Typer(help="Pair and close rounds.", no_args_is_help=True)
table_app = typer.Typer(help="The matches of a table.", no_args_is_help=True)
app.add_typer(players_app, name="players")
app.add_typer(round_app, name="round")
app.add_typer(table_app, name="table")

JSON = Annotated[bool, typer.Option("--json", help="Print JSON.")]
BY = Annotated[str, typer.Option("--by", help="Who records this (kept in the log).")]
REFEREE = Annotated[
    str | None,
    typer.Option(
        "--referee", help="The referee's name (free text), printed on the score sheets (#11)."
    ),
]


def _csv(text: str | None) -> list[str]:
    return [x.strip() for x in text.split(",") if x.strip()] if text else []


def _numbers(text: str | None, what: str) -> list[float]:
    try:
        return [float(x) for x in _csv(text)]
    except ValueError:
        fail(f"{what} must be numbers separated by commas, not {text!r}")


def _refresh(s: Any) -> None:
    from tournament.readside import readmodels

    readmodels.update(s)


def _console() -> Any:
    from rich.console import Console

    return Console()


@app.command("create")
@guarded
def create(
    name: Annotated[str, typer.Argument(help="The tournament's name.")],
    date: Annotated[str, typer.Option(help="e.g. 2026-12-13")] = "",
    venue: Annotated[str, typer.Option(help="Where it is played.")] = "",
    format: Annotated[str, typer.Option(help="swiss, round_robin, elimination or pods.")] = "swiss",
    rounds: Annotated[int | None, typer.Option(help="Rounds of a Swiss or pods tournament.")] = 3,
    plays: Annotated[
        str, typer.Option(help=f"partita (four games, CH-3) or one game: {ALL_GAMES_HELP}.")
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
        fail("give the tournament a name")
    _check_date(date)
    points = _numbers(scoring, "--scoring")
    if len(points) != 4:
        fail("--scoring takes four numbers: win,draw,loss,bye")
    seed_order: list[str] = []
    if seed_from is not None:  # read before anything is created, so a bad season stores nothing
        from tournament.season import service

        seed_order = service.seed_order(
            service.open_season(seed_from, jobs=0, lexicon=settings().lexicon)
        )
    s = store(create=True)
    t = day.create(
        s,
        name,
        by=by,
        date=date,
        venue=venue,
        format=format,
        rounds=rounds,
        plays=plays,
        games=_csv(games),
        scoring=dict(zip(("win", "draw", "loss", "bye"), points, strict=True)),
        placement=_numbers(placement, "--placement"),
        tiebreaks=_csv(tiebreaks),
        lang=lang,
        seed=seed if seed is not None else name,
        third_place=third_place,
        table_size=table_size,
        seed_order=seed_order,
    )
    _refresh(s)
    if as_json:
        print_json(t.settings)
    else:
        seeded = f"; seeded by the ratings of {seed_from}" if seed_from is not None else ""
        typer.echo(f"created {name}: {t.settings['format']}, plays {t.settings['plays']}{seeded}")


def _check_date(date: str) -> None:
    """A tournament's date is a calendar date, as ISO 8601 writes it (#11)."""
    import datetime

    if date:
        try:
            datetime.date.fromisoformat(date)
        except ValueError:
            fail(f"--date {date!r} is not a date: write it as 2026-12-13")


def active_players(n: int) -> str:
    """``1 active player``, ``5 active players``."""
    return f"{n} active player{'' if n == 1 else 's'}"


@players_app.command("add")
@guarded
def players_add(
    names: Annotated[list[str], typer.Argument()], by: BY = "organizer", as_json: JSON = False
) -> None:
    """Register players (after round 1 they enter late, from the next round)."""
    from tournament.services import day

    names = [admitted(n) for n in names]  # a new name: normalised, or refused (#29)
    s = store()
    t = day.add_players(s, names, by=by)
    _refresh(s)
    if as_json:
        print_json({"added": names, "active": t.active})
    else:
        typer.echo(active_players(len(t.active)))


@players_app.command("withdraw")
@guarded
def players_withdraw(
    name: Annotated[str, typer.Argument()],
    reason: Annotated[str, typer.Option(help="Why.")] = "withdrawn",
    by: BY = "organizer",
    as_json: JSON = False,
) -> None:
    """Withdraw a player: before round 1 they leave, later they drop out of the pairings."""
    from tournament.cli.render import echo
    from tournament.domain import views
    from tournament.services import day

    s = store()
    t = day.withdraw(s, name, reason, by=by)
    name = registered(name, t.players) or name  # as registered (#11)
    _refresh(s)
    player = views.players(t)[name]
    if as_json:
        print_json({"player": name, **player.to_json()})
    else:
        echo(f"{name} {player.status}")


@players_app.command("list")
@guarded
def players_list(as_json: JSON = False) -> None:
    """The registered players."""
    from tournament.readside import queries

    rows = _rows(queries.players)
    if as_json:
        print_json(rows)
        return
    from tournament.cli.render import Table, cell

    table = Table("seed", "player", "status", "from round")
    for r in rows:
        table.add_row(str(r["seed"]), cell(r["name"]), r["status"], str(r["since"]))
    _console().print(table)


def _rows(query: Callable[[Any], list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """Rows of a read-side query, the read models brought up to date first."""
    from tournament.readside import readmodels
    from tournament.services import day

    s = store()
    day.get_tournament(s)  # a clear message when there is none
    readmodels.update(s)
    return query(s)


def _show_round(stored: dict[str, Any], as_json: bool) -> None:
    """A round's pairings: ``--json`` prints the round as stored (its documented shape)."""
    if as_json:
        print_json(stored)
        return
    from tournament.cli.render import Table, cell, joined
    from tournament.domain import views

    r = views.round_of(stored)
    table = Table("table", "players", "why", title=f"Round {r.number}")
    for tb in r.tables:
        players = joined(tb.players, " - ") + (" (bye)" if tb.bye else "")
        table.add_row(str(tb.number), players, cell(tb.why))
    _console().print(table)


@round_app.command("pair")
@guarded
def round_pair(by: BY = "organizer", as_json: JSON = False) -> None:
    """Pair the next round and show the pairings and why."""
    from tournament.readside import readmodels
    from tournament.services import day

    s = store()
    readmodels.update(s, write=True)
    r = day.pair_next_round(s, by=by)
    _refresh(s)
    _show_round(r, as_json)


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
    _refresh(s)
    if as_json:
        print_json({"round": number, "closed": True})
    else:
        typer.echo(f"round {number} closed")


@round_app.command("show")
@guarded
def round_show(
    number: Annotated[int | None, typer.Argument(help="The round (default: the last).")] = None,
    as_json: JSON = False,
) -> None:
    """The pairings of a round."""
    from tournament.domain import views
    from tournament.services import day

    t = day.get_tournament(store())
    last = views.last_round(t)
    if last is None:
        fail("no round has been paired yet")
    n = last.number if number is None else number  # round 0 is no round, not the last
    if not 1 <= n <= last.number:
        fail(f"there is no round {n} (rounds 1 to {last.number})")
    _show_round(t.rounds[n - 1], as_json)  # as stored, for --json


@app.command("partita")
@guarded
def partita(
    round_number: Annotated[int, typer.Argument(metavar="ROUND", help="The round, e.g. 1.")],
    table: Annotated[int, typer.Argument(metavar="TABLE", help="The table, as paired.")],
    games: Annotated[
        list[str], typer.Argument(help=f"The four different games chosen (CH-3): {GAMES_HELP}.")
    ],
    by: BY = "organizer",
    as_json: JSON = False,
) -> None:
    """Record the four games a table's partita plays."""
    from tournament.services import tables

    s = store()
    tables.choose_partita(s, round_number, table, games, by=by)
    _refresh(s)
    if as_json:
        print_json({"round": round_number, "table": table, "games": games})
    else:
        typer.echo(f"round {round_number}, table {table}: {', '.join(games)}")


@table_app.command("start")
@guarded
def table_start(
    round_number: Annotated[int, typer.Argument(metavar="ROUND", help="The round, e.g. 1.")],
    table: Annotated[int, typer.Argument(metavar="TABLE", help="The table, as paired.")],
    game: Annotated[
        str, typer.Argument(help=f"The challenge to start, one the table plays: {ALL_GAMES_HELP}.")
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
    _refresh(s)
    typer.echo(match.number)


@app.command("standings")
@guarded
def standings(as_json: JSON = False) -> None:
    """The standings, with their tie-break columns."""
    from tournament.readside import queries

    rows = _rows(queries.standings)
    if as_json:
        print_json(rows)
        return
    show_standings(rows)


def show_standings(rows: list[dict[str, Any]], title: str = "Standings") -> None:
    from tournament.cli.render import Table, cell

    def num(v: Any) -> str:
        return "" if v is None else (str(int(v)) if float(v).is_integer() else f"{v:g}")

    table = Table("#", "player", "points", "challenges", "Buchholz", "cut-1", "S-B", title=title)
    for r in rows:
        table.add_row(
            str(r["rank"]),
            cell(r["player"]),
            num(r["points"]),
            num(r["challenge"]),
            num(r["buchholz"]),
            num(r["buchholz_cut1"]),
            num(r["sonneborn_berger"]),
        )
    _console().print(table)


@app.command("status")
@guarded
def status(as_json: JSON = False) -> None:
    """Where the day stands: the round and what each table waits for."""
    from tournament.cli.render import echo
    from tournament.readside import queries, readmodels
    from tournament.services import day

    s = store()
    readmodels.update(s)
    info = day.status(day.get_tournament(s), queries.outcome_of(s))
    if as_json:
        print_json(info)
        return
    if not info["round"]:
        where = "no round paired yet (tournament round pair)"
    else:
        where = f"round {info['round']} " + ("closed" if info["round_closed"] else "in play")
    echo(f"{info['name']}: {active_players(info['players'])}, {where}")
    for tb in info["tables"]:  # the status as --json prints it (docs/cli.md), not stored state
        who = " - ".join(tb["players"])
        if tb["bye"]:
            echo(f"  table {tb['table']}: {who} (bye)")
            continue
        done = "decided" if tb["decided"] else "playing"
        games = ", ".join(f"{g} {tb['matches'].get(g, '-')}" for g in tb["games"]) or "no games yet"
        echo(f"  table {tb['table']}: {who}: {done}; {games}")


@app.command("rebuild")
@guarded
def rebuild(as_json: JSON = False) -> None:
    """Drop the read models and rebuild them from the event log."""
    from tournament.cli.progress import bar, wanted
    from tournament.readside import readmodels

    with bar("rebuilding the read models (events)", None, wanted(as_json)) as counted:
        progress = readmodels.rebuild(store(), counted.at)
    if as_json:
        print_json({"events": progress.events})
    else:
        typer.echo(f"rebuilt the read models from {progress.events} events")


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
    what it changes, and record it with --yes."""
    from tournament.cli.record import show_effect
    from tournament.services import corrections

    given = corrections.read_points(points)
    s = store()
    preview = corrections.amend(s, round_number, table, given, reason, by, confirmed=yes)
    if preview.stored:
        _refresh(s)
    if as_json:
        print_json(preview.to_json())
        return
    show_effect(preview.to_json())
    if preview.stored:
        typer.echo(f"round {round_number}, table {table}: result amended ({reason})")
    else:
        typer.echo("nothing stored: the round is closed; repeat with --yes to record it")
