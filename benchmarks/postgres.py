"""PostgreSQL against SQLite (issue 13), in one run.

(a) recording throughput: 1, 4 and 16 writer processes, each recording moves into a match of
    its own, on a new SQLite file and on a new schema of the server;
(b) the race at full size: 8 writers x 200 moves into their own matches and 4 writers x 200 into
    one shared match: moves lost, duplicated, refusals (the test runs it at half size);
(c) rebuilding the read models of a large season on PostgreSQL, against a raw scan of the same
    table with psycopg and JSON decoding (goal: a ratio of at least 0.25, as on SQLite).

    python benchmarks/postgres.py --server postgresql://tournament:tournament@127.0.0.1/tournament_test
    python benchmarks/postgres.py --server URL --season /tmp/season.db   # (c) on a built season

The season of (c) is an SQLite file made by benchmarks/season.py (built here if missing, with
--players and --events), copied to the server with ``tournament db copy``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tournament.storage.locations import PostgresServer, locate  # noqa: E402


def url_of(server: PostgresServer) -> str:
    return (
        f"postgresql://{server.user}:{server.password}@{server.host}:{server.port}/"
        f"{server.dbname}?schema={server.schema}"
    )


def fresh_schema(server: PostgresServer, name: str) -> PostgresServer:
    from tournament.storage.postgres import connect

    schema = f"bench_{name}_{uuid.uuid4().hex[:6]}"
    with connect(server) as conn:
        conn.execute(f"drop schema if exists {schema} cascade")
    return replace(server, schema=schema)


def drop_schema(server: PostgresServer) -> None:
    from tournament.storage.postgres import connect

    with connect(server) as conn:
        conn.execute(f"drop schema if exists {server.schema} cascade")


def writers(db: str, mode: str, names: list[str], moves: int) -> list[list[dict]]:
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "tests.tournament.writers", mode, db, name, str(moves)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )  # fmt: skip
        for name in names
    ]
    reports = []
    for p in procs:
        out, err = p.communicate()
        if p.returncode:
            raise SystemExit(err)
        reports.append([json.loads(x) for x in out.splitlines() if x.strip()])
    return reports


def throughput(db: str, count: int, moves: int) -> float:
    """Moves a second, from the first writer's start to the last writer's end."""
    from tournament.storage.locations import close
    from tournament.storage.store import Store

    close(Store(db))  # made first: the writers share a store, they do not race to make it
    reports = writers(db, "own", [f"w{k}" for k in range(count)], moves)
    start = min(r[0]["at"] for r in reports)
    end = max(x["done"] for r in reports for x in r if "done" in x)
    return count * moves / (end - start)


def part_a(server: PostgresServer, moves: int) -> None:
    print(f"(a) recording throughput, moves/s ({moves} moves a writer, one match each)")
    print("    writers   SQLite   PostgreSQL   PostgreSQL/SQLite")
    for count in (1, 4, 16):
        with tempfile.TemporaryDirectory() as tmp:
            file_rate = throughput(str(Path(tmp) / "bench.db"), count, moves)
        schema = fresh_schema(server, f"a{count}")
        try:
            server_rate = throughput(url_of(schema), count, moves)
        finally:
            drop_schema(schema)
        print(
            f"    {count:7} {file_rate:8,.0f} {server_rate:12,.0f} {server_rate / file_rate:14.2f}"
        )


def part_b(server: PostgresServer, moves: int) -> None:
    from tests.tournament.writers import HEADER
    from tournament.storage.store import Store

    schema = fresh_schema(server, "race")
    url = url_of(schema)
    try:
        store = Store(url)
        shared = store.create(HEADER, []).number
        start = time.perf_counter()
        import concurrent.futures as cf

        with cf.ThreadPoolExecutor(2) as pool:
            own = pool.submit(writers, url, "own", [f"w{k}" for k in range(8)], moves)
            race = pool.submit(writers, url, "shared", [shared] * 4, moves)
            own_reports, race_reports = own.result(), race.result()
        seconds = time.perf_counter() - start
        lost = duplicated = 0
        for report in own_reports:
            acked = [x["ack"] for x in report if "ack" in x]
            stored = store.get_match(report[0]["match"]).lines
            lost += len(set(acked) - set(stored))
            duplicated += len(stored) - len(set(stored))
        acked = [x["ack"] for r in race_reports for x in r if "ack" in x]
        stored = store.get_match(shared).lines
        lost += len(set(acked) - set(stored))
        duplicated += len(stored) - len(set(stored)) + len(set(stored) - set(acked))
        refusals = sum(r[-1]["refused"] for r in race_reports)
        unclear = sum(len(r[-1]["other"]) for r in race_reports)
        numbers = {r[0]["match"] for r in own_reports} | {shared}
        print(
            f"(b) race, 8 x {moves} into own matches + 4 x {moves} into one: {seconds:.1f} s; "
            f"lost {lost}, duplicated {duplicated}, match numbers distinct "
            f"{len(numbers) == 9}, refusals {refusals} (unclear {unclear})"
        )
    finally:
        drop_schema(schema)


def part_c(server: PostgresServer, season: Path, players: int, events: int) -> None:
    import orjson

    from tournament.readside import readmodels
    from tournament.services.copy import copy
    from tournament.storage.locations import close
    from tournament.storage.postgres import EVENTS, connect
    from tournament.storage.store import Store

    if not season.exists():
        print(f"building {season}: {players} players, about {events:,} events")
        subprocess.run(
            [sys.executable, str(ROOT / "benchmarks" / "season.py"), "--db", str(season),
             "--players", str(players), "--events", str(events)],
            check=True, stdout=subprocess.DEVNULL,
        )  # fmt: skip
    schema = fresh_schema(server, "season")
    try:
        from engine.lexicon import default_lexicon

        start = time.perf_counter()
        copied = copy(str(season), schema, lambda header: default_lexicon())
        print(
            f"    copied {copied.events:,} events to the server "
            f"in {time.perf_counter() - start:.0f} s"
        )

        def raw_scan(loads: Any) -> tuple[int, float]:
            with connect(schema, autocommit=False) as conn:
                start = time.perf_counter()
                count = 0
                with conn.cursor(name="raw") as cursor:
                    cursor.itersize = 5000
                    cursor.execute(f"select state from {EVENTS} order by notification_id")
                    for (state,) in cursor:
                        loads(state)
                        count += 1
                return count, time.perf_counter() - start

        count, raw_json = raw_scan(json.loads)  # as benchmarks/season.py scans SQLite
        count, raw = raw_scan(orjson.loads)
        store = Store(schema)
        start = time.perf_counter()
        progress = readmodels.rebuild(store)
        rebuild = time.perf_counter() - start
        close(store)
        raw_rate, rebuild_rate = count / raw, progress.events / rebuild
        json_rate = count / raw_json
        print(f"(c) stored events: {count:,}")
        print(
            f"    raw psycopg scan + json.loads:   {json_rate:,.0f} events/s ({raw_json:.1f} s); "
            f"rebuild ratio {rebuild_rate / json_rate:.2f}"
        )
        print(f"    raw psycopg scan + orjson.loads: {raw_rate:,.0f} events/s ({raw:.1f} s)")
        print(
            f"    read models rebuilt on PostgreSQL: {rebuild_rate:,.0f} events/s "
            f"({rebuild:.1f} s), ratio {rebuild_rate / raw_rate:.2f} (goal >= 0.25)"
        )
    finally:
        drop_schema(schema)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", required=True, help="postgresql://user:password@host/name")
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--season", type=Path, default=Path("/tmp/season-100k.db"))
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--parts", default="abc")
    args = parser.parse_args()
    server = locate(args.server)
    if not isinstance(server, PostgresServer):
        raise SystemExit("--server takes a postgresql:// URL")
    if "a" in args.parts:
        part_a(server, args.moves)
    if "b" in args.parts:
        part_b(server, args.moves)
    if "c" in args.parts:
        part_c(server, args.season, args.players, args.events)


if __name__ == "__main__":
    main()
