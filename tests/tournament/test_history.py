"""Stores and logs written by earlier versions still open, verify and say the same today.

tests/fixtures/history/<r>-<sha7>/ holds what an earlier commit of the program wrote and printed
(made by tests/fixtures/history/make.py with that commit's own ``tournament`` command): its
stores (gzip-compressed), the match logs it exported, and what its reading commands printed.
Each store is opened here by the current code: the standings, the match list, every match, the
status and the rounds must say what the old version said (the keys it printed, with the same
values; keys added since are not looked at), ``verify`` must pass, the season must agree, every
exported log must verify and import to the same outcome, and the writing commands the old
version accepted on a copy of the store must be accepted now, the store verifying after them.
"""

from __future__ import annotations

import gzip
import json
import shutil
from collections.abc import Callable, Iterator
from itertools import zip_longest
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
import typer
import typer.testing
from typer.testing import CliRunner

from tournament.cli import full_app

HISTORY = Path(__file__).resolve().parents[1] / "fixtures" / "history"
FIXTURES = sorted(p for p in HISTORY.iterdir() if (p / "manifest.json").is_file())
LABELS = ("r1", "r2", "r3", "r4")

app = full_app()
runner = CliRunner()
# typer builds the click command anew on every invoke (0.2 s here, more than most commands
# take): built once, as tests/tournament/test_fuzz_cli.py does, and handed to each invoke.
COMMAND = typer.main.get_command(app)

# A match, compared key by key where the old version printed the key: its outcome, the referee's
# corrections (positions voided, rulings), its count of events and the head hash that signed score
# sheets print. Words meant for people (notes, titles, what is expected next) are not compared.
MATCH_KEYS = (
    "game",
    "players",
    "outside",
    "status",
    "winners",
    "points",
    "out",
    "voided",
    "rulings",
    "events",
    "head",
)
OUTCOME_KEYS = tuple(key for key in MATCH_KEYS if key != "head")
LIST_KEYS = ("id", "game", "players", "events", "head")
TABLE_KEYS = ("table", "players", "bye", "games", "matches", "decided", "points", "amended")
STATUS_KEYS = ("name", "format", "plays", "players", "round", "round_closed")
ROUND_KEYS = ("number", "closed")


def manifest(fixture: Path) -> dict[str, Any]:
    return json.loads((fixture / "manifest.json").read_text())


def expected(fixture: Path, store: str, name: str) -> dict[str, Any]:
    return json.loads((fixture / "expected" / store / f"{name}.json").read_text())


def invoke(*args: str) -> Any:
    with mock.patch.object(typer.testing, "_get_command", lambda _: COMMAND):
        return runner.invoke(app, list(args))


def said(result: Any) -> str:
    """The first lines of what a command printed, for a failure's message."""
    text = (result.stderr or "") + (result.stdout or "")
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        text += f"\n{type(result.exception).__name__}: {result.exception}"
    return "\n".join(text.strip().splitlines()[:8])


def as_json(result: Any, what: str) -> Any:
    assert result.exit_code == 0, f"{what} exits {result.exit_code}:\n{said(result)}"
    return json.loads(result.stdout)


def differences(old: Any, new: Any, where: str, keys: tuple[str, ...] | None = None) -> list[str]:
    """Where new does not say what old said: old's keys (or those of keys it has) compared."""
    if isinstance(old, dict):
        if not isinstance(new, dict):
            return [f"{where}: was {old!r}, now {new!r}"]
        found = []
        for key in keys if keys is not None else tuple(old):
            if key not in old:
                continue
            if key not in new:
                found.append(f"{where}.{key}: missing (was {old[key]!r})")
            else:
                found += differences(old[key], new[key], f"{where}.{key}")
        return found
    if isinstance(old, list):
        if not isinstance(new, list) or len(old) != len(new):
            return [f"{where}: was {old!r}, now {new!r}"]
        return [
            d
            for i, (a, b) in enumerate(zip(old, new, strict=True))
            for d in differences(a, b, f"{where}[{i}]")
        ]
    if isinstance(old, float) and isinstance(new, (int, float)) and not isinstance(new, bool):
        return (
            []
            if abs(old - new) <= 1e-9 * max(1.0, abs(old))
            else [f"{where}: was {old!r}, now {new!r}"]
        )
    return [] if old == new else [f"{where}: was {old!r}, now {new!r}"]


def no_differences(found: list[str]) -> None:
    assert not found, f"{len(found)} differences, the first:\n" + "\n".join(found[:12])


# -- the cases ------------------------------------------------------------------------------------
STORE_CHECKS = (
    "standings",
    "match_list",
    "match_show",
    "verify",
    "status",
    "rounds",
    "logs",
    "write",
)
SEASON_CHECKS = ("standings", "ratings", "audit")


