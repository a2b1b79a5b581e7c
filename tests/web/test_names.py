"""Hostile names on the organizer's pages (#29): look-alikes, invisible and overlong names
refused at /organizer/players; names isolated (<bdi>) on the pages; a flash message small
enough for the session's cookie; a player's page for a huge name never a 500."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from tests.web.conftest import GAMES, build, log_in, make_client
from tests.web.test_organizer import said
from tournament.readside import readmodels
from tournament.services import day
from tournament.services.stored import get_tournament, save
from tournament.storage.store import Store

INVISIBLE = "il nome di un giocatore non può contenere un carattere invisibile o di controllo"
COOKIE_MOST = 4096  # bytes: a browser drops a longer cookie


@pytest.mark.parametrize(
    ("name", "italian"),
    [
        ("gi\u200dallo", f"{INVISIBLE} (U+200D)"),
        ("blu\u200b", f"{INVISIBLE} (U+200B)"),
        ("\u200b", f"{INVISIBLE} (U+200B)"),
        ("\u2800", f"{INVISIBLE} (U+2800)"),
        ("\u202eollaig", f"{INVISIBLE} (U+202E)"),
        ("gi\x1b[2Jallo", f"{INVISIBLE} (U+001B)"),
        ("g\u0456allo", "g\u0456allo (come giallo) è già iscritto"),  # Cyrillic і
        ("x" * 61, "il nome di un giocatore ha al massimo 60 caratteri, non 61"),
    ],
)
def test_a_look_alike_invisible_or_overlong_name_is_refused(
    client: TestClient, store: Store, name: str, italian: str
) -> None:
    token = log_in(client)
    r = client.post("/organizer/players", data={"csrf": token, "names": f"verde\n{name}"})
    assert said(r.text) == italian
    assert list(day.get_tournament(store).players) == ["giallo", "blu"]  # not even verde


def set_cookies(r) -> list[bytes]:  # type: ignore[no-untyped-def]
    return [v for k, v in r.headers.raw if k.lower() == b"set-cookie"]


@pytest.mark.parametrize("name", ["x" * 3000, "\u0436" * 3000, "\U0001f600" * 3000])
def test_a_long_name_gives_a_short_refusal_that_the_cookie_carries(
    client: TestClient, name: str
) -> None:
    token = log_in(client)
    long_refusal = "\n".join(["verde", "giallo" + "\u0436" * 50, name])  # 20 kB of form
    for names in (name, long_refusal):
        r = client.post(
            "/organizer/players", data={"csrf": token, "names": names}, follow_redirects=False
        )
        assert r.status_code == 303
        cookies = set_cookies(r)
        assert cookies and all(len(c) < COOKIE_MOST for c in cookies), [len(c) for c in cookies]
        assert "al massimo 60 caratteri" in said(client.get("/organizer/").text)


def test_a_long_confirmation_is_cut_with_an_ellipsis(client: TestClient, store: Store) -> None:
    token = log_in(client)
    many = ["\u0436" * 59 + str(i) for i in range(10)]  # 10 names of 60 Cyrillic letters
    r = client.post(
        "/organizer/players", data={"csrf": token, "names": "\n".join(many)}, follow_redirects=False
    )
    assert all(len(c) < COOKIE_MOST for c in set_cookies(r))
    shown = said(client.get("/organizer/").text)
    assert shown.startswith("+ " + "\u0436" * 39 + "…, ") and shown.endswith("…")
    assert list(day.get_tournament(store).players)[2:] == many  # stored whole


def test_names_are_isolated_on_the_pages(tmp_path: Path) -> None:
    store = build(tmp_path / "t.db")
    t = get_tournament(store)
    t.register(player="\u202eollaig", by="organizer")  # as an earlier version stored it
    save(store, t)
    day.pair_next_round(store)
    readmodels.update(store)
    with make_client(store) as client:
        for path in ("/", "/rounds/1", "/standings", "/players/%E2%80%AEollaig"):
            page = client.get(path).text
            assert "<bdi>\u202eollaig</bdi>" in page, path
            # the pairing's reason is a sentence of web/words.py's (its names not yet isolated)
            page = re.sub(r'<div class="small">.*?</div>', "", page, flags=re.S)
            page = re.sub(r"<title>.*?</title>", "", page, flags=re.S)  # text only: no <bdi>
            assert not re.search(r"[^>]\u202eollaig|\u202eollaig[^<]", page), path


def test_a_huge_name_on_the_players_page_is_never_a_500(client: TestClient) -> None:
    huge = "x" * 60_000
    r = client.get(f"/players/{huge}")
    assert r.status_code == 404 and "x" * 100 in html.unescape(r.text)


def test_a_huge_name_stored_before_has_its_page(tmp_path: Path) -> None:
    store = build(tmp_path / "t.db")
    huge = "x" * 60_000
    t = get_tournament(store)
    t.register(player=huge, by="organizer")  # as an earlier version stored it
    save(store, t)
    readmodels.update(store)
    with make_client(store) as client:
        token = log_in(client)
        client.post("/organizer/round/pair", data={"csrf": token})
        data = {"csrf": token, "round": "1", "table": "1"}
        client.post("/organizer/partita", data={**data, "games": GAMES})
        client.post("/organizer/table/start", data={**data, "game": "tiro"})
        assert get_tournament(store).table(1, 1)["matches"] == {"tiro": "M1"}  # a match row
        r = client.get(f"/players/{huge}")
        assert r.status_code in (200, 404), r.status_code
