"""#25 in a real browser (Debian's Chromium): after a move the focus is on the next field, the
header keeps its height when the live badge comes and goes, a partita's games are played in
the order ticked, and the room's screen scrolls by itself and shows a table as it starts. One
browser, one server."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tournament.readside import readmodels
from tournament.services import day, tables
from tournament.storage.store import Store

from .conftest import GAMES, Server, build
from .test_browser import ARGS, CHROMIUM, DESKTOP, PHONE, in_place, logs_in

pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="Chromium is missing: apt-get install chromium"
)


def test_focus_the_badge_and_the_rooms_screen(tmp_path: Path) -> None:
    from playwright.sync_api import expect, sync_playwright

    players = tuple(f"p{i:02d}" for i in range(1, 17))  # eight tables: the screen scrolls
    store: Store = build(tmp_path / "t.db", players=players)  # partite (CH-3)
    day.pair_next_round(store)
    tables.choose_partita(store, 1, 8, GAMES)
    readmodels.update(store)
    with Server(store) as server, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            desk = browser.new_context(**DESKTOP)
            organizer = desk.new_page()
            logs_in(organizer, server.url)
            with organizer.expect_navigation():
                organizer.click('form[action="/organizer/cards"] button')
            link = re.findall(r"https?://\S+/table/[\w-]+", organizer.inner_text("main"))[0]

            # The room's screen, on a projector: it scrolls by itself and follows the round.
            hall = browser.new_context(viewport={"width": 1280, "height": 800})
            screen = hall.new_page()
            screen.goto(f"{server.url}/screen")
            expect(screen.locator("#live")).to_be_visible()
            size = screen.evaluate(
                "parseFloat(getComputedStyle(document.querySelector('.screen')).fontSize)"
            )
            assert size >= 28  # type read across a hall
            screen.wait_for_function("() => window.scrollY > 40", timeout=15000)

            # A referee on a phone: after a move, the focus is on the next player's field.
            phone = browser.new_context(**PHONE).new_page()
            phone.goto(link)
            ticked = ["tiro", "updown", "texas", "ventuno"]  # not the page's order
            for g in ticked:
                phone.check(f'input[name="games"][value="{g}"]')
            with phone.expect_navigation():
                phone.click('form[action$="/partita"] button')
            assert [g for g in day.get_tournament(store).rounds[0]["tables"][0]["games"]] == ticked
            with phone.expect_navigation():
                phone.click("#start")
            assert phone.locator(".flash.bad").count() == 0
            first = phone.locator("section.acts").first
            who = first.get_attribute("data-player")
            form = first.locator("form").first  # (one box a player: their first move's form)
            form.locator('input[name="values"]').fill("6651")
            in_place(phone, form.locator("button[type=submit]").click)
            assert phone.locator(".flash.bad").count() == 0
            focused = phone.evaluate(
                "[document.activeElement.name, document.activeElement.closest('section.acts')"
                " && document.activeElement.closest('section.acts').dataset.player]"
            )
            assert focused[0] == "values" and focused[1] not in (None, who), focused
            # The live badge appearing or going never moves what is under the thumb.
            heights = phone.evaluate(
                "() => { const b = document.getElementById('live'), h = [];"
                " b.hidden = true; h.push(document.querySelector('header').offsetHeight);"
                " b.hidden = false; h.push(document.querySelector('header').offsetHeight);"
                " return h; }"
            )
            assert heights[0] == heights[1], heights

            # A table started elsewhere (the CLI, another phone) reaches the screen by itself.
            status = screen.locator("#screen-table-8 + .players + .status")
            expect(status).not_to_contain_text("Tiro di precisione")
            tables.start_match(store, 1, 8, "tiro")
            expect(status).to_contain_text("Tiro di precisione", timeout=10000)
        finally:
            browser.close()
