"""A club season from the command line: the demo tournament and two simulated evenings."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from engine.errors import RuleViolation
from engine.events import JUDGED, Ruling, Void
from tests.tournament.test_match_cli import ok, refused
from tournament.season import service
from tournament.season.audit import audit
from tournament.season.config import SeasonError
from tournament.season.projection import read_tournament
from tournament.season.ratings import placing, rate
from tournament.services import simulate
from tournament.services.demo import build_demo
from tournament.services.matches import describe
from tournament.storage.store import Store

SEASON = """
name = "Stagione del circolo"
tournaments = ["demo.db", "sera-2.db", "sera-3.db"]
"""


def simulated(db: Path, seed: int, players: int = 8) -> None:
    simulate.run(Store(db), simulate.Simulation(players=players, seed=seed, name=f"Sera {seed}"))


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A season folder: the demo and two simulated evenings, and the season file."""
    folder = tmp_path_factory.mktemp("season")
    build_demo(folder / "demo.db")
    simulated(folder / "sera-2.db", 2)
    simulated(folder / "sera-3.db", 3)
    (folder / "season.toml").write_text(SEASON, encoding="utf-8")
    return folder


def digest(path: Path) -> str:
    """The database's whole content (what a WAL checkpoint moves between files is the same)."""
    with sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True) as db:
        return hashlib.sha256("\n".join(db.iterdump()).encode()).hexdigest()


def test_season_standings_score_each_tournaments_final_places(club: Path) -> None:
    season = club / "season.toml"
    dbs = ("demo.db", "sera-2.db", "sera-3.db")
    own = {db: json.loads(ok(club / db, "standings", "--json")) for db in dbs}
    before = {db: digest(club / db) for db in dbs}
    report = json.loads(ok(club / "x.db", "season", "standings", str(season), "--json"))
    assert report["season"] == "Stagione del circolo"
    assert [t["label"] for t in report["tournaments"]] == list(dbs)
    points = dict(enumerate([25, 18, 15, 12, 10, 8, 6, 4, 2, 1], 1))
    for number, db in enumerate(dbs, 1):
        for row in own[db]:
            mine = next(r for r in report["standings"] if r["player"] == row["player"])
            result = next(r for r in mine["results"] if r["tournament"] == number)
            assert result["rank"] == row["rank"]
            assert result["points"] == points[row["rank"]]
    rows = report["standings"]
    assert all(r["points"] == sum(x["points"] for x in r["results"]) for r in rows)
    assert [r["points"] for r in rows] == sorted((r["points"] for r in rows), reverse=True)
    assert rows[0]["rank"] == 1 and len(rows) == 8
    assert "Stagione del circolo" in ok(club / "x.db", "season", "standings", str(season))
    # Reading a season writes nothing to its tournaments (nor creates --db).
    assert before == {db: digest(club / db) for db in before}
    assert not (club / "x.db").exists()


def test_a_tournament_not_begun_scores_nobody(club: Path, tmp_path: Path) -> None:
    db = tmp_path / "sera-4.db"
    ok(db, "create", "Sera 4")
    ok(db, "players", "add", "Giallo", "Nuovo")
    season = tmp_path / "s.toml"
    season.write_text(f'name = "S"\ntournaments = ["{club}/sera-2.db", "sera-4.db"]\n')
    report = json.loads(ok(tmp_path / "x.db", "season", "standings", str(season), "--json"))
    assert "Nuovo" not in {r["player"] for r in report["standings"]}
    assert all(len(r["results"]) == 1 for r in report["standings"])
    assert report["tournaments"][1] == {
        "number": 2, "label": "sera-4.db", "name": "Sera 4", "date": "", "players": 2,
        "rounds": 0, "closed": 0,
    }  # fmt: skip
    assert "(in play)" in ok(tmp_path / "x.db", "season", "standings", str(season))


def test_best_n_of_m_counts_only_the_best_results(club: Path) -> None:
    season = club / "best.toml"
    season.write_text(SEASON + "[scoring]\nbest = 2\npoints = [10, 6, 4]\n", encoding="utf-8")
    report = json.loads(ok(club / "x.db", "season", "standings", str(season), "--json"))
    for row in report["standings"]:
        worths = sorted((r["points"] for r in row["results"]), reverse=True)
        assert row["points"] == sum(worths[:2])
        assert sum(r["counted"] for r in row["results"]) == 2
        assert all(r["points"] == {1: 10, 2: 6, 3: 4}.get(r["rank"], 1) for r in row["results"])


