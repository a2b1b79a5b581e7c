"""The correction flows (void, ruling, amend) behave one way from the CLI and from the web: one
preview of the correction as it will stand, one confirmation in a closed round, the same events."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from tests.tournament.test_day_cli import record_tiro
from tests.tournament.test_match_cli import ok
from tests.web.conftest import log_in, make_client
from tournament.domain.tournaments import TOURNAMENT_ID
from tournament.storage.store import Store


def played(db: Path) -> Path:
    """Four players of Tiro: round 1 played (a beats b at table 1, c beats d at table 2) and
    closed, round 2 paired (a - c, b - d)."""
    ok(db, "create", "Sera", "--plays", "tiro", "--rounds", "2", "--tiebreaks", "lot")
    ok(db, "players", "add", "a", "b", "c", "d")
    round1 = json.loads(ok(db, "round", "pair", "--json"))
    assert [tb["players"] for tb in round1["tables"]] == [["a", "b"], ["c", "d"]]
    for tb in round1["tables"]:
        match = ok(db, "table", "start", "1", str(tb["table"]), "tiro").strip()
        record_tiro(db, match, *tb["players"])  # 1-3 rolls, 4 the winning expression, 5 a pass
    ok(db, "round", "close")
    ok(db, "round", "pair")
    return db


def points(db: Path) -> dict[str, float]:
    return {r["player"]: r["points"] for r in json.loads(ok(db, "standings", "--json"))}


def events(db: Path, match: str = "M1") -> tuple[list[Any], list[str]]:
    """The tournament's events and the match's lines, without times: an event's time, and the
    hashes made over times (its own, a match's head: the match's header says when it began)."""
    store = Store(db)
    kept = [
        (
            type(e).__name__,
            {k: v for k, v in vars(e).items() if k not in ("timestamp", "hash", "head")},
        )
        for e in store.events.get(TOURNAMENT_ID)
    ]
    return kept, list(store.get_match(match).lines)


# --- the cases an organizer met ------------------------------------------------------------------


def test_a_void_in_a_closed_round_previews_it_applied_and_says_a_move_is_awaited(
    tmp_path: Path,
) -> None:
    db = played(tmp_path / "t.db")
    out = ok(db, "match", "void", "M1", "5", "--reason", "wrong player", "--yes")
    assert "M1 is in round 1, already closed" in out
    assert "M1 #7 void 5 wrong player" in out
    # The preview says what the void leaves: the match waits for the move that replaces it.
    assert (
        "M1 then waits for the move that replaces it (REF-2): b: write an expression for 11 "
        "with 1 1 1 1 [expression/pass/timeout]; until then its table is not decided"
    ) in out
    # The standings it showed are the standings once the void is stored.
    shown = re.findall(r"^  (\w+): #\d+ with (\d+) \(was", out, re.MULTILINE)
    assert shown == [("c", "3"), ("a", "0")]
    assert {p: points(db)[p] for p, _ in shown} == {p: int(v) for p, v in shown}


def test_the_replacement_of_a_voided_move_in_a_closed_round_is_previewed_and_confirmed(
    tmp_path: Path,
) -> None:
    db = played(tmp_path / "t.db")
    ok(db, "match", "void", "M1", "5", "--reason", "wrong player", "--yes")
    out = ok(db, "match", "pass", "M1", "b")
    assert "M1 is in round 1, already closed" in out
    assert "  a: #1 with 3 (was #2 with 0)" in out  # the move as it will stand
    assert (
        "nothing stored: the round is closed; to record it, repeat it as "
        "tournament match move M1 pass b --yes"
    ) in out
    assert json.loads(ok(db, "match", "show", "M1", "--json"))["events"] == 7
    out = ok(db, "match", "move", "M1", "pass", "b")
    assert "repeat with --yes to record it" in out
    assert json.loads(ok(db, "match", "show", "M1", "--json"))["events"] == 7
    out = ok(db, "match", "move", "M1", "pass", "b", "--yes")
    assert "M1 #8 pass b" in out and "finished: winner a" in out
    assert points(db)["a"] == 3


def test_a_what_if_is_reckoned_on_the_tournament_as_it_stands(tmp_path: Path) -> None:
    db = played(tmp_path / "t.db")
    # An earlier amend gives table 1 to b: round 2, paired a - c, b - d, would now be paired
    # otherwise; that is the amend's doing, not any what-if's.
    ok(db, "amend", "1", "1", "a=0", "b=1", "--reason", "score sheet misread", "--yes")
    result = json.loads(ok(db, "audit", "M2", "--what-if", "replace:5=timeout d", "--json"))
    assert result["possible"] and result["outcome_after"] == result["outcome_before"]
    assert result["later_pairings"] == []
    assert all(r["points"] == r["points_before"] for r in result["standings"])
    out = ok(db, "audit", "M2", "--what-if", "replace:5=timeout d")
    assert "round 2" not in out


def test_a_legal_move_is_possible_whichever_match_it_is_on(tmp_path: Path) -> None:
    db = played(tmp_path / "t.db")
    # M1's pass was voided and entered again; M2 was played straight through.
    ok(db, "match", "void", "M1", "5", "--reason", "wrong player", "--yes")
    ok(db, "match", "move", "M1", "pass", "b", "--yes")
    for match, second in (("M1", "b"), ("M2", "d")):
        change = f"replace:2=roll {second} d6 1 1 1 2"
        result = json.loads(ok(db, "audit", match, "--what-if", change, "--json"))
        assert result["possible"], (match, result)
        assert result["outcome_after"] == result["outcome_before"]
    # A ruling after the position replaced still stands in the what-if.
    ok(db, "match", "rule", "M2", "4", "reject", "--note", "after time", "--yes")
    ruled = json.loads(ok(db, "match", "show", "M2", "--json"))
    result = json.loads(ok(db, "audit", "M2", "--what-if", "replace:2=roll d d6 1 1 1 2", "--json"))
    assert result["possible"] and result["outcome_after"]["winners"] == ruled["winners"]


# --- the same correction from the CLI and from the web -------------------------------------------


def twins(tmp_path: Path) -> tuple[Path, Path]:
    return played(tmp_path / "cli.db"), played(tmp_path / "web.db")


def web(db: Path, path: str, **form: str) -> None:
    """Preview a correction on the organizer's page, then record it (the confirm step)."""
    with make_client(Store(db)) as client:
        token = log_in(client)
        before = events(db)
        preview = client.post(path, data={"csrf": token, **form, "do": "preview"})
        assert preview.status_code == 200 and 'value="record"' in preview.text, preview.text
        assert events(db) == before  # a preview stores nothing
        done = client.post(path, data={"csrf": token, **form, "do": "record"})
        assert done.status_code == 200 and "flash bad" not in done.text, done.text


