"""#29: a 5,000-digit number on a form is answered with one sentence of ours, in the page's
language (Python's own reading says "Exceeds the limit (4300 digits)...", in English), and
nothing is stored."""

from __future__ import annotations

import html
import re

from starlette.testclient import TestClient

from tournament.storage.store import Store

from .conftest import GAMES, csrf, issue, log_in, paired

BIG = "9" * 5000
ITALIAN = "un numero ha al massimo 18 cifre ({name})"
ENGLISH = "a number has at most 18 digits ({name})"


def said(response: object) -> tuple[int, str, bool]:
    """The answer's status, its flash and whether the flash says a refusal."""
    text = response.text  # type: ignore[attr-defined]
    found = re.search(r'<p class="flash([^"]*)"[^>]*>(.*?)</p>', text, re.S)
    assert found, "the answer shows no flash"
    status = response.status_code  # type: ignore[attr-defined]
    return status, html.unescape(found.group(2)).strip(), "bad" in found.group(1)


def test_a_5000_digit_number_on_the_referees_page(client: TestClient, store: Store) -> None:
    paired(store, client)
    table = issue(client, log_in(client))
    page = client.get(table).text
    client.post(f"{table}/partita", data={"csrf": csrf(page), "games": GAMES})
    client.post(f"{table}/start", data={"csrf": csrf(page), "game": "tiro"})
    base = {"csrf": csrf(page), "match": "M1", "position": "0", "by": "giallo"}
    forms = [
        ("position", {**base, "position": BIG, "kind": "pass"}),
        ("values", {**base, "kind": "roll", "die": "d6", "values": f"{BIG} 1 1 1"}),
        ("value", {**base, "kind": "choose", "value": BIG}),
        ("dice", {**base, "kind": "reroll", "dice": BIG, "values": "1"}),
        ("on", {**base, "kind": "void", "on": BIG, "reason": "x"}),
        ("text", {**base, "kind": "text", "text": f"roll giallo d6 {BIG},1,1,1"}),
        ("text", {**base, "kind": "text", "text": f"void {BIG} x"}),
    ]
    before = store.recorder.max_notification_id()
    for sentence in (ITALIAN, "/lang/en", ENGLISH):
        if sentence.startswith("/"):
            client.get(sentence)
            continue
        for name, form in forms:
            answer = client.post(f"{table}/record", data=form)
            assert said(answer) == (200, sentence.format(name=name), True), name
    assert store.recorder.max_notification_id() == before
    assert len(store.get_match("M1").lines) == 0
    # A superscript is a digit to str.isdigit() and not to int(): the engine judges it.
    form = {**base, "kind": "roll", "die": "d6", "values": "² 1 1 1"}
    assert "'²'" in said(client.post(f"{table}/record", data=form))[1]


def test_a_5000_digit_number_on_the_organizers_page(client: TestClient, store: Store) -> None:
    token = log_in(client)
    client.post("/organizer/round/pair", data={"csrf": token})
    forms = [
        ("/organizer/partita", "round", {"round": BIG, "table": "1", "games": GAMES}),
        ("/organizer/table/start", "table", {"round": "1", "table": BIG, "game": "tiro"}),
        ("/organizer/correct", "on", {"match": "M1", "on": BIG, "kind": "void", "reason": "x"}),
    ]
    before = store.recorder.max_notification_id()
    for sentence in (ITALIAN, "/lang/en", ENGLISH):
        if sentence.startswith("/"):
            client.get(sentence)
            continue
        for path, name, form in forms:
            answer = client.post(path, data={"csrf": token, **form})
            assert said(answer) == (200, sentence.format(name=name), True), path
    assert store.recorder.max_notification_id() == before


def test_a_5000_digit_number_in_a_typed_move_or_an_amendment_is_a_refusal(
    client: TestClient, store: Store
) -> None:
    """A typed move (the notation) and an amendment's points read a long number as a typo: one
    sentence of the catalogue's, never Python's own about integer strings."""
    token = log_in(client)
    client.post("/organizer/round/pair", data={"csrf": token})
    client.post("/organizer/table/start", data={"csrf": token, "round": "1", "table": "1",
                                                "game": "tiro"})  # fmt: skip
    client.get("/lang/en")
    before = store.recorder.max_notification_id()
    forms = [
        ("/organizer/correct", {"match": "M1", "kind": "move", "move": f"roll giallo d6 {BIG}"}),
        ("/organizer/correct", {"match": "M1", "kind": "void", "on": "1", "reason": BIG}),
        ("/organizer/amend", {"round": "1", "table": "1", "points": f"giallo={BIG} blu=0"}),
    ]
    for path, form in forms:
        answer = client.post(path, data={"csrf": token, **form, "do": "preview"})
        status, text, bad = said(answer)
        assert status == 200 and bad and "integer string" not in text, (path, text[:200])
    assert store.recorder.max_notification_id() == before
