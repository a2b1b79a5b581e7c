"""The web says a user's error as a flash message and a bug as a 500 (issue 22): a ``ValueError``
or any other bug in a service is never shown as if it were a refusal."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

from tournament.errors import Refused
from tournament.services import corrections, day
from tournament.storage.store import Store
from tournament.web.app import Settings, create_app

from .conftest import PASSPHRASE, log_in, rounds
from .test_organizer import said


@pytest.fixture
def client(store: Store) -> Iterator[TestClient]:
    """The organizer's pages, a bug answered as the server answers it (500), not raised here."""
    app = create_app(Settings(db=store.location, passphrase=PASSPHRASE, interval=0.05), store)
    with TestClient(app, base_url="http://127.0.0.1", raise_server_exceptions=False) as c:
        c.cookies.set("lang", "en")
        yield c


def raising(error: BaseException):  # noqa: ANN201 - a stand-in for a service
    def service(*args: object, **kwargs: object) -> None:
        raise error

    return service


def test_a_user_error_of_a_service_is_a_flash_message(
    client: TestClient, store: Store, monkeypatch
) -> None:
    token = log_in(client)
    monkeypatch.setattr(day, "pair_next_round", raising(Refused("the hall is not open yet")))
    r = client.post("/organizer/round/pair", data={"csrf": token})
    assert r.status_code == 200 and said(r.text) == "the hall is not open yet"
    assert rounds(store) == 0


def test_the_databases_own_error_is_a_flash_message_said_by_storage(
    client: TestClient, store: Store, monkeypatch
) -> None:
    token = log_in(client)
    locked = sqlite3.OperationalError("database is locked")
    monkeypatch.setattr(day, "pair_next_round", raising(locked))
    r = client.post("/organizer/round/pair", data={"csrf": token})
    assert said(r.text) == "the database cannot be used: database is locked"


@pytest.mark.parametrize("bug", [ZeroDivisionError("division by zero"), ValueError("unchecked")])
def test_a_bug_in_a_service_is_a_500_never_a_flash_message(
    client: TestClient, store: Store, monkeypatch, bug: Exception
) -> None:
    token = log_in(client)
    monkeypatch.setattr(day, "pair_next_round", raising(bug))
    r = client.post("/organizer/round/pair", data={"csrf": token})
    assert r.status_code == 500 and str(bug) not in r.text
    # The correction's preview caught any exception as if it were a store error: no longer.
    monkeypatch.setattr(corrections, "preview_move", raising(bug))
    form = {"csrf": token, "match": "M1", "on": "1", "kind": "void", "reason": "x", "do": "preview"}
    r = client.post("/organizer/correct", data=form)
    assert r.status_code == 500 and str(bug) not in r.text


def test_a_form_field_that_is_not_a_number_is_a_refusal(client: TestClient, store: Store) -> None:
    """The form's whole numbers were checked with a ValueError, which the web took for a
    refusal: it is a ``Refused`` now, the same sentence."""
    token = log_in(client)
    form = {"csrf": token, "match": "M1", "on": "x", "kind": "void", "reason": "r", "do": "preview"}
    r = client.post("/organizer/correct", data=form)
    assert r.status_code == 200 and said(r.text) == "on must be a whole number, not 'x'"
