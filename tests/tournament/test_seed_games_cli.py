"""La Roulette Alphatiana and La parola nascosta from the command line; words stay secret."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from typer.testing import CliRunner

from tests.tournament.test_match_cli import ok, refused
from tournament.cli import full_app
from tournament.readside import readmodels
from tournament.storage.store import Store

app = full_app()


def test_an_alphatiana_turn_by_hand(tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    assert ok(db, "match", "new", "alphatiana", "M", "R").strip() == "M1"
    ok(db, "match", "roll", "M1", "M", "d6", "2", "1", "6", "3", "5")
    ok(db, "match", "reroll", "M1", "M", "2,1,3", "5,2,6")
    assert "(ALP-3)" in refused(db, "match", "reroll", "M1", "M", "6,6", "1,1")
    ok(db, "match", "reroll", "M1", "M", "2", "3")
    out = ok(db, "match", "stand", "M1", "M")
    assert "next: R: defend: choose a face shown" in out
    ok(db, "match", "choose", "M1", "R", "5")
    out = ok(db, "match", "roll", "M1", "R", "d6", "6", "2")
    assert "R defends the 5s of 6 6 5 5 3: M takes 2" in out
    info = json.loads(ok(db, "match", "show", "M1", "--json"))
    assert info["next"][0]["player"] == "R" and info["status"] == "in_progress"
    assert "must be dice values" in refused(db, "match", "reroll", "M1", "R", "a,b", "1")


def secret_free(db: Path, *secrets: str) -> None:
    """No secret word in any output or stored byte: show, export, list, read models, events."""
    texts = [
        ok(db, "match", "show", "M1", "--json"),
        ok(db, "match", "show", "M1"),
        ok(db, "match", "export", "M1"),
        ok(db, "match", "list", "--json"),
    ]
    readmodels.update(Store(db), write=True)
    conn = sqlite3.connect(db)
    for table in ("events", "matches", "stored_events"):
        texts += [repr(row) for row in conn.execute(f"select * from {table}")]
    for secret in secrets:
        assert all(secret not in text for text in texts), secret


def test_a_game_of_la_parola_nascosta_by_hand(tmp_path: Path) -> None:
    db = tmp_path / "p.db"
    runner = CliRunner()
    ok(db, "match", "new", "parola_nascosta", "giallo", "blu")
    assert "not in the deck" in refused(db, "match", "card", "M1", "giallo", "77")
    for to, card in (("giallo", "01"), ("blu", "02"), ("table", "04")):
        ok(db, "match", "card", "M1", to, card)
    assert "cannot record a card now" in refused(db, "match", "card", "M1", "giallo", "05")
    salts = {}
    for player, word in (("giallo", "cassaforte"), ("blu", "martello")):
        result = runner.invoke(
            app, ["--db", str(db), "match", "seal", "M1", player], input=word + "\n"
        )
        assert result.exit_code == 0, result.stderr
        assert word not in result.stdout
        salts[player] = result.stdout.rsplit("to reveal the word later: ", 1)[1].strip()
    ok(db, "match", "start", "M1", "giallo")
    secret_free(db, "cassaforte", "martello")

    ok(db, "match", "guess", "M1", "giallo", "blu", "martello")
    assert "the answer is right or wrong" in refused(db, "match", "answer", "M1", "blu", "maybe")
    out = ok(db, "match", "answer", "M1", "blu", "right")
    assert "next: blu: reveal the word and its salt" in out
    assert "(PN-3)" in refused(
        db, "match", "reveal", "M1", "blu", "martelli", "--salt", salts["blu"]
    )
    secret_free(db, "cassaforte")  # blu's word was guessed aloud; giallo's stays hidden
    ok(db, "match", "reveal", "M1", "blu", "martello", "--salt", salts["blu"])
    out = ok(db, "match", "reveal", "M1", "giallo", "cassaforte", "--salt", salts["giallo"])
    assert "finished: winner giallo" in out
