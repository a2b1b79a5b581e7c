"""tournament verify: a change behind the program's back is found, with its match and position."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from tests.support import EXAMPLES
from tests.tournament.test_match_cli import ok, refused, run
from tournament.logformat.matchlog import link
from tournament.storage.store import match_uuid


def stored(db: Path, match: str) -> list[tuple[int, bytes]]:
    conn = sqlite3.connect(db)
    return conn.execute(
        "select originator_version, state from stored_events where originator_id = ? "
        "order by originator_version",
        [match_uuid(match).hex],
    ).fetchall()


def overwrite(db: Path, match: str, version: int, state: bytes) -> None:
    conn = sqlite3.connect(db)
    with conn:
        conn.execute(
            "update stored_events set state = ? where originator_id = ? and originator_version = ?",
            [state, match_uuid(match).hex, version],
        )


def imported(tmp_path: Path) -> Path:
    db = tmp_path / "v.db"
    for name in ("tiro-seed.jsonl", "ventuno-seed.jsonl"):
        ok(db, "match", "import", str(EXAMPLES / name))
    return db


def test_an_untouched_store_verifies(tmp_path: Path) -> None:
    db = imported(tmp_path)
    assert "verified 2 matches, 19 events: every hash chain is intact" in ok(db, "verify")
    report = json.loads(ok(db, "verify", "M1", "--json"))
    assert report == {
        "ok": True,
        "matches": 1,
        "events": 6,
        "tournament_events": 0,
        "failures": [],
        "sealed_dice": [],
        "formats": {"match chain v2": 1},
    }


def test_jobs_choose_the_processes_and_the_words_stay_the_same(tmp_path: Path) -> None:
    db = imported(tmp_path)
    version, state = stored(db, "M2")[2]
    overwrite(db, "M2", version, state.replace(b'\\"by\\":', b'\\"by\\" :'))
    said = {jobs: run(db, "verify", "--jobs", jobs) for jobs in ("1", "3")}
    assert said["1"].exit_code == said["3"].exit_code == 1
    assert said["1"].stderr == said["3"].stderr and "FAILED M2, position 2" in said["1"].stderr
    zero = run(db, "verify", "--jobs", "0")
    assert zero.exit_code == 2 and "--jobs" in zero.stderr and "Traceback" not in zero.stderr


def test_a_changed_value_breaks_the_chain_at_its_position(tmp_path: Path) -> None:
    db = imported(tmp_path)
    version, state = stored(db, "M1")[3]  # position 3: verde rolls the target, 11
    overwrite(db, "M1", version, state.replace(b'\\"values\\":[11]', b'\\"values\\":[12]'))
    result = run(db, "verify")
    assert result.exit_code == 1
    assert "FAILED M1, position 3: the hash chain breaks here" in result.stderr
    assert "M2" not in result.stderr


def test_unreadable_bytes_are_reported_not_crashed_on(tmp_path: Path) -> None:
    db = imported(tmp_path)
    overwrite(db, "M2", 5, b"\xff\x00 not json")
    result = run(db, "verify", "--json")
    assert result.exit_code == 1
    failures = json.loads(result.stdout)["failures"]
    assert failures == [
        {"match": "M2", "position": 4, "problem": "the stored event is not readable"}
    ]


def rechain(db: Path, match: str, change: bytes, into: bytes) -> None:
    """A careful forger: change one event and recompute every hash after it."""
    rows = stored(db, match)
    previous = json.loads(rows[0][1])["hash"]
    for version, state in rows[1:]:
        event = json.loads(state.replace(change, into))
        previous = link(previous, event["line"], event["timestamp"]["_data_"])
        event["hash"] = previous
        overwrite(
            db,
            match,
            version,
            json.dumps(event, separators=(",", ":"), ensure_ascii=False).encode(),
        )


def test_a_rechained_illegal_change_fails_the_replay(tmp_path: Path) -> None:
    db = imported(tmp_path)
    rechain(db, "M1", b'\\"values\\":[11]', b'\\"values\\":[21]')
    result = run(db, "verify", "M1")
    assert result.exit_code == 1
    assert (
        "FAILED M1, position 3: the replay refuses it: 21 is not a face of a d20" in result.stderr
    )


def test_a_rechained_legal_change_is_caught_by_the_printed_head_hash(tmp_path: Path) -> None:
    db = imported(tmp_path)
    printed = json.loads(ok(db, "match", "show", "M1", "--json"))["head"]
    # Blu's expression now misses: the log stays legal and the chain consistent ...
    rechain(db, "M1", b"(5+4+2):1", b"(5+4+2)*1")
    assert "every hash chain is intact" in ok(db, "verify", "M1")
    # ... but the head hash on the signed score sheet no longer matches.
    result = run(db, "verify", "M1", "--head", printed)
    assert result.exit_code == 1
    assert "FAILED M1, position 6: the stored head hash is" in result.stderr
    assert f"not the {printed} printed" in result.stderr


def test_an_exported_log_on_its_own(tmp_path: Path) -> None:
    db = imported(tmp_path)
    path = tmp_path / "m1.jsonl"
    ok(db, "match", "export", "M1", "-o", str(path))
    head = json.loads(path.read_text().splitlines()[-1])["hash"]
    assert f"6 events, chain intact, replay agrees; head {head}" in ok(
        db, "verify", "--file", str(path)
    )
    path.write_text(path.read_text().replace('"values": [11]', '"values": [12]'))
    assert "line 4: the hash does not match" in refused(db, "verify", "--file", str(path))
    assert "carries no hash" in refused(db, "verify", "--file", str(EXAMPLES / "tiro-seed.jsonl"))


def test_solve_contracts(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    tiro = json.loads(ok(db, "solve", "tiro", "6", "6", "5", "1", "--target", "11", "--json"))
    assert tiro["solvable"] is True and tiro["key"] == [1, 1, 0] and tiro["expression"]
    ship = json.loads(ok(db, "solve", "battaglia", "3", "5", "1", "--target", "15", "--json"))
    assert ship["solvable"] is True and ship["expression"]
    assert json.loads(ok(db, "solve", "battaglia", "1", "1", "1", "--target", "14", "--json")) == {
        "solvable": False
    }
    chain = json.loads(ok(db, "solve", "catena", "casa", "rete", "geme", "--json"))
    assert chain["length"] == 8 and chain["chain"][0] in ("casa", "geme")
    assert "three anchor words" in refused(db, "solve", "catena", "casa", "rete")


def test_a_failure_is_said_in_the_reader_s_language_and_the_json_stays_english(
    tmp_path: Path,
) -> None:
    db = imported(tmp_path)
    version, state = stored(db, "M1")[3]
    overwrite(db, "M1", version, state.replace(b'\\"values\\":[11]', b'\\"values\\":[12]'))
    for jobs in ("1", "3"):  # the failures cross processes as the program's messages
        result = run(db, "--lang", "it", "verify", "--jobs", jobs)
        assert result.exit_code == 1, result.stderr
        assert "M1, posizione 3: la catena di hash si spezza qui" in result.stderr
        assert "hash chain" not in result.stderr
    report = json.loads(run(db, "verify", "--json").stdout)
    assert report["failures"] == [
        {
            "match": "M1",
            "position": 3,
            "problem": "the hash chain breaks here: this event, or one before it, was changed "
            "after it was recorded",
        }
    ]
