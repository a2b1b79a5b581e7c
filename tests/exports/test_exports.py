"""Printable exports: snapshots of the HTML, the files for posting, and real printing in Chromium
(page counts and text checked with poppler's pdfinfo and pdftotext)."""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from exports import render
from tests.support import EXAMPLES
from tests.tournament.test_match_cli import ok
from tournament.services import simulate
from tournament.storage.store import Store

SNAPSHOTS = Path(__file__).parent / "snapshots"
UPDATE = os.environ.get("UPDATE_SNAPSHOTS") == "1"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
POPPLER = shutil.which("pdfinfo") and shutil.which("pdftotext")
needs_browser = pytest.mark.skipif(
    not (CHROMIUM and POPPLER),
    reason="Chromium or poppler-utils is missing: apt-get install chromium poppler-utils",
)


@pytest.mark.parametrize("game", render.sheets())
def test_blank_sheets_match_their_snapshots(game: str) -> None:
    html = render.blank_sheet(render.environment(), game, game, 2, "it")
    snapshot = SNAPSHOTS / f"sheet-{game}.html"
    if UPDATE:
        snapshot.write_text(html)
    assert snapshot.exists(), "no snapshot yet: run the tests once with UPDATE_SNAPSHOTS=1"
    assert html == snapshot.read_text()


def test_english_and_user_templates(tmp_path: Path) -> None:
    assert "Score sheet" in render.blank_sheet(render.environment(), "tiro", "Tiro", 2, "en")
    (tmp_path / "sheet_tiro.html").write_text("club sheet for {{ title }}")
    env = render.environment(tmp_path)
    assert render.blank_sheet(env, "tiro", "Tiro", 2, "it") == "club sheet for Tiro"
    with pytest.raises(ValueError, match="Italian"):
        render.blank_sheet(render.environment(), "tiro", "Tiro", 2, "fr")


def test_autoescape() -> None:
    html = render.standings_html(
        render.environment(),
        "<b>club</b>",
        [{"rank": 1, "player": "<script>", "points": 3.0}],
        "it",
    )
    assert "<script>" not in html and "&lt;script&gt;" in html


def tournament_with_exports(tmp_path: Path, **knobs) -> Path:
    db = tmp_path / "t.db"
    simulate.run(Store(db), simulate.Simulation(**knobs))
    return db


def test_files_for_posting(tmp_path: Path) -> None:
    db = tournament_with_exports(tmp_path, players=5, rounds=2, plays="updown", seed=2)
    out = tmp_path / "out"
    said = ok(db, "export", "standings", "--out", str(out))
    assert said.count("wrote ") == 4
    rows = json.loads((out / "standings.json").read_text())
    assert len(rows) == 5 and rows[0]["rank"] == 1
    csv_lines = (out / "standings.csv").read_text().splitlines()
    assert (
        csv_lines[0]
        == "rank,player,points,challenge,buchholz,buchholz_cut1,sonneborn_berger,by_lot"
    )
    assert len(csv_lines) == 6
    assert (out / "standings.md").read_text().startswith("| Pos. | Giocatore | Punti |")
    ok(db, "export", "pairings", "1", "--format", "md,json", "--out", str(out), "--lang", "en")
    assert "## Round 1" in (out / "pairings-1.md").read_text()
    assert json.loads((out / "pairings-1.json").read_text())["round"] == 1


def print_pdf(html: Path, tmp_path: Path) -> tuple[int, str, str]:
    """Print with headless Chromium; return pages, page size and text."""
    pdf = tmp_path / (html.stem + ".pdf")
    subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            f"--user-data-dir={tmp_path / 'chromium'}",
            "--no-pdf-header-footer",
            f"--print-to-pdf={pdf}",
            html.as_uri(),
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True).stdout
    pages = int(next(line for line in info.splitlines() if line.startswith("Pages:")).split()[1])
    size = next(line for line in info.splitlines() if line.startswith("Page size:"))
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True).stdout
    return pages, size, text


@needs_browser
def test_every_blank_sheet_prints_on_one_a4_page(tmp_path: Path) -> None:
    out = tmp_path / "out"
    for game in render.sheets():
        ok(tmp_path / "x.db", "export", "sheet", game, "--players", "4", "--out", str(out))
    for game in render.sheets():
        pages, size, text = print_pdf(out / f"sheet-{game}.html", tmp_path)
        assert pages == 1, game
        assert "(A4)" in size and "594" in size.split("x")[0], size  # portrait
        assert "Firma" in text


