"""What a user can be told: one base for every error whose message is meant for them.

A :class:`UserError` is the program saying no (a refused command, a conflict with another
terminal, a store it cannot read or a newer version wrote, a log that cannot have happened, a
word list it cannot open); its message is one sentence for the user, a plain text or a catalogue
message (:class:`engine.message.Msg`) that a front end says in its language. Every front end
catches this one type. Anything else is a bug and stays one: the command line's bug report
(exit 70), the web's 500, never a message that looks like a refusal.

The engine does not import the application: where a service calls the engine, it turns the
engine's errors (``RuleViolation``, ``NotationError``, ``LexiconError``) into :class:`Refused`.
Storage does the same with its libraries' errors (eventsourcing's, sqlite3's, psycopg's).
"""

from __future__ import annotations

NEWER = "written by a newer version of tournament (upgrade to read it)"


class UserError(Exception):
    """Something the user asked that cannot be done; the message says why in one sentence.

    Never raised for a bug: a broken invariant stays an ``AssertionError``, a ``TypeError``...
    """


class Refused(UserError):
    """A command refused with one sentence for the user; nothing was stored."""


class StoreError(UserError):
    """Something the user asked of the store that cannot be done (the message says what)."""


class NewerVersionError(StoreError):
    """The database holds what only a newer version of the program can read; nothing is changed."""

    def __init__(self, what: str | None = None) -> None:
        from engine.message import msg  # (the errors module imports nothing at its top)

        super().__init__(
            msg("%(what)s was written by a newer version of tournament (upgrade to read it)",
                what=what if what is not None else msg("this database"))
        )  # fmt: skip
