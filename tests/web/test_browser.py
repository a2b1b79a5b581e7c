"""In a real browser (Debian's Chromium through Playwright): a referee records a whole Tiro and a
whole Texas Word'em on a phone while another page on /standings sees each result arrive without
reloading; an organizer pairs a round; an attacker is refused. Screenshots of the main pages at
phone and desktop sizes go to ``$WEB_SCREENSHOTS`` (or the test's folder) to be looked at."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from tournament.services import day
from tournament.storage.store import Store

from .conftest import GAMES, PASSPHRASE, Server

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="Chromium is missing: apt-get install chromium"
)
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}
DESKTOP: dict[str, Any] = {"viewport": {"width": 1280, "height": 900}}

TIRO = [  # seats: giallo, blu (the challenger rolls the target: no one outside, TIR-1)
    ("giallo", "roll", {"die": "d6", "values": "6 6 5 1"}),
    ("blu", "roll", {"die": "d6", "values": "5 4 2 1"}),
    ("giallo", "roll", {"die": "d20", "values": "11"}),
    ("giallo", "expression", {"expr": "6 x (5:6+1)"}),
    ("blu", "expression", {"expr": "(5+4+2):1"}),
]
TEXAS = [  # seats rotate for the second challenge: blu, giallo
    ("blu", "roll", {"die": "consonant", "values": "t n"}),
    ("giallo", "roll", {"die": "consonant", "values": "S N"}),
    ("blu", "roll", {"die": "vowel", "values": "O A"}),
    ("blu", "word", {"word": "onta"}),
    ("giallo", "word", {"word": "sano"}),
    ("blu", "roll", {"die": "consonant", "values": "S"}),
    ("blu", "roll", {"die": "vowel", "values": "A"}),
    ("giallo", "word", {"word": "sano"}),
    ("blu", "word", {"word": "sonata"}),
    ("blu", "roll", {"die": "consonant", "values": "C"}),
    ("blu", "roll", {"die": "vowel", "values": "I"}),
    ("blu", "word", {"word": "satanico"}),
    ("giallo", "word", {"word": "incasso"}),
]


def logs_in(page: Any, url: str) -> None:
    """The organizer logs in on ``page``."""
    page.goto(f"{url}/organizer/")
    page.fill("#passphrase", PASSPHRASE)
    with page.expect_navigation():
        page.click("button[type=submit]")


def in_place(page: Any, press: Any) -> None:
    """A move sent by ``press`` (offline.js): the page is drawn again in place from the
    server's answer, at the position the move left the match (#27), with no navigation."""
    from playwright.sync_api import expect

    at = page.locator("main").get_attribute("data-at")
    press()
    expect(page.locator("main")).not_to_have_attribute("data-at", at or "")


def act(page: Any, player: str, kind: str, fields: dict[str, str]) -> None:
    """Fill one of the referee's forms for a player and press its button."""
    section = page.locator(f'section.acts[data-player="{player}"]')
    if kind == "roll":
        form = section.locator(f'form:has(input[name="die"][value="{fields["die"]}"])')
    else:
        form = section.locator(f'form:has(input[name="kind"][value="{kind}"])')
    for name, value in fields.items():
        if name != "die":
            form.locator(f'[name="{name}"]').fill(value)
    in_place(page, lambda: form.locator("button[type=submit]").first.click())
    flash = page.locator(".flash.bad")
    assert flash.count() == 0, flash.first.inner_text()


def test_a_referee_records_tiro_and_texas_while_the_standings_follow(
    tmp_path: Path, store: Store
) -> None:
    from playwright.sync_api import expect, sync_playwright

    shots = Path(os.environ.get("WEB_SCREENSHOTS") or tmp_path / "shots")
    shots.mkdir(parents=True, exist_ok=True)
    with Server(store) as server, sync_playwright() as p:
        url = server.url
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            # An attacker without the passphrase pairs nothing.
            attacker = browser.new_context(**DESKTOP)
            r = attacker.request.post(f"{url}/organizer/round/pair")
            assert r.status == 401
            assert day.get_tournament(store).rounds == []

            # The organizer logs in, pairs round 1 and prints the table cards.
            desk = browser.new_context(**DESKTOP)
            organizer = desk.new_page()
            logs_in(organizer, url)
            with organizer.expect_navigation():
                organizer.click("#pair")
            expect(organizer.locator("main")).to_contain_text("giallo")
            assert len(day.get_tournament(store).rounds) == 1
            organizer.screenshot(path=shots / "desktop-round.png", full_page=True)
            organizer.goto(f"{url}/organizer/")
            organizer.screenshot(path=shots / "desktop-organizer.png", full_page=True)
            with organizer.expect_navigation():
                organizer.click("text=Stampa i cartellini dei tavoli")
            link = organizer.locator(".card code").first.inner_text()
            assert link.startswith(f"{url}/table/")
            organizer.screenshot(path=shots / "desktop-table-cards.png", full_page=True)

            # Someone follows the standings on another screen.
            watcher = desk.new_page()
            watcher.goto(f"{url}/standings")
            watcher.evaluate("window.notReloaded = true")
            expect(watcher.locator("#live")).to_be_visible()

            # The referee plays the table on a phone.
            phone = browser.new_context(**PHONE)
            referee = phone.new_page()
            referee.goto(link)
            for g in GAMES:
                referee.check(f'input[name="games"][value="{g}"]')
            with referee.expect_navigation():
                referee.click("text=Scegli la partita >> nth=-1")
            with referee.expect_navigation():
                referee.click("#start")
            referee.screenshot(path=shots / "phone-table.png", full_page=True)
            for by, kind, fields in TIRO:
                act(referee, by, kind, fields)
            expect(watcher.locator(".latest")).to_contain_text("giallo", timeout=5000)
            expect(watcher.locator(".latest")).to_contain_text("Tiro di precisione")
            with referee.expect_navigation():
                referee.click("#start")
            for by, kind, fields in TEXAS:
                act(referee, by, kind, fields)
            expect(watcher.locator(".latest")).to_contain_text("Texas Word", timeout=5000)
            assert watcher.evaluate("window.notReloaded") is True
            referee.screenshot(path=shots / "phone-table-after.png", full_page=True)
            assert '"type":"end","winners":["giallo"]' in store.get_match("M1").lines[-1]
            assert '"type":"end","winners":["blu"]' in store.get_match("M2").lines[-1]

            for name, ctx in (("phone", phone), ("desktop", desk)):
                page = ctx.new_page()
                for path in ("/", "/standings", "/rounds/1", "/matches/M2", "/players/blu"):
                    page.goto(f"{url}{path}")
                    slug = path.strip("/").replace("/", "-") or "now"
                    page.screenshot(path=shots / f"{name}-{slug}.png", full_page=True)
        finally:
            browser.close()
