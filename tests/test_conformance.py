"""Every game passes one generic playthrough: seeded random legal games, exported, re-imported.

As OpenSpiel does for its games: whatever the engine accepts, it must replay identically from the
exported log, with the same outcome and the same head hash.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.bots import random_game
from engine.events import End, Out, Ruling, Void, event_to_json
from engine.games import GAMES
from engine.games import game as rules
from engine.games.base import Context
from engine.header import parse_header
from engine.lexicon import default_lexicon
from engine.match import Replay
from engine.rules import CURRENT
from engine.rulings import carried_rulings, standing_rulings
from tests.support import header
from tournament.logformat.matchlog import canonical, chain, read_log, write_log

SEEDS = range(12)


def players_for(game: str, rng: random.Random) -> tuple[list[str], list[str]]:
    names = ["giallo", "blu", "verde", "rosso", "nero", "bianco"]
    module = rules(game)
    count = rng.randint(module.min_players, min(4, module.max_players or 4))
    players, outside = names[:count], names[count : count + rng.randint(0, 1)]
    if game == "catena" and count == 2 and not outside:
        outside = [names[count]]
    return players, outside


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("seed", SEEDS)
def test_random_legal_games_replay_identically(game: str, seed: int) -> None:
    rng = random.Random(f"{game}-{seed}")
    players, outside = players_for(game, rng)
    # The program writes today's revision into every header it makes: a plain log with hashes
    # and none would be read as one 0.1 exported (docs/format.md, `rules`).
    head = header(game, players, outside, lexicon=default_lexicon().identity, rules=CURRENT)
    played = random_game(Replay.start(parse_header(head), default_lexicon()), rng)

    header_line = canonical(head)
    lines = [canonical(event_to_json(e)) for e in played.events]
    exported = write_log(header_line, lines, chain(header_line, lines))
    again = read_log(exported, lambda h: default_lexicon())

    assert again.lines == tuple(lines)
    assert again.hashes == chain(header_line, lines)
    assert again.replay.outcome == played.outcome
    assert again.replay.out == played.out
    assert again.replay.notes == played.notes
    assert again.replay.turns == played.turns
    assert write_log(again.header_line, again.lines, again.hashes) == exported
    assert played.state == from_scratch(played)


def from_scratch(replay: Replay) -> object:
    """The final state by the plainest reading of REF-1 and REF-2: fold every event that is not
    void, with every ruling that stands (on its event, and on later uses of what it decided),
    from the start (no incremental history)."""
    events = replay.events
    voided = frozenset(e.on for e in events if isinstance(e, Void))
    rulings = standing_rulings(events, voided)
    state = replay.rules.start(replay.header)
    for i, e in enumerate(events, 1):
        if i in voided or isinstance(e, (Ruling, Void, Out, End)):
            continue
        ctx = Context(replay.lexicon, i, rulings.get(i), carried_rulings(events, rulings, i))
        state = replay.rules.apply(state, e, ctx)
    return state


def test_random_games_end() -> None:
    """Bots finish their games: they find real words and expressions that hit, often enough."""
    ended = 0
    for game in GAMES:
        for seed in SEEDS:
            rng = random.Random(f"{game}-{seed}")
            players, outside = players_for(game, rng)
            head = parse_header(header(game, players, outside))
            ended += random_game(Replay.start(head, default_lexicon()), rng).outcome is not None
    assert ended >= 0.9 * len(GAMES) * len(SEEDS)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(GAMES), st.randoms(use_true_random=False))
def test_replay_property_any_legal_log_replays_to_the_same_state(game: str, rng) -> None:
    """Hypothesis drives the bots: whatever legal log comes out, any prefix of it read back from
    text is legal, and its replay agrees with a from-scratch fold, as the whole log's does."""
    players, outside = players_for(game, rng)
    head = header(game, players, outside)
    played = random_game(Replay.start(parse_header(head), default_lexicon()), rng, limit=120)
    header_line = canonical(head)
    lines = [canonical(event_to_json(e)) for e in played.events]
    cut = rng.randint(0, len(lines))
    prefix = read_log("\n".join([header_line, *lines[:cut]]), lambda h: default_lexicon())
    assert prefix.replay.events == played.events[:cut]
    assert prefix.replay.state == from_scratch(prefix.replay)
    assert played.state == from_scratch(played)
