"""Every command of the CLI is documented in docs/cli.md (as sqlite-utils does for its own)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from typer.main import get_command

from tournament.cli import full_app

DOCS = Path(__file__).resolve().parent.parent / "docs" / "cli.md"


def command_paths(command: Any, prefix: tuple[str, ...] = ()) -> list[str]:
    subs = getattr(command, "commands", None)
    if not subs:
        return [" ".join(prefix)]
    return [p for name, sub in subs.items() for p in command_paths(sub, (*prefix, name))]


def test_every_command_is_documented() -> None:
    text = DOCS.read_text()
    missing = [p for p in command_paths(get_command(full_app())) if f"tournament {p}" not in text]
    assert missing == []
