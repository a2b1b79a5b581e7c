"""A referee's page that outlives the network (issue #26, docs/offline.md), in Debian's Chromium
against a real ``tournament serve`` process: moves made while the browser is offline are kept on
the phone with the position they were made at, survive a reload (the service worker serves the
page on 127.0.0.1), and are stored in order when the network comes back; a move the rules refuse
stops the queue there, and so does a second phone that recorded meanwhile, the later moves kept
for the referee to send again or discard."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.notation import format as notation
from tournament.readside import readmodels
from tournament.services import day, play
from tournament.services.matches import load
from tournament.storage.store import Store
from tournament.web import tokens

from .conftest import PASSPHRASE, build, free_port
from .test_browser import ARGS, CHROMIUM, PHONE, in_place

pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="Chromium is missing: apt-get install chromium"
)
ROOT = Path(__file__).resolve().parents[2]
PLAYERS = ("giallo", "blu", "verde", "rosso", "nero", "bianco", "viola", "grigio")
CONTROLLED = """new Promise((done) => navigator.serviceWorker.controller ? done(true)
    : navigator.serviceWorker.addEventListener("controllerchange", () => done(true)))"""
SENDING = 30_000  # ms a page may take to send its moves once online (a loaded CI machine)


def texas(a: str, b: str) -> list[str]:
    """The first seven moves of a Texas Word'em between seats ``a`` and ``b`` (TEX rules)."""
    return [
        f"roll {a} consonant T N",
        f"roll {b} consonant S N",
        f"roll {a} vowel O A",
        f"word {a} onta",
        f"word {b} sano",
        f"roll {a} consonant S",
        f"roll {a} vowel A",
    ]


class Served:
    """``tournament serve`` in its own process on a free port of 127.0.0.1."""

    def __init__(self, db: Path) -> None:
        self.db, self.port = db, free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.start()

    def start(self) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        cmd = [sys.executable, "-m", "tournament", "--db", str(self.db), "serve", "--port",
               str(self.port), "--organizer-passphrase", PASSPHRASE]  # fmt: skip
        self.process = subprocess.Popen(cmd, env=env, stderr=subprocess.PIPE, cwd=ROOT)
        deadline = time.monotonic() + 30
        while True:
            assert self.process.poll() is None, self.process.communicate()[1].decode()
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.05)

    def stop(self) -> None:
        self.process.terminate()
        self.process.communicate(timeout=10)


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A round of Texas Word'em at four tables, each started, their links, a server, a browser."""
    from playwright.sync_api import sync_playwright

    db = tmp_path_factory.mktemp("offline") / "t.db"
    store = build(db, PLAYERS, plays="texas", games=["texas"])
    day.pair_next_round(store)
    tokens.prepare(store)
    tables = []
    for card in tokens.issue_cards(store):
        match = play.start_challenge(store, 1, card.table, "texas", by="referee")
        seats = load(store, match.number, None).replay.header.players
        tables.append({"link": f"/table/{card.token}", "match": match.number, "seats": seats})
    readmodels.update(store)
    server = Served(db)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            try:
                yield {"db": db, "url": server.url, "tables": tables, "browser": browser,
                       "server": server}  # fmt: skip
            finally:
                browser.close()
    finally:
        server.stop()


def stored(db: Path, match: str) -> list[str]:
    """The moves stored in a match, in the notation, in order (derived events left out)."""
    replay = load(Store(db), match, None).replay
    derived = {"out", "end"}
    return [notation(e) for e in replay.events if getattr(e, "type", "") not in derived]


def typed(page: Any, move: str) -> None:
    page.fill("#move", move)
    page.locator('form:has(#move) button[type="submit"]').click()


def online_move(page: Any, move: str) -> None:
    """A move typed and sent online: the page is drawn again in place from the answer (#27)."""
    in_place(page, lambda: typed(page, move))
    assert page.locator(".flash.bad").count() == 0, page.locator(".flash.bad").inner_text()


