"""Digital dice's seeds in the store itself, on both backends, and carried by ``db copy`` (#14)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from engine.dice import DEFAULT_FACES, digital_roll, seed_commitment
from tests.tournament.conftest import raw_rows, url_of
from tests.tournament.test_console import Script
from tests.tournament.test_match_cli import ok
from tournament.cli.console import Console
from tournament.services import dice, play
from tournament.services.matches import load
from tournament.storage.locations import PostgresServer, close
from tournament.storage.store import Store


def test_the_console_keeps_its_seed_in_the_store_on_either_backend(
    db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # a server's store once opened an SQLite file named "None" here
    before = set(tmp_path.iterdir())
    ok(db, "match", "new", "updown", "giallo", "blu")
    store = Store(db)
    moves = ["roll"] + ["bet blu up", "roll", "bet giallo down", "roll"] * 20
    script = Script(moves)
    Console(store, "M1", script.read, script.said.append, digital=True, timers=False).run()
    log = [json.loads(x) for x in ok(db, "match", "export", "M1").splitlines()[1:]]
    kept = raw_rows(store, "select match, seed from dice_seeds")
    assert kept == [("M1", log[-1]["seed"])]
    assert log[0] == {**log[0], "type": "dice-commit", "commitment": seed_commitment(kept[0][1])}
    assert all(e.get("digital") for e in log if e["type"] == "roll")
    assert log[-1]["type"] == "dice-reveal"
    assert "every hash chain is intact" in ok(db, "verify")
    if store.location.is_server:
        assert set(tmp_path.iterdir()) == before
    close(store)


def test_two_seals_of_one_match_keep_one_seed(db: str) -> None:
    ok(db, "match", "new", "tiro", "giallo", "blu")
    store = Store(db)
    first = dice.keep(store, "M1")
    assert dice.keep(store, "M1") == first == dice.seed(store, "M1") and len(first) == 32
    assert dice.seed(store, "M2") is None
    close(store)


def test_a_move_reads_the_seed_of_a_sealed_match_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = str(tmp_path / "t.db")
    ok(db, "match", "new", "tiro", "giallo", "blu")
    ok(db, "match", "new", "tiro", "giallo", "blu")
    store = Store(db)
    dice.seal(store, "M2")
    asked, real = [], dice.seed
    monkeypatch.setattr(dice, "seed", lambda s, n: asked.append(n) or real(s, n))
    play.record_move(store, "M1", "roll giallo d6 6 6 5 1")  # (#27: no read of its seed)
    assert asked == []
    rolled = play.record_move(store, "M2", "roll giallo d6")[1]  # the program rolls
    assert asked == ["M2"] and rolled[0].digital
    assert list(rolled[0].values) == list(
        digital_roll(real(store, "M2"), 2, "d6", 4, DEFAULT_FACES)
    )
    close(store)


def test_db_copy_carries_the_seeds_of_dice_not_revealed_yet(
    postgres_server: PostgresServer, tmp_path: Path
) -> None:
    source = str(tmp_path / "club.db")
    ok(source, "match", "new", "tiro", "giallo", "blu")
    store = Store(source)
    dice.seal(store, "M1")
    play.record_move(store, "M1", "roll giallo d6")
    seed = dice.seed(store, "M1")
    assert seed is not None
    close(store)
    server = url_of(replace(postgres_server, schema="dicecopy"))
    out = ok(source, "db", "copy", source, server)
    assert "every row identical" in out
    copied = Store(server)
    assert dice.every_seed(copied) == [("M1", seed)]
    # The copy rolls on from the same seed: position 3 (the commit, giallo's roll, blu's).
    rolled = play.record_move(copied, "M1", "roll blu d6")[1]
    assert list(rolled[0].values) == list(digital_roll(seed, 3, "d6", 4, DEFAULT_FACES))
    assert dice.sealed(load(copied, "M1"))
    close(copied)
