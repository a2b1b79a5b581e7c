"""The players' commands: register, withdraw, list."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from exports.i18n import N_
from tournament.cli.common import app, guarded, print_json, store
from tournament.cli.options import BY, JSON, active_players, console, query_rows, refresh
from tournament.cli.words import said, t
from tournament.domain.names import admitted, registered

# A player's status as stored, said in the catalogue's words.
STATUS = {"active": N_("active"), "dropped": N_("dropped"), "withdrawn": N_("withdrawn")}

players_app = typer.Typer(help="Register, list and withdraw players.", no_args_is_help=True)
app.add_typer(players_app, name="players")


@players_app.command("add")
@guarded
def players_add(
    names: Annotated[list[str], typer.Argument()], by: BY = "organizer", as_json: JSON = False
) -> None:
    """Register players (after round 1 they enter late, from the next round)."""
    from tournament.services import day

    names = [admitted(n) for n in names]  # a new name: normalised, or refused (#29)
    s = store()
    tournament = day.add_players(s, names, by=by)
    refresh(s)
    if as_json:
        print_json({"added": names, "active": tournament.active})
    else:
        typer.echo(active_players(len(tournament.active)))


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
    tournament = day.withdraw(s, name, reason, by=by)
    name = registered(name, tournament.players) or name  # as registered (#11)
    refresh(s)
    player = views.players(tournament)[name]
    table = day.forfeited_table(tournament, name)
    if as_json:
        forfeit = {"forfeits": {"round": table.round, "table": table.number}} if table else {}
        print_json({"player": name, **player.to_json(), **forfeit})
    else:
        echo(
            t("%(name)s %(status)s", name=name, status=t(STATUS.get(player.status, player.status)))
        )
        forfeit = day.forfeit_said(tournament, name)
        if forfeit is not None:  # what the withdrawal did at the open table (#24)
            echo(said(forfeit))


@players_app.command("list")
@guarded
def players_list(as_json: JSON = False) -> None:
    """The registered players (with create --check-in: who is checked in for the next round)."""
    from tournament.readside import queries
    from tournament.services import day

    rows = query_rows(queries.players)
    t_now = day.get_tournament(store()) if rows else None
    checking = t_now is not None and bool(t_now.settings.get("check_in"))
    if checking:
        state = day.check_in_state(t_now)
        here = set(state["checked_in"])
        for r in rows:  # (a player who may not play the next round: null)
            r["checked_in"] = r["name"] in here if r["name"] in state["players"] else None
    if as_json:
        print_json(rows)
        return
    from tournament.cli.render import Table, cell

    heads = [t("seed"), t("player"), t("status"), t("from round")]
    if checking:
        heads.append(t("checked in for round %(round)s", round=state["round"]))
    table = Table(*heads)
    for r in rows:
        status = t(STATUS.get(r["status"], r["status"]))
        row = [str(r["seed"]), cell(r["name"]), status, str(r["since"])]
        if checking:
            row.append({True: t("yes"), False: t("not yet"), None: "–"}[r["checked_in"]])
        table.add_row(*row)
    console().print(table)


@players_app.command("checkin")
@guarded
def players_checkin(
    names: Annotated[list[str] | None, typer.Argument()] = None,
    by: BY = "organizer",
    as_json: JSON = False,
) -> None:
    """Check players in for the next round (create --check-in); without names, who is in."""
    from tournament.services import day

    s = store()
    now = day.check_in(s, names, by=by) if names else day.get_tournament(s)
    if names:
        refresh(s)
    _said_checked_in(day.check_in_state(now), as_json)


@players_app.command("checkout")
@guarded
def players_checkout(
    names: Annotated[list[str], typer.Argument()], by: BY = "organizer", as_json: JSON = False
) -> None:
    """Take back players' check-in for the next round."""
    from tournament.services import day

    s = store()
    now = day.check_in(s, names, by=by, here=False)
    refresh(s)
    _said_checked_in(day.check_in_state(now), as_json)


def _said_checked_in(state: dict[str, Any], as_json: bool) -> None:
    """Who is checked in for the next round, and who not yet (check-ins reset each round)."""
    from tournament.cli.render import echo

    if as_json:
        print_json(state)
        return
    nobody = t(N_("nobody"))
    echo(
        t(
            N_("Checked in for round %(round)s: %(players)s."),
            round=state["round"],
            players=", ".join(state["checked_in"]) or nobody,
        )
    )
    if state["missing"]:
        echo(t(N_("Not checked in yet: %(players)s."), players=", ".join(state["missing"])))
