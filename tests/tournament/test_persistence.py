"""The store on both backends: an SQLite file and a PostgreSQL server (#13).

What must hold on either: the same commands, the same standings byte for byte, a copy between
them that verifies, concurrent writers that never lose or duplicate a move, and no password in
any message.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.tournament.conftest import url_of
from tests.tournament.test_match_cli import ok, refused, run
from tests.tournament.writers import HEADER, line
from tournament.errors import StoreError
from tournament.storage.locations import PostgresServer, close, locate
from tournament.storage.store import Store

ROOT = Path(__file__).resolve().parents[2]
SECRET = "s3cr3t-Pw0rd"


def test_a_url_is_a_server_and_its_password_is_never_shown() -> None:
    where = locate(f"postgresql://club:{SECRET}@db.example:5433/torneo?schema=coppa")
    assert isinstance(where, PostgresServer)
    assert (where.host, where.port, where.dbname, where.user, where.schema) == (
        "db.example", "5433", "torneo", "club", "coppa"
    )  # fmt: skip
    assert SECRET not in str(where) and SECRET not in repr(where)
    assert not locate("club.db").is_server and not locate(Path("postgresql.db")).is_server
    with pytest.raises(StoreError, match="missing a database name") as e:
        locate(f"postgresql://club:{SECRET}@db.example/")
    assert SECRET not in str(e.value)


def test_a_server_that_cannot_be_reached_is_one_sentence_without_the_password(
    tmp_path: Path,
) -> None:
    # Port 1 on this machine: nothing listens there.
    url = f"postgresql://club:{SECRET}@127.0.0.1:1/torneo"
    for args in (["standings"], ["create", "X"], ["db", "copy", url, str(tmp_path / "x.db")]):
        message = refused(url, *args)
        assert "cannot connect to postgresql://club@127.0.0.1:1/torneo" in message
        assert SECRET not in message
    assert not (tmp_path / "x.db").exists()


def test_a_url_without_the_postgres_extra_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "psycopg" else real(name, *a)
    )
    message = refused(f"postgresql://club:{SECRET}@127.0.0.1/torneo", "standings")
    assert "pip install 'tournament[postgres]'" in message and SECRET not in message


def test_a_wrong_password_is_refused_without_showing_it(postgres_server: PostgresServer) -> None:
    from dataclasses import replace

    url = url_of(replace(postgres_server, password=SECRET))
    message = refused(url, "standings")
    assert "cannot connect" in message and SECRET not in message


def test_matches_on_either_backend(db: str) -> None:
    store = Store(db)
    try:
        first = store.create(HEADER, [line("a", 0)])
        second = store.create(HEADER, [])
        assert (first.number, second.number) == ("M1", "M2")
        store.append(store.get_match("M2"), [line("b", 0), line("b", 1)])
        stale = store.get_match("M2")
        store.append(store.get_match("M2"), [line("b", 2)])
        with pytest.raises(StoreError, match="changed while this was being recorded"):
            store.append(stale, [line("c", 0)])
        again = Store(db)
        assert [m.number for m in again.matches()] == ["M1", "M2"]
        assert again.get_match("M2").lines == [line("b", n) for n in range(3)]
        assert again.get_match("M2").intact()
        close(again)
    finally:
        close(store)


def test_a_newer_versions_server_schema_is_refused(postgres_server: PostgresServer) -> None:
    from dataclasses import replace

    from tournament.storage.postgres import MARK, connect

    server = replace(postgres_server, schema="newer")
    url = url_of(server)
    ok(url, "create", "Festival")
    with connect(server) as conn:
        conn.execute(f"update {MARK} set version = version + 1")
    for args in (["standings"], ["players", "add", "Rosso"], ["verify"]):
        assert "written by a newer version of tournament" in refused(url, *args)


def test_the_demo_gives_the_same_standings_on_both_backends(
    postgres_server: PostgresServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from dataclasses import replace

    monkeypatch.chdir(tmp_path)  # the demo writes its printable files here
    url = url_of(replace(postgres_server, schema="demo"))
    file = str(tmp_path / "demo.db")
    on_server, on_file = (json.loads(ok(db, "demo", "--json")) for db in (url, file))
    assert on_server["standings"] == on_file["standings"] and on_server["standings"]
    assert on_server["examples"] == on_file["examples"]
    assert ok(url, "standings", "--json") == ok(file, "standings", "--json")  # byte for byte
    assert on_server["database"] == str(locate(url)) and SECRET not in on_server["database"]
    ok(url, "demo")  # the demo is rebuilt over itself on a server too
    assert ok(url, "standings", "--json") == ok(file, "standings", "--json")


def test_db_copy_round_trips_a_tournament(postgres_server: PostgresServer, tmp_path: Path) -> None:
    from dataclasses import replace

    source = str(tmp_path / "club.db")
    run(source, "simulate", "--players", "6", "--rounds", "2", "--plays", "tiro", "--seed", "4")
    number = ok(source, "match", "import", str(ROOT / "examples" / "ventuno-seed.jsonl")).strip()
    server = url_of(replace(postgres_server, schema="copied"))
    back = str(tmp_path / "back.db")
    out = ok(source, "db", "copy", source, server)
    assert "every row identical, every hash chain intact" in out and SECRET not in out
    ok(source, "db", "copy", server, back)
    for db in (source, server, back):
        assert "every hash chain is intact" in ok(db, "verify")
    standings = ok(source, "standings", "--json")
    assert ok(server, "standings", "--json") == standings == ok(back, "standings", "--json")
    assert ok(server, "match", "export", number) == ok(source, "match", "export", number)
    # A target that holds anything is refused, and left as it was.
    assert "already holds something" in refused(source, "db", "copy", source, back)
    assert "already holds something" in refused(source, "db", "copy", back, server)
    assert "same store" in refused(source, "db", "copy", source, source)
    assert ok(server, "standings", "--json") == standings


def _spawn(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.tournament.writers", *args],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _lines(out: str) -> list[dict]:
    return [json.loads(x) for x in out.splitlines() if x.strip()]


# 8 x 200 moves (benchmarks/postgres.py --race) takes ~40 s on a loaded machine: half here.
SCALE = int(os.environ.get("TOURNAMENT_TEST_MOVES", "100"))


def test_concurrent_writers_on_a_server_lose_nothing_and_duplicate_nothing(
    postgres_server: PostgresServer,
) -> None:
    from dataclasses import replace

    url = url_of(replace(postgres_server, schema="race"))
    store = Store(url)
    shared = store.create(HEADER, []).number
    own = [_spawn("own", url, f"w{k}", str(SCALE)) for k in range(8)]
    racing = [_spawn("shared", url, shared, str(SCALE // 4)) for _ in range(4)]
    reports = []
    for p in own + racing:
        out, err = p.communicate(timeout=600)
        assert p.returncode == 0, err
        reports.append(_lines(out))
    numbers = [r[0]["match"] for r in reports[:8]]
    assert len(set(numbers)) == 8 and shared not in numbers  # match numbers never collide
    for number, report in zip(numbers, reports[:8], strict=True):
        acked = [x["ack"] for x in report if "ack" in x]
        assert len(acked) == SCALE and report[-1] == {"refused": 0, "other": []}
        assert "done" in report[-2]
        assert store.get_match(number).lines == acked  # 0 lost, 0 duplicated, in order
    acked = [x["ack"] for r in reports[8:] for x in r if "ack" in x]
    stored = store.get_match(shared)
    assert sorted(stored.lines) == sorted(acked) and len(acked) == 4 * (SCALE // 4)
    assert all(r[-1]["other"] == [] for r in reports[8:])  # every refusal the clear message
    assert sum(r[-1]["refused"] for r in reports[8:]) > 0, "the writers never raced"
    assert stored.intact() and all(store.get_match(n).intact() for n in numbers)
    close(store)


def test_no_acknowledged_move_is_lost_when_a_writer_is_killed(db: str) -> None:
    store = Store(db)
    number = store.create(HEADER, []).number
    writer = _spawn("forever", db, number)
    assert writer.stdout is not None
    acked = []
    deadline = time.monotonic() + 60
    while len(acked) < 40 and time.monotonic() < deadline:
        acked.append(json.loads(writer.stdout.readline())["ack"])
    os.kill(writer.pid, signal.SIGKILL)
    out, _ = writer.communicate()
    acked += [x["ack"] for x in _lines(out) if "ack" in x]  # told before it died
    assert len(acked) >= 40
    lines = Store(db).get_match(number).lines
    assert lines[: len(acked)] == acked and len(lines) <= len(acked) + 1
    close(store)


def test_read_model_updaters_at_once_on_a_server_apply_each_event_once(
    postgres_server: PostgresServer,
) -> None:
    from concurrent.futures import ThreadPoolExecutor
    from dataclasses import replace

    from tournament.readside import readmodels
    from tournament.services import simulate

    url = url_of(replace(postgres_server, schema="updaters"))
    store = Store(url)
    simulate.run(store, simulate.Simulation(players=4, rounds=1, plays="updown", seed=2))
    stored = store.recorder.max_notification_id()

    def update(_: int) -> int:
        s = Store(url)  # its own connections, as another process would have
        try:
            return readmodels.update(s).events
        finally:
            close(s)

    with ThreadPoolExecutor(6) as pool:
        applied = list(pool.map(update, range(6)))
    assert sum(applied) == stored  # each event applied by exactly one of them
    db = readmodels.database(store)
    assert [n for (n,) in db.rows("select count(*) from events")] == [stored]
    assert readmodels.position(db) == stored
    assert len(list(db.query("select * from standings"))) == 4
    close(store)


def test_db_follow_applies_events_as_the_server_notifies_them(
    postgres_server: PostgresServer,
) -> None:
    import threading
    from dataclasses import replace

    from tournament.readside import readmodels
    from tournament.services.matches import check_log, import_log
    from tournament.storage.postgres import follow

    url = url_of(replace(postgres_server, schema="follow"))
    store, writer = Store(url), Store(url)
    logs = [check_log((ROOT / "examples" / name).read_text()) for name in EXAMPLE_LOGS]
    import_log(writer, logs[0])  # before: the first update applies it
    seen: list[int] = []
    expected = sum(len(log.lines) + 1 for log in logs)

    def listen() -> None:
        for progress in follow(store, readmodels.update, seconds=15):
            seen.append(progress.events)
            if sum(seen) >= expected:
                return

    thread = threading.Thread(target=listen)
    thread.start()
    time.sleep(1)
    for log in logs[1:]:  # after: applied as the server notifies them
        import_log(writer, log)
        time.sleep(0.5)
    thread.join(timeout=30)
    assert sum(seen) == expected and len(seen) >= 2  # each event applied once, as it came
    db = readmodels.database(store)
    assert [n for (n,) in db.rows("select count(*) from matches")] == [len(logs)]
    close(store)
    close(writer)


EXAMPLE_LOGS = ("ventuno-seed.jsonl", "tiro-seed.jsonl", "updown-seed.jsonl")


def test_processes_starting_on_a_new_server_schema_at_once_all_succeed(
    postgres_server: PostgresServer,
) -> None:
    from dataclasses import replace

    url = url_of(replace(postgres_server, schema="first_use"))
    writers = [_spawn("own", url, f"w{k}", "5") for k in range(6)]
    reports = []
    for p in writers:
        out, err = p.communicate(timeout=300)
        assert p.returncode == 0, err
        reports.append(_lines(out))
    assert sorted(r[0]["match"] for r in reports) == [f"M{n}" for n in range(1, 7)]
    assert all(len([x for x in r if "ack" in x]) == 5 for r in reports)


def test_the_password_may_come_from_eventsourcings_environment(
    postgres_server: PostgresServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    from dataclasses import replace

    server = replace(postgres_server, schema="from_env")
    monkeypatch.setenv("POSTGRES_PASSWORD", server.password)
    url = url_of(replace(server, password="")).replace(f"{server.user}:@", f"{server.user}@")
    assert url.startswith(f"postgresql://{server.user}@")  # no password in the URL
    ok(url, "create", "Festival")
    assert "Festival" in ok(url, "status")