def test_ratings_overall_and_per_game_identical_when_recomputed(club: Path) -> None:
    season = str(club / "season.toml")
    first = ok(club / "x.db", "season", "ratings", season, "--json")
    assert first == ok(club / "x.db", "season", "ratings", season, "--json")
    report = json.loads(first)
    overall = report["overall"]
    assert len(overall) == 8 and [r["rank"] for r in overall] == list(range(1, 9))
    assert [r["ordinal"] for r in overall] == sorted((r["ordinal"] for r in overall), reverse=True)
    for r in overall:
        assert r["ordinal"] == pytest.approx(r["mu"] - 3 * r["sigma"], abs=1e-5)
        assert 0 < r["sigma"] < 25 / 3
    # Three partite of four challenges a player, in each of three tournaments.
    assert sum(r["contests"] for r in overall) == sum(
        r["contests"] for rows in report["games"].values() for r in rows
    )
    assert set(report["games"]) <= {
        "catena", "asta", "roulette_russa", "texas", "tiro", "ventuno", "battaglia", "updown"
    }  # fmt: skip
    text = ok(club / "x.db", "season", "ratings", season)
    assert overall[0]["player"] in text and "ordinal" in text
    one_game = next(iter(report["games"]))
    assert one_game in ok(club / "x.db", "season", "ratings", season, "--game", one_game)
    assert "no match of 'scacchi'" in refused(
        club / "x.db", "season", "ratings", season, "--game", "scacchi"
    )


def test_a_season_read_by_several_processes_is_the_same(club: Path) -> None:
    one = service.open_season(club / "season.toml", jobs=1)
    two = service.open_season(club / "season.toml", jobs=2)
    assert [f.label for f in two.tournaments] == [f.label for f in one.tournaments]
    assert two.ratings() == one.ratings() and two.standings() == one.standings()
    missing = club / "missing.toml"
    missing.write_text('name = "S"\ntournaments = ["demo.db", "nowhere.db"]\n')
    with pytest.raises(SeasonError, match="nowhere.db does not exist"):
        service.open_season(missing, jobs=2)


def test_a_players_history_has_a_step_per_tournament(club: Path) -> None:
    season = str(club / "season.toml")
    who = "Giallo"
    history = json.loads(ok(club / "x.db", "season", "ratings", season, "--player", who, "--json"))
    assert [h["tournament"] for h in history["history"]] == [1, 2, 3]
    assert [h["contests"] for h in history["history"]] == [12, 24, 36]
    overall = json.loads(ok(club / "x.db", "season", "ratings", season, "--json"))["overall"]
    mine = next(r for r in overall if r["player"] == who)
    assert history["overall"] == mine
    last = history["history"][-1]
    assert (last["mu"], last["sigma"]) == (mine["mu"], mine["sigma"])
    assert "Sera 3" in ok(club / "x.db", "season", "ratings", season, "--player", who)
    assert "has played no rated match" in refused(
        club / "x.db", "season", "ratings", season, "--player", "Nessuno"
    )


def flipping_ruling(db: Path) -> tuple[str, int, str]:
    """A match of the tournament and a ruling on one of its judged moves that gives the match
    another finished outcome: (match, position, accept/reject)."""
    facts = read_tournament("x", db)
    store = Store(db)
    from tournament.services.matches import load

    for number in facts.matches:
        replay = load(store, number).replay
        for position, event in enumerate(replay.events, 1):
            if not isinstance(event, JUDGED):
                continue
            judged = [n.ok for n in replay.notes if n.position == position]
            if not judged:
                continue
            try:
                after = replay.apply(Ruling("referee", position, not judged[0]))
            except RuleViolation:
                continue
            if after.outcome and set(after.outcome.winners) != set(replay.outcome.winners):
                return number, position, "reject" if judged[0] else "accept"
    raise AssertionError("no ruling changes a match of this simulation")


