"""Archives that outlive versions (#21): stored names fixed wherever a class lives, a moved match
keeps its chain, 0.1's formats read, continued and verified by their own rules.

The stores of every earlier round of work are checked in tests/tournament/test_history.py; these
tests make the same formats by hand, where each difference can be looked at alone.
"""

from __future__ import annotations

import dataclasses
import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import EXAMPLES
from tests.tournament.test_match_cli import ok, run
from tournament.domain.tournaments import Tournament
from tournament.logformat.matchlog import chain, genesis, link
from tournament.storage import topics
from tournament.storage.store import Match, Store

ROOT = Path(__file__).resolve().parents[2]


def _classes_with_names() -> list[type]:
    found: list[type] = []
    for aggregate in (Match, Tournament):
        found.append(aggregate)
        for value in vars(aggregate).values():
            if isinstance(value, type) and "TOPIC" in vars(value):
                found.append(value)
    return found


def test_every_stored_class_has_its_fixed_name_and_a_home() -> None:
    from eventsourcing.utils import get_topic

    never_stored = "tournament.store:Match.Created"  # eventsourcing's, unused by a match
    named = _classes_with_names()
    for cls in named:
        name = vars(cls)["TOPIC"]
        assert get_topic(cls) == name
        assert name == never_stored or topics.known(name) and topics.resolve(name) is cls
    stored_here = {vars(cls)["TOPIC"] for cls in named} - {never_stored}
    # every name the program stores is in the table (and 0.1's snapshot class besides)
    assert stored_here | {"eventsourcing.domain:Snapshot"} == set(topics.HOMES)
    # every event class a tournament or a match triggers has a name of its own
    for aggregate in (Match, Tournament):
        for value in vars(aggregate).values():
            if isinstance(value, type) and dataclasses.is_dataclass(value):
                assert "TOPIC" in vars(value) or value.__name__ == "Event", value


def test_a_name_in_the_file_never_imports_a_module() -> None:
    assert not topics.known("os:system")
    assert not topics.known("tournament.cli:main")


def _match_of_two_events(db: Path) -> str:
    return ok(db, "match", "import", str(EXAMPLES / "tiro-seed.jsonl")).strip()


def test_export_import_export_is_the_same_file(tmp_path: Path) -> None:
    first = tmp_path / "a.db"
    ok(first, "match", "import", str(EXAMPLES / "ventuno-seed.jsonl"))
    number = _match_of_two_events(first)  # M2
    exported = ok(first, "match", "export", number)
    log = tmp_path / "m2.jsonl"
    log.write_text(exported, encoding="utf-8")
    second = tmp_path / "b.db"
    assert ok(second, "match", "import", str(log)).strip() == number  # its number is free here
    assert ok(second, "match", "export", number) == exported
    ok(second, "verify")
    head = json.loads(ok(first, "match", "show", number, "--json"))["head"]
    assert json.loads(ok(second, "match", "show", number, "--json"))["head"] == head


def test_a_moved_match_whose_number_is_taken_keeps_its_proof(tmp_path: Path) -> None:
    first = tmp_path / "a.db"
    number = _match_of_two_events(first)  # M1
    log = tmp_path / "m1.jsonl"
    log.write_text(ok(first, "match", "export", number), encoding="utf-8")
    original = json.loads(ok(first, "match", "show", number, "--json"))["head"]
    second = tmp_path / "b.db"
    ok(second, "match", "import", str(EXAMPLES / "ventuno-seed.jsonl"))  # M1 is taken
    assert ok(second, "match", "import", str(log)).strip() == "M2"
    moved = json.loads(ok(second, "match", "show", "M2", "--json"))
    assert moved["head"] != original  # a new number, a new chain
    said = ok(second, "verify", "M2", "--head", original)
    assert f"head {original} matches" in said and "exported as M1" in said
    # A head that no chain of the match had is still refused.
    wrong = run(second, "verify", "M2", "--head", "0" * 64)
    assert wrong.exit_code == 1 and "not the " + "0" * 64 in wrong.stderr
    # db copy carries the provenance
    third = tmp_path / "c.db"
    ok(first, "db", "copy", str(second), str(third))
    assert "exported as M1" in ok(third, "verify", "M2", "--head", original)


