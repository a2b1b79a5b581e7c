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
        # The ids a save is given are the ones it stored under, in order.
        t = day.get_tournament(first)
        t.register(player="Carla", by="organizer")
        t.register(player="Dario", by="organizer")
        given = [r.notification.id for r in first.save(t)]
        stored = first.notification_log.recorder.select_notifications(given[0], 10)
        assert [n.id for n in stored] == given and len(given) == 2
        assert [n.originator_version for n in stored] == [t.version - 1, t.version]
    finally:
        close(first)
        close(second)
