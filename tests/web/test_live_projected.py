"""The live task refreshes the read models for what it hears only where this process's own
refresh has not taken them already (#27: a move refreshed in its request was refreshed again by
the task that heard it, on every move)."""

from __future__ import annotations

import time
from typing import Any

from tournament.readside import readmodels
from tournament.services import day, stores, tables
from tournament.services.matches import record
from tournament.storage.store import Store

from .conftest import GAMES, build, make_client

ROLL = {"type": "roll", "by": "giallo", "die": "d6", "values": [6, 6, 5, 1]}


def test_only_events_past_the_process_own_refresh_make_the_task_refresh(any_db: str) -> None:
    store = build(any_db)
    day.pair_next_round(store)
    tables.choose_partita(store, 1, 1, GAMES)
    tables.start_match(store, 1, 1, "tiro")
    with make_client(store) as client:
        hub = client.app.state.live  # type: ignore[attr-defined]
        record(store, "M1", ROLL)  # this process's write, refreshed as its request does
        assert hub.refresh()
        top = stores.last_id(store)
        assert hub.projected == top == readmodels.position(readmodels.database(store))
        own = [{"id": n} for n in range(top - 1, top + 1)]
        assert not hub.beyond(own) and not hub.beyond([])  # heard: nothing to refresh
        assert hub.beyond([*own, {"id": top + 1}])  # one event past its refresh: refresh
        other = Store(any_db)  # another process's write, which this one never refreshed
        try:
            record(other, "M1", {**ROLL, "by": "blu"})
            assert stores.last_id(other) == top + 1
            deadline = time.monotonic() + 10  # the task hears it and refreshes for it
            while readmodels.position(readmodels.database(store)) < stores.last_id(other):
                assert time.monotonic() < deadline, "the live task did not refresh"
                time.sleep(0.02)
            assert hub.projected == stores.last_id(other)
        finally:
            other.close()


def test_a_burst_of_another_process_s_events_is_projected_by_one_refresh(
    any_db: str, monkeypatch: Any
) -> None:
    """#27: the task's refresh waits ``GATHER`` seconds after the look that calls for it, so a
    room's moves stored meanwhile are projected together (here the wait is made long enough
    for three saves of another process on a busy machine). A server's task is woken by each of
    them; a file's looks at its interval, and gathers them as well."""
    from tournament.web import live

    store = build(any_db)
    day.pair_next_round(store)
    tables.choose_partita(store, 1, 1, GAMES)
    tables.start_match(store, 1, 1, "tiro")
    monkeypatch.setattr(live, "GATHER", 2.0)
    updates: list[int] = []
    update = readmodels.update

    def counted(*a: Any, **k: Any) -> Any:
        progress = update(*a, **k)
        if progress.events:
            updates.append(progress.events)
        return progress

    monkeypatch.setattr(live.readmodels, "update", counted)
    with make_client(store) as client:
        hub = client.app.state.live  # type: ignore[attr-defined]
        assert hub.refresh()
        updates.clear()
        other = Store(any_db)
        try:
            for by, values in (("giallo", [6, 6, 5, 1]), ("blu", [5, 4, 2, 1])):
                record(other, "M1", {**ROLL, "by": by, "values": values})
            record(other, "M1", {"type": "roll", "by": "giallo", "die": "d20", "values": [11]})
            deadline = time.monotonic() + 20
            while readmodels.position(readmodels.database(store)) < stores.last_id(other):
                assert time.monotonic() < deadline, "the live task did not refresh"
                time.sleep(0.02)
        finally:
            other.close()
    assert updates == [3]  # one refresh, the three events


def test_the_task_s_refresh_is_not_made_again_for_what_an_action_refreshed(
    any_db: str, monkeypatch: Any
) -> None:
    """#27: the task's refresh, given the last event it saw, does nothing once this process's
    own refresh (an action's, made while the task waited) has projected it."""
    store = build(any_db)
    with make_client(store) as client:
        hub = client.app.state.live  # type: ignore[attr-defined]
        assert hub.refresh()
        day.pair_next_round(store)
        top = stores.last_id(store)
        assert hub.refresh()  # (an action's: projects the pairing)
        updates: list[int] = []
        update = readmodels.update
        monkeypatch.setattr(
            readmodels, "update", lambda *a, **k: updates.append(1) or update(*a, **k)
        )
        assert hub.refresh(top) and updates == []  # projected already: not asked
        assert hub.refresh(top + 1) and updates == [1]  # one past it: refreshed