def test_a_changed_line_breaks_the_provenance_too(tmp_path: Path) -> None:
    first = tmp_path / "a.db"
    _match_of_two_events(first)
    log = tmp_path / "m1.jsonl"
    log.write_text(ok(first, "match", "export", "M1"), encoding="utf-8")
    original = json.loads(ok(first, "match", "show", "M1", "--json"))["head"]
    second = tmp_path / "b.db"
    ok(second, "match", "import", str(EXAMPLES / "ventuno-seed.jsonl"))
    ok(second, "match", "import", str(log))
    conn = sqlite3.connect(second)
    with conn:  # the kept header is rewritten: the chain computed from it no longer gives the head
        conn.execute("update match_origins set header = replace(header, 'tiro', 'tirO')")
    conn.close()
    assert run(second, "verify", "M2", "--head", original).exit_code == 1


def test_the_store_records_the_versions_that_wrote_to_it(tmp_path: Path) -> None:
    from tournament import __version__
    from tournament.storage import provenance

    db = tmp_path / "a.db"
    _match_of_two_events(db)
    store = Store(db)
    written = provenance.writers(store)
    assert [w["version"] for w in written] == [__version__]
    assert written[0]["first_at"] <= written[0]["last_at"]


# --- 0.1's formats, made by hand as 0.1 stored them ---------------------------------------


def _as_01(db: Path) -> None:
    """Rewrite a store's rows as 0.1 wrote them: a match's start without hash and a plain chain,
    the tournament's events without hash, user_version 0."""
    conn = sqlite3.connect(db)
    rows = conn.execute(
        "select originator_id, originator_version, topic, state from stored_events "
        "order by originator_id, originator_version"
    ).fetchall()
    with conn:
        previous: dict[str, str] = {}
        for aggregate, version, topic, state in rows:
            values = json.loads(state)
            if topic.endswith("Match.Started"):
                values.pop("hash")
                previous[aggregate] = genesis(values["header"])
            elif topic.endswith("Match.Recorded"):
                values["hash"] = previous[aggregate] = link(previous[aggregate], values["line"])
            else:
                values.pop("hash", None)
            text = json.dumps(values, separators=(",", ":"), ensure_ascii=False).encode()
            conn.execute(
                "update stored_events set state = ? where originator_id = ? "
                "and originator_version = ?",
                [text, aggregate, version],
            )
        for aggregate, version, state in conn.execute(
            "select originator_id, originator_version, state from stored_snapshots"
        ).fetchall():
            values = json.loads(state)  # eventsourcing's own Snapshot: no seal, 0.1's state
            for key in ("seal", "head", "heads", "referees"):
                values["state"].pop(key, None)
            text = json.dumps(values, separators=(",", ":"), ensure_ascii=False).encode()
            conn.execute(
                "update stored_snapshots set topic = 'eventsourcing.domain:Snapshot', state = ? "
                "where originator_id = ? and originator_version = ?",
                [text, aggregate, version],
            )
        conn.execute("pragma user_version = 0")
        for table in ("store_writers",):
            conn.execute(f"drop table if exists {table}")
    conn.close()


