"""The public pages and their JSON twins, escaped, in two languages."""

from __future__ import annotations

import json
import re
from pathlib import Path

from starlette.testclient import TestClient

from tournament.storage.store import Store

from .conftest import (
    build,
    make_client,
    paired,
)

# --- public pages --------------------------------------------------------------------------------


def test_every_public_page_has_its_json_twin_and_a_csp(client: TestClient, store: Store) -> None:
    paired(store, client)
    for page, api in [
        ("/", "/api"),
        ("/standings", "/api/standings"),
        ("/rounds/1", "/api/rounds/1"),
        ("/bracket", "/api/bracket"),
        ("/players/giallo", "/api/players/giallo"),
    ]:
        r = client.get(page)
        assert r.status_code == 200, page
        assert "set-cookie" not in r.headers  # no session for a public visitor
        assert r.headers["link"] == f'<{api}>; rel="alternate"; type="application/json"'
        assert "script-src 'self'" in r.headers["content-security-policy"]
        assert r.headers["referrer-policy"] == "no-referrer"
        j = client.get(api)
        assert j.status_code == 200 and j.headers["content-type"] == "application/json"
    assert client.get("/api/rounds/1").json()["tables"][0]["players"] == ["giallo", "blu"]
    assert {r["player"] for r in client.get("/api/standings").json()["rows"]} == {"blu", "giallo"}


def test_a_match_page_shows_the_timeline_rules_and_the_verified_head(tmp_path: Path) -> None:
    from tests.support import EXAMPLES
    from tournament.services.matches import check_log, import_log

    store = build(tmp_path / "t.db")
    text = (EXAMPLES / "tiro-seed.jsonl").read_text()
    number = import_log(store, check_log(text)).number
    with make_client(store) as client:
        data = client.get(f"/api/matches/{number}").json()
        assert data["verified"] is True and data["winners"] == ["giallo"]
        assert [r["rules"] for r in data["timeline"]][:3] == [["TIR-1"]] * 3
        html = client.get(f"/matches/{number}").text
        assert data["head"] in html and "TIR-2" in html
        # Each row names who acted in its own column (the actor, or the referee in words).
        who = re.findall(r'<tr[^>]*><td>\d+</td><td class="wide">([^<]*)</td>', html)
        assert len(who) == len(data["timeline"]) and who == [r["who"] for r in data["timeline"]]
        assert client.get("/api/matches/M99").status_code == 404
        assert client.get("/api/matches/M99").json() == {
            "error": "there is no match M99 in this database"
        }
        # A match changed behind the program's back no longer verifies.
        from tests.tournament.test_verify import overwrite, stored

        version, state = stored(tmp_path / "t.db", number)[3]
        event = json.loads(state)
        event["hash"] = "0" * 64
        overwrite(tmp_path / "t.db", number, version, json.dumps(event).encode())
        data = client.get(f"/api/matches/{number}").json()
        assert data["verified"] is False and data["problems"][0].startswith(f"{number}, position 3")
        assert "NON verificato" in client.get(f"/matches/{number}").text


def test_a_player_named_like_a_script_is_escaped_everywhere(tmp_path: Path) -> None:
    evil = "<script>alert(1)</script>"
    store = build(tmp_path / "t.db", players=("giallo", evil))
    paired(store)
    with make_client(store) as client:
        for page in ["/", "/standings", "/rounds/1", "/players/" + evil.replace("/", "%2F")]:
            html = client.get(page).text
            assert evil not in html, page
            assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html, page
        assert evil in [r["player"] for r in client.get("/api/standings").json()["rows"]]


def test_the_language_switch_and_no_open_redirect(client: TestClient) -> None:
    assert "Classifica" in client.get("/standings").text
    r = client.get("/lang/en?next=/standings")
    assert r.status_code == 200 and "Standings" in r.text
    r = client.get("/lang/it?next=//evil.example/", follow_redirects=False)
    assert r.headers["location"] == "/"


def test_a_bracket_in_both_languages(tmp_path: Path) -> None:
    store = build(tmp_path / "t.db", players=("a", "b", "c", "d"), format="elimination")
    paired(store)
    with make_client(store) as client:
        data = client.get("/api/bracket").json()
        assert [tb["players"] for tb in data["rounds"][0]["tables"]] == [["a", "d"], ["b", "c"]]
        page = client.get("/bracket").text
        assert "semifinali" in page and "finale" in page and "vincitori dei tavoli" not in page
        client.get("/lang/en")
        assert "semi-finals" in client.get("/bracket").text


def test_a_players_page_shows_their_season_chart_and_its_points(tmp_path: Path) -> None:
    from tournament.services import tables
    from tournament.services.matches import record as record_event
    from tournament.web.app import Settings, create_app

    from .conftest import GAMES, PASSPHRASE, TIRO

    evil = "<script>alert(1)</script>"
    store = build(tmp_path / "t.db", players=("giallo", evil))
    paired(store)
    tables.choose_partita(store, 1, 1, GAMES)
    match = tables.start_match(store, 1, 1, "tiro")
    number = match.number
    seats = dict(zip(("giallo", "blu"), json.loads(match.header)["players"], strict=True))
    for by, kind, fields in TIRO:
        event = {"type": kind, "by": seats[by], **fields}
        if kind == "roll":
            event["values"] = [int(v) for v in fields["values"].split()]
        record_event(store, number, event)
    season = tmp_path / "season.toml"
    season.write_text('name = "Stagione di prova"\ntournaments = ["t.db"]\n', encoding="utf-8")
    app = create_app(Settings(db=store.location, passphrase=PASSPHRASE, season=season), store)
    with TestClient(app, base_url="http://127.0.0.1") as client:
        client.app.state.live.refresh()  # type: ignore[attr-defined]
        data = client.get("/api/players/giallo").json()
        assert data["season"]["season"] == "Stagione di prova" and "_chart" not in data
        [step] = data["season"]["history"]
        won = seats["giallo"] == "giallo"  # the first seat wins this Tiro
        assert step["tournament"] == 1
        assert (step["mu"] > data["season"]["prior"]["mu"]) is won
        html = client.get("/players/giallo").text
        assert "<svg" in html and "Stagione di prova" in html
        html = client.get("/players/" + evil.replace("/", "%2F")).text
        assert "<svg" in html and evil not in html  # the name in the chart is escaped too
        # Without --season, no chart.
    with make_client(store) as client:
        assert "season" not in client.get("/api/players/giallo").json()
        assert "<svg" not in client.get("/players/giallo").text