def recorded(fixture: Path, store: str, check: str) -> bool:
    """Whether the old version recorded what this check compares."""
    made = manifest(fixture)["stores"][store]
    if check == "logs":
        return bool(made.get("logs"))
    if check == "status":
        return (fixture / "expected" / store / "status.json").is_file()
    if check == "rounds":
        return bool(made.get("rounds"))
    return True


def store_cases() -> Iterator[Any]:
    for fixture in FIXTURES:
        for store in manifest(fixture)["stores"]:
            for check in STORE_CHECKS:
                if recorded(fixture, store, check):
                    yield pytest.param(fixture, store, check, id=f"{fixture.name}/{store}/{check}")


def season_cases() -> Iterator[Any]:
    for fixture in FIXTURES:
        for check in SEASON_CHECKS:
            if (fixture / "expected" / "season" / f"{check}.json").is_file():
                yield pytest.param(fixture, check, id=f"{fixture.name}/season/{check}")


def unpack(fixture: Path, store: str, into: Path) -> Path:
    into.mkdir(parents=True, exist_ok=True)
    db = into / f"{store}.db"
    with gzip.open(fixture / f"{store}.db.gz") as packed, open(db, "wb") as raw:
        shutil.copyfileobj(packed, raw)
    return db


@pytest.fixture(scope="module")
def opened(tmp_path_factory: pytest.TempPathFactory) -> Callable[[Path, str], Path]:
    """The store of a fixture, unpacked once for the reading checks."""
    done: dict[tuple[str, str], Path] = {}

    def get(fixture: Path, store: str) -> Path:
        key = (fixture.name, store)
        if key not in done:
            done[key] = unpack(fixture, store, tmp_path_factory.mktemp(f"{fixture.name}-{store}"))
        return done[key]

    return get


def test_every_commit_has_its_fixtures() -> None:
    assert [f.name.split("-")[0] for f in FIXTURES] == list(LABELS), FIXTURES
    for fixture in FIXTURES:
        m = manifest(fixture)
        assert fixture.name == f"{m['label']}-{m['commit'][:7]}"
        for store in m["stores"]:
            assert (fixture / f"{store}.db.gz").is_file()


@pytest.mark.parametrize(("fixture", "store", "check"), list(store_cases()))
def test_an_old_store(
    fixture: Path, store: str, check: str, opened: Callable[[Path, str], Path], tmp_path: Path
) -> None:
    CHECKS[check](fixture, store, opened, tmp_path)


def check_standings(fixture: Path, store: str, opened: Callable, tmp_path: Path) -> None:
    old = expected(fixture, store, "standings")
    assert old["rc"] == 0, "the old version printed no standings"
    new = as_json(invoke("--db", str(opened(fixture, store)), "standings", "--json"), "standings")
    no_differences(differences(old["json"], new, "standings"))


def check_match_list(fixture: Path, store: str, opened: Callable, tmp_path: Path) -> None:
    old = expected(fixture, store, "match-list")["json"]
    new = as_json(
        invoke("--db", str(opened(fixture, store)), "match", "list", "--json"), "match list"
    )
    assert [m["id"] for m in new] == [m["id"] for m in old]
    found = []
    for a, b in zip(old, new, strict=True):
        found += differences(a, b, a["id"], LIST_KEYS)
    no_differences(found)


def check_match_show(fixture: Path, store: str, opened: Callable, tmp_path: Path) -> None:
    db = str(opened(fixture, store))
    found = []
    for match in manifest(fixture)["stores"][store]["matches"]:
        old = expected(fixture, store, f"match-show-{match}")
        assert old["rc"] == 0, f"the old version did not show {match}"
        result = invoke("--db", db, "match", "show", match, "--json")
        if result.exit_code != 0:
            found.append(f"{match}: match show exits {result.exit_code}: {said(result)}")
            continue
        now = json.loads(result.stdout)
        found += differences(old["json"], now, match, MATCH_KEYS)
        # Who acts next and with which events (not the wording of what is expected).
        for i, (a, b) in enumerate(zip_longest(old["json"].get("next", []), now.get("next", []))):
            found += differences(a, b, f"{match}.next[{i}]", ("player", "events", "rule"))
    no_differences(found)


def check_verify(fixture: Path, store: str, opened: Callable, tmp_path: Path) -> None:
    db = str(opened(fixture, store))
    assert expected(fixture, store, "verify")["rc"] == 0, "the old version's own verify failed"
    result = invoke("--db", db, "verify")
    assert result.exit_code == 0, f"verify exits {result.exit_code}:\n{said(result)}"
    old = expected(fixture, store, "verify-json")["json"]
    new = as_json(invoke("--db", db, "verify", "--json"), "verify --json")
    assert new["ok"] is True and new["matches"] == old["matches"], (old, new)