def test_a_void_and_its_replacement_store_the_same_events_from_cli_and_web(
    tmp_path: Path,
) -> None:
    cli, site = twins(tmp_path)
    ok(cli, "match", "void", "M1", "5", "--reason", "wrong player", "--yes")
    ok(cli, "match", "move", "M1", "pass", "b", "--yes")
    web(site, "/organizer/correct", match="M1", on="5", kind="void", reason="wrong player")
    web(site, "/organizer/correct", match="M1", kind="move", move="pass b")
    assert events(cli) == events(site)
    assert len(events(site)[1]) == 9


def test_a_ruling_stores_the_same_events_from_cli_and_web(tmp_path: Path) -> None:
    cli, site = twins(tmp_path)
    ok(cli, "match", "rule", "M1", "4", "reject", "--note", "after time", "--yes")
    web(site, "/organizer/correct", match="M1", on="4", kind="reject", reason="after time")
    assert events(cli) == events(site)
    assert '"ruling"' in events(site)[1][6]


def test_an_amend_stores_the_same_events_from_cli_and_web(tmp_path: Path) -> None:
    cli, site = twins(tmp_path)
    ok(cli, "amend", "1", "1", "a=0", "b=1", "--reason", "score sheet misread", "--yes")
    web(
        site,
        "/organizer/amend",
        round="1",
        table="1",
        points="a=0 b=1",
        reason="score sheet misread",
    )
    assert events(cli) == events(site)
    assert events(site)[0][-1][1]["reason"] == "score sheet misread"
    assert points(site) == points(cli) and points(site)["b"] == 3


def test_the_web_confirms_a_correction_only_on_the_match_it_previewed(tmp_path: Path) -> None:
    """The confirm step sends back the position the preview was reckoned at: when another
    terminal wrote to the match meanwhile, nothing is stored and the page says so."""
    db = played(tmp_path / "t.db")
    with make_client(Store(db)) as client:
        token = log_in(client)
        form = {"match": "M1", "on": "5", "kind": "void", "reason": "wrong player"}
        preview = client.post("/organizer/correct", data={"csrf": token, **form, "do": "preview"})
        kept = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', preview.text))
        assert kept["position"] == "6"  # the match as previewed: five moves and its end
        ok(db, "match", "rule", "M1", "4", "accept", "--yes")  # another terminal, meanwhile
        before = events(db)
        done = client.post("/organizer/correct", data={**kept, "do": "record"})
        assert "flash bad" in done.text and "alla posizione 7, non 6" in done.text, done.text
        assert events(db) == before
        # previewed again, on the match as it is now, the void is stored
        preview = client.post("/organizer/correct", data={"csrf": token, **form, "do": "preview"})
        kept = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', preview.text))
        done = client.post("/organizer/correct", data={**kept, "do": "record"})
        assert "flash bad" not in done.text, done.text
        assert '"void"' in events(db)[1][-1]
