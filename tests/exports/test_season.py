"""The season's printed material: the season sheet and the rating-history charts (SVG)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from exports.season import chart, history_svg, season_sheet, shared_environment
from tests.tournament.test_match_cli import ok, refused
from tournament.season import service
from tournament.services import simulate
from tournament.storage.store import Store

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def season(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("print")
    for seed in (11, 12):
        sim = simulate.Simulation(players=4, seed=seed, plays="tiro", name=f"Sera {seed}")
        simulate.run(Store(folder / f"sera-{seed}.db"), sim)
    path = folder / "stagione.toml"
    path.write_text('name = "Stagione & amici"\ntournaments = ["sera-11.db", "sera-12.db"]\n')
    return path


def history(player: str, steps: list[tuple[int, float, float]]) -> dict:
    return {
        "season": "S",
        "player": player,
        "prior": {"mu": 25.0, "sigma": 25 / 3},
        "history": [{"tournament": t, "mu": mu, "sigma": s} for t, mu, s in steps],
    }


def test_a_chart_is_well_formed_svg_with_one_point_per_tournament_played() -> None:
    svg = history_svg(
        shared_environment(), history("Anna & <Bea>", [(1, 27.0, 6.0), (3, 30.0, 4.0)]), 3, "it"
    )
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    assert root.find(f"{SVG}title").text == "Andamento della valutazione: Anna & <Bea> · S"
    mean = root.findall(f"{SVG}polyline")[-1].get("points").split()
    assert len(mean) == 3  # the start of the season, then tournaments 1 and 3
    xs = [float(p.split(",")[0]) for p in mean]
    ys = [float(p.split(",")[1]) for p in mean]
    assert xs == sorted(xs) and ys == sorted(ys, reverse=True)  # rising: y grows downwards
    labels = [t.text for t in root.findall(f"{SVG}text")]
    assert {"0", "T1", "T2", "T3"} <= set(labels)
    english = history_svg(shared_environment(), history("A", [(1, 20.0, 7.0)]), 1, "en")
    assert "Rating history" in english and "Conservative rating" in english


def test_the_chart_frame_holds_the_band_and_the_ordinal() -> None:
    c = chart([{"tournament": 1, "mu": 40.0, "sigma": 2.0}], 1, (25.0, 25 / 3))
    ys = [float(p.split(",")[1]) for p in c["band"].split() + c["ordinal_line"].split()]
    assert all(c["top"] <= y <= c["bottom"] for y in ys)
    ticks = [float(t["label"]) for t in c["y_ticks"]]
    assert ticks[0] <= 0 and ticks[-1] >= 42 and all(t % 5 == 0 for t in ticks)


def test_season_print_writes_the_sheet_and_every_players_chart(
    season: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    ok(tmp_path / "x.db", "season", "print", str(season), "--out", str(out))
    sheet = (out / "season.html").read_text()
    assert "Stagione &amp; amici · Classifica della stagione" in sheet
    assert "Valutazioni (OpenSkill)" in sheet and "<th>Tiro di precisione</th>" in sheet
    for name in ("Giallo", "Blu", "Verde", "Rosso"):
        assert f"<td>{name}</td>" in sheet
        ET.parse(out / f"rating-{name.lower()}.svg")
    ok(tmp_path / "x.db", "season", "print", str(season), "--out", str(out), "--lang", "en")
    assert "Season standings" in (out / "season.html").read_text()
    club = tmp_path / "club"
    club.mkdir()
    (club / "season_history.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg"><title>{{ player }} del circolo</title></svg>'
    )
    ok(
        tmp_path / "x.db",
        "season",
        "print",
        str(season),
        "--out",
        str(out),
        "--templates",
        str(club),
    )
    assert "Giallo del circolo" in (out / "rating-giallo.svg").read_text()
    message = refused(tmp_path / "x.db", "season", "print", str(season), "--lang", "fr")
    assert "Italian (it) or English (en)" in message


def test_the_web_gets_a_players_chart_from_the_service(season: Path) -> None:
    data = service.open_season(season)
    svg = service.player_chart_svg(data, "Giallo", "en")
    assert service.player_chart_svg(season, "Giallo", "en") == svg
    assert ET.fromstring(svg).find(f"{SVG}title").text.startswith("Rating history: Giallo")
    steps = service.history_report(data, "Giallo")["history"]
    assert len(ET.fromstring(svg).findall(f"{SVG}circle")) == 1 + len(steps)


def test_the_season_sheet_marks_results_not_counted() -> None:
    standings = {
        "season": "S",
        "scoring": {"points": [3, 1], "participation": 0, "best": 1},
        "tournaments": [
            {"number": 1, "label": "a.db", "name": "A", "date": "", "players": 2, "rounds": 1,
             "closed": 1},
            {"number": 2, "label": "b.db", "name": "B", "date": "", "players": 2, "rounds": 1,
             "closed": 0},
        ],
        "standings": [
            {"rank": 1, "player": "Giallo", "points": 3, "played": 2, "results": [
                {"tournament": 1, "rank": 1, "points": 3, "counted": True},
                {"tournament": 2, "rank": 2, "points": 1, "counted": False}]},
        ],
    }  # fmt: skip
    html = season_sheet(shared_environment(), standings, {"overall": []}, "en")
    assert "<td>#1 · 3</td><td>(#2 · 1)</td>" in html
    assert "<td>1ª · 3</td>" in season_sheet(shared_environment(), standings, {"overall": []}, "it")
    assert "the best 1 tournaments count" in html and "B <span" in html and "in play" in html


def test_season_print_pdf_writes_the_sheet_as_an_a4_pdf(season: Path, tmp_path: Path) -> None:
    pypdf = pytest.importorskip("pypdf", reason="pypdf is a test dependency")
    pytest.importorskip("weasyprint", reason="WeasyPrint draws the PDF (pango is needed)")
    out = tmp_path / "out"
    ok(tmp_path / "x.db", "season", "print", str(season), "--out", str(out), "--pdf")
    reader = pypdf.PdfReader(out / "season.pdf")
    text = " ".join(page.extract_text() for page in reader.pages)
    assert "Classifica della stagione" in text and "Giallo" in text
    box = reader.pages[0].mediabox
    # A4 in points (the season sheet is landscape: a column per tournament)
    assert sorted((round(float(box.width)), round(float(box.height)))) == [595, 842]
    assert "pagina 1 di" in text