def test_a_01_match_reads_exports_and_goes_on_in_its_own_format(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    ok(db, "match", "import", str(EXAMPLES / "tiro-seed.jsonl"))
    shown = json.loads(ok(db, "match", "show", "M1", "--json"))
    _as_01(db)
    again = json.loads(ok(db, "match", "show", "M1", "--json"))
    for key in ("game", "players", "status", "winners", "points", "out"):
        assert again[key] == shown[key]
    report = json.loads(ok(db, "verify", "--json"))
    assert report["ok"] and report["formats"] == {"match chain v1": 1}
    assert "match chain v1 (written by tournament 0.1)" in ok(db, "verify")
    exported = ok(db, "match", "export", "M1")
    header = json.loads(exported.splitlines()[0])
    assert "at" not in header and "id" not in header  # a plain chain binds nothing
    lines = [json.loads(x) for x in exported.splitlines()[1:]]
    stored = Store(db).get_match("M1")
    assert [x["hash"] for x in lines] == chain(stored.header, stored.lines)
    log = tmp_path / "m1.jsonl"
    log.write_text(exported, encoding="utf-8")
    assert "(a plain chain, v1)" in ok(db, "verify", "--file", str(log))


def test_a_01_tournament_goes_on_sealed_and_a_stripped_hash_is_found(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    ok(db, "create", "Sera", "--format", "swiss", "--rounds", "2", "--plays", "tiro")
    ok(db, "players", "add", "Anna", "Bruno", "Carla")
    _as_01(db)
    report = json.loads(ok(db, "verify", "--json"))
    assert report["ok"] and report["formats"] == {"tournament chain v1": 1}
    ok(db, "players", "add", "Dario")  # written by this version: sealed, after 0.1's
    report = json.loads(ok(db, "verify", "--json"))
    assert report["ok"], report
    assert report["formats"] == {"tournament chain v1": 1, "tournament chain v2": 1}
    assert "events 1-4" in ok(db, "verify")
    assert {p["player"] for p in json.loads(ok(db, "standings", "--json"))} == {
        "Anna",
        "Bruno",
        "Carla",
        "Dario",
    }
    ok(db, "players", "add", "Elena")  # version 6, sealed

    def strip(version: int, change: tuple[str, str] | None = None) -> Path:
        copy = tmp_path / f"strip{version}{bool(change)}.db"
        source, conn = sqlite3.connect(db), sqlite3.connect(copy)
        source.backup(conn)  # the file and its write-ahead log
        source.close()
        with conn:
            state = "json_remove(state, '$.hash')"
            if change:
                state = f"replace({state}, '{change[0]}', '{change[1]}')"
            state = f"cast({state} as blob)"  # as the store writes its rows
            conn.execute(
                f"update stored_events set state = {state} where originator_version = ? "
                "and topic like 'tournament.tournaments:%'",
                [version],
            )
        conn.close()
        return copy

    # An event stored without a hash after a sealed one is not 0.1's: its hash was taken away.
    found = run(strip(6), "verify")
    assert found.exit_code == 1 and "tournament, position 6" in found.stderr
    # A sealed event taken for 0.1's and changed: the next seal no longer matches.
    found = run(strip(5, ("Dario", "Dora")), "verify")
    assert found.exit_code == 1 and "tournament, position 6" in found.stderr


def test_a_class_moved_elsewhere_keeps_old_stores_readable(tmp_path: Path) -> None:
    """The match's classes moved to another module (their module paths change, the old ones
    resolve to nothing): a store written before reads, verifies and is written to."""
    db = tmp_path / "old.db"
    ok(db, "match", "import", str(EXAMPLES / "tiro-seed.jsonl"))
    script = f"""
import importlib, sys, types
import eventsourcing.utils as utils
import tournament.storage.store as store
moved = types.ModuleType("tournament.elsewhere")
sys.modules["tournament.elsewhere"] = moved
moved.Match = store.Match
for cls in (store.Match, store.Match.Started, store.Match.Recorded):
    cls.__module__ = "tournament.elsewhere"  # where eventsourcing would now look for it
utils._topic_cache.clear(); utils._type_cache.clear()
for cls in (moved.Match, moved.Match.Started, moved.Match.Recorded):
    utils.register_topic(cls.TOPIC, cls)
from tournament.storage import topics
for name in list(topics.HOMES):
    if name.startswith("tournament.store:"):
        topics.HOMES[name] = "tournament.elsewhere"
real = importlib.import_module
def import_module(name, *args):
    if name == "tournament.storage.store":  # the old module path leads nowhere now
        raise ImportError(name)
    return real(name, *args)
importlib.import_module = import_module
from tournament.cli import main
sys.argv = ["tournament", "--db", {str(db)!r}] + sys.argv[1:]
main()
"""
    verbs = (["verify"], ["match", "show", "M1", "--json"], ["match", "export", "M1"])
    for argv in (*verbs, ["match", "import", str(EXAMPLES / "ventuno-seed.jsonl")], ["verify"]):
        done = subprocess.run(
            [sys.executable, "-c", script, *argv], capture_output=True, text=True, cwd=ROOT
        )
        assert done.returncode == 0, done.stderr
    conn = sqlite3.connect(db)
    assert {t for (t,) in conn.execute("select distinct topic from stored_events")} == {
        "tournament.store:Match.Started",
        "tournament.store:Match.Recorded",
    }  # M2, stored by the moved classes, under the same names
    assert conn.execute("select count(distinct originator_id) from stored_events").fetchone() == (
        2,
    )


@pytest.mark.parametrize("rules", [None, 1, 2])
def test_an_imported_plain_log_says_its_rules(tmp_path: Path, rules: int | None) -> None:
    """A hand-written log names no rules: stored, it says today's; a log 0.1 exported (a plain
    chain with hashes) is 0.1's rules; a header that names its rules keeps them."""
    text = (EXAMPLES / "tiro-seed.jsonl").read_text(encoding="utf-8")
    lines = text.splitlines()
    header = json.loads(lines[0])
    if rules is not None:
        header["rules"] = rules
    lines[0] = json.dumps(header)
    log = tmp_path / "log.jsonl"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    db = tmp_path / "a.db"
    ok(db, "match", "import", str(log))
    stored = json.loads(Store(db).get_match("M1").header)
    assert stored["rules"] == (rules or 2)


def test_what_a_newer_version_wrote_is_not_called_forged_alone(tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    _match_of_two_events(db)
    conn = sqlite3.connect(db)
    with conn:
        conn.execute("insert into store_writers values ('9.0.0', '2027-01-01', '2027-01-01')")
        conn.execute(
            "update stored_events set state = cast(replace(cast(state as text), '\"line\"', "
            '\'"line","extra":1,"x"\') as blob) where originator_version = 2'
        )
    conn.close()
    said = run(db, "verify")
    assert said.exit_code == 1
    assert "FAILED M1, position 1" in said.stderr
    assert "also written by tournament 9.0.0, a newer version" in said.stderr


def test_a_snapshot_01_took_is_checked_and_the_tournament_goes_on(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    ok(db, "create", "Festival", "--format", "swiss", "--rounds", "2", "--plays", "tiro")
    names = [f"P{n:03}" for n in range(120)]
    ok(db, "players", "add", *names)  # past a hundred events: a snapshot is taken
    conn = sqlite3.connect(db)
    assert conn.execute("select count(*) from stored_snapshots").fetchone() == (1,)
    conn.close()
    _as_01(db)
    report = json.loads(ok(db, "verify", "--json"))
    assert report["ok"], report
    assert report["formats"] == {"snapshot v1": 1, "tournament chain v1": 1}
    ok(db, "players", "add", "Ultimo")  # loaded from its events (0.1's snapshot has no head)
    report = json.loads(ok(db, "verify", "--json"))
    assert report["ok"] and report["formats"]["tournament chain v2"] == 1, report
    assert len(json.loads(ok(db, "standings", "--json"))) == 121
    # A 0.1 snapshot changed afterwards is found.
    conn = sqlite3.connect(db)
    with conn:
        conn.execute(
            "update stored_snapshots set state = cast(replace(cast(state as text), 'P001', "
            "'P999') as blob) where topic = 'eventsourcing.domain:Snapshot'"
        )
    conn.close()
    found = run(db, "verify")
    assert found.exit_code == 1 and "snapshot" in found.stderr