def queue(page: Any) -> list[str]:
    return [t.strip() for t in page.locator("#queue li").all_inner_texts()]


def offline_with_five(
    room: dict, number: int, fifth: str | None = None, on_the_page: bool = True
) -> tuple[Any, Any, list]:
    """A phone at table ``number`` records two moves (``on_the_page``, or the table's console
    does), loses the network and records five more, the first with the buttons last shown, the
    others typed (the fifth move of the match replaced by ``fifth``): the browser's context,
    the page and the moves meant."""
    from playwright.sync_api import expect

    table = room["tables"][number]
    moves = texas(*table["seats"])
    context = room["browser"].new_context(**PHONE)
    page = context.new_page()
    if not on_the_page:
        for move in moves[:2]:
            play.record_move(Store(room["db"]), table["match"], move)
    page.goto(room["url"] + table["link"])
    for move in moves[:2] if on_the_page else ():
        online_move(page, move)
    # The service worker controls the page (127.0.0.1 counts as secure). Awaited in the page:
    # wait_for_function's polling would evaluate a string, which the pages' CSP forbids.
    assert page.evaluate(CONTROLLED) is True
    context.set_offline(True)
    expect(page.locator("#live")).to_be_hidden()  # not live: the phone says so at once
    section = page.locator(f'section.acts[data-player="{table["seats"][0]}"]')
    form = section.locator('form:has(input[value="vowel"])')  # moves[2]: the vowel die
    form.locator('[name="values"]').fill("O A")
    form.locator("button[type=submit]").click()
    for move in moves[3:]:
        typed(page, fifth if fifth and move == moves[4] else move)
    expect(page.locator("#queue .count")).to_have_text("5 mosse in attesa di invio")
    return context, page, moves


def test_moves_made_offline_survive_a_reload_and_are_stored_in_order(room: dict) -> None:
    from playwright.sync_api import expect

    table = room["tables"][0]
    context, page, moves = offline_with_five(room, 0)
    assert page.locator("#queue li.waiting").count() == 5
    assert stored(room["db"], table["match"]) == moves[:2]  # nothing judged, nothing stored

    assert page.evaluate("fetch('/api').then(() => 'up', () => 'down')") == "down"
    reloaded = page.reload()  # still offline: the service worker serves the page it kept
    assert reloaded is not None and reloaded.from_service_worker
    expect(page.locator("#queue .count")).to_have_text("5 mosse in attesa di invio")
    assert queue(page)[3].startswith(moves[5])  # each shown as typed, waiting
    # The one made with the buttons, in the page's words: the fields filled, the button pressed.
    seat = table["seats"][0]
    assert queue(page)[0].startswith(f"{seat}: ") and " O A · " in queue(page)[0]

    # Meanwhile the organizer's laptop restarts: the phone's session is gone with the old server.
    room["server"].stop()
    room["server"].start()
    context.set_offline(False)  # the page hears the network come back, and sends them
    drained(page)
    assert stored(room["db"], table["match"]) == moves
    context.close()


def drained(page: Any) -> None:
    """Wait until the page has sent every move it kept (what it still holds, when it does not)."""
    from playwright.sync_api import expect

    try:
        expect(page.locator("#queue")).to_be_hidden(timeout=SENDING)
    except AssertionError:
        raise AssertionError(f"moves still kept: {queue(page)}") from None


def press(page: Any, entry: int, button: str, navigates: bool = False) -> None:
    from playwright.sync_api import expect

    count = page.locator("#queue li").count()
    target = page.locator("#queue li").nth(entry).get_by_role("button", name=button)
    if navigates:
        with page.expect_navigation():
            target.click()
    else:
        target.click()
        expect(page.locator("#queue li")).to_have_count(count - 1)


