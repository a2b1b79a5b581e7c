"""A stored match's number, its id, and what its chain proves.

:class:`SealedLog` is shared by the match aggregate (:class:`tournament.storage.store.Match`)
and by a match read without it (:class:`tournament.readside.reading.StoredMatch`); a match's
number (``M7``) gives its aggregate id (:func:`match_uuid`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING
from uuid import UUID

from engine.message import msg
from tournament.errors import StoreError
from tournament.logformat.digests import sha1
from tournament.logformat.matchlog import RULES_OF_CHAIN, Binding, chain, genesis, write_log

NUMBER = re.compile(r"^[Mm](\d+)$")
# uuid5(NAMESPACE_URL, "tournament/match"), written out: uuid5 would load OpenSSL (#15)
_NAMESPACE = UUID("8e2a2243-3e24-59bc-95ba-5e938cb16e11")


class SealedLog:
    """What a stored match's chain proves, for the aggregate (:class:`Match`) and for a match
    read without it (:class:`tournament.readside.reading.StoredMatch`): both hold these values.

    A match's chain is in one of two formats (docs/format.md), told by its start:

    - v1, written by 0.1: the plain chain (start sha256(header), each link sha256(previous +
      line)); the start stores no hash (``start`` is None);
    - v2, since 0.2: bound to the match's number, id and the time of each event; the start
      stores the chain's first hash.

    Each match keeps its own format: events appended to a v1 match link as v1 links.
    """

    number: str
    header: str
    start: str | None  # None: a v1 chain (0.1 stored no start hash)
    lines: Sequence[str]
    hashes: Sequence[str]
    times: Sequence[str]  # the start's, then each event's
    if TYPE_CHECKING:  # the aggregate's id is a property, the read match's a field

        @property
        def id(self) -> UUID: ...

    @property
    def head(self) -> str | None:
        """The head hash of the chain (None before any event)."""
        return self.hashes[-1] if self.hashes else None

    @property
    def chain_format(self) -> int:
        """The format of the match's chain: 1 (plain, 0.1) or 2 (bound, since 0.2)."""
        return 1 if self.start is None else 2

    @property
    def binding(self) -> Binding | None:
        """What a v2 chain is bound to (None: a v1 chain binds nothing)."""
        if self.start is None:
            return None
        return Binding(self.number, self.id.hex, self.times[0], tuple(self.times[1:]))

    @property
    def rules(self) -> int:
        """The revision of the rules the match is replayed under when its header names none:
        0.1's (1) for a match it stored (a v1 chain), else the first revision of 0.2 (2)."""
        return RULES_OF_CHAIN[self.chain_format]

    def intact(self) -> bool:
        """Whether the stored chain is the one its number, id, times, header and lines give."""
        binding = self.binding
        return (
            self.id == match_uuid(self.number)
            and (binding is None or self.start == genesis(self.header, binding))
            and self.hashes == chain(self.header, self.lines, binding)
        )

    def export(self) -> str:
        """The log as ``tournament-match/1``, with ``seq`` and ``hash`` on every event (and
        ``at``, with the match's number and id on the header, for a bound chain)."""
        return write_log(self.header, self.lines, self.hashes, self.binding)


def match_uuid(number: str) -> UUID:
    """The aggregate id of a match number: ``uuid5(_NAMESPACE, number)``, computed as the uuid
    module does but with :mod:`tournament.logformat.digests`'s SHA-1 (uuid5's loads OpenSSL,
    #15)."""
    digest = sha1(_NAMESPACE.bytes + number.encode()).digest()
    return UUID(bytes=digest[:16], version=5)


def normalise_number(text: str) -> str:
    """``m7`` and ``7`` -> ``M7``; anything else is not a match number."""
    m = NUMBER.match(text.strip()) or re.match(r"^(\d+)$", text.strip())
    if not m:
        raise StoreError(msg("%(text)r is not a match number (they look like M7)", text=text))
    return f"M{int(m.group(1))}"
