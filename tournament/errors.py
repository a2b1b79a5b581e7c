"""The store's errors, shared by every backend (SQLite now, PostgreSQL later)."""

from __future__ import annotations

NEWER = "written by a newer version of tournament (upgrade to read it)"


class StoreError(Exception):
    """Something the user asked of the store that cannot be done (the message says what)."""


class NewerVersionError(StoreError):
    """The database holds what only a newer version of the program can read; nothing is changed."""

    def __init__(self, what: str = "this database") -> None:
        super().__init__(f"{what} was {NEWER}")