def test_a_queued_move_the_rules_refuse_stops_the_queue_and_the_later_ones_stay(
    room: dict,
) -> None:
    from playwright.sync_api import expect

    table = room["tables"][1]
    a, b = table["seats"]
    # The fifth out of turn: the second seat must write a word first.
    context, page, moves = offline_with_five(room, 1, f"roll {a} vowel E", on_the_page=False)
    context.set_offline(False)
    expect(page.locator("#queue li.refused")).to_have_count(1, timeout=SENDING)
    assert stored(room["db"], table["match"]) == moves[:4]  # the two before it, stored
    refused = page.locator("#queue li.refused").inner_text()
    assert refused.startswith(f"roll {a} vowel E") and "non registrata: " in refused
    assert "non tocca a" in refused and "(TEX-3)" in refused  # the reason, with its rule
    assert page.locator("#queue li.held").count() == 2  # the later ones kept, not sent
    expect(page.locator("#queue .count")).to_have_text("3 mosse ferme, non inviate")
    # The page drawn again as the match stands (a move typed on the older drawing would be
    # refused as made at an older position: the referee had not seen the match as it is).
    expect(page.locator('main form input[name="position"]').first).to_have_value("4")
    # The referee discards the refused move, records the right one, and sends the others again.
    press(page, 0, "Scarta")
    online_move(page, moves[4])
    assert [li.split(" tenuta")[0] for li in queue(page)] == [moves[5], moves[6]]
    press(page, 0, "Invia di nuovo", navigates=True)
    drained(page)
    assert stored(room["db"], table["match"]) == moves
    context.close()


def test_a_second_phone_that_recorded_meanwhile_stops_the_queue(room: dict) -> None:
    from playwright.sync_api import expect

    table = room["tables"][2]
    context, page, moves = offline_with_five(room, 2, on_the_page=False)
    other = room["browser"].new_context(**PHONE)  # a second phone at the table, online
    second = other.new_page()
    second.goto(room["url"] + table["link"])
    theirs = f"roll {table['seats'][0]} vowel E I"  # not the first phone's third move
    link = room["url"] + table["link"]
    kept = context.request.get(link).text()  # the page as drawn before the second phone's move
    online_move(second, theirs)
    # The page's reload after the refusal shows that older drawing (as the copy kept shows it
    # when the reload comes late on a loaded server, or the referee presses before it comes).
    context.route(link, lambda route: route.fulfill(body=kept, content_type="text/html"))
    context.set_offline(False)
    expect(page.locator("#queue li.refused")).to_have_count(1, timeout=SENDING)
    page.wait_for_load_state()
    expect(page.locator('main form input[name="position"]').first).to_have_value("2")
    context.unroute(link)
    assert "la partita è andata avanti" in page.locator("#queue li.refused").inner_text()
    assert page.locator("#queue li.held").count() == 4  # nothing more sent, everything kept
    assert stored(room["db"], table["match"]) == [*moves[:2], theirs]
    press(page, 0, "Scarta")  # the referee keeps the second phone's roll, and sends the rest
    press(page, 0, "Invia di nuovo", navigates=True)
    drained(page)
    assert stored(room["db"], table["match"]) == [*moves[:2], theirs, *moves[3:]]
    other.close()
    context.close()


RELOADED = "window.drawnOnce === true"  # set on the page as loaded: a reload forgets it