def test_a_correction_in_a_closed_round_changes_the_season_and_the_audit_says_whom(
    tmp_path: Path,
) -> None:
    simulated(tmp_path / "a.db", 5)
    simulated(tmp_path / "b.db", 6, players=4)
    (tmp_path / "s.toml").write_text('name = "S"\ntournaments = ["a.db", "b.db"]\n')
    season = str(tmp_path / "s.toml")
    before = service.open_season(season)
    ratings_before = before.ratings()
    assert json.loads(ok(tmp_path / "x.db", "season", "audit", season, "--json")) == []
    assert "no correction" in ok(tmp_path / "x.db", "season", "audit", season)

    number, position, decision = flipping_ruling(tmp_path / "a.db")
    ok(tmp_path / "a.db", "match", "rule", number, str(position), decision, "--yes")

    after = service.open_season(season)
    ratings_after = after.ratings()
    # As expected: the season's contests, with that one match placed as its new outcome says.
    fixed = after.tournaments[0].matches[number].result
    assert fixed is not None
    ranks = placing(fixed.players, fixed.outcome, fixed.out)
    expected = rate(
        replace(c, ranks=ranks) if (c.tournament, c.match) == (0, number) else c
        for c in before.contests()
    )
    assert ratings_after == expected
    assert ratings_after != ratings_before
    players = fixed.players
    for p in players:
        assert ratings_after.overall[p] != ratings_before.overall[p]
    # The tournament's own standings and the season's places agree after the correction.
    own = json.loads(ok(tmp_path / "a.db", "standings", "--json"))
    assert after.places()[0] == {r["player"]: r["rank"] for r in own}

    found = audit(after)
    assert len(found) == 1
    (one,) = found
    assert one["match"] == number and one["label"] == "a.db" and one["round_closed"]
    # The ruling in the referee's words (the notation's: "rule 4 reject").
    assert one["corrections"][0].endswith(
        describe(Ruling("referee", position, decision == "accept"))
    )
    moved = {m["player"]: m for m in one["moved"]}
    assert set(players) <= set(moved)
    for p, m in moved.items():
        assert m["ordinal_before"] == pytest.approx(ratings_before.overall[p].ordinal, abs=1e-6)
        assert m["ordinal"] == pytest.approx(ratings_after.overall[p].ordinal, abs=1e-6)
    text = ok(tmp_path / "x.db", "season", "audit", season)
    assert f"a.db, round {one['round']}, table {one['table']}: {number}: " in text
    assert all(f"  {p}: " in text for p in players)


def test_a_void_that_reopens_a_match_takes_it_out_of_the_ratings(tmp_path: Path) -> None:
    sim = simulate.Simulation(players=4, seed=9, plays="tiro", name="Sera")
    simulate.run(Store(tmp_path / "a.db"), sim)
    (tmp_path / "s.toml").write_text('name = "S"\ntournaments = ["a.db"]\n')
    before = service.open_season(tmp_path / "s.toml")
    number = next(iter(before.tournaments[0].matches))
    shown = json.loads(ok(tmp_path / "a.db", "match", "show", number, "--json"))
    exported = ok(tmp_path / "a.db", "match", "export", number)
    log = [json.loads(line) for line in exported.splitlines()]
    last = max(e["seq"] for e in log[1:] if e["type"] not in ("out", "end"))
    ok(tmp_path / "a.db", "match", "void", number, str(last), "--reason", "typo", "--yes")
    after = service.open_season(tmp_path / "s.toml")
    assert after.tournaments[0].matches[number].result is None  # in play again
    assert after.ratings() == rate(c for c in before.contests() if c.match != number)
    (one,) = audit(after)
    assert one["match"] == number
    assert one["corrections"][0].endswith(describe(Void("referee", last, "typo")))
    assert set(shown["players"]) <= {m["player"] for m in one["moved"]}


def test_an_amended_result_is_a_correction_too(tmp_path: Path) -> None:
    simulated(tmp_path / "a.db", 7, players=4)
    (tmp_path / "s.toml").write_text('name = "S"\ntournaments = ["a.db"]\n')
    season = str(tmp_path / "s.toml")
    before = service.open_season(season).ratings()
    r1 = json.loads(ok(tmp_path / "a.db", "round", "show", "1", "--json"))
    first, second = r1["tables"][0]["players"]
    ok(tmp_path / "a.db", "amend", "1", "1", f"{first}=4", f"{second}=0", "--reason", "x", "--yes")
    data = service.open_season(season)
    (one,) = audit(data)
    assert one["match"] is None and "result amended" in one["corrections"][0]
    assert data.ratings() != before
    # The amended table is one contest of the whole table, won by the amended winner.
    table = [c for c in data.contests() if c.round == 1 and c.table == 1]
    assert len(table) == 1 and table[0].game is None
    assert table[0].ranks[table[0].players.index(first)] == 0


def test_seeding_a_new_tournament_from_the_season(club: Path, tmp_path: Path) -> None:
    season = str(club / "season.toml")
    ratings = json.loads(ok(tmp_path / "x.db", "season", "ratings", season, "--json"))
    order = [r["player"] for r in ratings["overall"]]
    db = tmp_path / "coppa.db"
    out = ok(db, "create", "Coppa", "--format", "elimination", "--seed-from", season)
    assert "seeded by the ratings of" in out
    # Registered in another order, with a newcomer first: the newcomer is seeded last.
    ok(db, "players", "add", "Nuovo", *reversed(order[:7]))
    round1 = json.loads(ok(db, "round", "pair", "--json"))
    assert round1["tables"][0]["players"] == [order[0], "Nuovo"]
    assert round1["tables"][0]["why"] == "seed 1 - seed 8"

    swiss = tmp_path / "swiss.db"
    ok(swiss, "create", "Sera", "--plays", "tiro", "--seed-from", season)
    ok(swiss, "players", "add", "Nuovo", *reversed(order))
    round1 = json.loads(ok(swiss, "round", "pair", "--json"))
    bye = round1["tables"][-1]
    assert (bye["players"], bye["bye"]) == (["Nuovo"], True)  # the lowest ranked: unknown
    assert round1["tables"][0]["players"] == order[:2]