def check_status(fixture: Path, store: str, opened: Callable, tmp_path: Path) -> None:
    old = expected(fixture, store, "status")
    new = invoke("--db", str(opened(fixture, store)), "status", "--json")
    assert new.exit_code == old["rc"], (
        f"status exits {new.exit_code}, was {old['rc']}:\n{said(new)}"
    )
    if old["rc"] != 0:
        return
    now = json.loads(new.stdout)
    found = differences(old["json"], now, "status", STATUS_KEYS)
    found += tables(old["json"].get("tables"), now.get("tables"), "status")
    no_differences(found)


def tables(old: Any, new: Any, where: str) -> list[str]:
    if old is None:
        return []
    if not isinstance(new, list) or len(new) != len(old):
        return [f"{where}.tables: was {old!r}, now {new!r}"]
    return [
        d
        for i, (a, b) in enumerate(zip(old, new, strict=True))
        for d in differences(a, b, f"{where}.tables[{i}]", TABLE_KEYS)
    ]


def check_rounds(fixture: Path, store: str, opened: Callable, tmp_path: Path) -> None:
    db = str(opened(fixture, store))
    rounds = manifest(fixture)["stores"][store]["rounds"]
    assert rounds > 0, "the old version recorded no round"
    found = []
    for n in range(1, rounds + 1):
        old = expected(fixture, store, f"round-show-{n}")["json"]
        result = invoke("--db", db, "round", "show", str(n), "--json")
        if result.exit_code != 0:
            found.append(f"round {n}: exits {result.exit_code}: {said(result)}")
            continue
        new = json.loads(result.stdout)
        found += differences(old, new, f"round {n}", ROUND_KEYS)
        found += tables(old.get("tables"), new.get("tables"), f"round {n}")
    no_differences(found)


def check_logs(fixture: Path, store: str, opened: Callable, tmp_path: Path) -> None:
    logs = manifest(fixture)["stores"][store]["logs"]
    found = []
    for match in logs:
        log = fixture / "logs" / store / f"{match}.jsonl"
        name = f"logs/{store}/{match}"
        assert expected(fixture, name, "verify-file")["rc"] == 0
        checked = invoke("verify", "--file", str(log))
        if checked.exit_code != 0:
            found.append(f"{match}: verify --file exits {checked.exit_code}: {said(checked)}")
        db = str(tmp_path / f"{match}.db")
        imported = invoke("--db", db, "match", "import", str(log))
        if imported.exit_code != 0:
            found.append(f"{match}: match import exits {imported.exit_code}: {said(imported)}")
            continue
        new_id = imported.stdout.strip()
        old = expected(fixture, name, "show")["json"]
        shown = invoke("--db", db, "match", "show", new_id, "--json")
        if shown.exit_code != 0:
            found.append(f"{match}: the imported match does not show: {said(shown)}")
            continue
        # Not the head: it binds the match's new number, id and the times of the import.
        found += differences(old, json.loads(shown.stdout), f"{match} imported", OUTCOME_KEYS)
    no_differences(found)


def check_write(fixture: Path, store: str, opened: Callable, tmp_path: Path) -> None:
    """The writing commands the old version was given on a copy, then verify."""
    db = str(unpack(fixture, store, tmp_path))
    old = expected(fixture, store, "probe")
    assert old["verify"]["rc"] == 0, "the old version's own verify failed after the probe"
    for step in old["steps"]:
        args = step["argv"][3:]  # tournament --db NAME ...
        result = invoke("--db", db, *args)
        assert (result.exit_code == 0) == (step["rc"] == 0), (
            f"{' '.join(args)}: exits {result.exit_code}, the old version {step['rc']}:\n"
            + said(result)
        )
        if args[:2] == ["match", "new"] and step["rc"] == 0:
            assert result.stdout.strip() == step["stdout"].strip()
    verified = invoke("--db", db, "verify")
    assert verified.exit_code == 0, (
        f"verify after the writes exits {verified.exit_code}:\n{said(verified)}"
    )
    standings = as_json(invoke("--db", db, "standings", "--json"), "standings after the writes")
    no_differences(differences(old["standings"]["json"], standings, "standings"))


CHECKS: dict[str, Callable[[Path, str, Callable, Path], None]] = {
    "standings": check_standings,
    "match_list": check_match_list,
    "match_show": check_match_show,
    "verify": check_verify,
    "status": check_status,
    "rounds": check_rounds,
    "logs": check_logs,
    "write": check_write,
}


@pytest.mark.parametrize(("fixture", "check"), list(season_cases()))
def test_an_old_season(fixture: Path, check: str, tmp_path: Path) -> None:
    season = manifest(fixture)["season"]
    for store in season["tournaments"]:
        unpack(fixture, store, tmp_path)
    shutil.copyfile(fixture / season["toml"], tmp_path / "season.toml")
    old = expected(fixture, "season", check)
    assert old["rc"] == 0, f"the old version's season {check} failed: {old['stderr']}"
    new = as_json(
        invoke("season", check, str(tmp_path / "season.toml"), "--json"), f"season {check}"
    )
    no_differences(differences(old["json"], new, f"season {check}"))
