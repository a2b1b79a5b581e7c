"""What a table's page keeps between moves (#27): a finished challenge's row by its match's
head and each line of its log as drawn, each followed when another process changes the match
behind the server's back, and each in the page's own language."""

from __future__ import annotations

import re
from pathlib import Path

from starlette.testclient import TestClient

from tournament.services import corrections
from tournament.storage.store import Store
from tournament.web import tableview

from .conftest import TIRO, record
from .test_festival import start_tiro


def challenges(page: str) -> str:
    found = re.search(r'<ul class="plain">(.*?)</ul>', page, re.S)
    assert found, page[:300]
    return found.group(1)


def log_of(page: str) -> list[str]:
    found = re.search(r'<ol class="log">(.*?)</ol>', page, re.S)
    assert found, page[:300]
    return re.findall(r"<li[^>]*>.*?</li>", found.group(1))


def test_a_finished_challenge_corrected_by_another_process_is_shown_as_stored(
    client: TestClient, store: Store
) -> None:
    table = start_tiro(client, store)
    for by, kind, fields in TIRO:
        page = record(client, table, by, kind, **fields)
    texas = {"csrf": re.search(r'name="csrf" value="([^"]+)"', page).group(1), "game": "texas"}  # type: ignore[union-attr]
    client.post(f"{table}/start", data=texas)
    page = client.get(table).text
    assert "M1 · finita" in challenges(page) and "M2 · in corso" in challenges(page)
    assert client.get(table).text.count("M1 · finita") == 1  # (its row kept now)
    # Another process (a CLI call) strikes the Tiro's last move: the match is in play again.
    other = Store(store.location.path)
    corrections.record_correction(other, "M1", "void 5 misread", confirmed=True)
    page = client.get(table).text
    assert "M1 · in corso" in challenges(page), challenges(page)
    assert "<h2>M1 · " in page  # the match in play again is the one the page records
    assert 'class="void"' in "".join(log_of(page))


def test_the_log_kept_speaks_each_pages_language_and_follows_a_void_behind_its_back(
    client: TestClient, store: Store
) -> None:
    table = start_tiro(client, store)
    for by, kind, fields in TIRO[:3]:
        record(client, table, by, kind, **fields)
    italian = log_of(client.get(table).text)
    english = log_of(client.get(table, headers={"Cookie": "lang=en"}).text)
    assert len(italian) == len(english) == 3
    assert "tira" in italian[0] and "notazione" in italian[0] and "rolls" not in italian[0]
    assert "rolls" in english[0] and "<details" not in english[0]
    assert italian == log_of(client.get(table).text)  # drawn again from the lines kept
    assert any(key[0] == "en" for key in tableview.HTML_LINES)
    # Another process strikes the second move: its line, kept unstruck, is drawn struck.
    corrections.record_correction(
        Store(store.location.path), "M1", "void 2 misread", confirmed=True
    )
    for cookie in ("lang=it", "lang=en"):
        lines = log_of(client.get(table, headers={"Cookie": cookie}).text)
        assert 'class="void"' in lines[1] and 'class="void"' not in lines[0]
        assert len(lines) == 4  # and the void itself


def test_a_table_checked_out_by_another_process_after_a_move_is_said_and_kept_from(
    client: TestClient, store: Store, tmp_path: Path
) -> None:
    from tournament.services import tablefiles

    table = start_tiro(client, store)
    by, kind, fields = TIRO[0]
    page = record(client, table, by, kind, **fields)  # the server read its table events on
    assert 'class="flash bad out"' not in page
    other = Store(store.location.path)
    tablefiles.checkout(other, 1, 1, tmp_path / "table.db")  # behind the server's back
    page = client.get(table).text
    assert 'class="flash bad out"' in page and "table.db" in page
    by, kind, fields = TIRO[1]
    page = record(client, table, by, kind, **fields)
    assert 'class="flash bad"' in page  # refused: the table is the file's now
    assert len(log_of(page)) == 1  # nothing stored
