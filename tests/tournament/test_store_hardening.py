"""Issue 10, points 1 and 3: databases from a newer version, files that are not ours, and reading
commands that never write (a read-only folder, stale read models)."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import EXAMPLES
from tests.tournament.test_match_cli import ok, refused, run
from tournament.errors import NEWER
from tournament.readside import readmodels
from tournament.storage.sqlitefile import FORMAT
from tournament.storage.store import Store, match_uuid

READING = [
    ("status", "--json"),
    ("standings", "--json"),
    ("players", "list", "--json"),
    ("round", "show", "1", "--json"),
    ("match", "list", "--json"),
    ("match", "show", "M1", "--json"),
    ("match", "export", "M1"),
    ("verify",),
]
WRITING = [
    ("players", "add", "Ocra"),
    ("match", "roll", "M1", "Giallo", "d6", "1,2"),
    ("rebuild",),
    ("match", "import", str(EXAMPLES / "tiro-seed.jsonl")),
]


def settle(db: Path) -> None:
    conn = sqlite3.connect(db)
    conn.execute("pragma wal_checkpoint(truncate)")
    conn.close()


def digest(folder: Path) -> dict[str, str]:
    """Every file of a folder and its sha256: what a command must leave as it was (SQLite's own
    -wal and -shm companions aside: ``settle`` first folds the log into the file)."""
    return {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.iterdir())
        if not p.name.endswith(("-wal", "-shm"))
    }


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small tournament, played through the commands, with one match still open."""
    db = tmp_path_factory.mktemp("played") / "t.db"
    ok(db, "simulate", "--players", "4", "--rounds", "1", "--plays", "tiro", "--seed", "3")
    ok(db, "match", "new", "ventuno", "Giallo", "Blu")
    settle(db)
    return db


def fresh(played: Path, tmp_path: Path) -> Path:
    db = tmp_path / "t.db"
    shutil.copy(played, db)
    return db


def newer_refuses(db: Path, *commands: tuple[str, ...]) -> None:
    settle(db)
    before = digest(db.parent)
    for command in commands:
        assert NEWER in refused(db, *command), command
    settle(db)
    assert digest(db.parent) == before  # nothing written, nothing rebuilt


def test_an_event_type_this_version_does_not_know(played: Path, tmp_path: Path) -> None:
    db = fresh(played, tmp_path)
    conn = sqlite3.connect(db)
    with conn:
        conn.execute(
            "insert into stored_events select originator_id, max(originator_version) + 1, "
            "'tournament.store:Match.Whistled', ? from stored_events where originator_id = ?",
            [b'{"timestamp":{"_type_":"datetime_iso","_data_":"x"}}', match_uuid("M1").hex],
        )
    conn.close()
    newer_refuses(db, *(c for c in READING if c != ("verify",)), *WRITING)
    # verify names it, as a failure of the match it belongs to
    result = run(db, "verify")
    assert (
        result.exit_code == 1 and "does not know (tournament.store:Match.Whistled)" in result.stderr
    )


def test_a_newer_user_version(played: Path, tmp_path: Path) -> None:
    db = fresh(played, tmp_path)
    conn = sqlite3.connect(db)
    conn.execute(f"pragma user_version = {FORMAT + 1}")
    conn.close()
    newer_refuses(db, *READING, *WRITING, ("create", "X"), ("simulate",))


def test_read_models_of_a_newer_schema_are_never_rebuilt(played: Path, tmp_path: Path) -> None:
    db = fresh(played, tmp_path)
    conn = sqlite3.connect(db)
    with conn:
        conn.execute(
            f"update _projections set position = {readmodels.SCHEMA + 1} where name = 'schema'"
        )
    conn.close()
    newer_refuses(db, ("status",), ("standings",), ("players", "list"), ("rebuild",))
    conn = sqlite3.connect(db)
    schema = conn.execute("select position from _projections where name = 'schema'").fetchone()
    assert schema == (readmodels.SCHEMA + 1,)


def test_a_database_that_is_not_there_is_not_made(tmp_path: Path) -> None:
    db = tmp_path / "nope.db"
    for command in READING:
        message = refused(db, *command)
        assert "no database at" in message, command
    assert list(tmp_path.iterdir()) == []


