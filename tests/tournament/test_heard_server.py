"""What a server's kept store hears of its store (#27, tournament.storage.heard): a look at
the table files' holds is not asked again while nobody else stored anything, a write of
another process is heard and looked at, and the process's own saves are read on from; a kept
match is brought forward in one round trip."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.tournament.test_holds_server import partita_store
from tests.tournament.test_tablefiles import moves, ok
from tournament.readside import ahead, kept, reading
from tournament.services.matches import record_move
from tournament.storage import heard, holds, newer, postgres
from tournament.storage.locations import PostgresServer, close


def until(what: Callable[[], bool]) -> None:
    """Wait for the listener's thread (an event, at most ten seconds: never a fixed sleep)."""
    woken = threading.Event()
    for _ in range(1000):
        if what():
            return
        woken.wait(0.01)
    raise AssertionError("the listener never got there")


def recording(
    monkeypatch: pytest.MonkeyPatch, owner: Any, name: str, note: Callable[..., Any]
) -> list[Any]:
    """``owner.name`` made to note each call (``note(*args)``, left out when None) in the list
    returned, then do what it did."""
    noted: list[Any] = []
    real = getattr(owner, name)

    def recorded(*args: Any, **kwargs: Any) -> Any:
        said = note(*args, **kwargs)
        if said is not None:
            noted.append(said)
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, recorded)
    return noted


