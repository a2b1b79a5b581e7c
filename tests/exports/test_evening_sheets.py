"""The sheets of an evening (#28): blank sheets with a slot and a signature for every player at
the largest table, halves written as the language writes them, drop-outs marked and not counted,
the tournament's round told apart from a game's round, an amended result marked."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from exports import render
from tournament.domain import views
from tournament.services import corrections, day, simulate
from tournament.services.printing import Printer
from tournament.storage.locations import close, locate
from tournament.storage.store import Store


@pytest.fixture(scope="module")
def evening(tmp_path_factory: pytest.TempPathFactory) -> Store:
    """Six players in pods of three (La roulette russa), half points, an amended table, a
    player who went home after round 2."""
    store = Store(locate(str(tmp_path_factory.mktemp("evening") / "e.db")))
    scoring = {"win": 1, "draw": 0.5, "loss": 0, "bye": 1}
    day.create(store, "Sera", format="pods", rounds=2, plays="roulette_russa", scoring=scoring,
               table_size=3)  # fmt: skip
    day.add_players(store, ["Giallo", "Blu", "Verde", "Rosso", "Nero", "Bianco"])
    rng, outcome_of = random.Random(4), day.replayed_outcome(store)
    for n in (1, 2):
        day.pair_next_round(store, outcome_of)
        t = day.get_tournament(store)
        played: list = []
        for table in views.paired(t, n).tables:
            simulate.play_table(store, t, n, table, rng, played)
        day.save(store, t, *played)
        day.close_round(store, outcome_of)
        if n == 1:
            first = views.paired(day.get_tournament(store), 1).tables[0].players
            points = {p: int(i == 0) for i, p in enumerate(first)}
            corrections.amend(store, 1, 1, points, "a die fell off", confirmed=True)
    day.withdraw(store, "Bianco", "went home")
    yield store
    close(store)


@pytest.fixture(scope="module")
def italian(evening: Store, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("sheets") / "it"
    Printer(evening, out, "it").everything()
    return out


def test_blank_sheets_have_a_slot_and_a_signature_for_each_player_at_the_table(
    italian: Path,
) -> None:
    for name in ("roulette_russa", "parola_nascosta"):
        html = (italian / f"sheet-{name}.html").read_text()
        assert html.count("<div>Firma</div>") == 3, name
        assert html.count('<td class="box"></td>') >= 3
    assert (italian / "sheet-alphatiana.html").read_text().count("<div>Firma</div>") == 2  # a duel
    assert render.blank_seats("roulette_russa") == 4
    assert render.blank_seats("parola_nascosta", 12) == 10  # the game's most (PN)


def test_standings_write_halves_as_the_language_does_and_mark_drop_outs(
    evening: Store, italian: Path, tmp_path: Path
) -> None:
    it = (italian / "standings.html").read_text()
    assert re.search(r"<td>\d+,5</td>", it) and not re.search(r"<td>\d+\.5</td>", it)
    assert "5 giocatori · 1 ritirato durante il torneo" in it
    assert 'Bianco <span class="mark">(ritirato durante il torneo)</span>' in it
    Printer(evening, tmp_path, "en").standings(("html", "csv"))
    en = (tmp_path / "standings.html").read_text()
    assert re.search(r"<td>\d+\.5</td>", en) and "5 players · 1 dropped out" in en
    csv = (tmp_path / "standings.csv").read_text()  # files for machines: a point
    assert re.search(r",\d+\.5,", csv) and '"' not in csv  # not "2,5" quoted


def test_the_tournaments_round_is_told_apart_from_a_games_round(italian: Path) -> None:
    texas = (italian / "sheet-texas.html").read_text()
    assert "Turno del torneo: ____" in texas and "Mano 1" in texas
    assert not re.search(r"Turno \d", texas)
    assert "Turno del torneo:" in (italian / "scoresheet-M1.html").read_text()


def test_an_amended_result_carries_a_mark_and_a_footnote(italian: Path) -> None:
    pairings = (italian / "pairings-2.html").read_text()
    assert pairings.count("†") == 2  # the mark and its footnote
    assert "Tavolo 1: l'organizzatore ha corretto il risultato (a die fell off)." in pairings
