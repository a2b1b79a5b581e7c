"""Issue 10, point 2: verify finds every change to a stored byte of the tournament and its matches.

A small simulated tournament is copied, one byte of one stored row is changed (seeded), and
``verify_store`` must fail; ``match list`` on the same copy says which match it cannot read
instead of crashing. Then the changes a careful person could make by hand: ids exchanged, a
number edited, the last event of a match deleted.
"""

from __future__ import annotations

import json
import random
import sqlite3
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from engine.lexicon import default_lexicon
from tests.tournament.test_match_cli import ok, refused, run
from tournament import verify
from tournament.domain.tournaments import TOURNAMENT_ID
from tournament.readside import readmodels
from tournament.services import simulate
from tournament.storage.store import Store, match_uuid
from tournament.verify import parallel, verify_store

MUTATIONS = 300
LISTED = 30  # of them also through `match list` and `status` (CLI calls)


def words(_: object) -> object:
    return default_lexicon()


def settle(db: Path) -> None:
    """Fold SQLite's write-ahead log into the file, so that the file alone is the database."""
    conn = sqlite3.connect(db)
    conn.execute("pragma wal_checkpoint(truncate)")
    conn.close()


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    db = tmp_path_factory.mktemp("tamper") / "t.db"
    store = Store(db)
    knobs = simulate.Simulation(players=4, rounds=2, plays="tiro", seed=7)
    simulate.run(store, knobs)
    store.take_snapshot(TOURNAMENT_ID)  # a snapshot to tamper with too
    ok(db, "match", "import", str(Path(__file__).parents[2] / "examples" / "ventuno-seed.jsonl"))
    readmodels.update(Store(db), write=True)
    settle(db)
    assert verify_store(db, words).ok
    return db.read_bytes()


def copy(pristine: bytes, path: Path) -> Path:
    path.write_bytes(pristine)
    return path


def mutate(db: Path, rng: random.Random) -> str:
    """Change one byte of one stored row (or one number); say what was changed."""
    conn = sqlite3.connect(db)
    table = rng.choice(["stored_events"] * 9 + ["stored_snapshots"])
    rows = conn.execute(
        f"select originator_id, originator_version, topic, state from {table}"
    ).fetchall()
    aggregate, version, topic, state = rng.choice(rows)
    kind = "snapshot" if table == "stored_snapshots" else topic.rpartition(":")[2].split(".")[0]
    key = "originator_id = ? and originator_version = ?"
    column = rng.choices(["state", "topic", "originator_id", "originator_version"], [85, 5, 5, 5])[
        0
    ]
    if column == "originator_version":
        new: object = version + rng.choice([-2, -1, 1, 2, 40])
    else:
        old = (
            bytes(state)
            if column == "state"
            else str(topic if column == "topic" else aggregate).encode()
        )
        at = rng.randrange(len(old))
        byte = rng.choice([b for b in range(256) if b != old[at]])
        changed = old[:at] + bytes([byte]) + old[at + 1 :]
        new = changed if column == "state" else changed.decode("latin-1")
    try:
        with conn:
            conn.execute(f"update {table} set {column} = ? where {key}", [new, aggregate, version])
    except sqlite3.IntegrityError:  # another row has that key: change the state instead
        with conn:
            conn.execute(
                f"update {table} set state = ? where {key}", [state + b" ", aggregate, version]
            )
        column = "state"
    conn.close()
    return f"{kind} {column} of {aggregate} version {version}"


def test_every_changed_byte_is_found(pristine: bytes, tmp_path: Path) -> None:
    rng = random.Random(10)
    missed, crashed, kinds = [], [], Counter()
    for n in range(MUTATIONS):
        db = copy(pristine, tmp_path / f"m{n % 5}.db")
        what = mutate(db, rng)
        kinds[what.split()[0]] += 1
        if verify_store(db, words).ok:
            missed.append(what)
        for command in [("match", "list", "--json"), ("status", "--json")][: 2 * (n < LISTED)]:
            result = run(db, *command)
            if not isinstance(result.exception, SystemExit | None) or "Traceback" in result.stderr:
                crashed.append((what, command, repr(result.exception)))
    print(f"mutations detected: {MUTATIONS - len(missed)} of {MUTATIONS} {dict(kinds)}")
    assert missed == []
    assert crashed == []


def swap(db: Path, a: str, b: str) -> None:
    conn = sqlite3.connect(db)
    with conn:
        ida, idb = match_uuid(a).hex, match_uuid(b).hex
        conn.execute("update stored_events set originator_id = 'x' where originator_id = ?", [ida])
        conn.execute(
            "update stored_events set originator_id = ? where originator_id = ?", [ida, idb]
        )
        conn.execute("update stored_events set originator_id = ? where originator_id = 'x'", [idb])
    conn.close()


