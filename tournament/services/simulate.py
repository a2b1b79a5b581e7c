"""A seeded simulation of a whole tournament: computer players through the same engine and log.

Every match is created at its table, played by the bots of :mod:`engine.bots` (each event
checked by the engine as it would be from the CLI) and stored; rounds are paired and closed by
the same services the organizer uses. The same seed gives the same tournament, event for event.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.bots import random_game
from engine.events import event_to_json
from engine.header import parse_header
from engine.lexicon import default_lexicon
from engine.match import Replay
from tournament.domain import knockouts, views
from tournament.logformat.matchlog import canonical
from tournament.services import day, tables
from tournament.services.files import whole_database
from tournament.storage.backends import holds_store
from tournament.storage.locations import Location, SqliteFile
from tournament.storage.store import Match, Store

NAMES = ("Giallo", "Blu", "Verde", "Rosso", "Nero", "Bianco", "Viola", "Arancio")
BY = "simulation"


def player_names(count: int) -> list[str]:
    """Colours for a club evening, numbered names for a season."""
    if count <= len(NAMES):
        return list(NAMES[:count])
    width = len(str(count))
    return [f"Giocatore {i:0{width}d}" for i in range(1, count + 1)]


@dataclass
class Simulation:
    """The knobs of a simulated tournament (the CLI's options)."""

    players: int = 8
    format: str = "swiss"
    rounds: int | None = 3
    plays: str = day.PARTITA
    seed: int = 1
    name: str = "Torneo simulato"
    date: str = ""  # the tournament's date, printed on its sheets (ISO, as create takes it)
    table_size: int = 4
    demo: bool = False
    max_events: int | None = None  # stop pairing new rounds once the store holds this many
    progress: Callable[[str], None] | None = None
    # The bracket's settings (create's): third_place, cut, knockout_draw (#24).
    knockout: dict[str, Any] = field(default_factory=dict)


def play_match(store: Store, match_number: str, rng: random.Random) -> Match:
    """Let the bots play one stored, empty match to its end, storing every event."""
    match = store.get_match(match_number)
    store.append(match, bots_play(match, rng))
    return match


def bots_play(match: Match, rng: random.Random) -> list[str]:
    """The lines of an empty match played by the bots to its end."""
    header = parse_header(json.loads(match.header))
    replay = random_game(Replay.start(header, default_lexicon()), rng)
    return [canonical(event_to_json(e)) for e in replay.events]


def outside_for(t: Any, table: views.Table, rng: random.Random) -> list[str]:
    """A player from another table to roll the third anchor of a two-player La catena."""
    others = [p for p in t.ranked_players if p not in table.players]
    return [rng.choice(others)] if others else []


def play_table(
    store: Store,
    t: Any,
    round_number: int,
    table: views.Table,
    rng: random.Random,
    pending: list[Match] | None = None,
) -> None:
    """Choose the partita (if any), open each challenge's match and let the bots play it.

    Each match is stored attached to its table in one transaction (with the partita's choice),
    so that a simulation stopped at any moment leaves no match outside its table; the heads of
    the finished matches are saved with the next one, or by the caller at the end of the round.
    With ``pending``, nothing is saved: the played matches are added to it, for the caller to
    save with ``t`` in one transaction (issue 15: a transaction a round, not one per match).
    """
    number = table.number
    if t.settings["plays"] == day.PARTITA:
        allowed = list(t.settings["games"])
        if len(table.players) == 2 and len(t.ranked_players) < 3 and "catena" in allowed:
            allowed.remove("catena")
        games = rng.sample(allowed, day.PARTITA_GAMES)
        tables.decide_partita(t, round_number, number, games, by=BY)
    else:
        games = [t.settings["plays"]]
    for g in games:
        outside: Sequence[str] = ()
        if g == "catena" and len(table.players) == 2:
            outside = outside_for(t, table, rng)
        match = tables.open_match(
            store, t, round_number, number, g, outside, by=BY, save=pending is None
        )
        if pending is None:
            played = play_match(store, match.number, rng)
        else:
            for line in bots_play(match, rng):
                match.add(line)
            pending.append(played := match)
        if played.lines:
            t.record_head(match=played.number, events=len(played.lines), head=played.head, by=BY)


def play_deciders(
    store: Store, number: int, rng: random.Random, outcome_of: Callable[[str], Any]
) -> None:
    """A drawn knockout table plays a decider, and another while it stays drawn (#24): the
    table's first game again, started and played as any challenge is."""
    while True:
        t = day.get_tournament(store)
        drawn = [
            tb
            for tb in views.paired(t, number).tables
            if knockouts.needs_decider(t, tb, day.played_result(t, tb, outcome_of))
        ]
        if not drawn:
            return
        for tb in drawn:
            g = day.table_games(t, tb)[0]
            outside = outside_for(t, tb, rng) if g == "catena" and len(tb.players) == 2 else ()
            match = tables.start_match(store, number, tb.number, g, outside, by=BY)
            play_match(store, match.number, rng)  # its head is recorded as the round closes


def run(store: Store, sim: Simulation) -> None:
    """Create the tournament, register the players and play every round."""
    rng = random.Random(sim.seed)
    say = sim.progress or (lambda _: None)
    day.create(
        store,
        sim.name,
        by=BY,
        format=sim.format,
        rounds=sim.rounds if sim.format in ("swiss", "pods") else None,
        plays=sim.plays,
        seed=sim.seed,
        table_size=sim.table_size,
        demo=sim.demo,
        date=sim.date,
        venue="",
        **sim.knockout,
    )
    day.add_players(store, player_names(sim.players), by=BY)
    outcome_of = day.replayed_outcome(store)
    number = 0
    while True:
        if sim.max_events and (store.recorder.max_notification_id() or 0) >= sim.max_events:
            break
        try:
            paired = day.pair_next_round(store, outcome_of, by=BY)
        except day.Refused:
            break  # every round is paired (Swiss limit, round robin, bracket complete)
        number = paired["number"]
        t = day.get_tournament(store)
        played: list[Match] = []
        for table in views.paired(t, number).tables:
            if not table.bye:
                play_table(store, t, number, table, rng, played)
        day.save(store, t, *played)  # the round's matches and the tournament, one transaction
        play_deciders(store, number, rng, outcome_of)
        day.close_round(store, outcome_of, by=BY)
        say(f"round {number}: {len(paired['tables'])} tables played")


def run_whole(db: Location, sim: Simulation, lexicon: str | None = None) -> Store:
    """:func:`run` into ``db``, whole or not at all (:func:`tournament.services.files.
    whole_database`): a Ctrl-C leaves nothing half-made, no "round 5 in play" that a rerun
    refuses (#28). A store that holds matches already is played into as it is.

    Returns the store at ``db``, open.
    """
    if isinstance(db, SqliteFile) and holds_store(db):
        from tournament.services.stores import open_store  # (a service above this one's)

        store = open_store(db, lexicon)
        run(store, sim)
        return store
    return whole_database(db, lambda store: run(store, sim), lexicon)
