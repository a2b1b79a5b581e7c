"""The play flows from every front end (#22): a challenge started from the CLI, the organizer's
page or the referee's page stores the same events; digital dice are revealed however the match
ends; a stale position is refused alike; a write that meets another writer is retried up to one
limit, everywhere."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import orjson
import pytest
from eventsourcing.persistence import IntegrityError

from engine.dice import seed_commitment
from tests.tournament.test_console import Script
from tests.tournament.test_match_cli import ok, refused, run
from tests.web.conftest import GAMES, build, csrf, issue, log_in, make_client, paired
from tests.web.test_organizer import said
from tournament.cli.console import Console
from tournament.services import dice, retry, tables
from tournament.storage.store import Store

PLAYERS = ("giallo", "blu", "rosso", "Verde Chiaro")  # paired: giallo - blu, Verde Chiaro - rosso
REFEREE = "Anna  Rossi"  # stored as "Anna Rossi"


def stored(store: Store) -> list[tuple[str, Any, int, dict[str, Any]]]:
    """Every stored event, the tournament's and the matches', without what must differ from one
    store to the next: the times, the hashes that bind them, the digital dice's commitment
    (checked here against the seed kept for the match)."""
    events = []
    for n in store.recorder.select_notifications(1, 10_000):
        state = {k: v for k, v in orjson.loads(n.state).items() if k not in ("timestamp", "hash")}
        if "line" in state:
            line = json.loads(state["line"])
            if line["type"] == "dice-commit":
                kept = dice.seed(store, "M1")
                assert kept is not None and line["commitment"] == seed_commitment(kept)
                line["commitment"] = "sealed"
            state["line"] = line
        events.append((n.topic, n.originator_id, n.originator_version, state))
    return events


def ready(db: Path) -> Store:
    """A tournament of four, round 1 paired, table 1's partita chosen."""
    store = build(db, PLAYERS)
    paired(store)
    tables.choose_partita(store, 1, 1, GAMES)
    return store


def from_the_cli(db: Path, by: str) -> Store:
    """``table start`` with the referee, then the console with digital dice (it seals them)."""
    store = ready(db)
    args = ["table", "start", "1", "1", "tiro", "--outside", "verde chiaro", "--referee", REFEREE]
    assert ok(db, *args, "--by", by).strip() == "M1"
    assert run(db, "play", "M1", "--digital", "--no-timers").exit_code == 0  # stdin: at its end
    return store


def test_a_challenge_starts_alike_from_the_cli_and_both_pages(tmp_path: Path) -> None:
    form = {"game": "tiro", "outside": "verde chiaro", "referee": REFEREE, "digital": "1"}
    organizer = ready(tmp_path / "organizer.db")
    with make_client(organizer) as client:
        token = log_in(client)
        data = {"csrf": token, "round": "1", "table": "1", **form}
        assert "M1" in said(client.post("/organizer/table/start", data=data).text)
    referee = ready(tmp_path / "referee.db")
    with make_client(referee) as client:
        table = issue(client, log_in(client))
        page = client.get(table).text
        assert 'name="referee"' in page  # the page asks for the referee's name
        answer = client.post(f"{table}/start", data={"csrf": csrf(page), **form}).text
        assert "M1" in said(answer)
    by_organizer = stored(from_the_cli(tmp_path / "cli-organizer.db", "organizer"))
    assert stored(organizer) == by_organizer
    assert stored(referee) == stored(from_the_cli(tmp_path / "cli-referee.db", "referee"))
    # What they all store: the match with the player outside, attached with its referee, sealed.
    kinds = [
        (topic.rsplit(".", 1)[1], state.get("line", {}).get("type"))
        for topic, *_, state in by_organizer[-4:]
    ]
    assert kinds == [
        ("Started", None),
        ("MatchAttached", None),
        ("RefereeNamed", None),
        ("Recorded", "dice-commit"),
    ]
    header = json.loads(by_organizer[-4][3]["header"])
    assert header["outside"] == ["Verde Chiaro"] and by_organizer[-2][3]["referee"] == "Anna Rossi"


def log_of(db: Path) -> list[dict[str, Any]]:
    """The exported log's events, without their times and hashes."""
    lines = ok(db, "match", "export", "M1").splitlines()[1:]
    return [{k: v for k, v in json.loads(x).items() if k not in ("at", "hash")} for x in lines]


