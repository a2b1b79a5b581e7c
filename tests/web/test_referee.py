"""The referees' table pages, their tokens, secrets that stay private, and the live stream."""

from __future__ import annotations

import re
import sqlite3
import time
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from engine.dice import DEFAULT_FACES
from tests.tournament.conftest import raw_rows
from tournament.readside import readmodels
from tournament.services import day, dice, tables
from tournament.services.matches import load
from tournament.storage.store import Store
from tournament.web.security import token_hash

from .conftest import (
    GAMES,
    TIRO,
    Server,
    build,
    csrf,
    issue,
    log_in,
    make_client,
    paired,
    record,
    refresh,
)

# --- the referees --------------------------------------------------------------------------------


def test_tokens_are_stored_as_hashes_and_unknown_ones_are_refused(any_db: str) -> None:
    store = build(any_db)  # the links live where the store is: the file, or the server
    with make_client(store) as client:
        paired(store, client)
        table = issue(client, log_in(client))
    token = table.rsplit("/", 1)[1]
    assert len(token) >= 22  # 128 bits, URL-safe base 64
    assert raw_rows(store, "select hash from web_tables") == [(token_hash(token),)]
    other = make_client(store)
    with other:
        assert other.get(table).status_code == 200
        for _ in range(5):
            unknown = other.get("/table/AAAAAAAAAAAAAAAAAAAAAA")
            assert unknown.status_code == 404
            assert "questo link di tavolo non è conosciuto" in unknown.text  # a page, a way on
            assert '<a href="/">' in unknown.text
        assert other.get(table).status_code == 429  # guessing stops even the right link


def test_a_table_link_expires_when_its_round_closes(client: TestClient, store: Store) -> None:
    paired(store, client)
    table = issue(client, log_in(client))
    t = day.get_tournament(store)
    t.amend_result(round=1, table=1, points={"giallo": 1, "blu": 0}, reason="test", by="organizer")
    day.save(store, t)
    refresh(store, client)
    day.close_round(store)
    assert client.get(table).status_code == 403
    before = store.recorder.max_notification_id()
    assert client.post(f"{table}/start", data={"game": "tiro"}).status_code == 403
    assert store.recorder.max_notification_id() == before


