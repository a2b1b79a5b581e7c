"""``db copy`` compares the copy with its source row by row: a row that differs is named (its
aggregate and version) in one sentence, and the copy is taken away."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from tournament.cli import full_app

app = full_app()
runner = CliRunner()


def test_a_copied_row_that_differs_is_named_and_the_copy_taken_away(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tournament.services import copy as copying

    source, target = tmp_path / "a.db", tmp_path / "b.db"
    made = runner.invoke(app, ["--db", str(source), "match", "new", "tiro", "Anna", "Bruno"])
    assert made.exit_code == 0, made.stdout
    scan = copying.scan

    def tampered(where, what="events", aggregate=None):  # type: ignore[no-untyped-def]
        for row in scan(where, what, aggregate):
            if str(where) == str(target) and what == "events":
                row = (*row[:3], bytes(row[3]) + b" ")  # the copy's state, one byte more
            yield row

    monkeypatch.setattr(copying, "scan", tampered)
    for lang, said in (
        ("en", "the copy's events differ from the source's at "),
        ("it", "gli eventi della copia differiscono dall'origine in "),
    ):
        result = runner.invoke(app, ["--lang", lang, "db", "copy", str(source), str(target)])
        assert result.exit_code == 1, result.stdout + result.stderr
        assert said in result.stderr and " 1" in result.stderr, result.stderr
        assert "Traceback" not in result.stderr and not target.exists()
