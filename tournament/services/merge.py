"""The merge of a match's log (#26 part 3): a fast-forward, whatever carried the longer log.

A match has one writer at a time, and its events are an append-only chain; so two copies of a
match merge only one way: the store's copy is a prefix of the incoming one (the same start, the
same events with the same hashes, in the same order), and the incoming events after it are
appended as they are, with their times, so that they keep their hashes (a head hash printed
where they were recorded stays valid here). Anything else means the match moved on in both
places: it is refused with the position where the two part and the event each holds there.

The incoming copy's chain is checked first (:meth:`SealedLog.intact`), and the merged log is
replayed through the rules before anything is stored. Used by ``table checkin`` (a table file)
and by ``match import`` of a longer log of a match stored here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

import orjson

from engine.events import parse_event
from engine.message import Msg, msg
from engine.notation import format as format_move
from tournament.errors import Refused
from tournament.logformat.matchlog import Binding, chain, genesis
from tournament.storage.sealedlog import SealedLog, match_uuid
from tournament.storage.store import Match


class Diverged(Refused):
    """The match moved on in both places: nothing is merged."""


@dataclass(frozen=True)
class Incoming(SealedLog):
    """A match's log carried from elsewhere (an exported log's lines and binding)."""

    number: str
    id: UUID
    header: str
    start: str | None
    lines: Sequence[str]
    hashes: Sequence[str]
    times: Sequence[str]

    @classmethod
    def of(cls, header: str, lines: Sequence[str], binding: Binding) -> Incoming:
        at = Binding(binding.match, binding.id, binding.at)
        number = binding.match
        hashes = chain(header, lines, binding)
        times = (binding.at, *binding.times)
        return cls(number, match_uuid(number), header, genesis(header, at), lines, hashes, times)


def fast_forward(mine: SealedLog | None, theirs: SealedLog, where: Msg | str) -> Match | None:
    """The store's match (``mine``, None when it holds none yet) with the events ``theirs``
    adds, as an aggregate to save (None: nothing to add). ``where`` names the incoming copy
    (the table file, the log) in the refusals. Raises :class:`Diverged`, or :class:`Refused`
    when the incoming chain does not hold together."""
    if not theirs.intact():
        raise Refused(
            msg(
                "%(match)s in %(where)s does not hold together: its hash chain is not the one "
                "its events give (tournament verify shows where)",
                match=theirs.number,
                where=where,
            )
        )
    if mine is None:
        fresh = Match.begin(theirs.number, theirs.header, _time(theirs.times[0]))
        return _added(fresh, theirs, 0)
    if (mine.number, mine.header, mine.start, mine.times[0]) != (
        theirs.number,
        theirs.header,
        theirs.start,
        theirs.times[0],
    ):
        raise _diverged(mine, theirs, 0, where)
    common = min(len(mine.lines), len(theirs.lines))
    for i in range(common):
        if mine.hashes[i] != theirs.hashes[i] or mine.lines[i] != theirs.lines[i]:
            raise _diverged(mine, theirs, i + 1, where)
    if len(mine.lines) > len(theirs.lines):
        raise _diverged(mine, theirs, common + 1, where)
    if len(mine.lines) == len(theirs.lines):
        return None
    assert isinstance(mine, Match), "the store's copy is its aggregate, to be written to"
    return _added(mine, theirs, len(mine.lines))


def _added(match: Match, theirs: SealedLog, start: int) -> Match:
    for line, at in zip(theirs.lines[start:], theirs.times[1 + start :], strict=True):
        match.add(line, _time(at))
    if list(match.hashes) != list(
        theirs.hashes
    ):  # pragma: no cover - the times read back as written
        raise Refused(msg("%(match)s cannot keep its hashes here", match=theirs.number))
    return match


def _time(text: str) -> datetime:
    return datetime.fromisoformat(text)


def _diverged(mine: SealedLog, theirs: SealedLog, position: int, where: Msg | str) -> Refused:
    """The refusal of a merge whose two copies part at ``position`` (a :class:`Diverged`)."""
    if position == 0:
        return Diverged(
            msg(
                "%(match)s is another match here than in %(where)s (another start); nothing "
                "was merged",
                match=mine.number,
                where=where,
            )
        )
    return Diverged(
        msg(
            "%(match)s moved on both here and in %(where)s: they part at position "
            "%(position)s (here: %(here)s; there: %(there)s); nothing was merged",
            match=mine.number,
            where=where,
            position=position,
            here=_said(mine.lines, position),
            there=_said(theirs.lines, position),
        )
    )


def _said(lines: Sequence[str], position: int) -> Msg | str:
    if position > len(lines):
        return msg("nothing yet")
    try:
        return format_move(parse_event(orjson.loads(lines[position - 1])))
    except Exception:  # a line this version cannot say in the notation: as stored
        return lines[position - 1]
