"""How many matches a store holds, counted again at each of a server's tournament writes
(storage.writers forgets the number): from the process's last count, in two look-ups when it
still stands (#27), and right when another store wrote since or the store started over."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.tournament.writers import HEADER
from tournament.storage.store import Store


def test_a_count_goes_on_from_the_last_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "c.db"
    store, other = Store(db), Store(db)
    for _ in range(20):
        store.create(HEADER, [])
    assert store._count_matches() == 20
    looked: list[Any] = []
    real = store.recorder.select_events

    def counted(*a: Any, **k: Any) -> Any:
        looked.append(a)
        return real(*a, **k)

    monkeypatch.setattr(store.recorder, "select_events", counted)
    assert store._count_matches() == 20 and len(looked) == 2  # M20 still there, M21 not
    other.create(HEADER, [])  # another process's match
    other.create(HEADER, [])
    assert store._count_matches() == 22
    vars(store)["_counted"] = 40  # a count of a store since started over with fewer
    assert store._count_matches() == 22