def test_a_tournament_with_its_own_word_list_is_read_with_lexicon(tmp_path: Path) -> None:
    from tournament.services import day, tables
    from tournament.services.matches import record

    words = tmp_path / "parole.txt"
    words.write_text("casa\nrete\n", encoding="utf-8")
    store = Store(tmp_path / "a.db")
    day.create(store, "Sera", plays="tiro", rounds=1)
    day.add_players(store, ["Giallo", "Blu"])
    table = day.pair_next_round(store, day.replayed_outcome(store))["tables"][0]
    first, second = table["players"]
    match = tables.start_match(store, 1, 1, "tiro", lexicon_path=str(words)).number
    for event in (
        {"type": "roll", "by": first, "die": "d6", "values": [6, 6, 5, 1]},
        {"type": "roll", "by": second, "die": "d6", "values": [1, 1, 1, 1]},
        {"type": "roll", "by": first, "die": "d20", "values": [11]},
        {"type": "expression", "by": first, "expr": "6x(5:6+1)"},
        {"type": "pass", "by": second},
    ):
        record(store, match, event, str(words))
    (tmp_path / "s.toml").write_text('name = "S"\ntournaments = ["a.db"]\n')
    season = str(tmp_path / "s.toml")
    assert "pass that list with --lexicon" in refused(
        tmp_path / "x.db", "season", "ratings", season
    )
    rated = ok(tmp_path / "x.db", "--lexicon", str(words), "season", "ratings", season, "--json")
    assert [r["player"] for r in json.loads(rated)["overall"]] == [first, second]


def test_a_bad_season_is_one_sentence_and_creates_nothing(club: Path, tmp_path: Path) -> None:
    def season(text: str) -> str:
        path = tmp_path / "bad.toml"
        path.write_text(text, encoding="utf-8")
        return str(path)

    x = tmp_path / "x.db"
    assert "no season file" in refused(x, "season", "standings", str(tmp_path / "none.toml"))
    assert "not valid TOML" in refused(x, "season", "ratings", season("name = "))
    assert "needs a name" in refused(x, "season", "standings", season('tournaments = ["a.db"]'))
    assert "needs tournaments" in refused(x, "season", "standings", season('name = "S"'))
    demo = club / "demo.db"
    twice = f'name = "S"\ntournaments = ["{demo}", "{club}/./demo.db"]\n'
    assert "names the tournament" in refused(x, "season", "standings", season(twice))
    with sqlite3.connect(club / "sera-2.db") as src, sqlite3.connect(tmp_path / "copia.db") as dst:
        src.backup(dst)  # a copy, WAL and all
    copy = f'name = "S"\ntournaments = ["{club}/sera-2.db", "copia.db"]\n'
    assert "copia.db is a copy of" in refused(x, "season", "standings", season(copy))
    missing = f'name = "S"\ntournaments = ["{demo}", "sera-9.db"]\n'
    assert "sera-9.db does not exist" in refused(x, "season", "ratings", season(missing))
    (tmp_path / "notes.db").write_text("not a database, just notes\n" * 50)
    text = 'name = "S"\ntournaments = ["notes.db"]\n'
    assert "not a SQLite database" in refused(x, "season", "standings", season(text))
    with sqlite3.connect(tmp_path / "other.db") as db:
        db.execute("create table things (x)")
    text = 'name = "S"\ntournaments = ["other.db"]\n'
    assert "not a tournament database" in refused(x, "season", "standings", season(text))
    loose = tmp_path / "loose.db"
    ok(loose, "match", "new", "tiro", "Giallo", "Blu")
    text = 'name = "S"\ntournaments = ["loose.db"]\n'
    assert "holds no tournament" in refused(x, "season", "standings", season(text))
    url = 'name = "S"\ntournaments = ["postgresql://anna:segreto@club/sera1"]\n'
    message = refused(x, "season", "standings", season(url))
    assert "PostgreSQL tournaments are not supported in a season yet" in message
    assert "segreto" not in message
    text = 'name = "S"\ntournaments = ["demo.db"]\n[scoring]\nbest = -1\n'
    assert "scoring.best" in refused(x, "season", "standings", season(text))
    # A refused --seed-from creates no database.
    assert "no season file" in refused(x, "create", "C", "--seed-from", str(tmp_path / "no.toml"))
    assert not x.exists()
