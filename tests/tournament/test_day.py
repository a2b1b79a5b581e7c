"""Whole tournaments through the organizer's services, each format on a small field."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from itertools import combinations

import pytest

from tests.tournament.conftest import raw_rows
from tournament.domain import views
from tournament.errors import Refused
from tournament.readside import readmodels
from tournament.services import day, simulate
from tournament.services import tables as round_tables
from tournament.services.matches import record
from tournament.storage.store import Store, StoreError


def run(store: Store, **knobs) -> day.Tournament:
    simulate.run(store, simulate.Simulation(**knobs))
    return day.get_tournament(store)


def pairs(t: day.Tournament) -> list[frozenset[str]]:
    return [frozenset(tb["players"]) for r in t.rounds for tb in r["tables"] if not tb["bye"]]


def test_swiss_odd_field_byes_and_no_rematch(store: Store) -> None:
    t = run(store, players=7, format="swiss", rounds=4, plays="updown", seed=3)
    assert len(t.rounds) == 4 and all(r["closed"] for r in t.rounds)
    byes = [tb["players"][0] for r in t.rounds for tb in r["tables"] if tb["bye"]]
    assert len(byes) == 4 and len(set(byes)) == 4  # one a round, never twice
    assert len(pairs(t)) == len(set(pairs(t)))
    with pytest.raises(Refused, match="all are paired"):
        day.pair_next_round(store, day.replayed_outcome(store))


def test_round_robin_everyone_meets_everyone_once(store: Store) -> None:
    t = run(store, players=4, format="round_robin", plays="tiro", seed=5)
    assert len(t.rounds) == 3
    assert sorted(pairs(t), key=sorted) == sorted(
        map(frozenset, combinations(t.players, 2)), key=sorted
    )


def test_elimination_with_byes_and_third_place(store: Store) -> None:
    simulate.run(store, simulate.Simulation(players=5, format="elimination", plays="ventuno"))
    t = day.get_tournament(store)
    shapes = [[len(tb["players"]) for tb in r["tables"]] for r in t.rounds]
    assert shapes == [[1, 2, 1, 1], [2, 2], [2]]


def test_elimination_third_place_match(store: Store) -> None:
    day.create(store, "Coppa", format="elimination", plays="ventuno", third_place=True)
    day.add_players(store, ["a", "b", "c", "d"])
    import random

    rng = random.Random(1)
    outcome_of = day.replayed_outcome(store)
    for _ in range(2):
        r = day.pair_next_round(store, outcome_of)
        t = day.get_tournament(store)
        for tb in views.round_of(r).tables:
            simulate.play_table(store, t, tb.round, tb, rng)
        day.save(store, t)
        day.close_round(store, outcome_of)
    final = day.get_tournament(store).rounds[-1]["tables"]
    assert len(final) == 2 and "third place" in final[1]["why"]
    with pytest.raises(Refused, match="bracket is complete"):
        day.pair_next_round(store, outcome_of)


def test_pods_tables_of_three_or_more(store: Store) -> None:
    t = run(store, players=7, format="pods", rounds=2, plays="roulette_russa", seed=2)
    assert [[len(tb["players"]) for tb in r["tables"]] for r in t.rounds] == [[4, 3], [4, 3]]


def test_late_entry_and_dropout(store: Store) -> None:
    import random

    rng = random.Random(7)
    day.create(store, "Sera", format="swiss", rounds=3, plays="updown")
    day.add_players(store, ["a", "b", "c", "d"])
    outcome_of = day.replayed_outcome(store)

    def play_round() -> dict:
        r = day.pair_next_round(store, outcome_of)
        t = day.get_tournament(store)
        for tb in views.round_of(r).tables:
            if not tb.bye:
                simulate.play_table(store, t, tb.round, tb, rng)
        day.save(store, t)
        day.close_round(store, outcome_of)
        return r

    play_round()
    day.add_players(store, ["late"])  # arrives after round 1
    day.withdraw(store, "b", "went home")
    second = play_round()
    seated = [p for tb in second["tables"] for p in tb["players"]]
    assert "late" in seated and "b" not in seated
    t = day.get_tournament(store)
    assert t.players["late"]["since"] == 2 and t.players["b"]["status"] == "dropped"
    rows = {r.player: r for r in day.current_standings(t, outcome_of)}
    assert rows["late"].played == 1 and rows["b"].played == 1


def test_withdrawn_before_the_start_leave_the_standings(store: Store) -> None:
    day.create(store, "Sera", plays="updown")
    day.add_players(store, ["a", "b", "c"])
    day.withdraw(store, "c", "ill")
    t = day.get_tournament(store)
    assert [r.player for r in day.current_standings(t, day.replayed_outcome(store))] != []
    assert "c" not in [r.player for r in day.current_standings(t, day.replayed_outcome(store))]


def test_settings_and_day_errors(store: Store) -> None:
    with pytest.raises(Refused, match="unknown format"):
        day.create(store, "X", format="ladder")
    with pytest.raises(Refused, match="no tournament"):
        day.add_players(store, ["a"])
    day.create(store, "X", plays="partita")
    with pytest.raises(Refused, match="already holds a tournament"):
        day.create(store, "Y")
    day.add_players(store, ["a", "b"])
    with pytest.raises(Refused, match="already registered"):
        day.add_players(store, ["a"])
    day.pair_next_round(store, day.replayed_outcome(store))
    with pytest.raises(Refused, match="four different games"):
        round_tables.choose_partita(store, 1, 1, ["tiro", "tiro", "asta", "texas"])
    with pytest.raises(Refused, match="choose the partita first"):
        round_tables.start_match(store, 1, 1, "tiro")
    round_tables.choose_partita(store, 1, 1, ["tiro", "asta", "texas", "updown"])
    with pytest.raises(Refused, match="not tiro|not catena"):
        round_tables.start_match(store, 1, 1, "catena")
    with pytest.raises(Refused, match="not decided"):
        day.close_round(store, day.replayed_outcome(store))
    with pytest.raises(Refused, match="not closed"):
        day.pair_next_round(store, day.replayed_outcome(store))


def tiro_match(store: Store, number: str, first: str, second: str, first_hits: bool) -> None:
    """A Tiro between two players in which ``first`` hits 11 (or misses) and the other misses."""
    events = [
        {"type": "roll", "by": first, "die": "d6", "values": [6, 6, 5, 1]},
        {"type": "roll", "by": second, "die": "d6", "values": [1, 1, 1, 1]},
        {"type": "roll", "by": first, "die": "d20", "values": [11]},
        {"type": "expression", "by": first, "expr": "6x(5:6+1)" if first_hits else "6+6+5+1"},
        {"type": "pass", "by": second},
    ]
    for e in events:
        record(store, number, e)


def test_a_correction_after_its_round_closed_changes_standings_not_pairings(store: Store) -> None:
    day.create(store, "Sera", format="swiss", rounds=2, plays="tiro", tiebreaks=["lot"])
    day.add_players(store, ["a", "b"])
    outcome_of = day.replayed_outcome(store)
    r1 = day.pair_next_round(store, outcome_of)
    first, second = r1["tables"][0]["players"]
    match = round_tables.start_match(store, 1, 1, "tiro")
    tiro_match(store, match.number, first, second, first_hits=True)
    day.close_round(store, outcome_of)
    r2 = day.pair_next_round(store, outcome_of)
    before = {
        r.player: r.points for r in day.current_standings(day.get_tournament(store), outcome_of)
    }
    assert before == {first: 3, second: 0}

    # The referee rejects the winning expression (position 4) after the round closed.
    record(store, match.number, {"type": "ruling", "by": "referee", "on": 4, "accept": False})
    t = day.get_tournament(store)
    after = {r.player: r.points for r in day.current_standings(t, outcome_of)}
    # Nobody hits: the challenge gives no point (CH-2), so the pairing is drawn 0-0.
    assert after == {first: 1, second: 1}
    assert t.rounds[1]["tables"] == r2["tables"]  # published pairings stay as they were
    readmodels.update(store)
    db = readmodels.database(store)
    assert {r["player"]: r["points"] for r in db.query("select * from standings")} == after


def tables(store: Store) -> dict[str, list[dict]]:
    db = readmodels.database(store)
    return {
        name: list(db.query(f"select * from {name} order by 1, 2")) for name in readmodels.TABLES
    }


def test_rebuild_gives_exactly_the_incremental_read_models(store: Store) -> None:
    progress = []
    sim = simulate.Simulation(
        players=6, rounds=2, seed=11, progress=lambda _: progress.append(readmodels.update(store))
    )
    simulate.run(store, sim)
    # A correction after the end, so that an incremental update revisits a finished match.
    finished = next(m for m in store.matches() if '"type":"end"' in m.lines[-1])
    record(
        store,
        finished.number,
        {"type": "void", "by": "referee", "on": len(finished.lines), "reason": "typo"},
    )
    readmodels.update(store)
    incremental = tables(store)
    assert len(progress) == 2 and all(p.events for p in progress)
    readmodels.rebuild(store)
    assert tables(store) == incremental
    assert incremental["standings"] and incremental["matches"] and incremental["events"]
    assert len(incremental["events"]) == readmodels.position(readmodels.database(store))


def test_read_models_can_be_queried_like_any_sql_database(store: Store) -> None:
    run(store, players=4, rounds=1, plays="updown", seed=9)
    readmodels.update(store)
    ((n,),) = raw_rows(store, "select count(*) from standings")
    assert n == 4
    games = Counter(g for (g,) in raw_rows(store, "select game from challenges"))
    assert set(games) == {"updown"}
    payload = raw_rows(store, "select payload from events where type = 'Match.Recorded'")[0]
    assert json.loads(payload[0])["type"] in ("roll", "bet", "timeout")


def test_alphatiana_duels_in_a_swiss(store: Store, make_db: Callable[[], str]) -> None:
    t = run(store, players=5, format="swiss", rounds=2, plays="alphatiana", seed=4)
    assert all(r["closed"] for r in t.rounds) and len(t.rounds) == 2
    assert all(len(tb["players"]) == 2 for r in t.rounds for tb in r["tables"] if not tb["bye"])
    with pytest.raises(Refused, match="is a duel"):
        day.create(Store(make_db()), "X", format="pods", plays="alphatiana")


def test_la_parola_nascosta_at_tables_of_two_to_ten(store: Store) -> None:
    t = run(
        store, players=5, format="pods", rounds=2, plays="parola_nascosta", seed=6, table_size=2
    )
    sizes = [[len(tb["players"]) for tb in r["tables"]] for r in t.rounds]
    assert sizes == [[3, 2], [3, 2]]
    rows = day.current_standings(t, day.replayed_outcome(store))
    assert sum(r.played for r in rows) == 10


def test_the_tournament_is_loaded_from_a_snapshot_and_agrees_with_its_events(store: Store) -> None:
    from eventsourcing.application import project_aggregate

    from tournament.domain.tournaments import TOURNAMENT_ID

    t = run(store, players=12, rounds=4, seed=8)
    assert t.version > 100
    snapshots = list(store.snapshots.get(TOURNAMENT_ID)) if store.snapshots else []
    assert snapshots, "a snapshot is taken every 100 events"
    events = store.events.get(TOURNAMENT_ID)
    from_events = project_aggregate(None, events)
    assert from_events.players == t.players and from_events.rounds == t.rounds


def test_read_models_of_an_older_program_are_rebuilt(store: Store) -> None:
    run(store, players=4, rounds=1, plays="updown", seed=3)
    readmodels.update(store)
    before = tables(store)
    db = readmodels.database(store)
    with db.transaction():
        db.run("delete from _projections where name = 'schema'")
        db.run("drop table standings")
        db.run("create table standings (player text)")  # an old, different table
    progress = readmodels.update(store)
    assert progress.events == len(before["events"])  # rebuilt from the first event
    assert tables(store) == before


def test_an_amendment_shows_how_later_rounds_would_have_been_paired(store: Store) -> None:
    import copy

    from tournament.services import corrections, effects

    day.create(store, "Sera", format="swiss", rounds=3, plays="tiro", tiebreaks=["lot"])
    day.add_players(store, ["a", "b", "c", "d"])
    outcome_of = day.replayed_outcome(store)
    r1 = day.pair_next_round(store, outcome_of)
    for tb in r1["tables"]:
        match = round_tables.start_match(store, 1, tb["table"], "tiro")
        tiro_match(store, match.number, *tb["players"], first_hits=True)
    day.close_round(store, outcome_of)
    r2 = day.pair_next_round(store, outcome_of)
    t = day.get_tournament(store)
    winner, loser = r1["tables"][0]["players"]
    changed = copy.deepcopy(t)
    corrections.amend_result(changed, 1, 1, {winner: 0, loser: 1}, "sheet misread")
    found = effects.effect(t, outcome_of, changed, outcome_of, 1)
    assert [row["round"] for row in found.later_pairings] == [2]
    assert sorted(map(sorted, found.later_pairings[0]["published"])) == sorted(
        sorted(tb["players"]) for tb in r2["tables"]
    )
    would = {frozenset(p) for p in found.later_pairings[0]["would_be"]}
    assert frozenset({loser, r1["tables"][1]["players"][0]}) in would  # the new winners meet
    assert day.get_tournament(store).rounds[1]["tables"] == r2["tables"]  # nothing stored


@pytest.mark.parametrize(
    ("plays", "most", "rules"), [("tiro", 1, "(CH-2)"), (day.PARTITA, 4, "(CH-2, CH-3)")]
)
def test_an_amendment_gives_each_player_at_most_a_point_a_challenge(
    store: Store, plays: str, most: int, rules: str
) -> None:
    """CH-2: a point for each challenge won; a table plays one challenge, or a partita's four
    (CH-3). An amendment beyond that, or below 0, is refused and nothing is recorded."""
    from tournament.services import corrections

    day.create(store, "Sera", plays=plays)
    day.add_players(store, ["a", "b"])
    day.pair_next_round(store, day.replayed_outcome(store))
    t = day.get_tournament(store)
    for bad in (most + 1, -1, True, 1.0):
        with pytest.raises(Refused) as refused:
            corrections.amend_result(t, 1, 1, {"a": bad, "b": 0}, "sheet misread")
        assert str(refused.value) == (
            f"challenge points at a table are whole numbers from 0 to {most}: "
            + (
                "a point for each of the partita's 4 challenges won (CH-2, CH-3)"
                if plays == day.PARTITA
                else "a point for its one challenge won (CH-2)"
            )
        )
        assert str(refused.value).endswith(rules)
        assert not t.pending_events and not t.rounds[0]["tables"][0].get("amendments")
    corrections.amend_result(t, 1, 1, {"a": most, "b": most}, "both won every challenge")
    assert t.rounds[0]["tables"][0]["amendments"][-1]["points"] == {"a": most, "b": most}


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (
            "update",
            "M1 cannot be read: its stored events were changed outside the program "
            "(tournament verify shows where)",
        ),
        ("delete", "there is no match M1 in this database"),
    ],
)
def test_a_table_start_says_when_the_word_list_cannot_be_checked(
    tmp_path, change: str, said: str
) -> None:
    """EQ-4 reads the last stored match's word list: a match changed or removed outside the
    program is said so in one sentence (it was passed over), and nothing is stored."""
    import sqlite3

    from tournament.storage.store import match_uuid

    db = tmp_path / "club.db"
    store = Store(db)
    day.create(store, "Sera", plays="tiro")
    day.add_players(store, ["a", "b", "c", "d"])
    day.pair_next_round(store, day.replayed_outcome(store))
    first = round_tables.start_match(store, 1, 1, "tiro")
    sha = json.loads(first.header)["lexicon"]["sha256"].encode()
    conn = sqlite3.connect(db)
    with conn:
        rows = "from stored_events where originator_id = ?"
        if change == "update":  # the header's word list, as an SQLite tool would edit it
            (state,) = conn.execute(
                f"select state {rows} and originator_version = 1", [match_uuid("M1").hex]
            ).fetchone()
            assert sha in state
            conn.execute(
                "update stored_events set state = ? where originator_id = ? "
                "and originator_version = 1",
                [state.replace(sha, b"0" * len(sha)), match_uuid("M1").hex],
            )
        else:
            conn.execute(f"delete {rows}", [match_uuid("M1").hex])
    conn.close()
    store = Store(db)
    before = day.get_tournament(store).version
    with pytest.raises(Refused) as refused:
        round_tables.start_match(store, 1, 2, "tiro")
    assert str(refused.value) == f"this tournament's word list cannot be checked (EQ-4): {said}"
    assert day.get_tournament(store).version == before
    assert "matches" not in day.get_tournament(store).rounds[0]["tables"][1]
    with pytest.raises(StoreError, match="there is no match M2 in this database"):
        store.get_match("M2")
