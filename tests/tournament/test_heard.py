"""What a server process's listener makes of what it hears (#27, tournament.storage.heard), on
its own: which notifications name what, who refreshes the read models, and how long a look
made ahead of its use stands. (With a server: test_heard_server.py.)"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any
from uuid import uuid4

import psycopg
import pytest

from tournament.storage import heard, named


def listening(token: str = "mine") -> Any:
    """A store as heard.py sees one: a listener that hears, and nothing saved."""
    h = heard.Heard(token)
    h.hearing(True)
    return SimpleNamespace(_heard=h)


def test_a_notification_naming_an_aggregate_makes_only_that_one_looked_at_again() -> None:
    store, one, other = listening(), uuid4(), uuid4()
    looked = heard.look(store)
    assert heard.unchanged_since(store, looked, one, 1)
    store._heard.heard(named.payload("theirs", [one.hex]))
    assert not heard.unchanged_since(store, looked, one, 1)
    assert heard.unchanged_since(store, looked, other, 1)
    store._heard.heard(named.payload("mine", [other.hex]))  # this process's own: not heard
    assert heard.unchanged_since(store, looked, other, 1)
    store._heard.heard("theirs")  # naming nothing (an older version's): everything again
    assert not heard.unchanged_since(store, looked, other, 1)
    store._heard.hearing(False)
    assert not heard.unchanged_since(store, heard.look(store), other, 1)  # (not listening)


def test_a_look_made_ahead_is_dated_from_then() -> None:
    """A look asked ahead of its use (a move's writer: newer.ahead) is as old as its statement:
    what is heard between the statement and the use is looked at again afterwards."""
    store, one = listening(), uuid4()
    with heard.earlier(store):
        store._heard.heard(named.payload("theirs", [one.hex]))  # heard after the statement
        looked = heard.look(store)  # (the use: kept.tournament's, reading's)
        stamp = heard.now(store)  # (holds')
    assert not heard.unchanged_since(store, looked, one, 1)
    assert stamp != heard.now(store)
    assert heard.unchanged_since(store, heard.look(store), one, 1)  # (a look made after: stands)


def test_the_refresh_is_led_by_one_process_and_by_each_when_none_can_lead() -> None:
    store = listening()
    assert heard.leads(store)  # not seeking (the command line): refreshes as ever
    heard.seek_lead(store)
    assert not heard.leads(store)  # seeking, another process holding the lead
    store._heard.leading = True
    assert heard.leads(store)
    store._heard.hearing(False)  # the connection broke: the lock went with it
    assert not store._heard.leading and heard.leads(store)  # nobody may hold it: each refreshes
    assert heard.leads(SimpleNamespace())  # a file's store


class Refusing:
    """A listening connection whose server refuses the lock (not a broken connection)."""

    def __init__(self, error: Exception) -> None:
        self.error = error

    def execute(self, *args: Any) -> Any:
        raise self.error


def test_a_server_refusing_the_lead_s_lock_leaves_this_process_refreshing() -> None:
    store = listening()
    heard.seek_lead(store)
    heard._try_lead(Refusing(psycopg.errors.InsufficientPrivilege("no")), store._heard, "s")
    assert not store._heard.seeking and heard.leads(store)
    with pytest.raises(psycopg.OperationalError):  # (a broken connection: listened to again)
        heard._try_lead(Refusing(psycopg.OperationalError("gone")), store._heard, "s")


def test_a_payload_names_what_was_stored_or_nothing() -> None:
    ids = [uuid4().hex for _ in range(3)]
    assert named.names(named.payload("tok", ids)) == ("tok", sorted(ids))
    assert named.payload("tok", [*ids, None]) == "tok"  # (an id that is not a UUID)
    assert named.payload("tok", [uuid4().hex for _ in range(named.NAMES + 1)]) == "tok"
    assert named.names(named.payload("", [named.LINKS])) == ("", [named.LINKS])
    assert named.names("tok") == ("tok", None)
    assert named.names("an older writer") == ("an", None)  # (not hex: names nothing known)
