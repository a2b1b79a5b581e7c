"""A filled score sheet is its game's blank sheet filled in: the same tables, with what was
played, rejected words struck and rulings marked, then the event log in words."""

from __future__ import annotations

import os
import re
from html import unescape
from pathlib import Path

import pytest

from exports import eventlog, filled, render
from tests.support import EXAMPLES, example, play, roll

SNAPSHOTS = Path(__file__).parent / "snapshots"
UPDATE = os.environ.get("UPDATE_SNAPSHOTS") == "1"


def texas(*late: dict):
    """The Texas Word'em seed (TEX-1..TEX-4), with ``late`` events in place of its last word."""
    head, events = example("texas-seed.jsonl")
    events = [e for e in events if e["type"] != "end"]
    played = events[:-1] + list(late) if late else events
    return play("texas", head["players"], played, head.get("outside", ()))


def cells(section: filled.Section) -> list[list[str]]:
    return [row.cells for row in section.rows]


def test_texas_is_its_sheet_filled_in() -> None:
    letters, one, two, three, total = filled.sections(texas(), "it")
    assert letters.head == ["Giocatore", "Consonanti"]
    assert cells(letters) == [["giallo", "S N"], ["blu", "T N"]]
    # a game's round, told apart from the tournament's "Turno" (#28)
    assert [s.title for s in (one, two, three)] == ["Mano 1", "Mano 2", "Mano 3"]
    assert one.head == ["Lettere", "Giocatore", "Parola", "Punteggio", "Bonus"]
    # TEX-3: sano uses S N O A, every letter: 4 and a bonus of 1.
    assert cells(one) == [["O A", "giallo", "sano", "4", "1"], ["O A", "blu", "onta", "4", "1"]]
    assert cells(two)[1] == ["O A S A", "blu", "sonata", "6", "1"]
    assert cells(three)[0] == ["O A S A C I", "giallo", "incasso", "7", "0"]
    assert cells(total) == [["giallo", "16"], ["blu", "21"]]


def test_a_rejected_word_is_struck_and_a_ruling_marked() -> None:
    bogus = {"type": "word", "by": "blu", "word": "cantosia"}
    sections = filled.sections(texas(bogus), "it")
    row = sections[3].rows[1]
    assert row.rejected and row.cells[2] == "cantosia" and row.cells[3] == "0"
    assert row.mark == "turno 3: cantosia non è ammessa: 0"
    ruled = texas(bogus, {"type": "ruling", "by": "referee", "on": 13, "accept": True})
    row = filled.sections(ruled, "it")[3].rows[1]
    assert not row.rejected and row.cells[3:] == ["8", "1"]
    assert row.mark == "decisione dell'arbitro: accettata"
    html = render.score_sheet(
        render.environment(),
        {"id": "M9", "title": "Texas Word'em", "players": ["giallo", "blu"], "outside": [],
         "winners": ["blu"], "points": {"giallo": 0, "blu": 1}, "head": "ab" * 32},
        texas(bogus),
        "",
        "it",
        {"tournament": "Coppa", "date": "2026-11-29", "round": 2, "table": 3},
    )  # fmt: skip
    text = " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())
    assert "Coppa · Data: 2026-11-29 · Turno del torneo: 2 · Tavolo: 3 · Arbitro:" in text
    assert "<s>cantosia</s> ✗" in html
    assert "13 blu blu scrive cantosia ✗ turno 3: cantosia non è ammessa: 0" in text
    assert "Registro degli eventi" in text and "Firma" not in text  # names, not blank lines
    assert ("ab" * 32) in html


def test_tiro_fills_target_dice_values_and_the_key() -> None:
    head, events = example("tiro-seed.jsonl")
    replay = play("tiro", head["players"], events[:-1], head["outside"])
    target, shots = filled.sections(replay, "en")
    assert target.boxes == ["11"]
    assert shots.head == [
        "Player", "Dice", "Expression", "Value", "Divisions", "Multiplications", "Subtractions"
    ]  # fmt: skip
    assert cells(shots) == [
        ["giallo", "6 6 5 1", "6 x (5:6+1)", "11", "1", "1", "0"],
        ["blu", "5 4 2 1", "(5+4+2):1", "11", "1", "0", "0"],
    ]


