"""The web's templates are compiled once a process and loaded before the first request (#27:
half a second of Jinja's compiling, in each environment, on the first phones' requests)."""

from __future__ import annotations

from pathlib import Path

import jinja2
import pytest

from tournament.web import app, pages
from tournament.web.pages import CompiledOnce

from .conftest import build, make_client


def test_an_app_loads_its_pages_before_serving_and_a_second_compiles_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = build(tmp_path / "t.db")
    compiled: list[str] = []
    compile_ = jinja2.Environment.compile

    def counted(self: jinja2.Environment, source: str, name: str | None = None, *a, **k):  # type: ignore[no-untyped-def]
        compiled.append(str(name))
        return compile_(self, source, name, *a, **k)

    monkeypatch.setattr(jinja2.Environment, "compile", counted)
    fresh = CompiledOnce()  # (as in a process's first app)
    monkeypatch.setattr(pages, "COMPILED", fresh)
    monkeypatch.setattr(app, "COMPILED", fresh)
    with make_client(store) as client:
        envs = client.app.state.envs  # type: ignore[attr-defined]
        for env in envs.values():  # every page's template loaded before any request
            assert {"web/table.html", "web/standings.html"} <= {n for _, n in env.cache.keys()}
        # compiled once each, for one language: the other's made from the same code
        assert "web/table.html" in compiled and len(compiled) == len(set(compiled))
        assert client.get("/standings").status_code == 200
    compiled.clear()
    with make_client(store) as client:  # a second app of the process: nothing compiled again
        assert client.get("/standings").status_code == 200
        assert "Torneo di prova" in client.get("/").text
    assert compiled == []