def test_a_move_posted_as_its_round_closes_is_refused_in_the_writers_turn(
    client: TestClient, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tournament.web import actions, referee

    paired(store, client)
    table = issue(client, log_in(client))
    page = client.get(table).text
    client.post(f"{table}/partita", data={"csrf": csrf(page), "games": GAMES})
    client.post(f"{table}/start", data={"csrf": csrf(page), "game": "tiro"})
    page = client.get(table).text
    t = day.get_tournament(store)
    t.amend_result(round=1, table=1, points={"giallo": 1, "blu": 0}, reason="test", by="organizer")
    day.save(store, t)
    refresh(store, client)

    def closing_first(*args: object, **kwargs: object) -> object:
        day.close_round(store)  # the organizer closes the round as the move is on its way
        return actions.writer(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(referee, "writer", closing_first)
    by, kind, fields = TIRO[0]
    r = client.post(f"{table}/record", data={"csrf": csrf(page), "match": "M1", "position": "0",
                                             "kind": kind, "by": by, **fields})  # fmt: skip
    assert "il turno 1 è chiuso" in r.text  # the link expired, said as the page says it
    assert store.get_match("M1").lines == []  # nothing stored in the closed round's match


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
    # Said in the page's language (Italian by default), as every refusal on the pages.
    assert "la partita è cambiata da quando l&#39;hai guardata: M1" in r.text
    assert len(store.get_match("M1").lines) == 1
    r = client.post(
        f"{table}/record",
        data={"csrf": csrf(stale), "match": "M1", "position": "0", "kind": "text",
              "by": "", "text": "roll blu d6 5 4 2 1"},
    )  # fmt: skip
    assert "la partita è cambiata" in r.text and len(store.get_match("M1").lines) == 1
    html = record(client, table, "", "text", text="roll blu d6 9")
    assert 'class="flash bad"' in html and len(store.get_match("M1").lines) == 1
    html = record(client, table, "blu", "roll", die="d6", values="9 9 9 9")
    assert 'class="flash bad"' in html and len(store.get_match("M1").lines) == 1
    for by, kind, fields in TIRO[1:-1]:
        html = record(client, table, by, kind, **fields)
    # The last move is typed in the notation, as at the console.
    html = record(client, table, "", "text", text="expr blu (5+4+2):1")
    assert "fine: vince giallo" in html  # what was stored, in the page's language
    assert client.get("/api/matches/M1").json()["winners"] == ["giallo"]
    assert "Vincitore: <b>giallo</b>" in client.get("/matches/M1").text  # one: said as one
    # The finished match's head is kept in the tournament after the answer (#27), soon.
    deadline = time.monotonic() + 5
    while "M1" not in day.get_tournament(store).heads:
        assert time.monotonic() < deadline, "the head of M1 was never recorded"
        time.sleep(0.02)
    assert day.get_tournament(store).heads["M1"][1] == store.get_match("M1").head
    # A match of another table is not this token's to write.
    r = client.post(
        f"{table}/record",
        data={"csrf": csrf(html), "match": "M2", "position": "0", "kind": "pass", "by": "blu"},
    )
    assert "M2 non è una partita di questo tavolo" in r.text


def parola_started(client: TestClient) -> str:
    """The table page's link of a La parola nascosta just started."""
    table = issue(client, log_in(client))
    client.post(
        f"{table}/start", data={"csrf": csrf(client.get(table).text), "game": "parola_nascosta"}
    )
    return table


def test_sealed_words_stay_on_the_referees_page(tmp_path: Path) -> None:
    store = build(tmp_path / "t.db", plays="parola_nascosta", games=["parola_nascosta"])
    paired(store)
    with make_client(store) as client:
        table = parola_started(client)
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


def test_digital_dice_roll_on_the_referees_page_and_the_seed_stays_there(any_db: str) -> None:
    from engine.dice import digital_roll

    store = build(any_db)
    paired(store)
    with make_client(store) as client:
        table = issue(client, log_in(client))
        page = client.get(table).text
        client.post(f"{table}/partita", data={"csrf": csrf(page), "games": GAMES})
        client.post(f"{table}/start", data={"csrf": csrf(page), "game": "tiro", "digital": "1"})
        seed = dice.seed(store, "M1")
        assert seed and len(seed) == 32
        page = client.get(table).text
        assert 'name="values"' not in page  # the program rolls: no faces to type
        record(client, table, "giallo", "roll", die="d6", digital="1")
        html = record(client, table, "blu", "roll", die="d6", digital="1")
        rolled = load(store, "M1").replay.events[-1]
        assert rolled.digital and rolled.values == digital_roll(seed, 3, "d6", 4, DEFAULT_FACES)
        assert f"roll blu d6 {' '.join(map(str, rolled.values))} digital" in html
        hub = client.app.state.live  # type: ignore[attr-defined]
        hub.refresh()

        def everything_shown() -> list[str]:
            pages = ("/", "/api", "/matches/M1", "/api/matches/M1", "/standings",
                     "/api/standings", "/players/giallo", "/api/players/giallo", "/rounds/1",
                     "/api/rounds/1", table)  # fmt: skip
            rows = readmodels.database(store).rows("select * from events")
            return [client.get(p).text for p in pages] + [str(hub.since(0)), str(rows)]

        assert not [text for text in everything_shown() if seed in text]
        # The match ends (both expressions time out): the seed is revealed and proves the rolls.
        record(client, table, "giallo", "roll", die="d20", digital="1")
        record(client, table, "giallo", "timeout")
        record(client, table, "blu", "timeout")
        assert load(store, "M1").replay.dice_reveal_at is not None
        hub.refresh()
        shown = client.get("/api/matches/M1").json()
        assert shown["verified"] and any(seed in str(row) for row in shown["timeline"])


def first_roll(message: dict) -> tuple[str, int, str]:
    """A stream message's match, position and type (checking it carries nothing else)."""
    assert set(message) == {"id", "match", "position", "type", "at", "round", "standings"}
    return message["match"], message["position"], message["type"]


def test_the_live_task_sees_every_event_whichever_process_wrote_it(
    client: TestClient, store: Store
) -> None:
    hub = client.app.state.live  # type: ignore[attr-defined]
    other = Store(Path(store.env.get("SQLITE_DBNAME")))  # as another process would
    start = hub.last
    day.pair_next_round(other)
    tables.choose_partita(other, 1, 1, GAMES)
    number = tables.start_match(other, 1, 1, "tiro").number
    from tournament.services.matches import record as record_event

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
    assert first_roll(messages[-1]) == (number, 1, "roll")
    assert {m["match"] for m in messages} == {None, number}
    assert hub._poll() == []


def test_the_stream_sends_each_stored_event_within_a_second(server: object, store: Store) -> None:
    """A real server on 127.0.0.1: a move written by another process reaches /api/live."""
    import json as json_

    import httpx

    from tournament.services.matches import record as record_event

    url = server.url  # type: ignore[attr-defined]
    paired(store)
    tables.choose_partita(store, 1, 1, GAMES)
    number = tables.start_match(store, 1, 1, "tiro").number
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
    assert first_roll(got[-1]) == (number, 1, "roll")
    assert delay < 1.0


def test_a_write_by_another_process_reaches_the_stream_within_a_second(any_db: str) -> None:
    """A real server on 127.0.0.1, on either backend; the CLI writes in a process of its own."""
    import json as json_
    import subprocess
    import sys
    from datetime import datetime

    import httpx

    with Server(build(any_db)) as server, httpx.Client(timeout=10) as http:
        with http.stream("GET", f"{server.url}/api/live") as stream:
            subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "tournament",
                    "--db",
                    any_db,
                    "match",
                    "new",
                    "tiro",
                    "giallo",
                    "blu",
                ],  # fmt: skip
                check=True,
                capture_output=True,
            )
            for line in stream.iter_lines():
                if line.startswith("data:"):
                    message = json_.loads(line[5:])
                    break
            delay = time.time() - datetime.fromisoformat(message["at"]).timestamp()
    assert first_roll(message) == ("M1", 0, "Match.Started")
    assert delay < 1.0


