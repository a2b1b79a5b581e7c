"""#29: a decision never waits for the read models. A round closes right after its last move,
whether the read models have caught up or not (the live task here never refreshes them)."""

from __future__ import annotations

from pathlib import Path

from starlette.testclient import TestClient

from tournament.readside import readmodels
from tournament.services import day, play, tables
from tournament.storage.store import Store
from tournament.web.app import Settings, create_app

from .conftest import PASSPHRASE, TIRO, build, csrf, issue, log_in, record


def slow_client(store: Store) -> TestClient:
    """The app with a live task that never refreshes the read models (on a server it is woken
    by every stored event: its refreshes, those given the last event it saw, do nothing here):
    whatever a page reads of them is as fresh as the action itself makes it."""
    settings = Settings(db=store.location, passphrase=PASSPHRASE, interval=3600, safety=3600)
    app = create_app(settings, store)
    hub, refresh = app.state.live, app.state.live.refresh
    hub.refresh = lambda upto=None: True if upto is not None else refresh()
    return TestClient(app, base_url="http://127.0.0.1")


def test_the_organizer_closes_the_round_right_after_the_referees_last_move(any_db: str) -> None:
    store = build(any_db, plays="tiro")
    with slow_client(store) as client:
        token = log_in(client)
        client.post("/organizer/round/pair", data={"csrf": token})
        table = issue(client, token)
        client.post(f"{table}/start", data={"csrf": csrf(client.get(table).text), "game": "tiro"})
        for by, kind, fields in TIRO:
            html = record(client, table, by, kind, **fields)
        assert "fine: vince giallo" in html  # the referee's page stored the last move
        db = readmodels.database(store)
        assert readmodels.position(db) < store.recorder.max_notification_id()  # still behind
        r = client.post("/organizer/round/close", data={"csrf": token})
        assert r.status_code == 200
        assert "senza risultato" not in r.text
        assert day.get_tournament(store).rounds[-1]["closed"]


def test_a_service_pairs_and_closes_on_what_is_stored_not_on_what_was_read(
    tmp_path: Path,
) -> None:
    store = build(tmp_path / "t.db", plays="tiro", rounds=2)
    day.pair_next_round(store)
    tables.start_match(store, 1, 1, "tiro")
    readmodels.update(store)  # the read models see the match in play
    for by, kind, fields in TIRO:
        values = " ".join(f"{v}" for v in fields.values())
        play.record_move(store, "M1", f"{kind.replace('expression', 'expr')} {by} {values}")
    assert readmodels.outcomes(readmodels.database(store))["M1"] is None  # behind
    day.close_round(store)
    assert day.get_tournament(store).rounds[-1]["closed"]
