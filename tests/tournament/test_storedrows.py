"""Issue 15: verify's fast road (orjson) decides each row as eventsourcing's mapper does.

Every stored row of a small tournament, and rows changed in the ways that matter (order, spaces,
escapes, numbers, times, ids, keys), are read both ways: where the fast road takes a row, the
mapper takes it too, to the very same event; where the mapper refuses one, so does ``decode``.
The plain values of :mod:`tournament.logformat.plainjson` are written to the same bytes as json
writes.
"""

from __future__ import annotations

import json
import random
import sqlite3
from datetime import UTC, datetime
from typing import Any

import orjson
import pytest

from tournament.domain.tournaments import TOURNAMENT_ID, event_fields, seal, state_seal
from tournament.logformat import plainjson
from tournament.services import simulate
from tournament.storage.locations import locate
from tournament.storage.store import Store, new_mapper
from tournament.verify.storedrows import (
    Row,
    Unreadable,
    _decode,
    _plain_event,
    _time,
    decode,
    read,
    streams,
)

MAPPER = new_mapper()


@pytest.fixture(scope="module")
def rows(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[Row]]:
    db = tmp_path_factory.mktemp("rows") / "t.db"
    store = Store(db)
    simulate.run(store, simulate.Simulation(players=4, rounds=1, plays="tiro", seed=3))
    store.take_snapshot(TOURNAMENT_ID)
    conn = sqlite3.connect(db)
    conn.execute("pragma wal_checkpoint(truncate)")
    conn.close()
    place = locate(db)
    return {
        what: [row for _, some in streams(place, what) for row in some]
        for what in ("events", "snapshots")
    }


def mapper_verdict(row: Row) -> Any:
    try:
        return _decode(MAPPER, row)
    except Unreadable:
        return None


def agree(row: Row) -> bool:
    """The fast road takes ``row`` (True) or leaves it to the mapper (False); it never takes
    what the mapper refuses, and it takes it to the same event."""
    fast = _plain_event(row)
    slow = mapper_verdict(row)
    if fast is None:
        return False
    assert slow is not None, row
    assert type(fast[0]) is type(slow)
    assert list(vars(fast[0]).items()) == list(vars(slow).items())  # values and their order
    assert fast[2] == slow.timestamp.isoformat()
    return True


def test_every_stored_row_of_the_tournament_takes_the_fast_road(
    rows: dict[str, list[Row]],
) -> None:
    tournament = [r for r in rows["events"] if r[0] == TOURNAMENT_ID.hex]
    assert len(tournament) > 10 and rows["snapshots"]
    for row in tournament + rows["snapshots"]:
        assert agree(row), row
    # The tournament's events are plain JSON but their time; a snapshot holds times inside.
    assert all(read(MAPPER, row)[1] == 0 for row in tournament)
    assert all(read(MAPPER, row)[1] == 2 for row in rows["snapshots"])  # created, modified


def variants(state: bytes) -> list[bytes]:
    """A tournament row's bytes changed as a careless or a careful hand would change them."""
    values = json.loads(state)
    keys = list(values)
    out = [
        state.replace(b'":', b'": ', 1),  # a space
        state.replace(b"{", b"{ ", 1),
        state + b"\n",
        json.dumps(values, separators=(",", ":")).encode(),  # ASCII escapes (\u00e9)
        json.dumps({k: values[k] for k in reversed(keys)}, separators=(",", ":")).encode(),
        json.dumps({**values, "originator_id": TOURNAMENT_ID.hex}, separators=(",", ":")).encode(),
        json.dumps({**values, "originator_version": 1}, separators=(",", ":")).encode(),
        json.dumps({**values, "class_version": 1}, separators=(",", ":")).encode(),
        json.dumps({k: v for k, v in values.items() if k != keys[-1]}).encode(),
        json.dumps({**values, "extra": 1}, separators=(",", ":")).encode(),
        state.replace(b"+00:00", b"Z", 1),  # a time not written as the program writes it
        state.replace(b'"_type_":"datetime_iso",', b"", 1).replace(b"_data_", b"x", 1),
        state.replace(b'"datetime_iso"', b'"decimal_str"', 1),
        state.replace(b'{"_type_":"datetime_iso","_data_":', b'{"_data_":', 1).replace(
            b'"},', b'","_type_":"datetime_iso"},', 1
        ),
        b"[" + state + b"]",
        b"not json",
        state[:-1],
    ]
    last = keys[-1]
    for odd in (
        2.5e-5,  # orjson writes 0.000025, json 2.5e-05
        2.5,
        -0.0,
        2**64,  # beyond what orjson writes
        2**63 - 1,
        -(2**63),
        'é\u2028\x7f"\\\n\t\x00😀',
        {"_type_": "datetime_iso", "_data_": "2026-11-30T10:00:00+00:00"},  # a time inside
        {"_type_": "datetime_iso", "_data_": "2026-11-30T10:00:00Z"},
        {"_type_": "uuid_hex", "_data_": TOURNAMENT_ID.hex},
        {"_type_": "x", "_data_": 1, "more": 2},
        [[[]]],
        True,
        None,
    ):
        text = json.dumps({**values, last: odd}, separators=(",", ":"), ensure_ascii=False)
        out.append(text.encode())
    # A field given the name of one the mapper sets itself, in place of another.
    for own in ("originator_id", "originator_version"):
        renamed = {k if k != last else own: v for k, v in values.items()}
        out.append(json.dumps(renamed, separators=(",", ":")).encode())
    # Numbers written as orjson writes them, not as json does.
    for odd in (2.5e-5, 1e-7, 2.5):
        out.append(orjson.dumps({**values, last: odd}))
    out.append(orjson.dumps({**values, last: {"v": [odd]}}))
    out.append(state.replace(b'":"', b'":"\\u00e9', 1))
    out.append(state.replace(b"3", b"03", 1))
    return out


