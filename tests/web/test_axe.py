"""axe-core (the ``axe-playwright-python`` wheel's axe.min.js) on every kind of page, in a real
browser (Debian's Chromium): public pages, a match with a struck row, a player, a table's
referee page, the organizer's page and its confirmation, a correction's preview, the table cards,
the login page, the room's screen and a 404, on a phone (390x844) in Italian and in English, and
on a desktop. Any violation of impact critical or serious fails, with the rule and the nodes it
names. One browser, one server."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest

from tournament.readside import readmodels
from tournament.services import play, tables
from tournament.storage.store import Store

from .conftest import GAMES, Server, build
from .test_browser import ARGS, CHROMIUM, DESKTOP, PHONE, logs_in

axe = pytest.importorskip("axe_playwright_python", reason="axe-playwright-python: the test extra")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="Chromium is missing: apt-get install chromium"
)
AXE = (Path(axe.__file__).parent / "axe.min.js").read_text(encoding="utf-8")
BAD = ("critical", "serious")


def violations(page: Any) -> list[str]:
    """axe's violations of impact critical or serious on the page as it is, one line each."""
    found = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
    )
    return [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:4]}"
        for v in found
        if v["impact"] in BAD
    ]


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Store:
    """Four players in round 1 of a partita tournament; table 1's Tiro in play with a struck
    row (a void); a finished match for the other table."""
    store = build(
        tmp_path_factory.mktemp("axe") / "t.db",
        players=("giallo", "blu", "verde", "rosso"),
        plays="partita",
    )
    from tournament.services import day

    day.pair_next_round(store)
    t = day.get_tournament(store)
    first = t.rounds[0]["tables"][0]["players"]
    tables.choose_partita(store, 1, 1, GAMES)
    m = tables.start_match(store, 1, 1, "tiro")
    a, b = first
    for text in (
        f"roll {a} d6 6 6 5 1",
        f"roll {b} d6 5 4 2 2",
        "void 2 typo",
        f"roll {b} d6 5 4 2 1",
    ):
        play.record_move(store, str(m.number), text)
    readmodels.update(store)
    return store


def walk(
    page: Any, url: str, shots: Path | None = None, then: str | None = None
) -> dict[str, list[str]]:
    """Every kind of page, as the organizer, a referee and the public reach them: each one's
    violations (and its screenshot, where ``shots`` names a folder and a prefix); ``then``: the
    language the pages after the referee's are seen in."""
    problems: dict[str, list[str]] = {}

    def check(name: str) -> None:
        page.wait_for_load_state()
        problems[name] = violations(page)
        if shots:
            page.screenshot(path=f"{shots}-{name}.png", full_page=True)

    page.goto(f"{url}/organizer/")
    check("login")
    logs_in(page, url)
    check("organizer")
    with page.expect_navigation():
        page.click('form[action="/organizer/cards"] button')
    if page.locator('input[name="confirm"]').count():  # a table is in play: asked first
        check("confirm")
        with page.expect_navigation():
            page.click('form[action="/organizer/cards"] button')
    check("cards")
    link = re.findall(r"https?://\S+/table/[\w-]+", page.inner_text("main"))[0]
    page.goto(url + "/table/" + link.split("/table/")[1])
    check("table")
    if then:
        page.context.add_cookies([{"name": "lang", "value": then, "url": url}])
    page.goto(f"{url}/organizer/")
    page.fill("#match", "M1")
    page.fill("#on", "3")
    page.fill("#reason", "prova")
    with page.expect_navigation():
        page.click('form[action="/organizer/correct"] button[value="preview"]')
    check("correction")
    for path in PUBLIC:
        page.goto(f"{url}{path}")
        check(path.strip("/").replace("/", "-") or "now")
    return problems


PUBLIC = (
    "/screen",
    "/",
    "/rounds/1",
    "/standings",
    "/standings?player=nessuno",  # the search for one's row, and its answer (#27)
    "/bracket",
    "/matches/M1",
    "/players/giallo",
    "/matches/M999",
)


WALKS = (
    ("phone", PHONE, "it", None),
    ("phone", PHONE, "en", None),
    ("desktop", DESKTOP, "it", "en"),
)


def test_no_page_has_a_critical_or_serious_axe_violation(room: Store) -> None:
    from playwright.sync_api import sync_playwright

    # Screenshots of every page (Italian) where $WEB_SCREENSHOTS names a folder.
    shots = Path(os.environ["WEB_SCREENSHOTS"]) if os.environ.get("WEB_SCREENSHOTS") else None
    if shots:
        shots.mkdir(parents=True, exist_ok=True)
    problems: dict[str, list[str]] = {}
    with Server(room) as server, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            # Every page on the phone in both languages; on the desktop once each, the
            # organizer's and the referee's in Italian, the correction and public ones in
            # English (the markup is the same template: three walks, not four, for time).
            for size, device, lang, then in WALKS:
                ctx = browser.new_context(**device, bypass_csp=True)
                ctx.add_init_script(AXE)  # (bypass_csp: the pages' CSP allows no such script)
                ctx.add_cookies([{"name": "lang", "value": lang, "url": server.url}])
                page = ctx.new_page()
                where = shots / size if shots and lang == "it" else None
                found = walk(page, server.url, where, then)
                problems.update({f"{size}-{lang}-{k}": v for k, v in found.items()})
                ctx.close()
        finally:
            browser.close()
    bad = {k: v for k, v in problems.items() if v}
    assert len(problems) >= 3 * 15 and not bad, "\n".join(f"{k}: {v}" for k, v in bad.items())


def test_a_big_rounds_trimmed_home_page_has_no_critical_or_serious_axe_violation(
    tmp_path: Path,
) -> None:
    """A round of more tables than the home page shows (#27): the trimmed page, with and
    without "Where do I play?" (a player's table first, and a name nobody has), and the whole
    round behind its link, on a phone in Italian and in English."""
    from playwright.sync_api import sync_playwright

    from tournament.services import day
    from tournament.web.trims import FIRST

    players = tuple(f"gioc{n:02}" for n in range(2 * (FIRST + 2)))
    store = build(tmp_path / "big.db", players=players)
    day.pair_next_round(store)
    readmodels.update(store)
    far = day.get_tournament(store).rounds[0]["tables"][-1]["players"][0]
    paths = ("/", f"/?player={far}", "/?player=nessuno", "/rounds/1")
    problems: dict[str, list[str]] = {}
    with Server(store) as server, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            for lang in ("it", "en"):
                ctx = browser.new_context(**PHONE, bypass_csp=True)
                ctx.add_init_script(AXE)
                ctx.add_cookies([{"name": "lang", "value": lang, "url": server.url}])
                page = ctx.new_page()
                for path in paths:
                    page.goto(f"{server.url}{path}")
                    page.wait_for_load_state()
                    problems[f"{lang}-{path}"] = violations(page)
                    if path != "/rounds/1":  # (the trimmed page, not the whole round)
                        assert page.locator('p.more a[href="/rounds/1"]').count(), lang
                    if path == f"/?player={far}":
                        assert page.locator("p.own").count() == 1, lang
                ctx.close()
        finally:
            browser.close()
    bad = {k: v for k, v in problems.items() if v}
    assert len(problems) == 8 and not bad, "\n".join(f"{k}: {v}" for k, v in bad.items())
