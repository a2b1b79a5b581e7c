"""Every registered game meets the engine's contract (engine.games.contract, DESIGN.md).

What it declares is present and consistent (its players, CH-4's time per turn, its sheet's
template, the kinds of event its turns open), and its optional parts are callable or the
defaults; the computer players and the audit reach every game through them alone.
"""

from __future__ import annotations

import random
import types
from pathlib import Path

import pytest

from engine.bots import random_game
from engine.events import EVENT_TYPES
from engine.games import GAMES, game, names, registered, tetragon
from engine.games.contract import Clock, Game, no_best_play, no_computer_move
from engine.header import parse_header
from engine.lexicon import default_lexicon
from engine.match import Replay
from tests.support import header
from tests.test_conformance import players_for
from tests.toy_game import TOY

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "exports" / "templates"
# CH-4, as RULES.md words it: the seconds a turn has (La catena: 120 by agreement for
# beginners); the games it does not name have no time limit.
CH_4 = {
    "La catena": Clock(60, 120),
    "L'asta lessicale random": Clock(60),
    "La roulette russa": Clock(60),
    "Texas Word'em": Clock(60),
    "Tiro di precisione": Clock(60),
    "Il Ventuno": Clock(15),
    "La battaglia dadale": Clock(30),
    "Up or down": Clock(15),
}


def meets_contract(g: Game, name: str, templates: Path) -> None:
    assert isinstance(g, Game) and g.name == name
    assert isinstance(g.title, str) and g.title.strip()
    assert isinstance(g.min_players, int) and 1 <= g.min_players
    assert g.max_players is None or g.min_players <= g.max_players
    assert g.clock == CH_4.get(g.title), f"{g.title}: CH-4 says {CH_4.get(g.title)}"
    if g.clock is not None:
        assert "timeout" in g.about.events  # a turn that runs out is a timeout (CH-4)
    assert (templates / g.sheet).is_file(), g.sheet
    assert g.about.events and set(g.about.events) <= set(EVENT_TYPES)
    if g.hint is not None:
        assert g.hint.on in g.about.events and g.hint.seconds > 0
    for part in (g.start, g.apply, g.turns, g.outcome, g.summary, g.best_play, g.computer_move):
        assert callable(part)
    assert g.why_no_tie_break_ruling is None or callable(g.why_no_tie_break_ruling)


@pytest.mark.parametrize("name", names())
def test_every_registered_game_meets_the_contract(name: str) -> None:
    meets_contract(game(name), name, SHIPPED)


def test_the_toy_game_meets_it_with_its_template_beside_the_tests() -> None:
    with registered(TOY):
        assert TOY.name in names() and TOY.name not in tetragon()
        meets_contract(game(TOY.name), TOY.name, Path(__file__).parents[1] / "toy_templates")
    # What it leaves out takes the defaults.
    assert TOY.computer_move is no_computer_move and TOY.why_no_tie_break_ruling is None


def test_the_registry_lists_the_tetragon_games_first() -> None:
    assert names()[: len(GAMES)] == GAMES
    assert len(tetragon()) == 8 and set(tetragon()) <= set(GAMES)  # CH-3
    assert {game(n).title for n in tetragon()} == set(CH_4)  # CH-4 times every Tetragon game


@pytest.mark.parametrize("name", GAMES)
def test_a_game_opens_only_the_events_it_declares(name: str) -> None:
    """Played by the computer players, a game's turns open no kind it does not declare."""
    declared = set(game(name).about.events)
    for seed in range(4):
        rng = random.Random(f"{name}-contract-{seed}")
        players, outside = players_for(name, rng)
        played = random_game(
            Replay.start(parse_header(header(name, players, outside)), default_lexicon()), rng
        )
        for state in played.history:
            if game(name).outcome(state) is None:
                for turn in game(name).turns(state):
                    assert set(turn.events) <= declared, (turn, declared)


def test_the_optional_parts_are_the_games_own_or_the_defaults() -> None:
    solved = {n for n in GAMES if game(n).best_play is not no_best_play}
    assert solved == {"catena", "asta", "roulette_russa", "texas", "tiro", "battaglia"}
    own = {n for n in GAMES if game(n).computer_move is not no_computer_move}
    assert own == {
        "catena",
        "asta",
        "roulette_russa",
        "texas",
        "tiro",
        "battaglia",
        "parola_nascosta",
    }
    ruled = {n for n in GAMES if game(n).why_no_tie_break_ruling is not None}
    assert ruled == {"parola_nascosta"}  # PN-1


def test_a_module_without_the_five_functions_is_no_game() -> None:
    module = types.ModuleType("engine.games.half")
    module.ABOUT = TOY.about  # type: ignore[attr-defined]
    module.start = TOY.start  # type: ignore[attr-defined]
    with pytest.raises(TypeError, match="does not define apply, turns, outcome, summary"):
        Game.of(module)
