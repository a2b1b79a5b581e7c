"""A page afresh after a move (#27): a page stands on what it shows, not on the store's position,
so the standings stay kept across the moves inside a match and are drawn again once a match
ends, whichever process stored it; the home page of a big round shows the round in play
summarised, the first tables and the visitor's own, with the whole round a link away."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tournament.web import views

from .conftest import TIRO, build, make_client, record
from .test_festival import start_tiro

ROOT = Path(__file__).resolve().parents[2]
# The last move of M1's Tiro (which ends it), stored by another process.
LAST = (
    "import sys; from tournament.services.matches import record; "
    "from tournament.storage.store import Store; "
    "record(Store(sys.argv[1]), 'M1', {'type': 'expression', 'by': 'blu', "
    "'expr': '(5+4+2):1'})"
)


def counting(monkeypatch: pytest.MonkeyPatch, name: str) -> list[int]:
    calls: list[int] = []
    real = getattr(views, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(views, name, counted)
    return calls


def test_the_standings_stay_kept_across_moves_inside_a_match_and_move_when_it_ends(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = build(tmp_path / "t.db")
    with make_client(store) as client:
        table = start_tiro(client, store)
        gathered = counting(monkeypatch, "standings")
        first = client.get("/standings")
        tag, api = first.headers["etag"], client.get("/api/standings").headers["etag"]
        home = client.get("/").headers["etag"]
        for seat, kind, fields in TIRO[:-1]:  # moves inside the match: nothing it shows
            record(client, table, seat, kind, **fields)
            assert client.get("/standings", headers={"If-None-Match": tag}).status_code == 304
            assert client.get("/api/standings").headers["etag"] == api
        assert client.get("/standings").content == first.content and len(gathered) == 1
        # (the home page shows who acts next: it moved with them)
        assert client.get("/", headers={"If-None-Match": home}).status_code == 200
        # The match's last move, stored by another process: the match ends, the page moves.
        subprocess.run([sys.executable, "-c", LAST, str(tmp_path / "t.db")], check=True,
                       timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)})  # fmt: skip
        moved = client.get("/standings", headers={"If-None-Match": tag})
        assert moved.status_code == 200 and moved.headers["etag"] != tag
        assert len(gathered) == 2 and 'href="/matches/M1"' in moved.text
        latest = client.get("/api/standings").json()["latest"]
        assert [m["id"] for m in latest] == ["M1"] and latest[0]["status"] == "finished"
