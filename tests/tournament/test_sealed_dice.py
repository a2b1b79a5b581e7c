"""A match started ``play --digital`` takes only the seed's dice, whichever front end records
it after a resume without ``--digital``; verify fails on a store where a hand roll was written
(#28)."""

from __future__ import annotations

import json

import pytest

from engine.events import Roll
from tests.tournament.test_console import Script
from tests.tournament.test_match_cli import ok, refused, run
from tournament.cli.console import Console
from tournament.errors import Refused
from tournament.logformat.matchlog import event_line
from tournament.services import play
from tournament.services.matches import load
from tournament.storage.locations import close
from tournament.storage.store import Store


def _log(db: str) -> list[dict]:
    return [json.loads(x) for x in ok(db, "match", "export", "M1").splitlines()[1:]]


def test_a_sealed_match_resumed_without_digital_refuses_a_hand_roll_everywhere(db: str) -> None:
    ok(db, "match", "new", "tiro", "giallo", "blu", "--outside", "verde")
    store = Store(db)
    first = Script(["roll giallo d6", "quit"])
    Console(store, "M1", first.read, first.said.append, digital=True, timers=False).run()
    assert [e["type"] for e in _log(db)] == ["dice-commit", "roll"]
    # Resumed as plain `play M1`: a roll with faces is refused, one without takes the seed's.
    again = Script(["roll blu d6 5 4 2 1", "roll blu d6", "quit"])
    Console(store, "M1", again.read, again.said.append, timers=False, lang="en").run()
    assert any("digital dice (sealed at #1)" in line for line in again.said), again.said
    log = _log(db)
    assert [e["type"] for e in log] == ["dice-commit", "roll", "roll"]
    assert all(e["digital"] for e in log[1:])
    # The recording verbs and the referee's page (both record through play.record_move).
    stderr = refused(db, "match", "roll", "M1", "verde", "d20", "11")
    assert "sealed at #1" in stderr and "roll verde d20" in stderr
    with pytest.raises(Refused, match="sealed at #1"):
        play.record_move(store, "M1", "roll verde d20 11")
    assert len(_log(db)) == 3
    play.record_move(store, "M1", "roll verde d20")
    assert _log(db)[-1]["digital"] is True
    close(store)


def test_verify_fails_on_a_hand_roll_written_in_a_sealed_match(db: str) -> None:
    ok(db, "match", "new", "tiro", "giallo", "blu", "--outside", "verde")
    store = Store(db)
    play.record_move(store, "M1", "dice-commit " + "0" * 64)
    assert "every hash chain is intact" in ok(db, "verify")
    # What an earlier version let through: a hand roll after the seal.
    loaded = load(store, "M1", write=True)
    store.append(loaded.match, [event_line(Roll("giallo", "d6", (6, 6, 5, 1)))])
    close(store)
    result = run(db, "verify")
    assert result.exit_code != 0
    assert "M1, position 2: a roll entered by hand" in result.stdout + result.stderr
