"""Recording a move written in the notation: the service the console, the CLI and the web share."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.tournament.test_heard_server import recording
from tests.tournament.test_match_cli import ok, refused
from tournament.errors import Refused
from tournament.services.matches import load, record_move
from tournament.storage.store import Store


@pytest.fixture
def tiro(tmp_path: Path) -> tuple[Path, Store]:
    db = tmp_path / "m.db"
    ok(db, "match", "new", "tiro", "Giocatore 01", "blu", "--outside", "verde")
    return db, Store(db)


def test_a_move_is_read_against_the_stored_match_and_recorded(tiro: tuple[Path, Store]) -> None:
    db, store = tiro
    loaded, stored = record_move(store, "m1", "ROLL giocatore 01 d6 6,6,5,1")
    assert [e.by for e in stored] == ["Giocatore 01"] and loaded.replay.position == 1
    record_move(store, "M1", "roll blu d6 5 4 2 1", expected_position=1)
    # Two phones at one table: the second saw position 1 and is refused, nothing stored.
    with pytest.raises(Refused, match="^the match changed since you looked: M1 is at position 2"):
        record_move(store, "M1", "roll verde d20 11", expected_position=1)
    assert load(store, "M1").replay.position == 2


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("fly blu", "unknown move 'fly'"),
        ("roll blu d6 9 1 1 1", r"9 is not a face of a d6 \(faces 1 to 6\) \(EQ-1\)"),
        ("roll d6 1 2 3 4", "name the player: Giocatore 01, blu or verde may record a roll now"),
    ],
)
def test_every_notation_error_is_one_refusal_and_stores_nothing(
    tiro: tuple[Path, Store], text: str, says: str
) -> None:
    db, store = tiro
    with pytest.raises(Refused, match=says):
        record_move(store, "M1", text)
    assert load(store, "M1").replay.position == 0


def test_the_cli_records_a_move_in_the_notation(tiro: tuple[Path, Store]) -> None:
    db, _ = tiro
    out = ok(db, "match", "move", "M1", 'roll "Giocatore 01" d6 6 6 5 1')
    assert out.startswith('M1 #1 roll "Giocatore 01" d6 6 6 5 1\n')
    assert "the match changed" in refused(db, "match", "move", "M1", "--at", "0", "roll blu d6 1")
    # The verbs join their arguments into one move: a name with a space needs no care.
    ok(db, "match", "roll", "M1", "blu", "d6", "5", "4", "2", "1")
    ok(db, "match", "roll", "M1", "verde", "d20", "11")
    out = ok(db, "match", "expr", "M1", "Giocatore 01", "6 x (5:6+1)")
    assert 'M1 #4 expr "Giocatore 01" 6 x (5:6+1)' in out
    info = json.loads(ok(db, "match", "show", "M1", "--json"))
    assert info["notes"][-1]["player"] == "Giocatore 01" and info["notes"][-1]["ok"]


def test_two_phones_writing_at_once_one_is_refused(tmp_path: Path) -> None:
    """The second write finds the match moved on between its read and its write."""
    from engine.games.parola_nascosta import seal

    db = tmp_path / "p.db"
    ok(db, "match", "new", "parola_nascosta", "giallo", "blu")
    for to, card in (("giallo", "01"), ("blu", "02"), ("table", "04")):
        ok(db, "match", "card", "M1", to, card)
    first, second = Store(db), Store(db)

    def meanwhile(player: str) -> str:  # called after giallo's phone read the match
        record_move(second, "M1", f"seal blu {seal('martello', 's2')}", expected_position=3)
        return seal("cassaforte", "s1")

    with pytest.raises(Refused, match="^the match changed since you looked: M1 was written to"):
        record_move(first, "M1", "seal giallo", expected_position=3, sealer=meanwhile)
    assert [e.by for e in load(Store(db), "M1").replay.events[3:]] == ["blu"]


def test_a_move_from_the_command_line_reads_its_match_once(
    tiro: tuple[Path, Store], monkeypatch: pytest.MonkeyPatch
) -> None:
    """record_correction reads the match to tell whether the move may correct a closed round,
    and records the move on the aggregate it read: not read a second time (#27)."""
    from tournament.services.corrections import record_correction

    _, store = tiro
    reads = recording(monkeypatch, Store, "get_match", lambda self, number: number)
    done = record_correction(store, "m1", "roll blu d6 5 4 2 1", confirmed=False)
    assert [e.by for e in done.stored] == ["blu"] and done.loaded.replay.position == 1
    assert len(reads) == 1
    reads.clear()  # a void asks no read to tell: it is read once, to record it
    done = record_correction(store, "M1", "void 1 a slip", confirmed=False)
    assert done.loaded.replay.position == 2 and len(reads) == 1
