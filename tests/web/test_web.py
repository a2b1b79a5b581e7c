"""The web app in process: public pages and their JSON twins, and every security point."""

from __future__ import annotations

import json
import re
import sqlite3
import time
from pathlib import Path

from starlette.testclient import TestClient

from tournament import day, readmodels
from tournament.store import Store
from tournament.web.security import token_hash
from tournament.web.views import outcome_of

from .conftest import GAMES, PASSPHRASE, build, csrf, log_in, make_client

TIRO = [
    ("giallo", "roll", {"die": "d6", "values": "6 6 5 1"}),
    ("blu", "roll", {"die": "d6", "values": "5 4 2 1"}),
    ("giallo", "roll", {"die": "d20", "values": "11"}),
    ("giallo", "expression", {"expr": "6 x (5:6+1)"}),
    ("blu", "expression", {"expr": "(5+4+2):1"}),
]


def refresh(store: Store, client: TestClient | None) -> None:
    """Bring the read models up to date (through the running app's lock when there is one)."""
    if client is None:
        readmodels.update(store)
    else:
        client.app.state.live.refresh()  # type: ignore[attr-defined]


def paired(store: Store, client: TestClient | None = None) -> None:
    day.pair_next_round(store, outcome_of(store))
    refresh(store, client)


def rounds(store: Store) -> int:
    return len(day.get_tournament(store).rounds)


def issue(client: TestClient, token: str) -> str:
    """The organizer prints the table cards; return the first table's link path."""
    r = client.post("/organizer/cards", data={"csrf": token})
    assert r.status_code == 200
    links = re.findall(r"http://127\.0\.0\.1/table/([A-Za-z0-9_-]+)", r.text)
    assert links, "no table link on the cards"
    return f"/table/{links[0]}"


def record(client: TestClient, table: str, by: str, kind: str, **fields: str) -> str:
    page = client.get(table).text
    position = re.search(r'name="position" value="(\d+)"', page)
    match = re.search(r'name="match" value="(M\d+)"', page)
    assert position and match, page
    data = {"csrf": csrf(page), "match": match.group(1), "position": position.group(1)}
    r = client.post(f"{table}/record", data={**data, "kind": kind, "by": by, **fields})
    assert r.status_code == 200
    return r.text


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
        assert r.headers["link"] == f'<{api}>; rel="alternate"; type="application/json"'
        assert "script-src 'self'" in r.headers["content-security-policy"]
        assert r.headers["referrer-policy"] == "no-referrer"
        j = client.get(api)
        assert j.status_code == 200 and j.headers["content-type"] == "application/json"
    assert client.get("/api/rounds/1").json()["tables"][0]["players"] == ["giallo", "blu"]
    assert {r["player"] for r in client.get("/api/standings").json()["rows"]} == {"blu", "giallo"}


def test_a_match_page_shows_the_timeline_rules_and_the_verified_head(tmp_path: Path) -> None:
    from tests.support import EXAMPLES
    from tournament.matches import check_log, import_log

    store = build(tmp_path / "t.db")
    text = (EXAMPLES / "tiro-seed.jsonl").read_text()
    number = import_log(store, check_log(text)).number
    with make_client(store) as client:
        data = client.get(f"/api/matches/{number}").json()
        assert data["verified"] is True and data["winners"] == ["giallo"]
        assert [r["rules"] for r in data["timeline"]][:3] == [["TIR-1"]] * 3
        html = client.get(f"/matches/{number}").text
        assert data["head"] in html and "TIR-2" in html
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
        assert data["verified"] is False and "hash chain breaks" in data["problems"][0]
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


# --- the organizer -------------------------------------------------------------------------------


def test_without_credentials_the_organizer_actions_answer_401_and_store_nothing(
    client: TestClient, store: Store
) -> None:
    before = store.recorder.max_notification_id()
    for path, data in [
        ("/organizer/round/pair", {}),
        ("/organizer/round/close", {}),
        ("/organizer/players", {"names": "intruso"}),
        ("/organizer/players/withdraw", {"player": "blu"}),
        ("/organizer/partita", {"round": "1", "table": "1", "games": GAMES}),
        ("/organizer/table/start", {"round": "1", "table": "1", "game": "tiro"}),
        ("/organizer/cards", {}),
        ("/organizer/correct", {"match": "M1", "on": "1", "kind": "void", "do": "record"}),
    ]:
        assert client.post(path, data=data).status_code == 401, path
    assert client.get("/organizer/export/all.zip").status_code == 401
    assert store.recorder.max_notification_id() == before
    assert rounds(store) == 0


