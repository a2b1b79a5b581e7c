"""The application's refusals and the store's errors, below every layer that raises them."""

from __future__ import annotations

NEWER = "written by a newer version of tournament (upgrade to read it)"


class Refused(Exception):
    """A command refused with one sentence for the user; nothing was stored."""


class StoreError(Exception):
    """Something the user asked of the store that cannot be done (the message says what)."""


class NewerVersionError(StoreError):
    """The database holds what only a newer version of the program can read; nothing is changed."""

    def __init__(self, what: str = "this database") -> None:
        super().__init__(f"{what} was {NEWER}")
