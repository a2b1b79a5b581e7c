"""A save sent whole in one round trip on PostgreSQL (#27): what it stores, its notification,
and a save that meets another writer's storing nothing and leaving its connection usable."""

from __future__ import annotations

import pytest

from tournament.services import day
from tournament.services.stored import save
from tournament.storage.locations import close
from tournament.storage.store import Conflict, Store


def test_a_save_that_meets_another_stores_nothing_and_the_next_goes_on(db: str) -> None:
    first, second = Store(db), Store(db)
    try:
        day.create(first, "Sera", games=["tiro", "texas", "ventuno", "updown"], rounds=2)
        a, b = day.get_tournament(first), day.get_tournament(second)
        a.register(player="Anna", by="organizer")
        b.register(player="Bruno", by="organizer")
        save(first, a)
        with pytest.raises(Conflict):
            save(second, b)
        stored = day.get_tournament(second)
        assert list(stored.players) == ["Anna"]  # (nothing of Bruno's save)
        stored.register(player="Bruno", by="organizer")
        save(second, stored)  # (the same connections, after the refused save)
        assert list(day.get_tournament(first).players) == ["Anna", "Bruno"]
        last = [n.id for n in second.notification_log.recorder.select_notifications(1, 1000)]
        assert last == sorted(last) and len(last) == len(set(last))
    finally:
        close(first)
        close(second)