def test_a_forged_or_missing_csrf_token_is_refused_with_403(
    client: TestClient, store: Store
) -> None:
    log_in(client)
    assert client.post("/organizer/round/pair").status_code == 403
    assert client.post("/organizer/round/pair", data={"csrf": "forged"}).status_code == 403
    assert rounds(store) == 0


def test_the_organizer_pairs_a_round_and_downloads_the_exports(
    client: TestClient, store: Store
) -> None:
    token = log_in(client)
    r = client.post("/organizer/round/pair", data={"csrf": token})
    assert r.status_code == 200 and "giallo" in r.text
    assert rounds(store) == 1
    r = client.post("/organizer/round/pair", data={"csrf": token})
    assert "round 1 is not closed yet" in r.text and rounds(store) == 1
    r = client.get("/organizer/export/standings.csv")
    assert r.status_code == 200 and r.text.startswith("rank,player,points")
    assert client.get("/organizer/export/all.zip").content[:2] == b"PK"
    cookie = client.cookies.jar
    session = next(c for c in cookie if c.name == "session")
    assert (
        session.has_nonstandard_attr("HttpOnly")
        or "httponly"
        in str(
            session._rest  # type: ignore[attr-defined]
        ).lower()
    )


def test_the_session_cookie_is_httponly_and_samesite_strict(client: TestClient) -> None:
    r = client.get("/organizer/")
    cookie = r.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=strict" in cookie


def test_wrong_passphrases_are_rate_limited(client: TestClient, store: Store) -> None:
    token = csrf(client.get("/organizer/").text)
    for _ in range(5):
        r = client.post("/organizer/login", data={"csrf": token, "passphrase": "guess"})
        assert "wrong passphrase" in r.text
    r = client.post("/organizer/login", data={"csrf": token, "passphrase": PASSPHRASE})
    assert r.status_code == 429
    assert client.post("/organizer/round/pair", data={"csrf": token}).status_code == 401


def test_bodies_are_size_limited(client: TestClient, store: Store) -> None:
    token = log_in(client)
    r = client.post("/organizer/players", data={"csrf": token, "names": "x" * 100_000})
    assert r.status_code == 413
    assert len(day.get_tournament(store).players) == 2


def test_a_body_sent_in_chunks_is_counted_too(client: TestClient, store: Store) -> None:
    token = log_in(client)

    def chunks():  # no Content-Length: the limit counts what arrives
        yield f"csrf={token}&names=".encode()
        for _ in range(100):
            yield b"x" * 1000

    r = client.post(
        "/organizer/players",
        content=chunks(),
        headers={"content-type": "application/x-www-form-urlencoded"},
    )
    assert r.status_code == 413
    assert len(day.get_tournament(store).players) == 2


def test_a_correction_is_previewed_then_recorded(client: TestClient, store: Store) -> None:
    paired(store, client)
    token = log_in(client)
    table = issue(client, token)
    client.post(f"{table}/partita", data={"csrf": csrf(client.get(table).text), "games": GAMES})
    client.post(f"{table}/start", data={"csrf": csrf(client.get(table).text), "game": "tiro"})
    for by, kind, fields in TIRO:
        record(client, table, by, kind, **fields)
    form = {"csrf": token, "match": "M1", "on": "5", "kind": "void", "reason": "wrong player"}
    r = client.post("/organizer/correct", data={**form, "do": "preview"})
    assert r.status_code == 200 and "giallo 1" in r.text
    assert store.get_match("M1").lines[-1].find('"end"') > 0  # nothing stored by a preview
    r = client.post("/organizer/correct", data={**form, "do": "record"})
    assert "void recorded" in r.text
    assert '"void"' in store.get_match("M1").lines[-1]


# --- the referees --------------------------------------------------------------------------------


def test_tokens_are_stored_as_hashes_and_unknown_ones_are_refused(
    client: TestClient, store: Store, tmp_path: Path
) -> None:
    paired(store, client)
    table = issue(client, log_in(client))
    token = table.rsplit("/", 1)[1]
    assert len(token) >= 22  # 128 bits, URL-safe base 64
    with sqlite3.connect(tmp_path / "t.db") as conn:
        stored = [row[0] for row in conn.execute("select hash from web_tables")]
    assert stored == [token_hash(token)]
    other = make_client(store)
    with other:
        assert other.get(table).status_code == 200
        for _ in range(5):
            assert other.get("/table/AAAAAAAAAAAAAAAAAAAAAA").status_code == 404
        assert other.get(table).status_code == 429  # guessing stops even the right link


