"""The README's tour for an organizer, walked command by command exactly as written (#11).

The commands are read from the README's own code blocks, so that the tour cannot drift from
the program again. A block of commands must run without a refusal; a block written as a
transcript (``$ tournament ...`` lines, each followed by what it prints) must print that.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tournament.cli import full_app

README = Path(__file__).parents[1] / "README.md"
runner = CliRunner()
SERVER = "On a server: PostgreSQL"


def tour_blocks() -> list[list[str]]:
    """The shell blocks of the section "A tour for an organizer", lines continued with ``\\``
    joined."""
    text = README.read_text(encoding="utf-8")
    section = text.split("## A tour for an organizer", 1)[1].split("\n## ", 1)[0]
    # The PostgreSQL server's set-up needs a server (tests/persistence covers it).
    parts = [p for p in section.split("\n### ") if not p.startswith(SERVER)]
    blocks = re.findall(r"```sh\n(.*?)```", "\n".join(parts), flags=re.S)
    return [block.replace("\\\n", " ").splitlines() for block in blocks]


def words(line: str) -> list[str]:
    """A command line as the shell reads it (quotes, and comments after ``#``)."""
    args = shlex.split(line, comments=True)
    assert not args or args[0] == "tournament", line
    return args[1:]


def test_the_tour_has_commands_to_walk() -> None:
    blocks = tour_blocks()
    commands = [
        line
        for block in blocks
        for line in block
        if (line.startswith("$ ") or not any(x.startswith("$ ") for x in block))
        and words(line.removeprefix("$ "))
    ]
    assert len(blocks) >= 3 and len(commands) >= 15
    assert any("players add Giallo" in c for c in commands)
    assert any("match roll M1 giallo" in c for c in commands)  # recorded in lowercase


def test_the_readme_tour_exactly_as_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("TOURNAMENT_DB", raising=False)
    app = full_app()
    walked = 0
    for block in tour_blocks():
        transcript = any(line.startswith("$ ") for line in block)
        lines = iter(block)
        line = next(lines, None)
        while line is not None:
            command = words(line.removeprefix("$ "))
            line = next(lines, None)
            if not command:
                continue
            result = runner.invoke(app, command)
            walked += 1
            if not transcript:
                assert result.exit_code == 0, (command, result.stderr)
                continue
            shown = []
            while line is not None and not line.startswith("$ "):
                shown.append(line)
                line = next(lines, None)
            printed = (result.stdout + result.stderr).splitlines()
            assert printed == shown, command
            assert result.exit_code == (1 if shown[0].startswith("error:") else 0), command
    assert walked >= 15
    assert Path("sera.db").exists() and Path("tournament.db").exists()
