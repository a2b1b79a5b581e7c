"""A game that exists only in the tests, registered and played through the whole program.

DESIGN.md: a new game is one module plus its templates. The toy game (:mod:`tests.toy_game`,
"pari o dispari" with a d6) is registered from here and goes through ``match import``,
``match show``, ``match export``, ``verify``, ``audit``, the sheets (its own template from this
folder, else the default), the referee's console and a table's referee page, with no file
outside tests/ naming it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.errors import BadHeader
from engine.games import game, names, register, registered, unregister
from tests.support import header
from tests.tournament.test_console import Script
from tests.tournament.test_match_cli import ok, refused, run
from tests.toy_game import TOY
from tournament.cli.console import Console
from tournament.storage.store import Store

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = Path(__file__).parent / "toy_templates"
NAME = TOY.name
# giallo says pari, blu dispari, blu rolls a 3: blu wins (POD-1, POD-2).
EVENTS = [
    {"type": "choose", "by": "giallo", "value": "pari"},
    {"type": "choose", "by": "blu", "value": "dispari"},
    {"type": "roll", "by": "blu", "die": "d6", "values": [3]},
]


@pytest.fixture
def toy() -> Iterator[None]:
    with registered(TOY):
        yield


def write_log(path: Path, events: list[dict]) -> Path:
    lines = [header(NAME, ["giallo", "blu"]), *events]
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    return path


def test_nothing_outside_the_tests_names_the_toy_game() -> None:
    for top in ("engine", "exports", "tournament"):
        for path in (ROOT / top).rglob("*"):
            if path.suffix in (".py", ".html", ".po", ".md", ".toml"):
                assert NAME not in path.read_text(encoding="utf-8"), path


def test_registering_adds_the_game_and_the_block_takes_it_away() -> None:
    assert NAME not in names()
    with registered(TOY):
        assert names()[-1] == NAME and game(NAME) is TOY
        with pytest.raises(ValueError, match="already registered"):
            register(TOY)
    assert NAME not in names()
    with pytest.raises(BadHeader, match="unknown game 'pari_o_dispari'"):
        game(NAME)
    with pytest.raises(ValueError):
        unregister(NAME)
    with pytest.raises(ValueError, match="'tiro' is already registered"):
        register(TOY.__class__(game("tiro").about, *[TOY.start] * 5))


def test_an_unregistered_toy_log_is_refused_in_one_sentence(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    said = refused(db, "match", "import", str(write_log(tmp_path / "toy.jsonl", EVENTS)))
    assert "unknown game 'pari_o_dispari'" in said
    assert not db.exists() or "M1" not in run(db, "match", "list", "--json").stdout


def test_import_show_export_verify_audit_and_sheets(tmp_path: Path, toy: None) -> None:
    db, out = tmp_path / "t.db", tmp_path / "out"
    assert ok(db, "match", "import", str(write_log(tmp_path / "toy.jsonl", EVENTS))) == "M1\n"
    shown = json.loads(ok(db, "match", "show", "M1", "--json"))
    assert shown["game"] == NAME and shown["title"] == "Pari o dispari"
    assert shown["status"] == "finished" and shown["winners"] == ["blu"]
    assert shown["points"] == {"giallo": 0, "blu": 1} and shown["out"] == ["giallo"]

    exported = ok(db, "match", "export", "M1").splitlines()
    lines = [json.loads(x) for x in exported]
    assert lines[0]["game"] == NAME
    assert [(e["seq"], e["type"]) for e in lines[1:]] == [(1, "choose"), (2, "choose"), (3, "roll")]
    assert all("hash" in e for e in lines[1:])
    again = tmp_path / "again.jsonl"
    again.write_text("\n".join(exported) + "\n", encoding="utf-8")
    assert ok(db, "verify", "--file", str(again), "--head", lines[-1]["hash"])
    assert ok(db, "verify", "M1", "--json")
    verified = json.loads(ok(db, "verify", "--json"))
    assert verified["ok"] is True, verified

    audit = json.loads(ok(db, "audit", "M1", "--json"))
    rows = audit["timeline"] if isinstance(audit, dict) else audit
    assert rows[0]["best"] == "either word wins half the time"  # the game's best_play
    assert "POD-2" in rows[2]["rules"]

    ok(db, "export", "scoresheet", "M1", "--out", str(out), "--lang", "en")
    sheet = (out / "scoresheet-M1.html").read_text(encoding="utf-8")
    assert "Pari o dispari · M1" in sheet and "3 is dispari" in sheet
    assert lines[-1]["hash"] in sheet  # the seal the players sign
    # Its blank sheet: the default one, or its own template given from this folder.
    ok(db, "export", "sheet", NAME, "--out", str(out / "plain"))
    plain = (out / "plain" / f"sheet-{NAME}.html").read_text(encoding="utf-8")
    assert "<h1>Pari o dispari</h1>" in plain and 'class="toy"' not in plain
    ok(db, "export", "sheet", NAME, "--out", str(out / "own"), "--templates", str(TEMPLATES))
    own = (out / "own" / f"sheet-{NAME}.html").read_text(encoding="utf-8")
    assert "<h1>Pari o dispari</h1>" in own and 'class="toy"' in own


def test_a_toy_move_against_its_rules_is_refused_by_its_own_rule(tmp_path: Path, toy: None) -> None:
    db = tmp_path / "t.db"
    assert ok(db, "match", "new", NAME, "giallo", "blu") == "M1\n"
    ok(db, "match", "choose", "M1", "giallo", "pari")
    said = refused(db, "match", "choose", "M1", "blu", "pari")
    assert "blu must say dispari" in said and "POD-1" in said
    said = refused(db, "match", "roll", "M1", "giallo", "d6", "4")
    assert "POD-1" in said  # not giallo's turn: blu must still say dispari


def test_the_console_plays_the_toy_game(tmp_path: Path, toy: None) -> None:
    db = tmp_path / "c.db"
    assert ok(db, "match", "new", NAME, "giallo", "blu") == "M1\n"
    script = Script(["choose giallo pari", "choose blu pari", "choose blu dispari", "roll 4"])
    Console(Store(db), "M1", script.read, script.said.append, timers=False).run()
    assert script.seconds == [None] * len(script.seconds)  # CH-4 gives it no clock
    said = "\n".join(script.said)
    assert "blu must say dispari (POD-1)" in said  # the refused line stored nothing
    assert "Pari o dispari" in said
    shown = json.loads(ok(db, "match", "show", "M1", "--json"))
    assert shown["status"] == "finished" and shown["winners"] == ["giallo"]
    events = [json.loads(x) for x in ok(db, "match", "export", "M1").splitlines()[1:]]
    assert [e["type"] for e in events] == ["choose", "choose", "roll", "out", "end"]


def test_a_referee_page_records_the_toy_game(tmp_path: Path, toy: None) -> None:
    from tests.web.conftest import build, csrf, issue, log_in, make_client, paired, record

    store = build(tmp_path / "t.db", plays=NAME, games=[NAME])
    paired(store)
    with make_client(store) as client:
        table = issue(client, log_in(client))
        page = client.get(table).text
        assert "Pari o dispari" in page
        client.post(f"{table}/start", data={"csrf": csrf(page), "game": NAME})
        record(client, table, "giallo", "choose", value="dispari")
        html = record(client, table, "", "text", text="choose blu pari")  # in the notation
        assert "blu must say" not in html and "Tocca a: <bdi>blu</bdi>" in html  # isolated (#29)
        html = record(client, table, "blu", "roll", die="d6", values="6")
        assert "Pari o dispari: M1 · finita (giallo 0, blu 1)" in html
        assert client.get("/api/matches/M1").json()["winners"] == ["blu"]
        assert client.get(table).status_code == 200
    stored = [json.loads(line) for line in store.get_match("M1").lines]
    moves = [(e["type"], e.get("value")) for e in stored][:3]
    assert moves == [("choose", "DISPARI"), ("choose", "pari"), ("roll", None)]
