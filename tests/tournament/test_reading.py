"""The read path (issue 15): a stored match read without its aggregate says what the aggregate
says, is refused where the aggregate is, and replays to the same state."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

from engine.bots import random_game
from engine.events import Ruling, Void, parse_event
from engine.header import parse_header
from engine.lexicon import default_lexicon
from engine.match import Replay
from engine.rulings import standing_rulings
from exports.i18n import say
from tournament.readside.reading import read_match
from tournament.services import simulate
from tournament.services.matches import check_log, load, stored_as
from tournament.storage.store import Store, StoreError, match_uuid


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("reading") / "t.db"
    simulate.run(Store(db), simulate.Simulation(players=4, rounds=1, seed=3))
    return db


def test_a_match_read_in_one_query_is_its_aggregate(played: Path) -> None:
    store = Store(played)
    for match in store.matches():
        read = read_match(store, match.number.lower())
        assert (read.number, read.id, read.header, read.start) == (
            match.number,
            match.id,
            match.header,
            match.start,
        )
        assert list(read.lines) == match.lines and list(read.hashes) == match.hashes
        assert list(read.times) == match.times and read.export() == match.export()
        assert load(store, match.number).replay == load(store, match.number, write=True).replay


def test_a_changed_or_missing_match_is_one_sentence(played: Path, tmp_path: Path) -> None:
    db = tmp_path / "changed.db"
    db.write_bytes(played.read_bytes())
    with pytest.raises(StoreError, match="there is no match M99"):
        read_match(Store(db), "M99")
    conn = sqlite3.connect(db)
    key = [match_uuid("M1").hex]
    where = "where originator_id = ? and originator_version = 2"
    (state,) = conn.execute(f"select state from stored_events {where}", key).fetchone()
    assert b"by" in state
    with conn:
        conn.execute(
            f"update stored_events set state = ? {where}", [state.replace(b"by", b"bx", 1), *key]
        )
    conn.close()
    for read in (lambda: read_match(Store(db), "M1"), lambda: Store(db).get_match("M1")):
        with pytest.raises(StoreError, match="M1 cannot be read: its stored events were changed"):
            read()
    # Said in Italian where a page is (a catalogue message, the command line's English as is).
    with pytest.raises(StoreError) as refused:
        read_match(Store(db), "M1")
    assert say(refused.value.args[0], "it").startswith(
        "M1 non si può leggere: i suoi eventi memorizzati sono stati cambiati fuori dal programma"
    )


@pytest.mark.parametrize("seed", range(12))
def test_extend_is_apply_one_event_after_another(seed: int) -> None:
    lexicon = default_lexicon()
    rng = random.Random(seed)
    game = ["battaglia", "asta", "catena", "texas", "ventuno", "updown", "tiro"][seed % 7]
    head = {"format": "tournament-match/1", "game": game, "players": ["giallo", "blu", "verde"]}
    start = Replay.start(parse_header(head), lexicon)
    played = random_game(start, rng)  # with the odd ruling and void
    one_by_one = start
    for event in played.events:
        one_by_one = one_by_one.apply(parse_event(vars_of(event)))
    assert Replay.of(start.header, lexicon, played.events) == one_by_one == played
    cut = len(played.events) // 2
    assert (
        Replay.of(start.header, lexicon, played.events[:cut]).extend(played.events[cut:]) == played
    )


def vars_of(event: object) -> dict:
    from engine.events import event_to_json

    return event_to_json(event)  # type: ignore[arg-type]


def test_a_log_stored_before_is_found_by_its_header(played: Path, tmp_path: Path) -> None:
    """``match import`` looks for the same log among the matches with its header only (it
    rebuilt every match of the database to compare them); a start that is not plainly a match's
    still says which match cannot be read."""
    db = tmp_path / "found.db"
    db.write_bytes(played.read_bytes())
    store = Store(db)
    log = check_log(read_match(store, "M2").export())
    assert stored_as(store, log) == "M2"
    assert read_match(store, "M1").header != log.header_line
    change(db, "M1", 2, b"by", b"bx")  # a line of another match: not read, not in the way
    assert stored_as(Store(db), log) == "M2"
    change(db, "M1", 1, b'"M1"', b'"M9"')  # another match's start names another number: said
    with pytest.raises(StoreError, match="M9 cannot be read"):
        stored_as(Store(db), log)


def change(db: Path, number: str, version: int, old: bytes, new: bytes) -> None:
    """Replace bytes in one stored row, behind the program's back."""
    conn = sqlite3.connect(db)
    key = [match_uuid(number).hex, version]
    where = "where originator_id = ? and originator_version = ?"
    (state,) = conn.execute(f"select state from stored_events {where}", key).fetchone()
    assert old in state
    with conn:
        conn.execute(f"update stored_events set state = ? {where}", [state.replace(old, new), *key])
    conn.close()


@pytest.mark.parametrize("seed", range(8))
def test_the_standing_rulings_are_those_of_the_log(seed: int) -> None:
    """A ruling adds to the standing ones without reading the log again (issue 15): after every
    event they are still what the whole log gives."""
    lexicon = default_lexicon()
    game = ["battaglia", "asta", "catena", "texas"][seed % 4]
    head = {"format": "tournament-match/1", "game": game, "players": ["giallo", "blu", "verde"]}
    start = Replay.start(parse_header(head), lexicon)
    played = random_game(start, random.Random(101 + seed))
    replay, corrections = start, 0
    for event in played.events:
        replay = replay.apply(event)
        corrections += isinstance(event, Ruling | Void)
        assert replay.rulings == standing_rulings(replay.events, replay.voided)
    assert replay == played
    if seed == 0:
        assert corrections  # the bots do correct now and then
