"""Every worked example of the seeds ("Esempio di gioco"), with the winner the seed names."""

from __future__ import annotations

import pytest

from engine.events import End, parse_event
from engine.header import parse_header
from engine.lexicon import default_lexicon
from engine.match import Replay
from tests.support import example

SEED_WINNERS = {
    "catena-seed.jsonl": ("blu",),
    "asta-seed.jsonl": ("giallo",),
    "roulette_russa-seed.jsonl": ("giallo",),
    "texas-seed.jsonl": ("blu",),
    "tiro-seed.jsonl": ("giallo",),
    "ventuno-seed.jsonl": ("verde",),
    "battaglia-seed.jsonl": ("giallo",),
    "updown-seed.jsonl": ("giallo",),
    "alphatiana-full.jsonl": ("Blu",),
    "parola_nascosta-full.jsonl": ("giallo",),
}


def replay_example(name: str) -> Replay:
    head, events = example(name)
    return Replay.of(parse_header(head), default_lexicon(), map(parse_event, events))


@pytest.mark.parametrize("name", sorted(SEED_WINNERS))
def test_seed_example_winner(name: str) -> None:
    replay = replay_example(name)
    assert replay.outcome is not None
    assert replay.outcome.winners == SEED_WINNERS[name]
    # The example's own end event agrees, and nothing derived is left unlogged.
    assert isinstance(replay.events[-1], End)
    assert replay.pending_derived() == []


def test_catena_seed_chain_lengths() -> None:
    """CAT-3: Giallo's chain has 9 anelli, Blu's 8."""
    replay = replay_example("catena-seed.jsonl")
    assert replay.state.chains == {"giallo": 9, "blu": 8}


def test_texas_seed_round_scores() -> None:
    """TEX-3: Giallo 5+4+7 = 16, Blu 5+7+9 = 21."""
    replay = replay_example("texas-seed.jsonl")
    assert replay.state.scores == {"giallo": (5, 4, 7), "blu": (5, 7, 9)}


def test_tiro_seed_keys() -> None:
    """TIR-3: both use one division, Giallo also a multiplication."""
    replay = replay_example("tiro-seed.jsonl")
    assert replay.state.shots == {"giallo": (1, 1, 0), "blu": (1, 0, 0)}


def test_ventuno_seed_totals() -> None:
    """VEN-1: 5, 8, 14, 19, then Verde's 2 makes 21."""
    replay = replay_example("ventuno-seed.jsonl")
    assert replay.state.total == 21
    assert [o.player for o in replay.out] == ["blu"]


def test_battaglia_seed_fleets() -> None:
    """BAT-2: Giallo keeps the 13; Blu loses 15 then 14."""
    replay = replay_example("battaglia-seed.jsonl")
    assert replay.state.ships == {"giallo": (13,), "blu": ()}


def test_updown_seed_outs() -> None:
    """UPD-2: Blu is hit exactly by Verde's 621; Verde then loses the bet."""
    replay = replay_example("updown-seed.jsonl")
    assert [o.player for o in replay.out] == ["blu", "verde"]


def test_roulette_russa_seed_strikes_z() -> None:
    """RR-4: Rosso fails, the Z is struck; Giallo then covers S-S-T-P-G-N-M."""
    replay = replay_example("roulette_russa-seed.jsonl")
    assert [c for c, _ in replay.state.consonants] == list("sstpgnm")


def test_asta_seed_words() -> None:
    """AST-2, AST-3: PACE, PECCA (Z as C), CAPACE; Verde and Blu out."""
    replay = replay_example("asta-seed.jsonl")
    assert replay.state.last_word == "capace"
    assert [o.player for o in replay.out] == ["verde", "blu"]


def test_alphatiana_seed_attack_and_successful_defence() -> None:
    """ALP-3..ALP-5, the seed's first example: 6 6 5 5 3; R defends the 5s with a 6: M takes 2."""
    replay = replay_example("alphatiana-seed-attack.jsonl")
    assert replay.notes[-1].text == "R defends the 5s of 6 6 5 5 3: M takes 2"
    assert replay.state.damage == {"M": 2, "R": 0}
    assert replay.state.attacker == "R"  # ALP-6: the roles swap


def test_alphatiana_seed_six_six_six_five_one() -> None:
    """The seed's other example: defending the 1 almost surely succeeds and deals nothing."""
    replay = replay_example("alphatiana-seed-six-six-six.jsonl")
    assert replay.state.damage == {"M": 0, "R": 0}
    assert replay.notes[-1].text.startswith("R defends the 1s of 6 6 6 5 1")


def test_parola_nascosta_full_game_ends_at_morra() -> None:
    """PN-5, PN-6: three silent rounds, then Morra; the first out's card breaks the tie."""
    replay = replay_example("parola_nascosta-full.jsonl")
    assert [o.rule for o in replay.out] == ["PN-6"]
    assert replay.state.silent == 3