def test_a_changed_row_is_never_taken_by_the_fast_road_alone(rows: dict[str, list[Row]]) -> None:
    tournament = [r for r in rows["events"] if r[0] == TOURNAMENT_ID.hex]
    taken = left = 0
    for aggregate, version, topic, state in tournament[:3] + tournament[-2:]:
        for changed in variants(state):
            for row in (
                (aggregate, version, topic, changed),
                (aggregate.upper(), version, topic, changed),
                (aggregate, version, topic.replace("Tournament.", "Tournament.X"), changed),
            ):
                if agree(row):
                    taken += 1
                else:
                    left += 1
                    # What the mapper refuses, decode refuses; what it takes, decode takes.
                    slow = mapper_verdict(row)
                    if slow is None:
                        with pytest.raises(Unreadable):
                            decode(MAPPER, row)
                    else:
                        assert vars(decode(MAPPER, row)) == vars(slow)
    assert taken and left  # both roads were taken


def test_plain_values_are_written_as_json_writes_them() -> None:
    odd = ["é", "\u2028", "\x7f", '"\\', "\n\t\x00\x1f", "😀", "\uffff", "\U00010000", "Z", "a"]
    value: dict[str, Any] = {k: [k, 1, -(2**63), 2**64 - 1, True, None, 0.1, 1e22] for k in odd}
    value["nested"] = {"b": {"a": [[], {}]}, "A": ""}
    assert plainjson.plain(value)
    expected = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert plainjson.sorted_text(value) == expected.encode()
    at = datetime(2026, 11, 30, 10, 0, 0, 1234, tzinfo=UTC)
    timed = {"at": at, "values": value}
    assert not plainjson.plain(timed) and plainjson.plain(timed, times=True)
    assert plainjson.transcoded(timed) == MAPPER.transcoder.encode(timed)
    with_str = json.dumps(
        timed, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str
    )
    assert plainjson.sorted_text(timed) == with_str.encode()


@pytest.mark.parametrize(
    "value",
    [(1,), {1: "a"}, 2**64, -(2**63) - 1, 2.5e-5, 1e-7, float("nan"), float("inf"), b"x", {1.5}],
)
def test_what_orjson_would_write_otherwise_is_not_plain(value: Any) -> None:
    assert not plainjson.plain({"v": [value]}, times=True)


def test_the_seals_are_the_same_on_both_roads(rows: dict[str, list[Row]]) -> None:
    for row in rows["events"]:
        if row[0] != TOURNAMENT_ID.hex:
            continue
        event, times, at = read(MAPPER, row)
        plain = times == 0
        fields = event_fields(event)
        assert plain and seal("x", row[2], row[1], at, fields, True) == event_seal(row, fields)
    snapshot = decode(MAPPER, rows["snapshots"][-1])
    state = {k: v for k, v in snapshot.state.items() if k != "seal"}
    assert state_seal(state) == snapshot.state["seal"]
    # Not plain (a tuple): json's road, the same text.
    assert state_seal({**state, "rounds": tuple(state["rounds"])}) == snapshot.state["seal"]


def event_seal(row: Row, fields: dict[str, Any]) -> str:
    return seal("x", row[2], row[1], decode(MAPPER, row).timestamp.isoformat(), fields)


def test_a_time_is_taken_as_the_program_writes_it_and_only_so() -> None:
    """The shape that spares formatting a UTC time back decides as formatting it back does."""
    rng = random.Random(15)
    written = ["2026-11-30T03:37:47.632025+00:00", "2026-11-30T03:37:47+00:00"]
    times = written + [
        "2026-11-30T03:37:47.000000+00:00",  # parsed, but written without microseconds
        "2024-02-29T00:00:00+00:00",
        "2026-02-29T00:00:00+00:00",
        "2026-11-30T24:00:00+00:00",
        "2026-11-30T23:59:60+00:00",
        "0000-01-01T00:00:00+00:00",
        "2026-11-30T03:37:47.632+00:00",
        "2026-11-30 03:37:47+00:00",
        "2026-11-30T03:37:47-00:00",
        "2026-11-30T03:37:47Z",
        "2026-11-30T03:37:47.632025+01:00",  # written back as it is: not UTC, still the same
        "2026-11-30T03:37:47.632025",
        "\uff12026-11-30T03:37:47+00:00",
        "2026-11-30T03:37:47,632025+00:00",
        "2026-11-30T03:37:47.632025+00:00:00",
    ]
    for _ in range(3000):
        text = list(rng.choice(written))
        for _ in range(rng.randint(1, 3)):
            text[rng.randrange(len(text))] = rng.choice("0123456789T:+-. Z")
        times.append("".join(text))
    taken = 0
    for text in times:
        try:
            back = datetime.fromisoformat(text)
            expected = back if back.isoformat() == text else None
        except ValueError:
            expected = None
        got = _time({"_type_": "datetime_iso", "_data_": text})
        assert got == expected and (got is None or got.isoformat() == text), text
        taken += got is not None
    assert 2 < taken < len(times) - 10