def test_an_unrelated_sqlite_file_is_left_as_it_is(tmp_path: Path) -> None:
    db = tmp_path / "notes.db"
    conn = sqlite3.connect(db)
    with conn:
        conn.execute("create table notes (text)")
        conn.execute("insert into notes values ('buy dice')")
    conn.close()
    before = digest(tmp_path)
    for command in (*READING, *WRITING, ("create", "X")):
        assert "is not a tournament database" in refused(db, *command), command
    assert digest(tmp_path) == before
    conn = sqlite3.connect(db)
    assert conn.execute("pragma journal_mode").fetchone() == ("delete",)


def test_an_empty_file_is_not_taken_for_a_new_database(tmp_path: Path) -> None:
    db = tmp_path / "empty.db"
    db.touch()
    for command in (*READING, *WRITING, ("create", "X")):
        assert "is an empty file, not a tournament database" in refused(db, *command), command
    assert db.read_bytes() == b""
    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(b"not sqlite at all" * 64)
    assert "not a tournament database (not even SQLite)" in refused(garbage, "status")


def test_stale_read_models_are_brought_up_to_date_in_memory(played: Path, tmp_path: Path) -> None:
    db = fresh(played, tmp_path)
    ok(db, "match", "roll", "M3", "Giallo", "d6", "6", "6")  # leaves the read models behind
    settle(db)
    before = digest(tmp_path)
    status = json.loads(ok(db, "status", "--json"))
    standings = json.loads(ok(db, "standings", "--json"))
    settle(db)
    assert digest(tmp_path) == before  # the reading commands wrote nothing
    store = Store(db)
    assert readmodels.position(readmodels.database(store)) < store.recorder.max_notification_id()
    ok(db, "rebuild")
    assert json.loads(ok(db, "status", "--json")) == status
    assert json.loads(ok(db, "standings", "--json")) == standings


def in_read_only_folder(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run the program with ``folder`` mounted read-only (as root, in a private mount namespace;
    otherwise the folder's permissions do it)."""
    command = [sys.executable, "-m", "tournament", *args]
    if os.geteuid() != 0:
        return subprocess.run(command, capture_output=True, text=True, timeout=60)
    mount = f'mount --bind {folder} {folder} && mount -o remount,bind,ro {folder} && exec "$@"'
    return subprocess.run(
        ["unshare", "--mount", "sh", "-c", mount, "sh", *command],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_reading_commands_work_in_a_read_only_folder(played: Path, tmp_path: Path) -> None:
    folder = tmp_path / "archive"
    folder.mkdir()
    db = fresh(played, folder)
    probe = in_read_only_folder(folder, "--db", str(db), "status")
    if os.geteuid() == 0 and probe.returncode != 0 and "mount" in probe.stderr:
        pytest.skip(f"cannot mount a read-only folder here: {probe.stderr.strip()}")
    if os.geteuid() != 0:
        folder.chmod(0o555)
    try:
        before = digest(folder)
        for command in READING:
            result = in_read_only_folder(folder, "--db", str(db), *command)
            assert result.returncode == 0, (command, result.stderr)
        assert digest(folder) == before
        result = in_read_only_folder(folder, "--db", str(db), "players", "add", "Ocra")
        assert result.returncode == 1 and result.stderr.startswith("error: ")
        assert "Traceback" not in result.stderr
    finally:
        folder.chmod(0o755)


def test_a_refused_command_removes_only_its_own_file_with_no_event(tmp_path: Path) -> None:
    """The file a process made and nobody stored in goes (#11); a file another process made,
    or one an event was stored in meanwhile, stays as it is."""
    from tournament.services import day
    from tournament.storage import sqlitefile

    mine = tmp_path / "mine.db"
    Store(mine)  # makes it, with its tables
    assert mine.exists() and sqlitefile.discard(mine)
    assert not any(tmp_path.iterdir())

    stored = tmp_path / "stored.db"
    day.create(Store(stored), "Sera")  # made by this process, then a tournament saved in it
    assert not sqlitefile.discard(stored)
    assert day.get_tournament(Store(stored)).settings["name"] == "Sera"

    theirs = tmp_path / "theirs.db"
    subprocess.run(
        [
            sys.executable,
            "-c",
            f"from tournament.storage.store import Store; Store({str(theirs)!r})",
        ],
        check=True,
    )
    before = digest(tmp_path)
    assert not sqlitefile.discard(theirs)  # made by another process, even with no event
    assert digest(tmp_path) == before
