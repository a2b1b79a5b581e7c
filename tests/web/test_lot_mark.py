"""/standings marks the places the seeded lot decided (the last tie-break), with a legend."""

from __future__ import annotations

from pathlib import Path

from .conftest import build, make_client, paired


def test_standings_mark_the_places_drawn_by_lot(tmp_path: Path) -> None:
    players = ("giallo", "blu", "verde")
    store = build(tmp_path / "t.db", players=players, tiebreaks=["challenge", "lot"])
    with make_client(store) as client:
        # Nothing recorded: the lot orders the three, yet it parted nobody: no mark, no legend.
        page = client.get("/standings").text
        assert "†" not in page and "estratto a sorte" not in page
        assert not any(r["by_lot"] for r in client.get("/api/standings").json()["rows"])
        # Round 1 paired: the bye is recorded, the two others level on 0: the lot parts them.
        paired(store, client)
        page = client.get("/standings").text
        assert page.count('<abbr class="lot" title="ordine estratto a sorte">†</abbr>') == 2
        assert "† ordine estratto a sorte</p>" in page
        english = client.get("/standings", headers={"Cookie": "lang=en"}).text
        assert "† order drawn by lot</p>" in english
        rows = client.get("/api/standings").json()["rows"]
        assert [(r["rank"], r["by_lot"]) for r in rows] == [(1, 0), (2, 1), (3, 1)]


def test_standings_without_a_lot_mark_nothing(tmp_path: Path) -> None:
    store = build(tmp_path / "t.db", tiebreaks=["challenge"])
    with make_client(store) as client:
        page = client.get("/standings").text
        assert "†" not in page and "estratto a sorte" not in page
        assert [r["rank"] for r in client.get("/api/standings").json()["rows"]] == [1, 1]
