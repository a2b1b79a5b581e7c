"""The printed bracket (#24): title and bracket on one landscape A4 page, every round by its
name, the third-place match, the champion, and a draw the seeds decided, in the page's words."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support import require_weasyprint

require_weasyprint()
pypdf = pytest.importorskip("pypdf", reason="pypdf is a test dependency")

from tests.tournament.test_knockouts import SIX, tiro  # noqa: E402
from tournament.services import day  # noqa: E402
from tournament.services.printing import Printer  # noqa: E402
from tournament.storage.store import Store  # noqa: E402


@pytest.fixture(scope="module")
def six(tmp_path_factory: pytest.TempPathFactory) -> Store:
    """The issue's six players, a draw in round 1 decided by the seeds (Dario, seed 4, over
    Elena), Franco champion over Anna, Bruno third."""
    store = Store(tmp_path_factory.mktemp("six") / "t.db")
    day.create(store, "Coppa", format="elimination", plays="tiro", third_place=True,
               knockout_draw="seed", date="2026-12-13")  # fmt: skip
    day.add_players(store, SIX)
    outcome_of = day.replayed_outcome(store)
    for number, winners in ((1, {2: None, 4: "Franco"}), (2, {1: "Anna", 2: "Franco"}),
                            (3, {1: "Franco", 2: "Bruno"})):  # fmt: skip
        day.pair_next_round(store, outcome_of)
        for table, winner in winners.items():
            tiro(store, number, table, winner)
        day.close_round(store, outcome_of)
    return store


@pytest.mark.parametrize(
    ("lang", "words", "english"),
    [
        (
            "it",
            ["Tabellone", "quarti di finale", "semifinali", "finale per il terzo posto",
             "Campione", "passa Dario, testa di serie più alta (testa di serie 4)", "Riposo"],
            ["final ", "semi-finals", "Champion", "Bye", "seed", "third"],
        ),
        (
            "en",
            ["Bracket", "quarter-finals", "semi-finals", "third-place match", "Champion",
             "Dario goes through as the higher seed (seed 4)", "Bye"],
            ["finale", "semifinali", "Campione"],
        ),
    ],
)  # fmt: skip
def test_the_bracket_is_one_landscape_page_in_its_language(
    six: Store, tmp_path: Path, lang: str, words: list[str], english: list[str]
) -> None:
    printer = Printer(six, tmp_path, lang=lang, pdf=True)
    printer.bracket()
    reader = pypdf.PdfReader(tmp_path / "bracket.pdf")
    assert len(reader.pages) == 1
    box = reader.pages[0].mediabox
    assert float(box.width) > float(box.height)  # landscape
    text = " ".join(reader.pages[0].extract_text().split())
    for word in words:
        assert word in text, (word, text)
    for word in english:
        assert word not in text, (word, text)
    # the champion marked, and every table's players: the final's, the third place's
    assert "★ Franco" in text and text.count("Bruno") >= 3
