"""The audit's "state after" shows each state as it stood, and a later ruling's rewriting of it
beside it (#28): a word the lexicon rejected at #8 and the referee accepted at #10."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from exports.eventlog import event_log
from tests.tournament.test_match_cli import ok
from tournament.services import play
from tournament.services.audit import timeline
from tournament.services.matches import load
from tournament.storage.locations import close
from tournament.storage.store import Store

MOVES = (
    "roll giallo consonant S N",
    "roll blu consonant T N",
    "roll verde vowel O A",
    "word giallo sano",
    "word blu onta",
    "roll verde consonant S",
    "roll verde vowel A",
    "word giallo snasa",  # not in the lexicon: 0 then (TEX-3)
    "word blu sonata",
    "rule 8 accept",  # REF-1: 5 more for giallo, from #8 on
)


def test_the_state_after_each_event_is_shown_as_it_stood_and_as_rewritten(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    ok(db, "match", "new", "texas", "giallo", "blu", "--outside", "verde")
    store = Store(db)
    for move in MOVES:
        play.record_move(store, "M1", move)
    loaded = load(store, "M1")
    rows = timeline(loaded)
    assert "totals giallo 5, blu 5" in rows[7]["state"]  # #8 as the table saw it
    assert rows[7]["state_later"]["by"] == [10]
    assert "totals giallo 10, blu 5" in rows[7]["state_later"]["state"]
    assert "totals giallo 5, blu 12" in rows[8]["state"]
    assert rows[6]["state_later"] is None and rows[9]["state_later"] is None  # nothing rewritten
    assert "totals giallo 10, blu 12" in rows[9]["state"]
    said = event_log(loaded.replay, "it")
    assert "totali giallo 5, blu 5" in said[7].state
    assert said[7].later.startswith("dopo #10: ") and "totali giallo 10, blu 5" in said[7].later
    assert said[6].later == ""
    close(store)
    out = ok(db, "audit", "M1")
    assert "after #10:" in out
    assert "totals giallo 5, blu 5" in ok(db, "audit", "M1", "--at", "8")
    shown = json.loads(ok(db, "audit", "M1", "--json"))["timeline"]
    assert shown[7]["state_later"]["by"] == [10]


def test_the_states_as_they_stood_are_replayed_once_a_replay(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A match's page says its timeline and its words in two languages from one replay: the
    log is replayed once for the states as they stood, not once for each (#27)."""
    from engine.match import Replay
    from exports import eventlog

    db = tmp_path / "t.db"
    ok(db, "match", "new", "texas", "giallo", "blu", "--outside", "verde")
    store = Store(db)
    for move in MOVES:
        play.record_move(store, "M1", move)
    replay = load(store, "M1").replay
    started: list[object] = []
    start = Replay.start
    monkeypatch.setattr(Replay, "start", lambda *a, **k: started.append(1) or start(*a, **k))
    first = eventlog.states_as_they_stood(replay)
    assert eventlog.states_as_they_stood(replay) is first and len(started) == 1
    assert [r.state for r in event_log(replay, "en")] == [
        r.state for r in event_log(replay, "en")
    ] and len(started) == 1
    assert "totals giallo 5, blu 5" in eventlog._state_words(replay, first[8], "en")
    close(store)
