"""The tournament's rows a process holds after its refresh of the read models (#27): served by
the queries only once committed, and kept when a refresh finds nothing to do or fails."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tournament.readside import kept, queries, readmodels, readtables
from tournament.services import day
from tournament.storage.locations import close
from tournament.storage.store import Store


def served(store: Store) -> list[str]:
    return [row["player"] for row in queries.standings(store)]


@pytest.fixture
def kept_store(db: str) -> Iterator[Store]:
    """A server's store (kept) of two players, its read models refreshed."""
    store = Store(db)
    kept.keep(store)
    try:
        day.create(store, "Prova", plays="tiro", seed="7")
        day.add_players(store, ["Anna", "Bruno"])
        readmodels.update(store, write=True)
        yield store
    finally:
        close(store)


def test_a_refresh_that_rolls_back_leaves_the_rows_held_as_committed(
    kept_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = kept_store
    held = readmodels.held(store)
    assert held is not None and sorted(held.rows["standings"]) == ["Anna", "Bruno"]
    rows = held.rows["standings"]
    day.add_players(store, ["Carla"])  # the next refresh writes her row, then fails

    def then_fails(*args: Any, **kwargs: Any) -> None:
        real(*args, **kwargs)
        raise OSError("disk full")

    real = readtables.tournament
    monkeypatch.setattr(readtables, "tournament", then_fails)
    with pytest.raises(OSError):
        readmodels.update(store, write=True)
    monkeypatch.undo()
    # What a reader held while the refresh wrote is what is committed, and still held.
    assert held.rows["standings"] is rows and sorted(rows) == ["Anna", "Bruno"]
    assert readmodels.held(store) is held
    assert sorted(served(store)) == ["Anna", "Bruno"]
    readmodels.update(store, write=True)
    assert sorted(served(store)) == ["Anna", "Bruno", "Carla"]
    now = readmodels.held(store)
    assert now is not held and now is not None
    assert now.position == readmodels.position(readmodels.database(store))


@pytest.mark.parametrize("backend", ["sqlite"])
def test_an_update_with_nothing_to_do_keeps_the_rows_held(kept_store: Store) -> None:
    """A read-only update of a file already current returns at once, and keeps what this
    process holds (it was thrown away, and the next read read every table again)."""
    held = readmodels.held(kept_store)
    assert held is not None
    assert readmodels.update(kept_store, write=False).events == 0
    assert readmodels.held(kept_store) is held
