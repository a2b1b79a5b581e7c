"""A server schema's tables as its read models' connections see them (#27: a table seen once is
not asked of the server again): what a transaction is making is not taken as there by the
others, before it commits nor after it rolls back."""

from __future__ import annotations

import pytest

from tests.tournament.conftest import new_schema
from tournament.storage.locations import PostgresServer, close
from tournament.storage.sql import PostgresReadDB
from tournament.storage.store import Store


class Boom(Exception):
    pass


def test_a_table_made_in_a_transaction_is_not_taken_as_there_by_another_connection(
    postgres_server: PostgresServer,
) -> None:
    store = Store(new_schema(postgres_server))
    try:
        making, other = PostgresReadDB(store), PostgresReadDB(store)  # (their seen set shared)
        with pytest.raises(Boom):
            with making.transaction():
                making.run("create table _made (x bigint)")
                assert making.made_meanwhile("_made")  # the maker sees its own table
                assert "_made" not in other.tables()  # not there for anyone else yet
                raise Boom  # and it never will be
        assert "_made" not in other.tables() and "_made" not in making.tables()
        making.run("create table _made (x bigint)")  # made outside a transaction: there
        assert "_made" in other.tables()
    finally:
        close(store)
