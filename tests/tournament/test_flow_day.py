"""The organizer's flows (register, withdraw, pair, close) store the same events from every
front end that offers them: the command line and the organizer's web page call the same services.

Two stores are run side by side, the same evening in each: one from the CLI alone, one with the
organizer's steps taken on the web page. What each stored, the tournament's events and every
match's log, is compared without what must differ (the times, and the links they seal).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.tournament.test_day_cli import record_tiro
from tests.tournament.test_match_cli import ok, refused
from tests.web.conftest import log_in, make_client
from tournament.domain.tournaments import TOURNAMENT_ID
from tournament.storage.store import Store

# What a stored event holds that depends on when it was stored, not on what was done (a match's
# head seals its times too).
WHEN = {"timestamp", "hash", "head", "originator_version", "originator_id"}


def tournament_events(db: Path) -> list[tuple[str, dict[str, Any]]]:
    store = Store(db)
    return [
        (type(e).__name__, {k: v for k, v in vars(e).items() if k not in WHEN})
        for e in store.events.get(TOURNAMENT_ID)
    ]


def match_logs(db: Path) -> dict[str, list[dict[str, Any]]]:
    """Every match's events as recorded (the header, the times and the hashes left out)."""
    return {
        str(m.number): [
            {k: v for k, v in json.loads(line).items() if k not in ("at", "hash")}
            for line in m.export().splitlines()[1:]
        ]
        for m in Store(db).matches()
    }


def evening(db: Path) -> None:
    ok(db, "create", "Sera al circolo", "--date", "2026-12-13", "--plays", "tiro", "--rounds", "2")


def both(tmp_path: Path) -> tuple[Path, Path]:
    cli, web = tmp_path / "cli.db", tmp_path / "web.db"
    evening(cli)
    evening(web)
    return cli, web


def on_the_web(db: Path, steps: Callable[[Any, str], None]) -> None:
    store = Store(db)
    with make_client(store) as client:
        steps(client, log_in(client))
    store.close()


def post(client: Any, token: str, path: str, **data: str) -> str:
    """A form sent from the organizer's page; the page it leads to (refusals flashed on it)."""
    r = client.post(path, data={"csrf": token, **data})
    assert r.status_code == 200, r.text
    return r.text


def same(cli: Path, web: Path) -> None:
    assert tournament_events(cli) == tournament_events(web)
    assert match_logs(cli) == match_logs(web)


def test_registering_and_withdrawing_store_the_same_events(tmp_path: Path) -> None:
    cli, web = both(tmp_path)
    ok(cli, "players", "add", "Giallo", "Blu", "Verde")
    ok(cli, "players", "withdraw", "Verde", "--reason", "malato")

    def steps(client: Any, token: str) -> None:
        post(client, token, "/organizer/players", names="Giallo\nBlu\nVerde\n")
        post(client, token, "/organizer/players/withdraw", player="Verde", reason="malato")

    on_the_web(web, steps)
    same(cli, web)
    kinds = [kind for kind, _ in tournament_events(web)]
    assert kinds.count("PlayerRegistered") == 3 and kinds.count("PlayerWithdrawn") == 1


def test_pairing_and_closing_store_the_same_events(tmp_path: Path) -> None:
    cli, web = both(tmp_path)
    for db in (cli, web):
        ok(db, "players", "add", "Giallo", "Blu")
    ok(cli, "round", "pair")
    on_the_web(web, lambda client, token: post(client, token, "/organizer/round/pair"))
    same(cli, web)

    for db in (cli, web):  # the table is played the same way in both (the play flows' own tests)
        match = ok(db, "table", "start", "1", "1", "tiro").strip()
        record_tiro(db, match, "Giallo", "Blu")
    ok(cli, "round", "close")
    on_the_web(web, lambda client, token: post(client, token, "/organizer/round/close"))
    same(cli, web)
    assert [kind for kind, _ in tournament_events(web)][-1] == "RoundClosed"
    # and the second round is paired from the same standings by either front end
    ok(cli, "round", "pair")
    on_the_web(web, lambda client, token: post(client, token, "/organizer/round/pair"))
    same(cli, web)


@pytest.mark.parametrize(
    ("cli_args", "path", "form"),
    [
        (("players", "withdraw", "Nessuno"), "/organizer/players/withdraw", {"player": "Nessuno"}),
        (("round", "close"), "/organizer/round/close", {}),
    ],
)
def test_a_refusal_stores_nothing_from_either_front_end(
    tmp_path: Path, cli_args: tuple[str, ...], path: str, form: dict[str, str]
) -> None:
    cli, web = both(tmp_path)
    for db in (cli, web):
        ok(db, "players", "add", "Giallo", "Blu")
    before = tournament_events(cli)
    refused(cli, *cli_args)
    on_the_web(web, lambda client, token: post(client, token, path, **form))
    assert tournament_events(cli) == before == tournament_events(web)
