"""Table files (#26): who may write a table's matches while the table is out.

A table with no network is checked out to a store of its own (a *table file*): its matches are
recorded there, with every usual command, until the file is checked in or the table released.
Meanwhile each store refuses the writes that are the other's:

- the tournament refuses every write to an out table's matches and to the table itself (its
  matches attached, referees named, heads, amendments, its round closed), except the check-in or
  the release that brings it back;
- the table file records its own table's matches only (starting its challenges at the numbers
  the tournament gave them, naming their referees, their heads): everything else is the
  tournament's.

What a store knows of its table files is read from four of the tournament's events, in the order
they were stored (:class:`Holds`, made by :mod:`tournament.storage.holds` without loading the
tournament); the decisions here are pure.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from engine.message import Msg, msg

OUT, IN, RELEASED, FILE = "TableCheckedOut", "TableCheckedIn", "TableReleased", "TableFileWritten"
KINDS = (OUT, IN, RELEASED, FILE)
# The tournament's events a table file may store (each about its own table or matches).
FILE_MAY = ("MatchAttached", "RefereeNamed", "HeadRecorded")


class Out:
    """A table that is out: its round, its number, its matches (game -> number), its file."""

    def __init__(
        self, round_number: int, table: int, matches: dict[str, str], to: str, at: str, seal: str
    ) -> None:
        self.round, self.table, self.to, self.at = round_number, table, to, at
        self.matches = dict(matches)
        self.seal = seal  # the hash of its checkout event: the file and the tournament share it

    @property
    def numbers(self) -> set[str]:
        return set(self.matches.values())


class Holds:
    """What a store's events say of its table files."""

    def __init__(self) -> None:
        self.out: dict[tuple[int, int], Out] = {}  # the tables out now
        self.reserved: set[str] = set()  # every number a checkout gave, for good
        self.file: Out | None = None  # this store is that table's file (``to``: its home)
        self.closed = False  # ... and it was checked in (or its table released) since
        self._last: dict[tuple[int, int], Out] = {}

    @classmethod
    def of(cls, events: Iterable[Any]) -> Holds:
        """The holds that the stored table events (in their stored order) leave."""
        holds = cls()
        for e in events:
            holds.apply(e)
        return holds

    def apply(self, e: Any) -> None:
        kind, key = type(e).__name__, (e.round, e.table)
        if kind == OUT:
            self.out[key] = self._last[key] = Out(
                e.round, e.table, e.matches, e.to, e.timestamp.isoformat(), e.hash
            )
            self.reserved |= set(e.matches.values())
        elif kind in (IN, RELEASED):
            self.out.pop(key, None)
            if self.file is not None and key == (self.file.round, self.file.table):
                self.closed = True
        elif kind == FILE:
            last = self._last.get(key)
            matches, seal = (last.matches, last.seal) if last else ({}, "")
            self.file = Out(e.round, e.table, matches, e.home, "", seal)
            self.out.pop(key, None)  # this store is where the table is

    def out_with(self, number: str) -> Out | None:
        """The out table whose match is ``number``, if any."""
        return next((o for o in self.out.values() if number in o.numbers), None)


def where(out: Out) -> Msg:
    """Where an out table is, in one sentence with what to do."""
    return msg(
        "table %(table)s of round %(round)s is out: its matches %(matches)s are recorded in the "
        "table file %(file)s (checked out at %(at)s); record there and check it in (tournament "
        "table checkin FILE), or take the table back (tournament table release %(round)s "
        "%(table)s)",
        table=out.table,
        round=out.round,
        matches=", ".join(sorted(out.numbers, key=_order)),
        file=out.to,
        at=out.at[:16].replace("T", " "),
    )


def refusal(holds: Holds, numbers: Sequence[str], events: Sequence[Any]) -> Msg | None:
    """Why a save that writes the matches ``numbers`` and the tournament's pending ``events``
    is the other store's, or None when it may be stored here."""
    if holds.file is not None:
        return _in_file(holds, numbers, events)
    back = {(e.round, e.table) for e in events if type(e).__name__ in (IN, RELEASED, FILE)}
    for key, out in holds.out.items():
        if key in back:
            continue  # the check-in, the release (or the file's own copy) brings it back
        if any(n in out.numbers for n in numbers) or any(_about(e, out) for e in events):
            return where(out)
    return None


def _about(e: Any, out: Out) -> bool:
    """Whether a tournament event writes to the out table (or closes its round)."""
    fields = vars(e)
    if fields.get("round") == out.round and fields.get("table") == out.table:
        return True
    if type(e).__name__ == "RoundClosed" and fields.get("number") == out.round:
        return True
    return fields.get("match") in out.numbers


def _in_file(holds: Holds, numbers: Sequence[str], events: Sequence[Any]) -> Msg | None:
    file = holds.file
    assert file is not None
    if holds.closed:
        return msg(
            "this table file was checked in to the tournament at %(home)s (or its table taken "
            "back): record there now",
            home=file.to,
        )
    if [type(e).__name__ for e in events] == [IN]:
        return None  # the check-in, noted in the file
    mine = file.numbers
    foreign = [n for n in numbers if n not in mine]
    allowed = all(
        type(e).__name__ in FILE_MAY
        and (
            (vars(e).get("round"), vars(e).get("table")) == (file.round, file.table)
            or vars(e).get("match") in mine
        )
        for e in events
    )
    if not foreign and allowed:
        return None
    return msg(
        "this is the table file of table %(table)s of round %(round)s: it records only its "
        "matches %(matches)s; the rest is done in the tournament at %(home)s",
        table=file.table,
        round=file.round,
        matches=", ".join(sorted(mine, key=_order)),
        home=file.to,
    )


def _order(number: str) -> int:
    return int(number[1:])