def failures(db: Path) -> str:
    result = run(db, "verify")
    assert result.exit_code == 1
    return result.stderr


def test_exchanged_ids_are_found_and_show_names_no_other_match(
    pristine: bytes, tmp_path: Path
) -> None:
    db = copy(pristine, tmp_path / "swap.db")
    swap(db, "M1", "M2")
    assert "stored under another match's id" in failures(db)
    assert "M1 cannot be read" in refused(db, "match", "show", "M1")


def replace(db: Path, where: str, params: list[str], old: bytes, new: bytes) -> None:
    """Change stored bytes as an SQLite tool would (the state stays a BLOB)."""
    conn = sqlite3.connect(db)
    with conn:
        found = conn.execute(f"select rowid, state from stored_events where {where}", params)
        for rowid, state in found.fetchall():
            conn.execute(
                "update stored_events set state = ? where rowid = ?",
                [state.replace(old, new), rowid],
            )
    conn.close()


def test_an_edited_number_is_found(pristine: bytes, tmp_path: Path) -> None:
    db = copy(pristine, tmp_path / "number.db")
    replace(db, "originator_id = ?", [match_uuid("M2").hex], b'"number":"M2"', b'"number":"M9"')
    assert "M9, the header: it is stored under another match's id" in failures(db)
    assert "M2" in failures(db)  # the tournament attaches M2, which is no longer stored


def delete_last(db: Path, number: str) -> None:
    conn = sqlite3.connect(db)
    with conn:
        conn.execute(
            "delete from stored_events where originator_id = ? and originator_version = "
            "(select max(originator_version) from stored_events where originator_id = ?)",
            [match_uuid(number).hex] * 2,
        )
    conn.close()


def test_the_last_event_of_a_tournament_match_cannot_vanish(
    pristine: bytes, tmp_path: Path
) -> None:
    db = copy(pristine, tmp_path / "last.db")
    delete_last(db, "M3")
    assert "M3, position" in failures(db)
    assert "the tournament recorded its head hash" in failures(db)


def test_outside_a_tournament_the_printed_head_is_the_anchor(
    pristine: bytes, tmp_path: Path
) -> None:
    db = copy(pristine, tmp_path / "outside.db")
    number = json.loads(ok(db, "match", "list", "--json"))[-1]["id"]  # the imported Ventuno
    printed = json.loads(ok(db, "match", "show", number, "--json"))["head"]
    delete_last(db, number)
    # The documented limit: the store alone cannot tell the newest events were removed ...
    assert "every hash chain is intact" in ok(db, "verify")
    # ... the head hash on the signed score sheet can.
    result = run(db, "verify", number, "--head", printed)
    assert result.exit_code == 1 and "not the" in result.stderr


def test_the_tournaments_own_events_are_chained(pristine: bytes, tmp_path: Path) -> None:
    db = copy(pristine, tmp_path / "t.db")
    # A player renamed in the registration: a legal-looking, consistent change.
    where = "originator_id = ? and topic like '%PlayerRegistered'"
    replace(db, where, [TOURNAMENT_ID.hex], b"Giallo", b"Gialla")
    assert "tournament, position 2: the tournament's hash chain breaks here" in failures(db)


def test_an_outside_checker_recomputes_the_chain_from_the_docs(
    pristine: bytes, tmp_path: Path
) -> None:
    """docs/format.md's recipe, with nothing but hashlib and json: the exported hashes."""
    import hashlib

    db = copy(pristine, tmp_path / "recipe.db")
    header, *events = [json.loads(x) for x in ok(db, "match", "export", "M1").splitlines()]

    def canonical(obj: dict) -> str:
        return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)

    def sha(text: str) -> str:
        return hashlib.sha256(text.encode()).hexdigest()

    bare = {k: v for k, v in header.items() if k not in ("match", "id", "at")}
    previous = sha(f"{header['match']}\n{header['id']}\n{header['at']}\n{canonical(bare)}")
    for e in events:
        body = {k: v for k, v in e.items() if k not in ("seq", "at", "hash")}
        previous = sha(f"{previous}\n{e['at']}\n{canonical(body)}")
        assert e["hash"] == previous
    assert header["id"] == match_uuid("M1").hex
    assert previous == json.loads(ok(db, "match", "show", "M1", "--json"))["head"]
    path = tmp_path / "m1.jsonl"
    path.write_text(ok(db, "match", "export", "M1"))
    assert "chain intact" in ok(db, "verify", "--file", str(path))
    path.write_text(path.read_text().replace('"match": "M1"', '"match": "M2"'))
    assert "the hash does not match" in refused(db, "verify", "--file", str(path))


