"""The match log from the command line: import, export, show, list, recording, errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.support import EXAMPLES
from tournament.cli import full_app
from tournament.logformat.matchlog import chain
from tournament.storage.store import Store, match_uuid

app = full_app()

runner = CliRunner()


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "t.db"


def run(db: Path, *args: str):
    return runner.invoke(app, ["--db", str(db), *args])


def ok(db: Path, *args: str) -> str:
    result = run(db, *args)
    assert result.exit_code == 0, result.stderr
    return result.stdout


def refused(db: Path, *args: str) -> str:
    """A refusal: exit 1, one sentence on stderr, no traceback."""
    result = run(db, *args)
    assert result.exit_code == 1, (result.stdout, result.stderr)
    assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1, result.stderr
    assert (
        "Traceback" not in result.stderr
        and result.exception is None
        or isinstance(result.exception, SystemExit)
    )
    return result.stderr


def stored_ids(db: Path) -> list[str]:
    if not db.exists():
        return []
    return [m["id"] for m in json.loads(ok(db, "match", "list", "--json"))]


def test_import_prints_the_id_alone(db: Path) -> None:
    out = ok(db, "match", "import", str(EXAMPLES / "tiro-seed.jsonl"))
    assert out == "M1\n"
    assert ok(db, "match", "import", str(EXAMPLES / "ventuno-seed.jsonl")) == "M2\n"
    assert stored_ids(db) == ["M1", "M2"]


def test_show_json_fields(db: Path) -> None:
    ok(db, "match", "import", str(EXAMPLES / "updown-seed.jsonl"))
    info = json.loads(ok(db, "match", "show", "M1", "--json"))
    assert info["game"] == "updown"
    assert info["players"] == ["giallo", "blu", "verde"]
    assert info["status"] == "finished"
    assert info["winners"] == ["giallo"]
    assert info["points"] == {"giallo": 1, "blu": 0, "verde": 0}
    assert info["out"] == ["blu", "verde"]
    assert info["next"] == []
    assert "giallo" in ok(db, "match", "show", "m1")


def unbound(text: str) -> list[dict]:
    """An exported log without what binds it to its stored match (number, id, times, hashes)."""
    drop = ("match", "id", "at", "hash")
    return [{k: v for k, v in json.loads(x).items() if k not in drop} for x in text.splitlines()]


def test_export_import_export_gives_the_same_log(db: Path, tmp_path: Path) -> None:
    for i, name in enumerate(sorted(EXAMPLES.glob("*.jsonl")), 1):
        ok(db, "match", "import", str(name))
        first = ok(db, "match", "export", f"M{2 * i - 1}")
        path = tmp_path / f"{i}.jsonl"
        path.write_text(first)
        assert ok(db, "match", "import", str(path), "--again") == f"M{2 * i}\n"
        again = ok(db, "match", "export", f"M{2 * i}")
        assert unbound(again) == unbound(first)
        assert json.loads(again.splitlines()[0])["match"] == f"M{2 * i}"  # bound to its new place


def test_export_carries_seq_and_the_hash_chain(db: Path) -> None:
    ok(db, "match", "import", str(EXAMPLES / "tiro-seed.jsonl"))
    lines = [json.loads(x) for x in ok(db, "match", "export", "M1").splitlines()]
    header, events = lines[0], lines[1:]
    assert header["lexicon"]["name"] == "hunspell-it-7.5.0"
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    bodies = [{k: v for k, v in e.items() if k not in ("seq", "at", "hash")} for e in events]
    from tournament.logformat.matchlog import Binding, canonical

    binding = Binding(header.pop("match"), header.pop("id"), header.pop("at"))
    binding = Binding(binding.match, binding.id, binding.at, tuple(e["at"] for e in events))
    assert binding.match == "M1" and binding.id == match_uuid("M1").hex
    hashes = chain(canonical(header), map(canonical, bodies), binding)
    assert [e["hash"] for e in events] == hashes
    info = json.loads(ok(db, "match", "show", "M1", "--json"))
    assert info["head"] == events[-1]["hash"]


def tiro_lines() -> list[str]:
    return (EXAMPLES / "tiro-seed.jsonl").read_text().splitlines()


def broken(tmp_path: Path, line: int, text: str | None) -> Path:
    """The Tiro seed with one line replaced (or removed when text is None)."""
    lines = tiro_lines()
    if text is None:
        del lines[line - 1]
    else:
        lines[line - 1] = text
    path = tmp_path / "broken.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


ROLL = '{"type": "roll", "by": "giallo", "die": "d6", "values": %s}'


@pytest.mark.parametrize(
    "line, text, expected",
    [
        (2, ROLL % "[7, 6, 5, 1]", "line 2: 7 is not a face of a d6 (faces 1 to 6) (EQ-1)"),
        (2, ROLL % "[6, 5, 1]", "line 2: giallo must throw 4 d6 dice together, not 3 (TIR-1)"),
        (
            4,
            '{"type": "expression", "by": "giallo", "expr": "6"}',
            "line 4: it is not giallo's turn",
        ),
        (
            2,
            '{"type": "roll", "by": "giallo", "values": [6, 6, 5, 1]}',
            "line 2: a roll needs the field 'die' (FORMAT)",
        ),
        (2, ROLL % '"6 6 5 1"', "line 2: a roll's 'values' must be a non-empty list (FORMAT)"),
        (2, '{"type": "shout", "by": "giallo"}', "line 2: unknown event type 'shout'"),
        (
            3,
            '{"type": "roll", "by": "blu", "die": "d6", "values": [5, 4, 2, 1]',
            "line 3: is not valid JSON",
        ),
        (
            1,
            '{"format": "tournament-match/1", "game": "tiro", "players": ["giallo"]}',
            "line 1: Tiro di precisione needs at least 2 players in the challenge (CH-1)",
        ),
        (
            7,
            '{"type": "end", "winners": ["blu"], "points": {"giallo": 0, "blu": 1}}',
            "line 7: the log says winners blu, points giallo 0, blu 1",
        ),
        (4, "", "line 4: is empty"),
    ],
)
def test_impossible_logs_are_refused_naming_line_and_rule(
    db: Path, tmp_path: Path, line: int, text: str, expected: str
) -> None:
    message = refused(db, "match", "import", str(broken(tmp_path, line, text)))
    assert message.startswith(f"error: {expected}"), message
    assert not db.exists()  # nothing stored, not even an empty database


def test_play_after_the_end_is_refused(db: Path, tmp_path: Path) -> None:
    path = tmp_path / "after.jsonl"
    path.write_text("\n".join(tiro_lines() + [ROLL % "[1, 1, 1, 1]"]) + "\n")
    message = refused(db, "match", "import", str(path))
    assert message.startswith("error: line 8: the challenge is over") and "(CH-2)" in message


def test_a_changed_export_is_refused(db: Path, tmp_path: Path) -> None:
    ok(db, "match", "import", str(EXAMPLES / "tiro-seed.jsonl"))
    text = ok(db, "match", "export", "M1").replace('"values": [11]', '"values": [12]')
    path = tmp_path / "tampered.jsonl"
    path.write_text(text)
    message = refused(db, "match", "import", str(path))
    assert "line 4: the hash does not match" in message
    assert stored_ids(db) == ["M1"]


def test_a_failed_move_is_stored_and_judged(db: Path, tmp_path: Path) -> None:
    lines = tiro_lines()[:5] + ['{"type": "expression", "by": "blu", "expr": "5+5+1"}']
    path = tmp_path / "miss.jsonl"
    path.write_text("\n".join(lines) + "\n")
    ok(db, "match", "import", str(path))
    info = json.loads(ok(db, "match", "show", "M1", "--json"))
    assert info["winners"] == ["giallo"]
    assert "uses 1 5 5 but the dice show 1 2 4 5" in info["notes"][-1]["text"]


def test_recording_a_whole_game_by_hand(db: Path) -> None:
    match = ok(db, "match", "new", "ventuno", "giallo", "blu", "verde").strip()
    assert match == "M1"
    for args in (
        ["roll", "M1", "giallo", "d6", "4", "5"],
        ["choose", "M1", "giallo", "5"],
        ["roll", "M1", "blu", "d6", "3", "4"],
        ["choose", "M1", "blu", "3"],
        ["roll", "M1", "verde", "d6", "3", "3"],
        ["choose", "M1", "verde", "6"],
        ["roll", "M1", "giallo", "d6", "4", "5"],
        ["choose", "M1", "giallo", "5"],
        ["roll", "M1", "blu", "d6", "3", "6"],
        ["roll", "M1", "verde", "d6", "2", "6"],
    ):
        ok(db, "match", *args)
    last = ok(db, "match", "choose", "M1", "verde", "2")
    assert "finished: winner verde" in last
    exported = [json.loads(x) for x in ok(db, "match", "export", "M1").splitlines()[1:]]
    _, *example = [
        json.loads(x) for x in (EXAMPLES / "ventuno-seed.jsonl").read_text().splitlines()
    ]
    strip = ("seq", "at", "hash", "reason")
    assert [{k: v for k, v in e.items() if k not in strip} for e in exported] == [
        {k: v for k, v in e.items() if k not in strip} for e in example
    ]


def test_show_says_who_acts_next(db: Path) -> None:
    ok(db, "match", "new", "tiro", "giallo", "blu", "--outside", "verde")
    ok(db, "match", "roll", "M1", "giallo", "d6", "6", "6", "5", "1")
    info = json.loads(ok(db, "match", "show", "M1", "--json"))
    assert info["status"] == "in_progress"
    assert {t["player"] for t in info["next"]} == {"blu", "verde"}
    assert all(t["events"] == ["roll"] for t in info["next"])


def test_an_illegal_recording_stores_nothing(db: Path) -> None:
    ok(db, "match", "new", "ventuno", "giallo", "blu")
    message = refused(db, "match", "roll", "M1", "blu", "d6", "1", "2")
    assert message == "error: it is not blu's turn; now: giallo (roll d6 x2) (VEN-1)\n"
    assert refused(db, "match", "roll", "M1", "giallo", "d6", "1", "9").endswith("(EQ-1)\n")
    assert json.loads(ok(db, "match", "show", "M1", "--json"))["events"] == 0


def test_referee_void_and_ruling_from_the_cli(db: Path) -> None:
    ok(db, "match", "import", str(EXAMPLES / "tiro-seed.jsonl"))
    # The tiro seed has ended; a ruling on Giallo's expression (position 4) is too late
    # only if Giallo played since: he did not, so the referee may still reject it.
    ok(db, "match", "rule", "M1", "4", "reject", "--note", "written after time")
    info = json.loads(ok(db, "match", "show", "M1", "--json"))
    assert info["winners"] == ["blu"] and info["rulings"] == {"4": False}
    ok(db, "match", "void", "M1", "7", "--reason", "ruling entered on the wrong match")
    info = json.loads(ok(db, "match", "show", "M1", "--json"))
    assert info["winners"] == ["giallo"] and info["voided"] == [7]
    # Each change of outcome wrote a new end: the log tells the whole story.
    exported = [json.loads(x) for x in ok(db, "match", "export", "M1").splitlines()[1:]]
    assert [(e["type"], e.get("winners")) for e in exported[5:]] == [
        ("end", ["giallo"]),
        ("ruling", None),
        ("end", ["blu"]),
        ("void", None),
        ("end", ["giallo"]),
    ]
    assert "decision must be accept or reject" in refused(db, "match", "rule", "M1", "4", "maybe")


def test_user_mistakes_are_one_sentence(db: Path, tmp_path: Path) -> None:
    assert "no database" in refused(db, "match", "show", "M1")
    ok(db, "match", "new", "updown", "a", "b")
    assert "there is no match M9" in refused(db, "match", "show", "M9")
    assert "is not a match number" in refused(db, "match", "show", "x7")
    assert "No such file" in refused(db, "match", "import", str(tmp_path / "nope.jsonl"))
    assert "unknown game" in refused(db, "match", "new", "poker", "a", "b")
    (tmp_path / "junk.db").write_bytes(b"this is not sqlite" * 100)
    assert "is not a tournament database" in refused(tmp_path / "junk.db", "match", "list")


def test_words_check(db: Path) -> None:
    answers = json.loads(ok(db, "words", "check", "casa", "Città", "xyzzy", "--json"))
    assert answers == {"casa": True, "Città": True, "xyzzy": False}
    assert run(db, "words", "check", "casa").exit_code == 0
    assert run(db, "words", "check", "xyzzy").exit_code == 1


def test_an_organizer_lexicon_must_match_the_header(db: Path, tmp_path: Path) -> None:
    words = tmp_path / "club.txt"
    words.write_text("casa\nrete\n")
    result = runner.invoke(
        app,
        ["--db", str(db), "--lexicon", str(words), "match", "new", "texas", "a", "b", "-o", "c"],
    )
    assert result.exit_code == 0
    assert "recorded with the word list 'club'" in refused(db, "match", "show", "M1")
    result = runner.invoke(app, ["--db", str(db), "--lexicon", str(words), "match", "show", "M1"])
    assert result.exit_code == 0


def test_concurrent_writers_cannot_both_win(db: Path) -> None:
    ok(db, "match", "new", "ventuno", "giallo", "blu")
    one, two = Store(db), Store(db)
    a, b = one.get_match("M1"), two.get_match("M1")
    line = '{"by":"giallo","die":"d6","type":"roll","values":[1,2]}'
    one.append(a, [line])
    from tournament.storage.store import StoreError

    with pytest.raises(StoreError, match="another terminal"):
        two.append(b, [line])
    assert Store(db).get_match("M1").lines == [line]


def test_two_creations_at_once_take_different_numbers(db: Path, monkeypatch) -> None:
    one, two = Store(db), Store(db)
    monkeypatch.setattr(Store, "_count_matches", lambda self: 0)
    header = '{"format":"tournament-match/1","game":"tiro","players":["a","b"]}'
    assert one.create(header, ()).number == "M1"
    assert two.create(header, ()).number == "M2"


def test_demo_builds_rebuilds_and_never_overwrites_other_data(db: Path) -> None:
    made = json.loads(ok(db, "demo", "--json", "--no-pdf"))  # PDFs: tests/exports/test_pdf.py
    assert len(made["standings"]) == 8
    assert len(made["examples"]) == len(list(EXAMPLES.glob("*.jsonl")))
    finished = [m for m in made["examples"] if m["status"] == "finished"]
    assert len(finished) == len(made["examples"]) - 2  # the two Alphatiana turns of the seed
    assert all(m["winners"] is not None for m in finished)
    # A demo database is rebuilt, identically.
    again = json.loads(ok(db, "demo", "--json", "--no-pdf"))
    assert again["standings"] == made["standings"]
    other = db.parent / "other.db"
    ok(other, "match", "new", "tiro", "a", "b")
    assert "not the demo's" in refused(other, "demo")
    assert stored_ids(other) == ["M1"]
