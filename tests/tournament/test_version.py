"""`tournament --version`: the installed package's version, answered before anything heavy."""

from __future__ import annotations

import importlib.metadata
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import tournament

ROOT = Path(__file__).resolve().parents[2]

# A call that prints what it imported, on stderr, after the command line has run.
CALL = (
    "import sys; from tournament.cli import main\n"
    "code = 0\n"
    "try: main()\n"
    "except SystemExit as e: code = e.code\n"
    "print(' '.join(sys.modules), file=sys.stderr)\n"
    "sys.exit(code)"
)

# --version must not pay for what a command needs: the store, the rules, the command line.
NOT_FOR_THE_VERSION = ("eventsourcing", "engine", "typer", "rich", "tournament.cli.common")


def call(*args: str) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    done = subprocess.run(
        [sys.executable, "-c", CALL, *args], capture_output=True, text=True, check=False
    )
    return done, set(done.stderr.split())


@pytest.mark.parametrize("args", [("--version",), ("--db", "elsewhere.db", "--version")])
def test_version_prints_the_package_version_and_imports_nothing_heavy(
    args: tuple[str, ...],
) -> None:
    done, imported = call(*args)
    assert done.returncode == 0
    assert done.stdout == f"tournament {importlib.metadata.version('tournament')}\n"
    heavy = {
        m for m in imported for name in NOT_FOR_THE_VERSION if m == name or m.startswith(f"{name}.")
    }
    assert not heavy, f"--version imported {sorted(heavy)}"
    assert "tournament.cli" in imported  # the check sees the real names


def test_python_m_tournament_version_exits_0() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tournament", "--version"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (done.returncode, done.stdout) == (0, f"tournament {tournament.version()}\n")


def test_one_source_of_truth() -> None:
    """pyproject.toml reads the version from tournament/__init__.py, and what is installed is it."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "version" not in project["project"]
    assert "version" in project["project"]["dynamic"]
    dynamic = project["tool"]["setuptools"]["dynamic"]["version"]
    assert dynamic == {"attr": "tournament.__version__"}
    assert importlib.metadata.version("tournament") == tournament.__version__, (
        "the installed metadata is not tournament/__init__.py's version: pip install -e ."
    )


def test_the_newest_release_in_the_changelog_is_this_version() -> None:
    releases = re.findall(
        r"^## (\d+\.\d+\.\d+) — \d{4}-\d{2}-\d{2}$",
        (ROOT / "CHANGELOG.md").read_text(),
        re.MULTILINE,
    )
    assert releases and releases[0] == tournament.__version__


def test_without_metadata_the_constant_is_the_version(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing(name: str) -> str:
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "version", missing)
    assert tournament.version() == tournament.__version__
