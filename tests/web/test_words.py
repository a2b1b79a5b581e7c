"""The pages in Italian (the default) carry no English: the engine's messages are said in the
page's language, the kinds of move, the dice and the games too. The notation of moves, shown in
``<code>``, is the same in both languages (docs/format.md) and is not looked at."""

from __future__ import annotations

import re
from pathlib import Path

from starlette.testclient import TestClient

from exports.i18n import translator
from tests.exports import test_i18n
from tests.exports.test_i18n import PROPER, Text, played_words

from .conftest import GAMES, TIRO, build, csrf, issue, log_in, make_client, paired, record

# The sheets' list, and words only the pages could show.
ENGLISH = (*test_i18n.ENGLISH, "active", "withdrawn", "dropped", "salt", "table", "start",
           "pass", "timeout", "expression", "choose", "state", "position", "move")  # fmt: skip


def english_in(text: str, played: frozenset[str] = frozenset()) -> list[str]:
    """The list's words in ``text`` (but for words played at the table)."""
    words = re.findall(r"[A-Za-z]+", re.sub(r"\w+(?:-\w+)+", " ", text))
    return sorted({w for w in words if w.lower() in ENGLISH and w.lower() not in played})


class Shown(Text):
    """A page's text as a reader sees it, without the notation's code."""

    HIDDEN = ("style", "svg", "title", "code")

    def handle_starttag(self, tag: str, attrs: object) -> None:
        self.hidden += tag in self.HIDDEN

    def handle_endtag(self, tag: str) -> None:
        self.hidden -= tag in self.HIDDEN


def shown(html: str) -> str:
    parser = Shown()
    parser.feed(html)
    text = " ".join(parser.parts)
    for name in PROPER:
        text = text.replace(name, "")
    return text


def test_the_detector_skips_the_notation_only() -> None:
    assert english_in(shown("<p>tira <code>roll giallo d6 5</code></p>")) == []
    assert english_in(shown("<p>target not rolled</p>")) == ["not", "rolled", "target"]


def tiro_started(client: TestClient) -> str:
    """Table 1's link, its partita chosen and its Tiro started."""
    table = issue(client, log_in(client))
    page = client.get(table).text
    client.post(f"{table}/partita", data={"csrf": csrf(page), "games": GAMES})
    client.post(f"{table}/start", data={"csrf": csrf(page), "game": "tiro"})
    return table


def test_the_referee_and_public_pages_speak_italian(tmp_path: Path) -> None:
    store = build(tmp_path / "t.db")
    paired(store)
    with make_client(store) as client:
        table = tiro_started(client)
        pages = {"table, before a roll": client.get(table).text}
        for by, kind, fields in TIRO[:3]:
            record(client, table, by, kind, **fields)
        pages["table, target rolled"] = client.get(table).text
        pages["table, a void"] = record(client, table, "referee", "void", on="3", reason="errore")
        for by, kind, fields in [TIRO[2], *TIRO[3:]]:
            record(client, table, by, kind, **fields)
        page = client.get(table).text
        client.post(f"{table}/start", data={"csrf": csrf(page), "game": "texas"})
        record(client, table, "blu", "roll", die="consonant", values="T N")
        pages["table, texas"] = client.get(table).text
        client.app.state.live.refresh()  # type: ignore[attr-defined]
        for path in ("/", "/standings", "/rounds/1", "/players/giallo", "/matches/M1",
                     "/matches/M2", "/organizer/"):  # fmt: skip
            pages[path] = client.get(path).text
        played = played_words(store)
        assert "tira il dado" in shown(pages["table, texas"])  # said, not left out
        assert "Tiro di precisione" in pages["table, texas"]
        english = {name: english_in(shown(html), played) for name, html in pages.items()}
        assert {name: found for name, found in english.items() if found} == {}
        client.get("/lang/en")
        assert "roll consonant x" in client.get(table).text  # the engine's own words


def queue_words(html: str) -> dict[str, str]:
    section = re.search(r'<section id="queue"[^>]*>', html)
    assert section, "the table page has no offline queue"
    return dict(re.findall(r'data-(\w+)="([^"]*)"', section.group(0)))


def test_a_table_page_speaks_its_own_language_whichever_was_drawn_before(tmp_path: Path) -> None:
    """The offline queue's words are said once per language (#27): an Italian page and an
    English one drawn by the same process, in turn, each say their own; a refused move's
    fields are filled again on the page that refuses it."""
    store = build(tmp_path / "t.db")
    paired(store)
    with make_client(store) as client:
        table = tiro_started(client)
        said = {}
        for lang in ("it", "en", "it", "en"):
            client.cookies.set("lang", lang)
            said.setdefault(lang, []).append(queue_words(client.get(table).text))
        for lang, pages in said.items():
            t = translator(lang)
            assert pages[0] == pages[1]
            assert pages[0]["discard"] == t.gettext("Discard")
            assert pages[0]["offline"] == t.gettext(
                "No network: the moves stay on this phone and are sent when the server answers "
                "again."
            )
            one = t.ngettext(
                "%(num)s move waiting to be sent", "%(num)s moves waiting to be sent", 1
            )
            assert pages[0]["one"] == one % {"num": 1}
        assert said["it"][0]["one"] == "1 mossa in attesa di invio"
        assert said["en"][0]["many"] == "{n} moves waiting to be sent"
        assert said["it"][0]["discard"] != said["en"][0]["discard"]
        client.cookies.set("lang", "it")
        html = record(client, table, "blu", "roll", die="d6", values="9 9 9 9")  # out of turn
        assert 'class="flash bad"' in html and 'name="values" value="9 9 9 9"' in html
        assert html.count('value="9 9 9 9"') == 1  # in blu's field only
