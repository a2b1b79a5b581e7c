"""What every pairing returns (tables with their reasons) and what it reads (the history).

A reason is data first, a code and its parameters, and English text second, so that another
language can word the same reason from the code (the exports translate, the pairing does not).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

# The English wording of each reason code, with %(name)s for its parameters: the same form as a
# gettext message id, so that a translation can be keyed on it (exports translate, not pairing).
TEXTS: dict[str, str] = {
    "same_score": "same score",  # the score stands beside the names
    "float_odd": "%(player)s floated down from %(score)s points because the group was odd",
    "float_rules": (
        "%(player)s floated down from %(score)s points: the group could not be paired among "
        "themselves without a rematch or a seat past the limits"
    ),
    "float_up": "%(player)s floated up from %(score)s points to meet %(opponent)s",
    "rematch": "a rematch, as no other pairing was left",
    "seat_beyond_limit": (
        "%(player)s has %(count)s more %(seat)s seats than the other kind, as no other "
        "pairing was left"
    ),
    "seat_three_in_a_row": (
        "%(player)s sits %(seat)s a third time in a row, as no pairing in the group avoids it"
    ),
    "seat_limit": "%(player)s first: the other seat would break the seat limits",
    "seat_balance": "%(player)s first: fewer first seats so far",
    "seat_alternate": "%(player)s first: sat second last time",
    "seat_balance_other": "%(player)s first: %(other)s has more first seats so far",
    "seat_alternate_other": "%(player)s first: %(other)s sat first last time",
    "seat_history": "%(player)s first: sat second when the two last sat differently",
    "seat_rank": "%(player)s first: higher in the standings",
    "bye": "bye: %(player)s, lowest ranked without a bye (%(score)s points)",
    "seed_pair": "round one by seed: seed %(seed)s against seed %(other)s",
    "seat_seed": "%(player)s first: the higher seed",
    "bye_seed": "bye: %(player)s, the lowest seed (seed %(seed)s)",
    "bye_rules": (
        "bye: %(player)s, lowest ranked without a bye whose bye leaves a pairing without a "
        "rematch or a seat past the limits (%(score)s points)"
    ),
    "bye_again": "bye: %(player)s, lowest ranked (%(score)s points; everyone has had a bye)",
}


@dataclass(frozen=True)
class Reason:
    """Why a table is as it is: a code from :data:`TEXTS` and the values its text needs.

    >>> Reason("float_odd", {"player": "Rosa", "score": "3"}).text
    'Rosa floated down from 3 points because the group was odd'
    """

    code: str
    params: Mapping[str, str] = field(default_factory=dict)

    @property
    def text(self) -> str:
        return TEXTS[self.code] % dict(self.params)

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "params": dict(self.params)}


def explain(reasons: Iterable[Reason]) -> str:
    """The reasons as one English sentence, in order."""
    return "; ".join(r.text for r in reasons)


@dataclass(frozen=True)
class Table:
    """A table: the players in seat order (the first is the challenger), or one with a bye."""

    players: tuple[str, ...]
    bye: bool = False
    why: str = ""
    reasons: tuple[Reason, ...] = ()

    def to_json(self, number: int) -> dict:
        out: dict[str, Any] = {
            "table": number,
            "players": list(self.players),
            "bye": self.bye,
            "why": self.why,
        }
        if self.reasons:
            out["reasons"] = [r.to_json() for r in self.reasons]
        return out


@dataclass(frozen=True)
class History:
    """What the pairing rules need to know about the rounds so far."""

    opponents: Mapping[str, frozenset[str]] = field(default_factory=dict)  # met at a table
    byes: frozenset[str] = frozenset()
    first_seats: Mapping[str, int] = field(default_factory=dict)  # times seated as challenger
    # Each player's seats in the duels played, oldest first: "F" first seat, "S" second.
    seats: Mapping[str, str] = field(default_factory=dict)
    floated_down: frozenset[str] = frozenset()  # in the last round
    floated_up: frozenset[str] = frozenset()

    def met(self, a: str, b: str) -> bool:
        return b in self.opponents.get(a, frozenset())

    @classmethod
    def from_rounds(cls, rounds: Iterable[Mapping[str, Any]]) -> History:
        """The history of the stored rounds (their tables as :meth:`Table.to_json` wrote them).

        The floats of the last round are read from its tables' reasons; rounds paired before
        reasons were stored have none.
        """
        opponents: dict[str, set[str]] = {}
        byes: set[str] = set()
        first: dict[str, int] = {}
        seats: dict[str, str] = {}
        down: set[str] = set()
        up: set[str] = set()
        for r in rounds:
            down, up = set(), set()
            for tb in r["tables"]:
                players = tb["players"]
                if tb["bye"]:
                    byes.add(players[0])
                    continue
                first[players[0]] = first.get(players[0], 0) + 1
                for p in players:
                    opponents.setdefault(p, set()).update(q for q in players if q != p)
                if len(players) == 2:
                    seats[players[0]] = seats.get(players[0], "") + "F"
                    seats[players[1]] = seats.get(players[1], "") + "S"
                for reason in tb.get("reasons", ()):
                    if reason["code"] in ("float_odd", "float_rules"):
                        down.add(reason["params"]["player"])
                    elif reason["code"] == "float_up":
                        up.add(reason["params"]["player"])
        return cls(
            {p: frozenset(o) for p, o in opponents.items()},
            frozenset(byes),
            first,
            seats,
            frozenset(down),
            frozenset(up),
        )
