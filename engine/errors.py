"""Rule violations: why an event cannot be part of a match log.

A violation names the rule it breaks (an id of RULES.md such as ``TIR-2``, or ``FORMAT`` for the
interchange format) and says what is wrong in words a referee understands. The subclasses sort the
ways a log can be impossible, as python-chess sorts its move errors.
"""

from __future__ import annotations


class RuleViolation(ValueError):
    """An event that cannot have happened at this point of the match."""

    def __init__(self, message: str, rule: str = "FORMAT") -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule

    def __str__(self) -> str:
        return f"{self.message} ({self.rule})"


class MalformedEvent(RuleViolation):
    """Not a well-formed event: a missing or ill-typed field, an unknown type, a bad value."""


class NotYourTurn(RuleViolation):
    """A player acting when someone else must act."""


class NotAllowedNow(RuleViolation):
    """A kind of event the rules do not allow at this point (a roll where a word is due ...)."""


class GameOver(RuleViolation):
    """Play after the challenge has ended (only a ruling or a void may still come)."""


class BadHeader(RuleViolation):
    """A match header that cannot start a game (unknown game, too few players ...)."""