def test_a_table_link_expires_when_its_round_closes(client: TestClient, store: Store) -> None:
    paired(store, client)
    table = issue(client, log_in(client))
    t = day.get_tournament(store)
    t.amend_result(round=1, table=1, points={"giallo": 1, "blu": 0}, reason="test", by="organizer")
    day.save(store, t)
    refresh(store, client)
    day.close_round(store, outcome_of(store))
    assert client.get(table).status_code == 403
    before = store.recorder.max_notification_id()
    assert client.post(f"{table}/start", data={"game": "tiro"}).status_code == 403
    assert store.recorder.max_notification_id() == before


def test_a_referee_records_a_tiro_and_a_stale_page_stores_nothing(
    client: TestClient, store: Store
) -> None:
    paired(store, client)
    table = issue(client, log_in(client))
    page = client.get(table).text
    assert client.post(f"{table}/partita", data={"games": GAMES}).status_code == 403  # no CSRF
    client.post(f"{table}/partita", data={"csrf": csrf(page), "games": GAMES})
    client.post(f"{table}/start", data={"csrf": csrf(page), "game": "tiro"})
    stale = client.get(table).text
    html = record(client, table, *TIRO[0][:2], **TIRO[0][2])
    assert "roll giallo d6 6 6 5 1" in html
    # A second phone posts from the page drawn before that move: refused, drawn again.
    r = client.post(
        f"{table}/record",
        data={"csrf": csrf(stale), "match": "M1", "position": "0", "kind": "roll",
              "by": "blu", "die": "d6", "values": "5 4 2 1"},
    )  # fmt: skip
    assert "the match changed, here it is again" in r.text
    assert len(store.get_match("M1").lines) == 1
    r = client.post(
        f"{table}/record",
        data={"csrf": csrf(stale), "match": "M1", "position": "0", "kind": "text",
              "by": "", "text": "roll blu d6 5 4 2 1"},
    )  # fmt: skip
    assert "the match changed" in r.text and len(store.get_match("M1").lines) == 1
    html = record(client, table, "", "text", text="roll blu d6 9")
    assert 'class="flash bad"' in html and len(store.get_match("M1").lines) == 1
    html = record(client, table, "blu", "roll", die="d6", values="9 9 9 9")
    assert 'class="flash bad"' in html and len(store.get_match("M1").lines) == 1
    for by, kind, fields in TIRO[1:-1]:
        html = record(client, table, by, kind, **fields)
    # The last move is typed in the notation, as at the console.
    html = record(client, table, "", "text", text="expr blu (5+4+2):1")
    assert "end winners giallo" in html
    assert client.get("/api/matches/M1").json()["winners"] == ["giallo"]
    # A match of another table is not this token's to write.
    r = client.post(
        f"{table}/record",
        data={"csrf": csrf(html), "match": "M2", "position": "0", "kind": "pass", "by": "blu"},
    )
    assert "M2 is not a match of this table" in r.text


def test_sealed_words_stay_on_the_referees_page(tmp_path: Path) -> None:
    store = build(tmp_path / "t.db", plays="parola_nascosta", games=["parola_nascosta"])
    paired(store)
    with make_client(store) as client:
        table = issue(client, log_in(client))
        client.post(
            f"{table}/start", data={"csrf": csrf(client.get(table).text), "game": "parola_nascosta"}
        )
        record(client, table, "referee", "card", to="giallo", card="01")
        html = record(client, table, "giallo", "seal", word="segretissima")
        salt = re.search(r'class="salt">([0-9a-f]+)<', html)
        assert salt, "the referee sees the salt once"
        assert salt.group(1) not in client.get(table).text  # once
        hub = client.app.state.live  # type: ignore[attr-defined]
        hub.refresh()
        public = [
            client.get(p).text
            for p in ("/", "/api", "/matches/M1", "/api/matches/M1", "/standings")
        ] + [str(hub.since(0))]
        with sqlite3.connect(tmp_path / "t.db") as conn:
            public += [str(row) for row in conn.execute("select * from events")]
        for text in public:
            assert "segretissima" not in text and salt.group(1) not in text


def test_digital_dice_seeds_never_reach_the_public(tmp_path: Path) -> None:
    from engine.dice import seed_commitment
    from tournament.matches import record as record_event

    store = build(tmp_path / "t.db")
    paired(store)
    day.choose_partita(store, 1, 1, GAMES)
    number = day.start_match(store, 1, 1, "tiro").number
    seed = "f00dfeedcafe4242f00dfeedcafe4242"
    with sqlite3.connect(tmp_path / "t.db") as conn:  # where the console keeps it
        conn.execute("create table dice_seeds (match text primary key, seed text)")
        conn.execute("insert into dice_seeds values (?, ?)", [number, seed])
    record_event(store, number, {"type": "dice-commit", "by": "referee",
                                 "commitment": seed_commitment(seed)})  # fmt: skip
    with make_client(store) as client:
        hub = client.app.state.live  # type: ignore[attr-defined]
        hub.refresh()
        for text in [
            client.get(p).text
            for p in ("/", "/api", f"/matches/{number}", f"/api/matches/{number}")
        ] + [str(hub.since(0))]:
            assert seed not in text


