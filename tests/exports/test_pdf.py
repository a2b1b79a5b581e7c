"""PDF files written by ``export ... --pdf`` with WeasyPrint, read back with pypdf (no browser):
A4 pages, "pagina 1 di N", a long match over several pages with its table header repeated and
its signatures kept with the outcome, the seal hash whole; one clear line where WeasyPrint is
missing, and the HTML still written."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from tests.support import require_weasyprint

require_weasyprint()
pypdf = pytest.importorskip("pypdf", reason="pypdf is a test dependency")

from tests.support import EXAMPLES  # noqa: E402
from tests.tournament.test_match_cli import ok, run  # noqa: E402
from tournament.services import simulate  # noqa: E402
from tournament.storage.store import Store  # noqa: E402

A4 = (595, 842)  # points, portrait


def pages(pdf: Path) -> list[str]:
    """The text of each page."""
    return [page.extract_text() for page in pypdf.PdfReader(pdf).pages]


def page_size(pdf: Path) -> tuple[int, int]:
    box = pypdf.PdfReader(pdf).pages[0].mediabox
    return round(float(box.width)), round(float(box.height))


def test_a_long_match_paginates_with_its_header_repeated(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    ok(db, "match", "import", str(EXAMPLES / "alphatiana-full.jsonl"))  # 65 events
    out = tmp_path / "out"
    said = ok(db, "export", "scoresheet", "M1", "--out", str(out), "--pdf")
    assert f"wrote {out / 'scoresheet-M1.pdf'}" in said and "report-M1.pdf" in said
    assert (out / "scoresheet-M1.html").exists()
    pdf = out / "scoresheet-M1.pdf"
    assert page_size(pdf) == A4
    text = pages(pdf)
    n = len(text)
    assert n >= 3
    for i, page in enumerate(text, 1):
        assert f"pagina {i} di {n}" in page
        assert "http" not in page and "file:" not in page  # no browser header or footer
    log_pages = [p for p in text if "Registro degli eventi" in p or "Situazione" in p]
    assert len(log_pages) >= 2
    assert all("Chi" in p and "Cosa" in p for p in log_pages)  # the header on every page
    head = json.loads(ok(db, "match", "show", "M1", "--json"))["head"]
    last = text[-1]
    assert head in "".join(last.split())  # the seal, whole, though it wraps
    # The signatures are never alone: the winners and the points stand with them.
    assert "Vincitore: Blu" in last and "Arbitro" in last  # (one winner: the singular)


def test_a_short_match_is_one_page_with_its_filled_tables(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    ok(db, "match", "import", str(EXAMPLES / "tiro-seed.jsonl"))
    out = tmp_path / "out"
    ok(db, "export", "scoresheet", "M1", "--out", str(out), "--pdf")
    (text,) = pages(out / "scoresheet-M1.pdf")
    assert "pagina 1 di 1" in text
    for seen in ("Bersaglio", "11", "6 x (5:6+1)", "(5+4+2):1", "Divisioni", "6 6 5 1"):
        assert seen in text
    assert "fa centro su 11" in text


def test_standings_and_pairings_print_with_results_and_footnotes(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    simulate.run(
        Store(db),
        simulate.Simulation(players=6, rounds=2, plays="tiro", seed=3, name="Coppa d'autunno"),
    )
    out = tmp_path / "out"
    ok(db, "export", "pairings", "2", "--format", "html", "--out", str(out), "--pdf")
    ok(db, "export", "standings", "--format", "html", "--out", str(out), "--pdf")
    (pairings,) = pages(out / "pairings-2.pdf")
    assert "Coppa d'autunno" in pairings and "Turno 2" in pairings
    assert "Risultati del turno 1" in pairings and "3 tavoli" in pairings
    (standings,) = pages(out / "standings.pdf")
    assert "dopo il turno 2" in standings and "6 giocatori" in standings
    assert "Buchholz: la somma dei punti" in standings
    assert "Sonneborn-Berger: i punti di ogni avversario" in standings


def test_without_weasyprint_one_line_and_the_html(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "m.db"
    ok(db, "match", "import", str(EXAMPLES / "tiro-seed.jsonl"))
    monkeypatch.setitem(sys.modules, "weasyprint", None)  # import weasyprint: ImportError
    out = tmp_path / "out"
    result = run(db, "export", "scoresheet", "M1", "--out", str(out), "--pdf")
    assert result.exit_code == 0
    assert result.stderr.count("\n") == 1 and "pip install -e '.[pdf]'" in result.stderr
    assert (out / "scoresheet-M1.html").exists() and not (out / "scoresheet-M1.pdf").exists()


def test_the_demo_writes_a_pdf_beside_each_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The demo prints both; the PDF writer is stood in for here (printing ~150 pages takes
    a minute, and the tests above print real ones through the same printer)."""
    from exports import pdf

    printed: list[Path] = []

    def fake(html: str, path: Path) -> Path:
        assert html.startswith("<!DOCTYPE html>")
        path.write_bytes(b"%PDF-1.7 stand-in")
        printed.append(path)
        return path

    monkeypatch.setattr(pdf, "write_pdf", fake)
    made = json.loads(ok(tmp_path / "demo.db", "demo", "--json"))
    written = [Path(p) for p in made["exports"]]
    pages_html = {p.stem for p in written if p.suffix == ".html"}
    assert len(pages_html) > 100
    pages_pdf = {p.stem for p in written if p.suffix == ".pdf"}
    assert pages_pdf == pages_html == {p.stem for p in printed}


def test_every_blank_sheet_is_one_a4_page(tmp_path: Path) -> None:
    from exports import render

    out = tmp_path / "out"
    for game in render.sheets():
        ok(tmp_path / "x.db", "export", "sheet", game, "--players", "4", "--out", str(out), "--pdf")
        pdf = out / f"sheet-{game}.pdf"
        assert page_size(pdf) == A4
        (text,) = pages(pdf)
        assert "Firma" in text and "pagina 1 di 1" in text


def test_the_closing_keeps_the_end_of_the_log_and_names_the_referee(tmp_path: Path) -> None:
    """The outcome, seal and signatures never start a page alone: the last rows of the log
    come with them (demo matches M22 and M59 filled their first page just short of it)."""
    from tournament.services.demo import DATE, build_demo

    db = tmp_path / "demo.db"
    build_demo(db)
    out = tmp_path / "out"
    for match in ("M22", "M59"):
        ok(db, "export", "scoresheet", match, "--out", str(out), "--pdf")
        text = pages(out / f"scoresheet-{match}.pdf")
        last = text[-1]
        assert ("Vincitore:" in last or "Vincitori:" in last) and "fine:" in last, match
        assert "Chi" in last, match
        assert f"Data: {DATE}" in text[0]
    first, *_, last = pages(out / "scoresheet-M22.pdf")
    referee = re.search(r"Arbitro:\s+([A-Z]\w+)", first)  # a table of the tournament: named
    assert referee and f"Arbitro: {referee[1]}" in last  # and again by the signature