@needs_browser
def test_a_filled_score_sheet_carries_names_and_the_head_hash(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    ok(db, "match", "import", str(EXAMPLES / "tiro-seed.jsonl"))
    out = tmp_path / "out"
    ok(db, "export", "scoresheet", "M1", "--out", str(out))
    head = json.loads(ok(db, "match", "show", "M1", "--json"))["head"]
    pages, _, text = print_pdf(out / "scoresheet-M1.html", tmp_path)
    flat = "".join(text.split())
    assert pages == 1 and "giallo" in text and "blu" in text
    assert head in flat  # the seal, as text (the QR code carries the same)


@needs_browser
def test_a_sixteen_player_bracket_is_one_landscape_page(tmp_path: Path) -> None:
    db = tournament_with_exports(
        tmp_path, players=16, format="elimination", plays="ventuno", seed=5
    )
    out = tmp_path / "out"
    ok(db, "export", "bracket", "--out", str(out))
    pages, size, text = print_pdf(out / "bracket.html", tmp_path)
    width, height = (float(x) for x in size.split(":")[1].split("pts")[0].split("x"))
    assert pages == 1 and width > height
    assert "Giocatore 01" in text or "Giocatore 16" in text


def test_the_bracket_shows_each_decided_tables_points_and_who_went_through(
    tmp_path: Path,
) -> None:
    import re

    db = tournament_with_exports(tmp_path, players=4, format="elimination", plays="ventuno")
    out = tmp_path / "out"
    ok(db, "export", "bracket", "--out", str(out))
    svg = (out / "bracket.html").read_text()
    rounds = json.loads(ok(db, "round", "show", "2", "--json"))
    final = rounds["tables"][0]["players"]
    standings = json.loads(ok(db, "standings", "--json"))
    champion = next(r["player"] for r in standings if r["rank"] == 1)
    assert champion in final
    bold = re.findall(r'font-weight="bold">([^<]+)</text>', svg)
    assert champion in bold  # through from the first round, and the final's winner
    assert len([b for b in bold if not b.isdigit()]) == 3  # one a table: two semis, the final
    points = re.findall(r'text-anchor="end"[^>]*>(\d+)</text>', svg)
    assert len(points) == 6  # both players' challenge points at each of the three tables


LOT_ROWS = [  # Blu and Verde level on everything before the lot, which parted them
    {"rank": 1, "player": "Giallo", "points": 3.0, "by_lot": 0},
    {"rank": 2, "player": "Blu", "points": 1.0, "by_lot": 1},
    {"rank": 3, "player": "Verde", "points": 1.0, "by_lot": 1},
]


@pytest.mark.parametrize(
    ("lang", "legend"), [("it", "ordine estratto a sorte"), ("en", "order drawn by lot")]
)
def test_the_printed_standings_mark_the_places_the_lot_drew(lang: str, legend: str) -> None:
    rows = LOT_ROWS
    html = render.standings_html(render.environment(), "Sera", rows, lang)
    assert html.count("†") == 3 and legend in html  # Blu's row, Verde's, and the legend
    assert "<td>1</td>" in html and "<td>2 †</td>" in html
    plain = [{**r, "by_lot": 0} for r in rows]
    html = render.standings_html(render.environment(), "Sera", plain, lang)
    assert "†" not in html and legend not in html
    # A Swiss's table before its bracket marks its own rows, and the legend says so once.
    html = render.standings_html(
        render.environment(), "Sera", plain, lang, swiss={"round": 3, "rows": rows}
    )
    assert html.count("†") == 3 and html.count(legend) == 1


@pytest.mark.parametrize(
    ("lang", "legend"), [("it", "ordine estratto a sorte"), ("en", "order drawn by lot")]
)
def test_the_standings_exports_carry_the_places_the_lot_drew(lang: str, legend: str) -> None:
    rows = LOT_ROWS
    table = list(csv.DictReader(io.StringIO(render.standings_csv(rows))))
    assert [(r["player"], r["by_lot"]) for r in table] == [
        ("Giallo", "0"),
        ("Blu", "1"),
        ("Verde", "1"),
    ]
    listed = json.loads(render.standings_json(rows))
    assert [r["by_lot"] for r in listed] == [0, 1, 1]
    md = render.standings_markdown(rows, lang).splitlines()
    assert md[2].startswith("| 1 | Giallo |") and md[3].startswith("| 2 † | Blu |")
    assert md[-1] == f"† {legend}" and md[-2] == ""
    # Nothing drawn (or an older row without the field): no mark, no legend, by_lot 0.
    plain = [{k: v for k, v in r.items() if k != "by_lot"} for r in rows]
    assert "†" not in render.standings_markdown(plain, lang)
    assert legend not in render.standings_markdown(plain, lang)
    assert [r["by_lot"] for r in json.loads(render.standings_json(plain))] == [0, 0, 0]
    assert render.standings_csv(plain).splitlines()[1].endswith(",0")