def test_the_live_task_sees_every_event_whichever_process_wrote_it(
    client: TestClient, store: Store
) -> None:
    hub = client.app.state.live  # type: ignore[attr-defined]
    other = Store(Path(store.env.get("SQLITE_DBNAME")))  # as another process would
    start = hub.last
    day.pair_next_round(other, outcome_of(other))
    day.choose_partita(other, 1, 1, GAMES)
    number = day.start_match(other, 1, 1, "tiro").number
    from tournament.matches import record as record_event

    record_event(
        other, number, {"type": "roll", "by": "giallo", "die": "d6", "values": [6, 6, 5, 1]}
    )
    top = other.recorder.max_notification_id()
    deadline = time.monotonic() + 2
    while hub.last < top:  # the live task looks every 50 ms here
        assert time.monotonic() < deadline, "the live task did not see the writes"
        time.sleep(0.01)
    hub.refresh()  # what a listener that reconnects is sent again comes from the read models
    messages = hub.since(start)
    assert [m["id"] for m in messages] == list(range(start + 1, start + 1 + len(messages)))
    last = messages[-1]
    assert last == {
        "id": last["id"],
        "match": number,
        "position": 1,
        "type": "roll",
        "at": last["at"],
    }
    assert {m["match"] for m in messages} == {None, number}
    assert hub._poll() == []


def test_the_stream_sends_each_stored_event_within_a_second(server: object, store: Store) -> None:
    """A real server on 127.0.0.1: a move written by another process reaches /api/live."""
    import json as json_

    import httpx

    from tournament.matches import record as record_event

    url = server.url  # type: ignore[attr-defined]
    paired(store)
    day.choose_partita(store, 1, 1, GAMES)
    number = day.start_match(store, 1, 1, "tiro").number
    got: list[dict] = []
    with httpx.Client(timeout=5) as http, http.stream("GET", f"{url}/api/live") as stream:
        assert stream.headers["content-type"].startswith("text/event-stream")
        written = time.monotonic()
        record_event(store, number, {"type": "roll", "by": "giallo", "die": "d6",
                                     "values": [6, 6, 5, 1]})  # fmt: skip
        for line in stream.iter_lines():
            if line.startswith("data:"):
                got.append(json_.loads(line[5:]))
                if got[-1]["match"] == number and got[-1]["position"] == 1:
                    break
        delay = time.monotonic() - written
    last = got[-1]
    assert last == {
        "id": last["id"],
        "match": number,
        "position": 1,
        "type": "roll",
        "at": last["at"],
    }
    assert delay < 1.0


def test_the_organizer_registers_withdraws_chooses_and_starts(
    client: TestClient, store: Store
) -> None:
    token = log_in(client)
    r = client.post("/organizer/players", data={"csrf": token, "names": "verde\nrosso\n"})
    assert "+ verde, rosso" in r.text
    r = client.post("/organizer/players/withdraw", data={"csrf": token, "player": "rosso"})
    assert day.get_tournament(store).players["rosso"]["status"] == "withdrawn"
    client.post("/organizer/round/pair", data={"csrf": token})
    data = {"csrf": token, "round": "1", "table": "1"}
    r = client.post("/organizer/partita", data={**data, "games": GAMES[:3]})
    assert "a partita is four different games (CH-3)" in r.text
    client.post("/organizer/partita", data={**data, "games": GAMES})
    r = client.post("/organizer/table/start", data={**data, "game": "tiro"})
    assert "M1 started" in r.text
    assert day.get_tournament(store).table(1, 1)["matches"] == {"tiro": "M1"}


def test_a_bracket_in_both_languages(tmp_path: Path) -> None:
    store = build(tmp_path / "t.db", players=("a", "b", "c", "d"), format="elimination")
    paired(store)
    with make_client(store) as client:
        data = client.get("/api/bracket").json()
        assert [tb["players"] for tb in data["rounds"][0]["tables"]] == [["a", "d"], ["b", "c"]]
        assert "Turno 1" in client.get("/bracket").text
        client.get("/lang/en")
        assert "Round 1" in client.get("/bracket").text
