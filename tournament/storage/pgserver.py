"""A database on a PostgreSQL server, as ``--db`` names it (:func:`.locations.locate`).

A module of its own: a command on an SQLite file never imports it, nor pays the code its
dataclass generates (#27).
"""

from __future__ import annotations

import importlib.util
import os
from dataclasses import dataclass, field
from pathlib import Path

from engine.message import msg

INSTALL = "pip install 'tournament[postgres]'"


@dataclass(frozen=True)  # a dataclass: callers copy it with dataclasses.replace
class PostgresServer:
    """A database on a PostgreSQL server (one schema of it)."""

    host: str
    port: str
    dbname: str
    user: str
    password: str = field(repr=False)
    schema: str = "public"
    is_server = True

    def __str__(self) -> str:
        """The URL without its password: what every message shows."""
        schema = f"?schema={self.schema}" if self.schema != "public" else ""
        return f"postgresql://{self.user}@{self.host}:{self.port}/{self.dbname}{schema}"

    def env(self) -> dict[str, str]:
        """eventsourcing's PostgreSQL settings (its own POSTGRES_* variables tune the rest)."""
        require_driver()
        return {
            "PERSISTENCE_MODULE": "tournament.storage.postgres:Factory",
            "POSTGRES_DBNAME": self.dbname,
            "POSTGRES_HOST": self.host,
            "POSTGRES_PORT": self.port,
            "POSTGRES_USER": self.user,
            "POSTGRES_PASSWORD": self.password,
            "POSTGRES_SCHEMA": self.schema,
            # A command line call needs one connection; a web server may raise these.
            "POSTGRES_POOL_SIZE": os.environ.get("POSTGRES_POOL_SIZE", "1"),
            "POSTGRES_MAX_OVERFLOW": os.environ.get("POSTGRES_MAX_OVERFLOW", "4"),
            "POSTGRES_CONNECT_TIMEOUT": os.environ.get("POSTGRES_CONNECT_TIMEOUT", "10"),
        }

    def conninfo(self) -> dict[str, str]:
        """Keyword arguments of ``psycopg.connect``."""
        return {
            "host": self.host,
            "port": self.port,
            "dbname": self.dbname,
            "user": self.user,
            "password": self.password,
        }

    def redact(self, text: str) -> str:
        """A message with the password taken out (a driver's error may quote its input)."""
        return text.replace(self.password, "***") if self.password else text

    def full_name(self) -> str:
        return str(self)

    def exports_folder(self) -> Path:
        """Where the demo writes its printable files: the current folder (the server has none)."""
        return Path.cwd() / "exports-out"


def require_driver() -> None:
    """A PostgreSQL URL needs the ``postgres`` extra (psycopg 3 and its pool): say how to get it."""
    if not all(importlib.util.find_spec(name) for name in ("psycopg", "psycopg_pool")):
        from tournament.errors import StoreError

        raise StoreError(
            msg(
                "a postgresql:// database needs the PostgreSQL support, which is not installed: "
                "%(install)s (psycopg 3 with its pool)",
                install=INSTALL,
            )
        )
