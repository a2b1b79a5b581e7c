"""Issue 29, points 2, 6 and 8: a database server that restarts during a command, a full disk,
a database in a folder this user may not enter. Each is one sentence and exit 1, never "this
is a bug"; a read the server broke off is read again, once; a refused export leaves nothing."""

from __future__ import annotations

import errno
import os
import pwd
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support import EXAMPLES
from tests.tournament.pgproxy import Proxy, proxy
from tests.tournament.test_match_cli import ok, refused, run
from tournament.storage.locations import PostgresServer, locate

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("played") / "t.db"
    ok(db, "simulate", "--players", "4", "--rounds", "1", "--plays", "tiro", "--seed", "3")
    ok(db, "match", "new", "ventuno", "Giallo", "Blu")
    return db


def fresh(played: Path, folder: Path) -> Path:
    db = folder / "t.db"
    conn = sqlite3.connect(played)
    conn.execute("pragma wal_checkpoint(truncate)")
    conn.close()
    shutil.copy(played, db)
    return db


# --- 2. a PostgreSQL server that goes away ---------------------------------------------------


def _server() -> PostgresServer:
    """The test server (TOURNAMENT_TEST_POSTGRES, else the one at 127.0.0.1:5432): skipped
    where none answers, never under CI=true."""
    given = os.environ.get("TOURNAMENT_TEST_POSTGRES")
    base = locate(given or "postgresql://tournament:tournament@127.0.0.1:5432/postgres")
    assert isinstance(base, PostgresServer)
    try:
        import psycopg

        psycopg.connect(**base.conninfo(), connect_timeout=3).close()  # type: ignore[arg-type]
    except Exception as e:  # noqa: BLE001 - no server, no driver: nothing to test against
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI must run the PostgreSQL tests: {e}")
        pytest.skip(f"no PostgreSQL server answers at {base.host}:{base.port}")
    return base


@pytest.fixture(scope="module")
def server() -> Iterator[PostgresServer]:
    """A database of this module's own on the test server, a small tournament in it."""
    import psycopg
    from psycopg import sql

    base = _server()
    name = f"tournament_outage_{os.getpid()}_{uuid.uuid4().hex[:6]}"
    with psycopg.connect(**base.conninfo(), autocommit=True) as conn:  # type: ignore[arg-type]
        conn.execute(sql.SQL("create database {}").format(sql.Identifier(name)))
    try:
        from dataclasses import replace

        made = replace(base, dbname=name)
        with proxy(made.host, int(made.port)) as p:
            ok(url(made, p), "simulate", "--players", "4", "--rounds", "1", "--seed", "3")
        yield made
    finally:
        with psycopg.connect(**base.conninfo(), autocommit=True) as conn:  # type: ignore[arg-type]
            conn.execute(
                sql.SQL("drop database if exists {} with (force)").format(sql.Identifier(name))
            )


def url(server: PostgresServer, p: Proxy) -> str:
    return f"postgresql://{server.user}:{server.password}@127.0.0.1:{p.port}/{server.dbname}"


def in_process(db: str, *args: str) -> tuple[int, str]:
    result = run(db, *args)  # type: ignore[arg-type]
    return result.exit_code, result.stderr


@pytest.mark.parametrize("fatal", [True, False], ids=["admin-shutdown", "closed"])
def test_a_scan_the_server_breaks_off_is_read_again(server: PostgresServer, fatal: bool) -> None:
    with proxy(server.host, int(server.port)) as p:
        p.cut_on(b"FETCH", fatal)  # verify's scan, a page into it
        code, err = in_process(url(server, p), "verify", "--jobs", "1")
        assert p.cuts == 1 and code == 0, err