def test_a_look_is_asked_again_only_after_another_process_stored_until_closed(
    postgres_server: PostgresServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db, s = partita_store(postgres_server)
    try:
        kept.keep(s)
        until(lambda: heard.now(s) is not None)
        # (the command line's own store's looks are its own)
        looks = recording(
            monkeypatch, newer, "last_and_since", lambda *a, **k: a if a[0] is s else None
        )
        assert not holds.holds(s).out and len(looks) == 1
        assert not holds.holds(s).out and len(looks) == 1  # nothing heard: nothing asked

        # This process's own move: read on from, and not asked again after it.
        line = moves(db, "M1", seed=1)[1]
        record_move(s, "M1", line)
        asked = len(looks)  # (the move's own checks: one look at most)
        assert asked <= 2
        holds.holds(s)
        assert len(looks) == asked
        # A save's check asks the server all the same: a checkout committed a moment ago,
        # its notification not heard yet, must refuse the save (review of #27).
        holds.check(s, [])
        assert len(looks) == asked + 1
        asked += 1

        # Another process checks table 1 out: heard, looked at, and refused from then on.
        count = heard.now(s)
        ok(db, "table", "checkout", "1", "2", "--to", str(tmp_path / "t2.db"))
        until(lambda: heard.now(s) != count)
        assert (1, 2) in holds.holds(s).out and len(looks) == asked + 1

        # A match kept as read is brought forward by another's move in one round trip: its
        # kept head and the rows after it, not a look at its last event first.
        was = reading.read_match(s, "M1")
        ok(db, "match", "move", "M1", moves(db, "M1", seed=1)[2])
        # (one statement: the thread's kept connection's)
        selects = recording(monkeypatch, newer, "events_after", lambda *a, **k: a)
        assert len(reading.read_match(s, "M1").lines) == len(was.lines) + 1
        assert len(selects) == 1
        assert reading.read_match(s, "M1").lines and len(selects) == 2  # (nothing since: one)
    finally:
        listener = vars(s)["_heard"]
        close(s)
    # The store's close stops its listener: nothing counts as heard any more, every look asks.
    assert heard.now(s) is None and listener.stopped.is_set()


def test_a_page_takes_what_was_read_while_nobody_else_wrote(
    postgres_server: PostgresServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """#27: a page's reads (``heard_ok``) of the tournament and of a match ask the server
    nothing while the store's listener heard nobody else write since the last look; this
    process's own save of the match, and another process's move, are looked at (once); a
    writer's read asks every time."""
    from tournament.domain.tournaments import TOURNAMENT_ID

    db, s = partita_store(postgres_server)
    try:
        kept.keep(s)
        until(lambda: heard.now(s) is not None)
        asked = recording(
            monkeypatch, newer, "events_after",
            lambda store, originator, version: "tournament" if originator == TOURNAMENT_ID
            else "match",
        )  # fmt: skip
        t = kept.tournament(s, heard_ok=True)  # (read whole the first time)
        asked.clear()
        assert kept.tournament(s, heard_ok=True) is t and asked == []  # nothing heard
        assert kept.tournament(s) is t and asked == ["tournament"]  # a writer's: asked
        was = reading.read_match(s, "M1", heard_ok=True)
        asked.clear()
        assert reading.read_match(s, "M1", heard_ok=True) is was and asked == []

        looked = kept.looked_match(s, "M1")
        record_move(s, "M1", moves(db, "M1", seed=1)[1])  # this process's own move
        assert looked is not None
        kept.keep_match(s, *looked)  # (kept as before it: a save nothing kept the match after)
        asked.clear()
        after = reading.read_match(s, "M1", heard_ok=True)  # (the version it saved: asked)
        assert len(after.lines) == len(was.lines) + 1 and asked == ["match"]
        assert reading.read_match(s, "M1", heard_ok=True) is after and asked == ["match"]
        monkeypatch.setattr(heard, "TRUST", -1.0)  # a look too old: asked, heard or not
        assert reading.read_match(s, "M1", heard_ok=True) == after and len(asked) == 2
        monkeypatch.setattr(heard, "TRUST", 5.0)
        asked.clear()

        count = heard.now(s)  # another process's move: heard, then read; it names the match
        ok(db, "match", "move", "M1", moves(db, "M1", seed=1)[2])  # alone (#27, workers)
        until(lambda: heard.now(s) != count)
        assert len(reading.read_match(s, "M1", heard_ok=True).lines) == len(after.lines) + 1
        assert kept.tournament(s, heard_ok=True) is t and asked == ["match"]
        assert reading.read_match(s, "M1", heard_ok=True) and asked == ["match"]

        # A write that names nothing (an older version's, or eventsourcing's own NOTIFY):
        # anything may have changed, everything is looked at again.
        count = heard.now(s)
        with postgres.connect(s.location) as other:
            other.execute(f"notify {s.recorder.channel_name}, 'an older writer'")
        until(lambda: heard.now(s) != count)
        assert kept.tournament(s, heard_ok=True) is t and asked == ["match", "tournament"]
        assert kept.tournament(s, heard_ok=True) is t and len(asked) == 2  # looked: not again
        reading.read_match(s, "M1", heard_ok=True)
        assert asked == ["match", "tournament", "match"]
    finally:
        close(s)


def test_a_look_goes_on_through_the_pool_when_the_thread_s_connection_broke(
    postgres_server: PostgresServer,
) -> None:
    """A server restarted (here: the thread's own connection ended by the server): the holds'
    look and the live stream's look at the notifications answer all the same, through
    eventsourcing's pool, and the broken connection is not tried again."""
    from tournament.storage.sql import read_db

    db, s = partita_store(postgres_server)
    try:
        kept.keep(s)
        read_db(s)  # (this thread's own connection, as a server's request thread has)
        conn = newer.idle_connection(s)
        assert conn is not None
        upto = newer.last_and_since(s, 0, holds.TOPICS, 10)[0]
        assert upto > 0 and [n.id for n in newer.notifications_after(s, 0, 1000)][-1] == upto
        with postgres.connect(s.location) as other:
            other.execute("select pg_terminate_backend(%s)", [conn.info.backend_pid])
        assert newer.last_and_since(s, 0, holds.TOPICS, 10)[0] == upto
        assert [n.id for n in newer.notifications_after(s, 0, 1000)][-1] == upto
        assert newer.idle_connection(s) is None
    finally:
        close(s)


def test_one_process_of_a_store_leads_the_refresh_and_another_takes_it_when_it_stops(
    postgres_server: PostgresServer,
) -> None:
    """#27, workers: of the processes serving one store, the one whose listener holds the
    schema's lock refreshes the read models after others' moves; when it stops, another takes
    the lead at its next try. A process that does not seek it (the command line) is not in
    the way, and refreshes as before. Another schema's lead is its own."""
    from tournament.storage.store import Store

    db, first = partita_store(postgres_server)
    second, third = Store(db), Store(db)
    _, elsewhere = partita_store(postgres_server)
    try:
        heard.seek_lead(first)  # sought before the store is listened to: taken when it is
        for s in (first, second, third, elsewhere):
            kept.keep(s)
        heard.seek_lead(second)
        heard.seek_lead(elsewhere)
        until(lambda: heard.leads(first) != heard.leads(second))
        assert heard.leads(third)  # (not seeking: refreshes whenever it would)
        until(lambda: heard.leads(elsewhere))
        leader, follower = (first, second) if heard.leads(first) else (second, first)
        threading.Event().wait(heard.LEAD_TRY * 1.5)  # (the follower tried again meanwhile)
        assert heard.leads(leader) and not heard.leads(follower)
        close(leader)
        until(lambda: heard.leads(follower))
    finally:
        for s in (first, second, third, elsewhere):
            close(s)


def test_a_link_found_is_taken_until_cards_are_printed_again_anywhere(
    postgres_server: PostgresServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """#27: a table link's look-up for a table's request is not asked again while nobody
    printed cards since (a fresh one always is); new cards printed by this process or another
    (a notification that names the links) end the old link at once, there as here, and a
    look that overlaps a reprint here keeps nothing."""
    from tournament.services import stores
    from tournament.storage import sql
    from tournament.storage.store import Store

    db, s = partita_store(postgres_server)
    other = Store(db)
    old, new = "a" * 64, "b" * 64
    try:
        kept.keep(s)
        until(lambda: heard.now(s) is not None)
        count = heard.now(s)
        stores.replace_links(s, 1, {1: old})
        until(lambda: heard.now(s) != count)  # (its own notification heard: see below)
        asked = recording(
            monkeypatch, sql.PostgresSQL, "rows",
            lambda db, statement, *a: statement if "web_tables" in statement else None,
        )  # fmt: skip
        assert stores.find_link(s, old, False) == (1, 1) and len(asked) == 1
        assert stores.find_link(s, old, False) == (1, 1) and len(asked) == 1  # taken: not asked
        assert stores.find_link(s, old) == (1, 1) and len(asked) == 2  # a write's: asked
        asked.pop()
        count = heard.now(s)
        ok(db, "match", "move", "M1", moves(db, "M1", seed=1)[1])  # (heard: names a match)
        until(lambda: heard.now(s) != count)
        assert stores.find_link(s, old, False) == (1, 1) and len(asked) == 1
        assert stores.find_link(s, "c" * 64, False) is None and len(asked) == 2  # (never kept)
        assert stores.find_link(s, "c" * 64, False) is None and len(asked) == 3

        count = heard.now(s)
        stores.replace_links(other, 1, {1: new})  # another process prints the cards again
        until(lambda: heard.now(s) != count)
        assert stores.find_link(s, old, False) is None and stores.find_link(s, new, False) == (1, 1)
        # And this one: at once, whether or when its listener hears it (deaf here).
        monkeypatch.setattr(heard.Heard, "heard", lambda self, text: True)
        stores.replace_links(s, 1, {1: old})
        assert stores.find_link(s, new, False) is None
        # A look that overlaps a reprint here keeps nothing it found.
        real = stores.own_tables

        @contextmanager
        def reprinting(store: Any, write: bool = True) -> Iterator[Any]:
            with real(store, write) as db:
                yield db
            monkeypatch.setattr(stores, "own_tables", real)
            stores.replace_links(s, 1, {1: new})  # (between the look's read and its keeping)

        monkeypatch.setattr(stores, "own_tables", reprinting)
        assert stores.find_link(s, old, False) == (1, 1)  # (read before the reprint)
        assert stores.find_link(s, old, False) is None  # not kept past it
    finally:
        close(other)
        close(s)


def test_a_save_notifies_the_aggregates_it_stores_by_name(
    postgres_server: PostgresServer,
) -> None:
    """#27: each insert's NOTIFY names what it stores (the payload: the writer's token, then
    each aggregate's id in hex), so that another process looks again at those only; one that
    names nothing this program knows is heard as "anything may have changed"."""
    from tournament.domain.tournaments import TOURNAMENT_ID
    from tournament.storage import named
    from tournament.storage.sealedlog import match_uuid

    db, s = partita_store(postgres_server)
    try:
        with postgres.connect(s.location) as listening:
            listening.execute(f"listen {s.recorder.channel_name}")
            ok(db, "match", "move", "M1", moves(db, "M1", seed=1)[1])
            heard_now = postgres.notified(listening, 10)
        token, names = named.names(heard_now[0].payload)
        assert names == [match_uuid("M1").hex] and len(token) == 32
        assert named.payload(token, [TOURNAMENT_ID.hex, None]) == token  # (not all named)
        assert named.names(token) == (token, None)
        assert named.names("an older writer") == ("an", None)
    finally:
        close(s)


def test_a_move_s_writer_asks_its_three_looks_together_and_sees_what_others_stored(
    postgres_server: PostgresServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """#27: in a move's turn the writer's looks (the tournament, the match it last wrote, the
    table files' holds), when it may not take them as heard (tests/tournament/
    test_guard_server.py), are asked of the server in one statement at the turn's start; what
    another process stored before it is in the answer: its move read on from, its checkout
    refusing the save."""
    from tournament.storage.sql import read_db

    db, s = partita_store(postgres_server)
    monkeypatch.setattr(ahead, "_known", lambda store, number: None)
    try:
        kept.keep(s)
        read_db(s)  # (this thread's own connection, as a server's request thread has)
        record_move(s, "M1", moves(db, "M1", seed=1)[1])  # (the match kept as written)
        kept.tournament(s)  # (and the tournament, as a table's page read it)
        # The aggregates asked together (the tournament, the match), and the looks of this
        # store asked alone (the command line's own store's are its own).
        together = recording(monkeypatch, newer, "_together", lambda *a: len(a[2]))
        alone = recording(monkeypatch, newer, "_kept_or", lambda *a: a if a[0] is s else None)

        def turn() -> Any:
            def write() -> Any:
                kept.tournament(s)
                match = kept.match_to_write(s, "M1")
                holds.check(s, [match])
                return match

            return ahead.write_ahead(s, "M1", write)

        match = turn()
        assert together == [2] and alone == []  # one statement for the three
        before = len(match.lines)
        kept._writing.setdefault(s, {})["M1"] = match  # (as the write left it)
        ok(db, "match", "move", "M1", moves(db, "M1", seed=1)[2])  # another process's move
        match = turn()
        assert len(match.lines) == before + 1 and together == [2, 2] and alone == []
        # Another's write heard, a page's look at the holds in the turn takes its answer: the
        # save's check goes on from it, as of the same moment, and asks nothing more; a second
        # save's check in the turn asks, and sees a checkout stored meanwhile.
        count = heard.now(s)
        ok(db, "match", "move", "M2", moves(db, "M2", seed=1)[1])
        until(lambda: heard.now(s) != count)
        kept._writing.setdefault(s, {})["M1"] = match

        def paged() -> None:
            assert not holds.holds(s).out
            holds.check(s, [kept.match_to_write(s, "M1")])
            assert together == [2, 2, 2] and alone == []
            ok(db, "table", "checkout", "1", "2", "--to", str(tmp_path / "t2.db"))
            with pytest.raises(holds.TableOut):
                holds.check(s, [kept.match_to_write(s, "M2")])

        ahead.write_ahead(s, "M1", paged)
        assert len(alone) == 1
        alone.clear()
        ok(db, "table", "checkout", "1", "1", "--to", str(tmp_path / "t1.db"))

        def checked() -> None:
            kept.tournament(s)
            holds.check(s, [kept.match_to_write(s, "M1")])

        with pytest.raises(holds.TableOut):
            ahead.write_ahead(s, "M1", checked)
        assert alone == []
    finally:
        close(s)
