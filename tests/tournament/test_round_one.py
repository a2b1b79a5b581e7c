"""Round one of a Swiss is paired by seed, as the README says ("Round one"), and says so (#24).

Round one pairs its one score group as every later round pairs a score group: neighbours in the
ranking meet, the ranking being the seeds (seed 1 against seed 2, 3 against 4...), the higher
seed in the first seat, the bye to the lowest seed. Before #24 it followed the lot.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tournament.services import day
from tournament.storage.store import Store

NAMES = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Franco", "Gino", "Ilaria", "Luca", "Marta"]


def round_one(tmp_path: Path, count: int) -> list[dict]:
    store = Store(tmp_path / "t.db")
    day.create(store, "Sera", plays="tiro", seed="any lot")
    day.add_players(store, NAMES[:count])
    tables = day.pair_next_round(store, day.replayed_outcome(store))["tables"]
    store.close()
    return tables


@pytest.mark.parametrize("count", [6, 10])
def test_round_one_pairs_seed_one_with_seed_two_and_so_on(tmp_path: Path, count: int) -> None:
    tables = round_one(tmp_path, count)
    assert [tb["players"] for tb in tables] == [
        NAMES[i : i + 2] for i in range(0, count, 2)
    ]  # the higher seed in the first seat
    for i, tb in enumerate(tables):
        seed, other = 2 * i + 1, 2 * i + 2
        assert tb["why"] == (
            f"{NAMES[seed - 1]} (0) - {NAMES[other - 1]} (0): round one by seed: seed {seed} "
            f"against seed {other}; {NAMES[seed - 1]} first: the higher seed"
        )
        assert {"code": "seed_pair", "params": {"seed": str(seed), "other": str(other)}} in tb[
            "reasons"
        ]
        assert "standings" not in tb["why"]


def test_round_one_gives_the_bye_to_the_lowest_seed(tmp_path: Path) -> None:
    tables = round_one(tmp_path, 9)
    assert tables[-1]["bye"] and tables[-1]["players"] == ["Luca"]
    assert tables[-1]["why"] == "bye: Luca, the lowest seed (seed 9)"
    assert [tb["players"] for tb in tables[:-1]] == [NAMES[i : i + 2] for i in range(0, 8, 2)]


def test_round_one_follows_the_seed_order_given_at_creation(tmp_path: Path) -> None:
    store = Store(tmp_path / "t.db")
    day.create(store, "Sera", plays="tiro", seed_order=["Dario", "Carla"])
    day.add_players(store, NAMES[:4])
    tables = day.pair_next_round(store, day.replayed_outcome(store))["tables"]
    store.close()
    assert [tb["players"] for tb in tables] == [["Dario", "Carla"], ["Anna", "Bruno"]]
    assert "seed 1 against seed 2" in tables[0]["why"]
    assert "seed 3 against seed 4" in tables[1]["why"]


@pytest.mark.parametrize("lot", ["one lot", "another lot"])
def test_pods_deal_round_one_by_seed_whatever_the_lot(tmp_path: Path, lot: str) -> None:
    """Tables of several players: seeds 1-4 at the first table, 5-8 at the next (the seats
    rotate as every round's), whatever the tournament's lot."""
    store = Store(tmp_path / "p.db")
    day.create(store, "Sera", plays="roulette_russa", format="pods", seed=lot)
    day.add_players(store, NAMES[:8])
    tables = day.pair_next_round(store, day.replayed_outcome(store))["tables"]
    store.close()
    assert [sorted(tb["players"], key=NAMES.index) for tb in tables] == [NAMES[:4], NAMES[4:8]]