def test_ventuno_shows_the_bust_beside_the_throw() -> None:
    head, events = example("ventuno-seed.jsonl")
    replay = play("ventuno", head["players"], events, head.get("outside", ()))
    (turns,) = filled.sections(replay, "it")
    bust = next(r for r in turns.rows if r.mark)
    assert bust.cells[2:] == ["3-6", "—", "19"]
    assert bust.mark == "blu è fuori: ogni valore di 3-6 supera 21 partendo da 19"


def test_the_event_log_speaks_the_sheets_language() -> None:
    replay = play("tiro", ["giallo", "blu"], [roll("giallo", "d6", 6, 6, 5, 1)])
    (row,) = eventlog.event_log(replay, "it")
    assert (row.who, row.what) == ("giallo", "giallo tira il d6: 6 6 5 1")
    assert row.state == "bersaglio non tirato; dadi giallo 6 6 5 1"
    (row,) = eventlog.event_log(replay, "en")
    assert row.what == "giallo rolls the d6: 6 6 5 1"


def test_a_texas_match_in_play_keeps_the_blank_rows_to_come() -> None:
    head, events = example("texas-seed.jsonl")
    replay = play("texas", head["players"], events[:4], head["outside"])  # giallo's first word
    _, one, two, three, _ = filled.sections(replay, "it")
    assert cells(one) == [["O A", "giallo", "sano", "4", "1"], ["O A", "blu", "", "", ""]]
    assert cells(two) == cells(three) == [["", "giallo", "", "", ""], ["", "blu", "", "", ""]]


EXAMPLE_FILES = sorted(p.name for p in EXAMPLES.glob("*.jsonl"))


@pytest.mark.parametrize("name", EXAMPLE_FILES)
def test_every_examples_filled_sheet_matches_its_snapshot(name: str) -> None:
    """The filled sheet of every worked example, in Italian (UPDATE_SNAPSHOTS=1 rewrites them
    after a change made on purpose: read the diff)."""
    head, events = example(name)
    replay = play(head["game"], head["players"], events, head.get("outside", ()), **{
        k: v for k, v in head.items() if k not in ("format", "game", "players", "outside")
    })  # fmt: skip
    outcome = replay.outcome
    match = {
        "id": "M1",
        "title": replay.rules.title,
        "players": list(head["players"]),
        "outside": list(head.get("outside", ())),
        "winners": list(outcome.winners) if outcome else [],
        "points": dict(outcome.points) if outcome else {},
        "head": "0" * 64,
    }
    html = render.score_sheet(render.environment(), match, replay, "", "it", {"round": 1})
    snapshot = SNAPSHOTS / f"scoresheet-{name.removesuffix('.jsonl')}.html"
    if UPDATE:
        snapshot.write_text(html)
    assert snapshot.exists(), "no snapshot yet: run the tests once with UPDATE_SNAPSHOTS=1"
    assert html == snapshot.read_text()


def test_a_rejected_anchor_is_struck_above_the_one_that_stands() -> None:
    head, events = example("catena-seed.jsonl")
    at = next(i for i, e in enumerate(events) if e["type"] == "word")
    events.insert(at, {"type": "word", "by": "giallo", "word": "cane"})  # CAT-1: ends in A
    replay = play("catena", head["players"], events[: at + 2], head["outside"])
    anchors, _ = filled.sections(replay, "it")
    rejected, stands = anchors.rows[:2]
    assert rejected.cells == ["giallo", "C A", "cane"] and rejected.rejected
    assert rejected.mark.startswith("parola di partenza respinta: cane non finisce con A")
    assert stands.cells == ["giallo", "C A", "casa"] and not stands.rejected
    assert [r.cells for r in anchors.rows[2:]] == [["blu", "R E", ""], ["verde", "G E", ""]]
