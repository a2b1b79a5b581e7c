"""What a recorded move costs the server (#27), kept correct: the rate limiter asks the store
for a client's count only while a failure may be in its window (any process's: heard within a
second), and a phone's JSON move answers with the table page's ``<main>``, the same as the page
drawn afresh."""

from __future__ import annotations

import re
from typing import Any

import pytest
from starlette.testclient import TestClient

from tournament.services import stores
from tournament.storage.store import Store

from .conftest import TIRO, csrf, make_client
from .test_festival import start_tiro

UNKNOWN = "/table/AAAAAAAAAAAAAAAAAAAAAA"


def counting(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """Every count of guesses asked of the store, from now on."""
    asked: list[list[str]] = []
    count = stores.count_guesses

    def counted(store: Any, keys: list[str], since: float) -> dict[str, int]:
        asked.append(keys)
        return count(store, keys, since)

    monkeypatch.setattr(stores, "count_guesses", counted)
    return asked


def test_a_table_request_asks_no_count_while_no_failure_is_kept(
    client: TestClient, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = start_tiro(client, store)
    asked = counting(monkeypatch)
    for _ in range(5):
        assert client.get(table).status_code == 200
    assert asked == []  # no failure anywhere: the store was asked for none
    assert client.get(UNKNOWN).status_code == 404  # a failure: counts are asked from now on
    assert asked == []
    assert client.get(table).status_code == 200
    assert len(asked) == 1 and asked[0][0].startswith("address ")


def test_the_limit_holds_across_two_processes_heard_within_the_look(
    client: TestClient, store: Store
) -> None:
    table = start_tiro(client, store)
    with make_client(Store(store.location.path)) as other:  # a second server over the store
        limit = other.app.state.guesses  # type: ignore[attr-defined]
        assert other.get(table).status_code == 200  # it looked: nothing failed anywhere
        looked = limit.looked
        session = ""
        for _ in range(limit.limit):  # a guesser at the first server
            r = client.get(UNKNOWN, headers={"Cookie": f"session={session}"})
            assert r.status_code == 404
            session = r.cookies.get("session") or session
            client.cookies.clear()
        stopped = {"Cookie": f"session={session}"}
        assert client.get(table, headers=stopped).status_code == 429
        # The second server heard no failure since its look; it looks again past `look`
        # seconds (here: its look moved back by them), and stops the guesser too.
        limit.looked = looked - limit.look
        assert other.get(table, headers=stopped).status_code == 429
        other.cookies.clear()
        assert other.get(table).status_code == 200  # another phone of the room still opens it


def main_of(html: str) -> str:
    found = re.search(r"<main .*</main>", html, re.S)
    assert found, html[:300]
    return found.group(0)


FLASH = re.compile(r'<p class="flash good" role="status">[^<]*</p>')


@pytest.mark.parametrize("lang", ["it", "en"])
def test_a_json_move_answers_with_the_page_as_drawn_afresh(
    client: TestClient, store: Store, lang: str
) -> None:
    """The page a move answers with is, byte for byte, the page a GET draws next (its flash
    saying the move aside: said once, with the answer), in each language (#27)."""
    client.cookies.set("lang", lang)
    table = start_tiro(client, store)
    page = client.get(table).text
    number = re.search(r'name="match" value="(M\d+)"', page).group(1)  # type: ignore[union-attr]
    at = 0
    for i, (by, kind, fields) in enumerate(TIRO, 1):
        body = {"csrf": csrf(page), "match": number, "at": at, "page": True,
                "fields": {"kind": kind, "by": by, **fields}}  # fmt: skip
        r = client.post(f"{table}/move", json=body)
        assert r.status_code == 200 and r.json()["status"] == "stored", r.text
        assert r.headers["content-encoding"] == "gzip"  # (ISA-L's fastest level, #27)
        at, answered = r.json()["position"], r.json()["page"]
        assert r.json()["reason"] in answered  # said in it
        assert (f'data-at="{at}"' in answered) == (i < len(TIRO))  # (the last ends the match)
        assert f'<html lang="{lang}">' in answered
        page = client.get(table).text  # drawn afresh: no flash left for it
        assert len(FLASH.findall(answered)) == 1 and not FLASH.search(page)
        assert FLASH.sub("", answered) == page
        assert main_of(answered) == main_of(page)
        assert 'href="/lang/' in answered and "?next=/table/" in answered  # back to the table
    refused = {"csrf": csrf(page), "match": number, "at": 0, "page": True,
               "fields": {"kind": "text", "text": "pass giallo"}}  # fmt: skip
    r = client.post(f"{table}/move", json=refused)
    assert r.json()["status"] == "conflict" and "page" not in r.json()


@pytest.mark.parametrize("lang", ["it", "en"])
def test_a_tables_log_says_what_the_sheets_log_says_kept_or_not(
    client: TestClient, store: Store, lang: str
) -> None:
    from engine.notation import format as notation
    from exports.eventlog import event_log
    from tournament.services import play
    from tournament.services.matches import load
    from tournament.web import tableview

    start_tiro(client, store)
    for move in ("roll giallo d6 6 6 5 1", "roll blu d6 5 4 2 1", "void 2 misread",
                 "roll blu d6 5 4 2 2"):  # fmt: skip
        play.record_move(store, "M1", move)
    replay = load(store, "M1").replay
    sheet = [
        {"position": r.position, "what": r.what, "notation": notation(e), "void": r.void}
        for r, e in zip(event_log(replay, lang), replay.events, strict=True)
    ]
    tableview.LINES.clear()
    assert tableview._log(replay, lang) == sheet  # drawn afresh
    assert tableview._log(replay, lang) == sheet  # and from the lines kept
    assert sheet[1]["void"] and not sheet[0]["void"]


def test_the_web_templates_read_their_globals_from_one_plain_dict(client: TestClient) -> None:
    """Each render copies its template's globals into the page's context: a plain dict, made
    once when the template is loaded (Jinja's ChainMap is read key by key every render, #27),
    holding every global of its language's environment."""
    for lang, env in client.app.state.envs.items():  # type: ignore[attr-defined]
        template = env.get_template("web/table.html")
        assert type(template.globals) is dict
        assert template.globals["lang"] == lang and set(env.globals) <= set(template.globals)


def test_the_pages_escape_what_they_show_as_markupsafe_does() -> None:
    from markupsafe import Markup, escape

    from tournament.web.pages import quick_escape

    for value in (
        "<b> & 'x' \"y\"",
        "giallo",
        "",
        3,
        -1,
        True,
        None,
        Markup("<i>già</i>"),
        "&amp;",
    ):
        assert str(quick_escape(value)) == str(escape(value)), value