@pytest.mark.skipif(not parallel._can_fork(), reason="processes are forked only where offered")
def test_checked_side_by_side_the_report_is_the_same(
    pristine: bytes, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Batches of a few rows, so that this small store's matches go to two processes (#15).
    monkeypatch.setattr(verify, "_BATCH", 8)
    monkeypatch.setattr(verify, "_WORTH_A_PROCESS", 2)
    batches: list[int] = []
    in_order = parallel.in_order

    def counted(work: Any, pieces: Any, jobs: Any = None, at_least: int = 2) -> Any:
        pieces = list(pieces)
        batches.append(len(pieces))
        return in_order(work, pieces, jobs, at_least)

    monkeypatch.setattr(parallel, "in_order", counted)
    rng = random.Random(15)
    seen: list[list[str]] = []
    for n in range(12):
        db = copy(pristine, tmp_path / f"p{n}.db")
        if n:  # the first as it is; then changed, some with a match's last events removed
            mutate(db, rng)
            if n % 3 == 0:
                conn = sqlite3.connect(db)
                with conn:
                    conn.execute(
                        "delete from stored_events where originator_id = ? "
                        "and originator_version > 2",
                        [match_uuid("M2").hex],
                    )
                conn.close()
        heard: dict[int, list[str]] = {1: [], 2: []}
        here = verify_store(db, words, checked=heard[1].append, jobs=1)
        side = verify_store(db, words, checked=heard[2].append, jobs=2)
        assert side.to_json() == here.to_json() and side.heads == here.heads
        assert heard[2] == heard[1] and "tournament" in heard[1]
        seen.append([str(f) for f in side.failures])
    assert not seen[0] and sum(bool(s) for s in seen) >= 8
    assert min(batches) >= 2  # each store went in batches to the workers (at least 2)


@pytest.mark.parametrize(
    "value",
    [
        b'{"_type_":"uuid_hex","_data_":"a56382dea77f573d9ac059b2073067ac"}',
        b'{"_type_":"datetime_iso","_data_":"2026-11-30T02:59:11.705115+00:00"}',
    ],
)
def test_a_field_changed_into_a_value_the_program_never_writes(
    pristine: bytes, tmp_path: Path, value: bytes
) -> None:
    # eventsourcing reads these back as a uuid and a time, which no tournament event holds:
    # the chain cannot be sealed over them, and verify says so rather than crash.
    db = copy(pristine, tmp_path / "t.db")
    conn = sqlite3.connect(db)
    where = "where originator_id = ? and originator_version = 1"
    (state,) = conn.execute(
        f"select state from stored_events {where}", [TOURNAMENT_ID.hex]
    ).fetchone()
    assert b'"date":""' in state
    with conn:
        conn.execute(
            f"update stored_events set state = ? {where}",
            [state.replace(b'"date":""', b'"date":' + value), TOURNAMENT_ID.hex],
        )
    conn.close()
    report = verify_store(db, words)
    assert [(f.match, f.position) for f in report.failures][:1] == [("tournament", 1)]
    assert "hash chain breaks" in report.failures[0].problem


def test_one_match_verified_through_its_store_reports_as_verify_store(
    pristine: bytes, tmp_path: Path
) -> None:
    """A match's page verifies its match by its rows alone (verify_match, #27): every change
    to them is found, in the words verify_store gives for that match."""
    rng = random.Random(27)
    numbers = ["M1", "M3", "M5"]
    for n in range(24):
        db = copy(pristine, tmp_path / f"one{n % 3}.db")
        number = numbers[n % 3]
        conn = sqlite3.connect(db)
        rows = conn.execute(
            "select originator_version, state from stored_events where originator_id = ?",
            [match_uuid(number).hex],
        ).fetchall()
        version, state = rng.choice(rows)
        if n % 8 == 7:
            conn.close()
            delete_last(db, number)
        else:
            at = rng.randrange(len(state))
            byte = rng.choice([b for b in range(256) if b != state[at]])
            with conn:
                conn.execute(
                    "update stored_events set state = ? where originator_id = ? and "
                    "originator_version = ?",
                    [state[:at] + bytes([byte]) + state[at + 1 :], match_uuid(number).hex, version],
                )
            conn.close()
        whole = verify_store(db, words, number)
        alone = verify.verify_match(Store(db), number, words)
        assert [str(f) for f in alone.failures] == [str(f) for f in whole.failures]
        assert alone.heads == whole.heads and alone.ok == whole.ok
        if n % 8 != 7:
            assert not alone.ok, (number, version, at)
    fine = copy(pristine, tmp_path / "fine.db")
    for number in numbers:
        alone = verify.verify_match(Store(fine), number, words)
        assert alone.ok and alone.heads == verify_store(fine, words, number).heads
    assert [str(f) for f in verify.verify_match(Store(fine), "M99", words).failures] == [
        str(f) for f in verify_store(fine, words, "M99").failures
    ]