def test_a_move_sent_online_draws_the_page_in_place_and_a_refused_one_leaves_it(
    room: dict,
) -> None:
    from playwright.sync_api import expect

    table = room["tables"][3]
    a, b = table["seats"]
    context = room["browser"].new_context(**PHONE)
    page = context.new_page()
    page.goto(room["url"] + table["link"])
    assert page.evaluate(CONTROLLED) is True
    page.evaluate("window.drawnOnce = true")
    online_move(page, f"roll {a} consonant T N")
    assert page.evaluate(RELOADED) is True  # drawn in place: no reload
    main = page.locator("main")
    assert main.get_attribute("data-at") == "1"
    assert main.get_attribute("data-live") == table["match"]
    assert page.locator(".notes .flash.good").count() == 1  # what was stored, said
    assert page.locator(f'section.acts[data-player="{b}"]').count() == 1  # the next to act
    # The focus on the next field to fill (table.js, as after a form), the live badge on.
    assert page.evaluate("document.activeElement.closest('section.acts') !== null")
    expect(page.locator("#live")).to_be_visible()
    # The service worker's copy is the page as the move left it (what a reload offline shows).
    kept = page.evaluate("caches.match(location.pathname).then((r) => r.text())")
    assert 'data-at="1"' in kept
    # A move the rules refuse: nothing stored, the page as it was, the move as typed, the
    # reason said, the focus back in the field typed in.
    typed(page, f"roll {a} consonant S N")  # not the first seat's turn
    expect(page.locator(".notes .flash.bad")).to_have_count(1)
    assert "(TEX-" in page.locator(".notes .flash.bad").inner_text()
    assert page.evaluate(RELOADED) is True and main.get_attribute("data-at") == "1"
    assert page.locator("#move").input_value() == f"roll {a} consonant S N"
    assert page.evaluate("document.activeElement.id") == "move"
    assert stored(room["db"], table["match"]) == [f"roll {a} consonant T N"]
    online_move(page, f"roll {b} consonant S N")
    assert page.evaluate(RELOADED) is True and main.get_attribute("data-at") == "2"
    assert page.locator(".notes .flash.bad").count() == 0
    # The live stream's own fetch of the page, asked before a move and answered after the
    # move's page was drawn in place, never puts the page back a move (live.js, #27).
    page.evaluate(HOLD_LIVE_FETCH)
    day.add_players(Store(room["db"]), ["tardi"])  # news for every page: live.js fetches
    assert page.evaluate(HELD) is True  # its fetch asked, and held (the page at position 2)
    online_move(page, f"roll {a} vowel O A")
    assert main.get_attribute("data-at") == "3"
    page.evaluate(AWHILE)  # the move's own news heard meanwhile (and known: the page shows it)
    page.evaluate("window.heldPages[0](new Response(window.before)); null")  # the old page
    page.evaluate(AWHILE)  # live.js has its answer
    assert main.get_attribute("data-at") == "3"
    online_move(page, f"word {a} onta")  # sent at the position shown: stored, not a conflict
    assert stored(room["db"], table["match"]) == texas(a, b)[:4]
    context.close()


# live.js's next fetch of the page held until the test answers it (with the page as it was).
HOLD_LIVE_FETCH = """(() => {
  const real = window.fetch;
  window.before = document.documentElement.outerHTML;
  window.heldPages = [];
  window.fetch = function (url, options) {
    if (options && options.cache === "no-cache" && window.heldPages.length === 0) {
      return new Promise((done) => window.heldPages.push(done));
    }
    return real.apply(this, arguments);
  };
})()"""
AWHILE = "new Promise((done) => setTimeout(done, 1000))"
HELD = """new Promise((done) => {
  const look = (n) => window.heldPages.length ? done(true)
    : n ? setTimeout(() => look(n - 1), 100) : done(false);
  look(100);
})"""


STREAM_OPEN = """new Promise((done) => {  // the page's live stream opened (its badge shown)
  const look = (n) => !document.getElementById("live").hidden ? done(true)
    : n ? setTimeout(() => look(n - 1), 100) : done(false);
  look(100);
})"""


def test_the_live_badge_comes_back_when_the_network_does_and_the_stream_survived(
    room: dict,
) -> None:
    from playwright.sync_api import expect

    context = room["browser"].new_context(**PHONE)
    page = context.new_page()
    page.goto(room["url"] + "/")
    assert page.evaluate(STREAM_OPEN) is True
    # A short drop the stream survives (the phone says offline, then online, the stream open).
    page.evaluate("window.dispatchEvent(new Event('offline'))")
    expect(page.locator("#live")).to_be_hidden()
    page.evaluate("window.dispatchEvent(new Event('online'))")
    expect(page.locator("#live")).to_be_visible(timeout=2000)  # (the stream never opened again)
    context.close()
