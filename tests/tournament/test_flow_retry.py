"""A write of the day that meets another terminal's save is made again by the service itself, in
one place with one limit: from the command line as from the organizer's page, the same tries,
the same events stored once, and when the tournament keeps changing the same one sentence with
nothing stored."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.message import Msg
from exports.i18n import say
from tests.tournament.test_day_cli import record_tiro
from tests.tournament.test_flow_day import both, same, tournament_events
from tests.tournament.test_match_cli import ok, refused
from tests.web.conftest import log_in, make_client
from tests.web.test_organizer import said
from tournament.services import retry
from tournament.storage.store import Conflict, Store

# Each write of the day: its command, its form on the organizer's page, the events it stores.
FLOWS = {
    "register": (("players", "add", "Viola"), "/organizer/players", {"names": "Viola"}),
    "withdraw": (
        ("players", "withdraw", "Blu", "--reason", "malato"),
        "/organizer/players/withdraw",
        {"player": "Blu", "reason": "malato"},
    ),
    "pair": (("round", "pair"), "/organizer/round/pair", {}),
    "close": (("round", "close"), "/organizer/round/close", {}),
    "amend": (
        ("amend", "1", "1", "Giallo=0", "Blu=1", "--reason", "scambio", "--yes"),
        "/organizer/amend",
        {
            "do": "record",
            "round": "1",
            "table": "1",
            "points": "Giallo=0 Blu=1",
            "reason": "scambio",
        },
    ),
}
STORED = {
    "register": ["PlayerRegistered"],
    "withdraw": ["PlayerWithdrawn"],
    "pair": ["RoundPaired"],
    "close": ["RoundClosed"],
    "amend": ["ResultAmended"],
}


def evening(tmp_path: Path, flow: str) -> tuple[Path, Path]:
    """The same evening in two stores, up to the write ``flow`` makes next."""
    cli, web = both(tmp_path)
    for db in (cli, web):
        ok(db, "players", "add", "Giallo", "Blu")
        if flow in ("close", "amend"):
            ok(db, "round", "pair")
            record_tiro(db, ok(db, "table", "start", "1", "1", "tiro").strip(), "Giallo", "Blu")
    return cli, web


class Saves:
    """The store's save, meeting another writer's save the first ``times`` calls (None: every
    call): nothing is stored then, as when another terminal saved the tournament first."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, times: int | None) -> None:
        self.times, self.calls = times, 0
        real = Store.save

        def save(store: Store, *objs: Any, **kwargs: Any) -> Any:
            self.calls += 1
            if self.times is None or self.calls <= self.times:
                raise Conflict("another terminal changed the tournament at the same moment")
            return real(store, *objs, **kwargs)

        monkeypatch.setattr(Store, "save", save)

    def counted(self) -> int:
        calls, self.calls = self.calls, 0
        return calls


def on_the_page(db: Path, path: str, form: dict[str, str], saves: Saves) -> str:
    """The write sent from the organizer's page, the conflicts counted from the form on; the
    sentence the page answers with."""
    store = Store(db)
    with make_client(store) as client:
        token = log_in(client)
        client.get("/lang/en")
        saves.counted()  # logging in stores nothing; count from the write
        r = client.post(path, data={"csrf": token, **form})
        assert r.status_code == 200, r.text
        text = said(r.text) if 'class="flash' in r.text else ""  # a round's page has none
    store.close()
    return text


@pytest.fixture
def few_attempts(monkeypatch: pytest.MonkeyPatch) -> Iterator[int]:
    monkeypatch.setattr(retry, "ATTEMPTS", 4)  # the one limit, made short for the test
    yield retry.ATTEMPTS


@pytest.mark.parametrize("flow", FLOWS)
def test_a_write_that_meets_another_writer_once_is_made_again_and_stored_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, flow: str
) -> None:
    cli, web = evening(tmp_path, flow)
    before = tournament_events(cli)
    args, path, form = FLOWS[flow]
    saves = Saves(monkeypatch, times=1)
    ok(cli, *args)
    tries = {"cli": saves.counted()}
    text = on_the_page(web, path, form, saves)
    tries["web"] = saves.counted()
    assert tries == {"cli": 2, "web": 2}  # the conflict, then the write made again
    assert "kept changing" not in text
    monkeypatch.undo()
    same(cli, web)
    added = tournament_events(cli)[len(before) :]
    assert [kind for kind, _ in added] == STORED[flow]


@pytest.mark.parametrize("flow", FLOWS)
def test_a_tournament_that_keeps_changing_is_one_refusal_with_nothing_stored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, few_attempts: int, flow: str
) -> None:
    cli, web = evening(tmp_path, flow)
    before = tournament_events(cli)
    args, path, form = FLOWS[flow]
    saves = Saves(monkeypatch, times=None)
    from_cli = refused(cli, *args)
    tries = {"cli": saves.counted()}
    from_page = on_the_page(web, path, form, saves)
    tries["web"] = saves.counted()
    assert tries == {"cli": few_attempts, "web": few_attempts}  # one limit, tried in one place
    sentence = say(retry.KEPT_CHANGING, "en")
    assert isinstance(retry.KEPT_CHANGING, Msg)
    assert (from_cli, from_page) == (f"error: {sentence}\n", sentence)
    monkeypatch.undo()
    assert tournament_events(cli) == before == tournament_events(web)