@pytest.mark.parametrize("fatal", [True, False], ids=["admin-shutdown", "closed"])
@pytest.mark.parametrize(
    "command, trigger",
    [
        (("verify", "--jobs", "1"), b"FETCH"),
        (("verify", "--jobs", "1"), b"DECLARE"),
        (("standings", "--json"), b"select"),
        (("players", "add", "Ocra"), b"INSERT"),
        (("match", "list"), b"SELECT"),
    ],
)
def test_a_server_that_goes_away_is_one_sentence(
    server: PostgresServer,
    command: tuple[str, ...],
    trigger: bytes,
    fatal: bool,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # eventsourcing tries a write ten times, each waiting a connection this long: kept short
    # so that the test (not the program) does not wait out the default's 80 seconds.
    monkeypatch.setenv("POSTGRES_CONNECT_TIMEOUT", "1")
    with proxy(server.host, int(server.port)) as p:
        p.cut_on(trigger, fatal, stay_down=True)
        db = url(server, p)
        message = refused(db, *command)  # type: ignore[arg-type]
        assert p.cuts == 1
        assert "went away" in message or f"cannot connect to {locate(db)}" in message, message
        assert "this is a bug" not in message and f":{server.password}@" not in message


def test_a_server_that_is_down_is_one_sentence(
    server: PostgresServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("POSTGRES_CONNECT_TIMEOUT", "1")
    with proxy(server.host, int(server.port)) as p:
        p.down = True
        db = url(server, p)
        for command in (("status",), ("verify",), ("players", "add", "Ocra")):
            message = refused(db, *command)  # type: ignore[arg-type]
            assert message.startswith(f"error: cannot connect to {locate(db)}: "), message


# --- 6. a full disk --------------------------------------------------------------------------


def _enospc(*args: object, **kwargs: object) -> None:
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def test_a_refused_match_export_leaves_no_file(
    played: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = fresh(played, tmp_path)
    monkeypatch.setattr(os, "fsync", _enospc)  # the disk says it is full as the file is closed
    target = tmp_path / "m1.jsonl"
    message = refused(db, "match", "export", "M1", "-o", str(target))
    assert "the disk is full" in message and str(target) in message
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["t.db", "t.db-shm", "t.db-wal"])


def test_a_refused_export_all_leaves_no_folder(
    played: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = fresh(played, tmp_path)
    real, calls = os.fsync, []

    def full_at_the_fifth(fd: int) -> None:
        calls.append(fd)
        if len(calls) >= 5:
            _enospc()
        real(fd)

    monkeypatch.setattr(os, "fsync", full_at_the_fifth)
    out = tmp_path / "out"
    message = refused(db, "export", "all", "--out", str(out))
    assert "the disk is full" in message and len(calls) == 5
    assert not out.exists()
    assert [p.name for p in tmp_path.iterdir() if not p.name.startswith("t.db")] == []
    # An existing folder keeps what it held, and gains nothing half written.
    out.mkdir()
    (out / "kept.txt").write_text("kept")
    calls.clear()
    refused(db, "export", "all", "--out", str(out))
    assert [p.name for p in out.iterdir()] == ["kept.txt"]
    monkeypatch.setattr(os, "fsync", real)
    ok(db, "export", "all", "--out", str(out))
    assert len(list(out.iterdir())) > 5


@pytest.mark.parametrize(
    "command",
    [
        ("players", "add", "Ocra"),
        ("match", "roll", "M3", "Giallo", "d6", "1,2"),
        ("match", "import", str(EXAMPLES / "tiro-seed.jsonl")),
    ],
    ids=["players-add", "record", "import"],
)
def test_a_write_on_a_full_disk_says_so(
    played: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: tuple[str, ...]
) -> None:
    from eventsourcing.sqlite import SQLiteApplicationRecorder

    db = fresh(played, tmp_path)
    before = ok(db, "match", "list", "--json")

    def full(*args: object, **kwargs: object) -> None:
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(SQLiteApplicationRecorder, "_insert_events", full)
    message = refused(db, *command)
    assert message.startswith("error: the disk is full"), message
    monkeypatch.undo()
    assert ok(db, "match", "list", "--json") == before


def test_reading_commands_work_with_no_room_for_sqlite(
    played: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A disk with no room left: SQLite could not make its -shm file, so a reader opens the
    file as it stands (no writer can be at work: its log is empty)."""
    from tournament.storage import sqlitefile

    db = fresh(played, tmp_path)
    for name in ("t.db-wal", "t.db-shm"):
        (tmp_path / name).unlink(missing_ok=True)
    real = os.statvfs

    class Full:
        def __init__(self, st: os.statvfs_result) -> None:
            self.f_frsize, self.f_bavail = st.f_frsize, 0

    monkeypatch.setattr(os, "statvfs", lambda p: Full(real(p)))
    assert "immutable=1" in sqlitefile.read_uri(db)
    for command in (("status",), ("standings",), ("match", "list"), ("verify",)):
        ok(db, *command)


# --- 8. a folder this user may not enter -----------------------------------------------------


def test_a_database_this_user_may_not_reach_is_one_sentence(
    played: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "locked" / "t.db"
    real = Path.stat

    def stat(self: Path, *args: object, **kwargs: object) -> os.stat_result:
        if str(self).startswith(str(db.parent)):
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(self))
        return real(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Path, "stat", stat)
    for command in (("match", "list"), ("create", "X"), ("players", "add", "Ocra")):
        message = refused(db, *command)
        assert message == f"error: {db} may not be read by this user ({PERMISSION})\n"


PERMISSION = "permission denied, on it or a folder above it"


def _as_nobody() -> list[str] | None:
    """How to run this Python as the user nobody (None: not possible here)."""
    if os.geteuid() != 0 or not shutil.which("setpriv") or not shutil.which("unshare"):
        return None
    try:
        pwd.getpwnam("nobody")
    except KeyError:
        return None
    return ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]


def test_a_folder_of_another_user_as_nobody(played: Path) -> None:
    become = _as_nobody()
    if become is None:
        pytest.skip("needs root, setpriv, unshare and the user nobody")
    with tempfile.TemporaryDirectory(dir="/tmp") as where:  # pytest's own folder is root's
        top = Path(where)
        top.chmod(0o755)
        locked = top / "locked"
        locked.mkdir()
        db = fresh(played, locked)
        locked.chmod(0o700)  # root's: nobody may not enter it
        # This Python's installation may sit where nobody may not go (/root): it is bound, in
        # a private mount namespace, at a place nobody reaches.
        prefix = top / "python"
        prefix.mkdir()
        lib = Path(sys.base_prefix, "lib", f"python{sys.version_info[0]}.{sys.version_info[1]}")
        python = prefix / Path(sys.executable).relative_to(sys.base_prefix)
        packages = [str(prefix / p.relative_to(sys.base_prefix)) for p in lib.glob("site-packages")]
        path = os.pathsep.join([str(ROOT), *packages])

        def as_nobody(*args: str) -> subprocess.CompletedProcess[str]:
            script = (
                f'mount --bind "{sys.base_prefix}" "{prefix}" && cd / && '
                f'PYTHONPATH="{path}" exec "$@"'
            )
            return subprocess.run(
                ["unshare", "--mount", "sh", "-c", script, "sh", *become, str(python), *args],
                capture_output=True,
                text=True,
                timeout=60,
            )

        probe = as_nobody("-c", "import typer, tournament.cli")
        if probe.returncode != 0:
            pytest.skip(f"the user nobody cannot run the program here: {probe.stderr[-200:]}")
        for command in (("match", "list"), ("create", "X"), ("status",)):
            result = as_nobody("-m", "tournament", "--db", str(db), *command)
            assert result.returncode == 1, result.stderr
            assert result.stderr == f"error: {db} may not be read by this user ({PERMISSION})\n"