# Tiro's example (RULES.md), as the recording verbs take it and as the console reads it.
# A sealed match takes its dice from the seed alone (#28): the rolls are written without faces.
VERBS = [
    ("roll", "giallo", "d6"),
    ("roll", "blu", "d6"),
    ("roll", "giallo", "d20"),
    ("expr", "giallo", "6 x (5:6+1)"),
    ("expr", "blu", "(5+4+2):1"),
]
LINES = [
    "roll giallo d6",
    "roll blu d6",
    "roll giallo d20",
    'expr giallo "6 x (5:6+1)"',
    'expr blu "(5+4+2):1"',
]


def test_digital_dice_sealed_at_the_console_are_revealed_when_the_cli_verbs_end_the_match(
    tmp_path: Path,
) -> None:
    logs = []
    for name in ("console", "verbs"):
        db = tmp_path / f"{name}.db"
        ok(db, "match", "new", "tiro", "giallo", "blu")
        store = Store(db)
        script = Script(LINES if name == "console" else [])  # then "quit": sealed, nothing more
        Console(store, "M1", script.read, script.said.append, digital=True, timers=False).run()
        if name == "verbs":
            for verb, *args in VERBS:
                out = ok(db, "match", verb, "M1", *args).splitlines()
            assert out[-1].startswith("finished: ")
            assert any(line.endswith(f" dice-reveal {dice.seed(store, 'M1')}") for line in out)
        log = log_of(db)
        assert log[0]["commitment"] == seed_commitment(log[-1]["seed"])
        assert log[-1] == {**log[-1], "type": "dice-reveal", "seed": dice.seed(store, "M1")}
        assert "every hash chain is intact" in ok(db, "verify")
        assert all(e["digital"] for e in log if e["type"] == "roll")
        seeded = ("commitment", "seed", "values", "winners", "points", "reason")  # the seed's
        logs.append([{k: v for k, v in e.items() if k not in seeded} for e in log])
    assert logs[0] == logs[1]


def test_a_stale_position_is_refused_alike_from_the_cli_and_the_web(tmp_path: Path) -> None:
    said_by: dict[str, str] = {}
    for name in ("cli", "web"):
        db = tmp_path / f"{name}.db"
        store = ready(db)
        tables.start_match(store, 1, 1, "tiro")
        ok(db, "match", "roll", "M1", "giallo", "d6", "6", "6", "5", "1")  # now at position 1
        before = store.recorder.max_notification_id()
        if name == "cli":
            said_by[name] = refused(
                db, "match", "move", "M1", "--at", "0", "roll", "blu", "d6", "5", "4", "2", "1"
            )
        else:
            with make_client(store) as client:
                table = issue(client, log_in(client))
                client.get("/lang/en")
                data = {"csrf": csrf(client.get(table).text), "match": "M1", "position": "0"}
                move = {"kind": "roll", "by": "blu", "die": "d6", "values": "5 4 2 1"}
                said_by[name] = said(client.post(f"{table}/record", data={**data, **move}).text)
        assert store.recorder.max_notification_id() == before  # nothing stored
    why = (
        "the match changed since you looked: M1 is at position 1, not 0; nothing was stored, "
        "look at it again and repeat"
    )
    assert said_by == {"cli": f"error: {why}\n", "web": why}


def test_a_write_that_meets_another_writer_is_tried_up_to_one_limit_everywhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "t.db"
    store = ready(db)
    tables.start_match(store, 1, 1, "tiro")
    saves: list[int] = []

    def another_writer_first(self: Store, *objs: Any, **kwargs: Any) -> Any:
        saves.append(1)
        raise IntegrityError("another writer saved first")

    monkeypatch.setattr(retry, "ATTEMPTS", 3)
    with make_client(store) as client:
        token = log_in(client)
        client.get("/lang/en")

        def page(path: str, **form: str) -> str:
            return said(client.post(path, data={"csrf": token, **form}).text)

        writes = {
            "table start": lambda: refused(db, "table", "start", "1", "1", "texas"),
            "partita": lambda: refused(db, "partita", "1", "2", *GAMES),
            "start page": lambda: page(
                "/organizer/table/start", round="1", table="1", game="texas"
            ),
            "register page": lambda: page("/organizer/players", names="viola"),
        }
        monkeypatch.setattr(Store, "save", another_writer_first)
        tries = {}
        for name, write in writes.items():
            saves.clear()
            text = write()
            tries[name] = (len(saves), "kept changing" in text)
        assert tries == {name: (3, True) for name in writes}