def test_a_parola_nascosta_page_names_who_acts_once_a_player(tmp_path: Path) -> None:
    """The player to guess may also show their word (PN-3, PN-4): one box for them, with both
    moves, never two boxes naming them."""
    store = build(tmp_path / "t.db", plays="parola_nascosta", games=["parola_nascosta"])
    paired(store)
    with make_client(store) as client:
        table = parola_started(client)
        for to, card in (("giallo", "01"), ("blu", "02"), ("table", "03")):
            record(client, table, "referee", "card", to=to, card=card)
        record(client, table, "giallo", "seal", word="cassaforte")
        record(client, table, "blu", "seal", word="ombrello")
        html = record(client, table, "referee", "start", player="giallo")
        boxes = re.findall(r'<section class="acts" data-player="([^"]+)">', html)
        assert sorted(boxes) == ["blu", "giallo"]  # one box each
        assert html.count("Tocca a: <bdi>giallo</bdi>") == 1
        mine = html.split('data-player="giallo">')[1].split("</section>")[0]
        assert 'value="guess"' in mine and 'value="reveal"' in mine
        # blu may only show their word (PN-3, optional): not their turn, the page says so.
        assert "Tocca a: <bdi>blu</bdi>" not in html
        assert html.count("Può rivelare la parola: <bdi>blu</bdi>") == 1
        english = client.get(table, headers={"Cookie": "lang=en"}).text
        assert "May reveal their word: <bdi>blu</bdi>" in english
        assert "To act: <bdi>giallo</bdi>" in english and "To act: <bdi>blu</bdi>" not in english


INFINITIVE = re.compile(r"\b\w+(?:are|ere|ire)\b")  # tirare, scegliere, ... (no button says one)


def buttons(html: str) -> list[str]:
    return [
        re.sub(r"<[^>]+>", "", b).strip() for b in re.findall(r"<button[^>]*>(.*?)</button>", html)
    ]


def test_the_table_pages_buttons_say_what_to_do_in_the_imperative(tmp_path: Path) -> None:
    store = build(tmp_path / "t.db", plays="parola_nascosta", games=["parola_nascosta"])
    paired(store)
    with make_client(store) as client:
        table = parola_started(client)
        pages = [record(client, table, "referee", "card", to="giallo", card="01")]
        record(client, table, "referee", "card", to="blu", card="02")
        record(client, table, "referee", "card", to="table", card="03")
        record(client, table, "giallo", "seal", word="cassaforte")
        pages.append(record(client, table, "blu", "seal", word="ombrello"))
        pages.append(record(client, table, "referee", "start", player="giallo"))
        said = [b for page in pages for b in buttons(page)]
        assert {"Dai la carta", "Sigilla", "Indica chi comincia", "Indovina la parola", "Rivela",
                "Registra", "Annulla una mossa"} <= set(said)  # fmt: skip
        assert not [b for b in said if INFINITIVE.search(b)], said
        english = buttons(client.get(table, headers={"Cookie": "lang=en"}).text)
        assert {"Guess the word", "Reveal", "Record"} <= set(english)
