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


def test_of_two_servers_on_one_store_only_the_leader_s_task_refreshes(
    postgres_server: Any, monkeypatch: Any
) -> None:
    """#27, workers: two processes serving one store (here two apps with their stores) hear
    another's moves; the one that leads refreshes the read models for them, the other does
    not (its pages would find them current, or bring them up themselves)."""

    from tournament.web import live

    db, store, twin = on_one_store(postgres_server)
    refreshed: list[Store] = []
    update = readmodels.update

    def counted(s: Store, *a: Any, **k: Any) -> Any:
        refreshed.append(s)  # (any refresh: one finding nothing left to project too)
        return update(s, *a, **k)

    monkeypatch.setattr(live.readmodels, "update", counted)
    with make_client(store) as one, make_client(twin) as two:
        hubs = [c.app.state.live for c in (one, two)]  # type: ignore[attr-defined]
        leader = hubs[0] if one_leads(store, twin) else hubs[1]
        other = Store(db)
        try:
            refreshed.clear()
            record(other, "M1", ROLL)
            deadline = time.monotonic() + 10
            while readmodels.position(readmodels.database(store)) < stores.last_id(other):
                assert time.monotonic() < deadline, "the leader's task did not refresh"
                time.sleep(0.02)
            time.sleep(3 * live.GATHER)  # (time for a second refresh, were one coming)
        finally:
            other.close()
    assert refreshed == [leader.store]


def test_a_worker_with_no_stream_and_no_lead_looks_at_nothing_until_a_stream_opens(
    postgres_server: Any, monkeypatch: Any
) -> None:
    """#27, workers: a process that neither leads the refresh nor has a stream open reads no
    notification at a move; a stream opened there is told what is stored from then on (not
    what was stored while it looked at nothing)."""
    import json

    from tournament.web import live

    db, store, twin = on_one_store(postgres_server)
    looks: list[Store] = []
    since = stores.stored_since
    monkeypatch.setattr(live.stores, "stored_since", lambda s, *a: looks.append(s) or since(s, *a))
    with make_client(store) as one, make_client(twin) as two:
        deadline = time.monotonic() + 10
        client = two if one_leads(store, twin) else one
        hub = client.app.state.live  # type: ignore[attr-defined]
        other = Store(db)
        try:
            time.sleep(3 * live.GATHER)  # (the tasks settled since their start)
            hub.skipped = False
            looks.clear()
            record(other, "M1", ROLL)
            while not hub.skipped:  # (heard, and skipped)
                assert time.monotonic() < deadline + 10, "the follower's task never woke"
                time.sleep(0.02)
            time.sleep(3 * live.GATHER)  # (a look, were one coming)
            assert hub.store not in looks and looks  # (the leader's task looked)
            written: list[bytes] = []

            async def send(message: dict[str, Any]) -> None:
                written.append(message["body"])

            streaming = client.portal.start_task_soon(hub.serve, send, None)
            while not hub.listeners:
                assert time.monotonic() < deadline + 20, "the stream never opened"
                time.sleep(0.02)
            record(other, "M1", {**ROLL, "by": "blu", "values": [5, 4, 2, 1]})
            while not written:
                assert time.monotonic() < deadline + 30, "the stream was told nothing"
                time.sleep(0.02)
            time.sleep(3 * live.GATHER)  # (anything else it would be told)
            hub.end_streams()
            streaming.result(10)
        finally:
            other.close()
    told = [json.loads(line[5:]) for f in written for line in f.decode().splitlines()
            if line.startswith("data:")]  # fmt: skip
    assert [(m["match"], m["type"], m["position"]) for m in told] == [("M1", "roll", 2)]


def test_a_worker_taking_the_lead_goes_on_from_the_store_s_last_event(
    postgres_server: Any, monkeypatch: Any
) -> None:
    """#27, workers: when the leading process stops, another takes the lead and refreshes the
    read models after the moves from then on, going on from the store's last event (not
    reading back what was stored while it looked at nothing)."""

    from tournament.storage import heard

    db, store, twin = on_one_store(postgres_server)
    with make_client(store) as one, make_client(twin) as two:
        deadline = time.monotonic() + 20
        leader, follower = (one, two) if one_leads(store, twin) else (two, one)
        hub = follower.app.state.live  # type: ignore[attr-defined]
        other = Store(db)
        try:
            record(other, "M1", ROLL)  # (stored while the follower looks at nothing)
            while not hub.skipped:
                assert time.monotonic() < deadline, "the follower never skipped a look"
                time.sleep(0.02)
            looks: list[int] = []
            since = stores.stored_since
            monkeypatch.setattr(
                stores, "stored_since", lambda s, last, *a: looks.append(last) or since(s, last, *a)
            )
            leader.app.state.live.store.close()  # (the leader stops: its lock goes with it)
            while not heard.leads(hub.store):
                assert time.monotonic() < deadline, "the lead was never taken"
                time.sleep(0.02)
            top = stores.last_id(other)
            record(other, "M1", {**ROLL, "by": "blu", "values": [5, 4, 2, 1]})
            while readmodels.position(readmodels.database(other)) < stores.last_id(other):
                assert time.monotonic() < deadline, "the new leader did not refresh"
                time.sleep(0.02)
        finally:
            other.close()
    assert looks and min(looks) >= top  # (from the last event on, no backlog read back)


def on_one_store(postgres_server: Any) -> tuple[str, Store, Store]:
    """A new schema's tournament playing M1 (a Tiro), its store, and a second store on it (as
    another server process has)."""
    from tests.tournament.conftest import new_schema

    db = new_schema(postgres_server, "w")
    store = build(db)
    day.pair_next_round(store)
    tables.choose_partita(store, 1, 1, GAMES)
    tables.start_match(store, 1, 1, "tiro")
    return db, store, Store(db)


def one_leads(store: Store, twin: Store) -> bool:
    """Once exactly one of two servers' stores leads the refresh: whether it is ``store``."""
    from tournament.storage import heard

    deadline = time.monotonic() + 10
    while heard.leads(store) == heard.leads(twin):
        assert time.monotonic() < deadline, "no single leader"
        time.sleep(0.02)
    return heard.leads(store)
