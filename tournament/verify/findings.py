"""What ``tournament verify`` finds: each failure with its match and position, and the report."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from engine.message import Msg, msg

TOURNAMENT = "tournament"


@dataclass(frozen=True)
class Failure:
    match: str  # a match's number, "tournament", or where the row is stored
    position: int  # 0: the header (a match's start); the tournament: its event's version
    problem: str  # a Msg where the program wrote it: said in the reader's language

    def __str__(self) -> str:
        return str(self.message())

    def message(self) -> Msg:
        """The failure as a sentence (in English as a str: the JSON report's words)."""
        where = msg("the header") if self.position == 0 else msg("position %(n)s", n=self.position)
        return msg("%(match)s, %(where)s: %(problem)s", match=self.match, where=where,
                   problem=self.problem)  # fmt: skip


def why(error: BaseException) -> Any:
    """What an error says: the program's own message (a Msg, said in the reader's language),
    or the error's text."""
    args = error.args
    return args[0] if len(args) == 1 and isinstance(args[0], Msg) else str(error)


@dataclass
class Report:
    matches: int = 0
    events: int = 0
    tournament_events: int = 0
    heads: dict[str, str | None] = field(default_factory=dict)
    failures: list[Failure] = field(default_factory=list)
    sealed_dice: list[str] = field(default_factory=list)  # digital dice not revealed yet
    # how many chains (and the tournament's snapshots) are in each format: "match chain v1" ...
    formats: Counter[str] = field(default_factory=Counter)
    unsealed: int = 0  # the tournament's first events stored without a hash (chain v1, 0.1's)

    @property
    def ok(self) -> bool:
        return not self.failures

    def add(self, part: Report) -> None:
        """Take in what a part of the store gave (a match checked in another process)."""
        self.matches += part.matches
        self.events += part.events
        self.tournament_events += part.tournament_events
        self.heads.update(part.heads)
        self.failures += part.failures
        self.sealed_dice += part.sealed_dice
        self.formats.update(part.formats)

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "matches": self.matches,
            "events": self.events,
            "tournament_events": self.tournament_events,
            "failures": [vars(f) for f in self.failures],
            "sealed_dice": self.sealed_dice,
            "formats": dict(sorted(self.formats.items())),
        }
