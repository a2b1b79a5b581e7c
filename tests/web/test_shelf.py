"""A page's cost follows what it shows (#27): the public pages kept on the server's shelf for
what they stand on (the store's position; a match's page, that match's stored rows), rendered
and compressed once, the same whether gzipped or not, changing when the store moves whoever
writes it; the standings of a festival trimmed to the top with the whole list a link away, in
the page's language."""

from __future__ import annotations

import gzip
import re
import subprocess
import sys
from typing import Any

import pytest
from starlette.testclient import TestClient

from tournament.readside import readmodels
from tournament.storage.store import Store
from tournament.web import trims, views

from .conftest import TIRO, build, make_client, paired, record
from .test_festival import start_tiro


def raw(client: TestClient, path: str, **headers: str) -> tuple[dict[str, str], bytes]:
    """The response's headers and its bytes as sent (not decoded)."""
    with client.stream("GET", path, headers=headers) as r:
        assert r.status_code == 200, path
        return dict(r.headers), b"".join(r.iter_raw())


def counting(monkeypatch: pytest.MonkeyPatch, name: str) -> list[int]:
    """Count the gatherings of one of the pages' views."""
    calls: list[int] = []
    real = getattr(views, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(views, name, counted)
    return calls


def test_a_page_is_gathered_once_a_position_and_moves_when_another_process_writes(
    any_db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = any_db  # a file, or a schema of the PostgreSQL server
    store = build(db)
    paired(store)
    gathered = counting(monkeypatch, "standings")
    with make_client(store) as client:
        first = client.get("/standings")
        again = client.get("/standings")
        english = client.get("/standings", headers={"Cookie": "lang=en"})
        api = client.get("/api/standings")
        assert first.content == again.content and first.headers["etag"] == again.headers["etag"]
        assert "Classifica" in first.text and "Standings" in english.text
        # Both languages from one gathering (the top of the standings), the JSON twin from
        # another (the whole list, #27).
        assert len(gathered) == 2
        assert {r["player"] for r in api.json()["rows"]} == {"giallo", "blu"}
        assert client.get("/api").json()["tournament"]["players"] == 2
        # Another process (a CLI call) writes the same file: the next load shows it.
        subprocess.run(
            [sys.executable, "-m", "tournament", "--db", str(db), "players", "add", "Rosso"],
            check=True, capture_output=True,
        )  # fmt: skip
        moved = client.get("/standings", headers={"If-None-Match": first.headers["etag"]})
        assert moved.status_code == 200 and moved.headers["etag"] != first.headers["etag"]
        assert len(gathered) == 3
        assert client.get("/api").json()["tournament"]["players"] == 3  # Rosso joins
        home = client.get("/")
        assert client.get("/", headers={"If-None-Match": home.headers["etag"]}).status_code == 304


def test_gzipped_and_plain_bodies_agree_and_are_compressed_once(
    client: TestClient, store: Store
) -> None:
    start_tiro(client, store)
    for path in ("/", "/standings", "/rounds/1", "/api/standings", "/matches/M1", "/screen"):
        zipped_headers, zipped = raw(client, path, **{"Accept-Encoding": "gzip"})
        plain_headers, plain = raw(client, path, **{"Accept-Encoding": "identity"})
        refused_headers, refused = raw(client, path, **{"Accept-Encoding": "gzip;q=0"})
        assert "content-encoding" not in plain_headers and "content-encoding" not in refused_headers
        assert refused == plain
        if zipped_headers.get("content-encoding") == "gzip":
            assert gzip.decompress(zipped) == plain, path
            assert raw(client, path, **{"Accept-Encoding": "gzip"})[1] == zipped  # kept bytes
        else:
            assert len(plain) < 1000 and zipped == plain, path
        assert zipped_headers["etag"] == plain_headers["etag"]
        assert "Accept-Encoding" in zipped_headers["vary"]


def test_a_match_page_stands_on_its_own_rows(
    client: TestClient, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = start_tiro(client, store)
    gathered = counting(monkeypatch, "match")
    first = client.get("/matches/M1")
    tag = first.headers["etag"]
    assert client.get("/matches/M1", headers={"If-None-Match": tag}).status_code == 304
    assert client.get("/matches/M1").content == first.content and len(gathered) == 1
    # The tournament moving elsewhere (a player added) leaves the match's page as it is...
    from tournament.services import day

    day.add_players(store, ["Viola"])
    readmodels.update(store)
    assert client.get("/matches/M1", headers={"If-None-Match": tag}).status_code == 304
    # ...a move in the match does not.
    seat, kind, fields = TIRO[0]
    record(client, table, seat, kind, **fields)
    moved = client.get("/matches/M1", headers={"If-None-Match": tag})
    assert moved.status_code == 200 and moved.headers["etag"] != tag
    assert len(gathered) == 2
    assert client.get("/matches/M999").status_code == 404


def test_the_home_page_and_a_rounds_page_read_that_round_only(
    client: TestClient, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    start_tiro(client, store)

    def every_match(*args: Any) -> Any:
        raise AssertionError("a round's page read every match's outcome")

    monkeypatch.setattr(readmodels, "outcomes", every_match)
    page = client.get("/")
    assert page.status_code == 200 and 'href="/matches/M1"' in page.text
    assert client.get("/api").json()["tournament"]["tables"][0]["waiting"][0]["match"] == "M1"
    assert client.get("/api/rounds/1").json()["tables"][0]["matches"] == {"tiro": "M1"}


@pytest.fixture(scope="module")
def festival(tmp_path_factory: pytest.TempPathFactory) -> Store:
    """A round of 60 players paired: more than the standings' top."""
    players = tuple(f"Giocatore {n:02}" for n in range(1, 61))
    store = build(tmp_path_factory.mktemp("festival") / "t.db", players=players)
    paired(store)
    return store


def rows(html: str) -> list[str]:
    # (a place the lot decided carries its mark after the rank)
    return re.findall(r'<tr(?: class="own")?><td>\d+(?: <abbr class="lot"[^>]*>†</abbr>)?</td>'
                      r'<td><a href="/players/[^"]+"><bdi>([^<]+)</bdi>', html)  # fmt: skip


def test_long_standings_show_the_top_with_the_whole_list_a_link_away(festival: Store) -> None:
    with make_client(festival) as client:
        whole = client.get("/api/standings").json()["rows"]
        assert len(whole) == 60  # the JSON twin is whole
        page = client.get("/standings").text
        assert rows(page) == [r["player"] for r in whole[: trims.TOP]]
        assert '<a href="/standings?all=1">Mostra tutti i 60 giocatori</a>' in page
        assert "Il tuo nome in classifica" in page
        everyone = client.get("/standings?all=1").text
        assert rows(everyone) == [r["player"] for r in whole] and "?all=1" not in everyone
        # The visitor's own row after the top, marked; an unknown name said so.
        last = whole[-1]["player"]
        mine = client.get("/standings", params={"player": last.upper()}).text
        assert rows(mine)[-1] == last and len(rows(mine)) == trims.TOP + 1
        own = r'<tr class="own"><td>\d+(?: <abbr class="lot"[^>]*>†</abbr>)?</td><td><a[^>]*><bdi>'
        assert re.search(own + last, mine)
        assert "Nessuno non è in classifica" in client.get("/standings?player=Nessuno").text
        english = client.get("/standings", headers={"Cookie": "lang=en"}).text
        assert "Show all 60 players" in english and "Your name in the standings" in english
        assert "Mostra" not in english


def test_the_shelf_keeps_the_latest_pages_within_its_bounds() -> None:
    from tournament.web.shelf import Shelf

    shelf = Shelf(size=3, most=5000)
    for n in range(4):
        shelf.put(n, 1, "", b"x" * 100, "text/html")
    assert shelf.get(0, 1) is None and shelf.get(3, 1) is not None  # the oldest went first
    assert shelf.get(3, 2) is None  # another position: not this page
    kept = shelf.put("big", 1, "", bytes(range(256)) * 16, "text/html")
    assert kept.gzipped is not None and gzip.decompress(kept.gzipped) == kept.body
    assert shelf.bytes <= 5000 and shelf.get("big", 1) is kept
