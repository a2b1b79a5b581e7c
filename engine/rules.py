"""Revisions of the rules: which reading of RULES.md a match is judged by (docs/rules-revisions.md).

A match log recorded under earlier rules must keep replaying to the outcome it had, so the
engine keeps every revision it has applied, and a match is replayed under its own:

- revision 1: the rules as version 0.1 applied them (commit f8882b8);
- revision 2: today's, since round two (commits 046db8f and 7a0c88c): rulings carry to later
  uses of the ruled word (EQ-4, REF-1), La roulette russa's roll and doubt turns may time out
  (CH-4), the referee may decide La parola nascosta's tie-break by a ruling on a card (PN-1),
  players the cards cannot part draw (CH-2), expressions are read in ASCII digits and bounded
  (TIR-2).

A match header may say its revision (``"rules": 2``); :meth:`engine.match.Replay.start` says
which revision holds when it does not.

>>> CURRENT, sorted(KNOWN)
(2, [1, 2])
>>> revision(1, "the header's")
1
>>> revision(3, "the header's")
Traceback (most recent call last):
...
engine.errors.BadHeader: the match was recorded under rules revision 3, newer than this version \
of tournament knows (1 and 2): upgrade to read it (FORMAT)
"""

from __future__ import annotations

from typing import Any

from engine.errors import BadHeader, MalformedEvent

FIRST = 1  # version 0.1's rules (f8882b8)
CURRENT = 2  # today's rules, since round two (f627722)
KNOWN = frozenset({FIRST, CURRENT})


def revision(value: Any, whose: str) -> int:
    """``value`` as a known revision of the rules; ``whose`` names where it was read ("the
    header's"). A whole number beyond the newest known is refused as written under newer rules;
    anything else that is not a revision is malformed."""
    if isinstance(value, bool) or not isinstance(value, int) or value < FIRST:
        raise MalformedEvent(
            f"{whose} 'rules' must be a revision of the rules (a whole number from {FIRST}), "
            f"not {value!r}"
        )
    if value not in KNOWN:
        known = " and ".join(map(str, sorted(KNOWN)))
        raise BadHeader(
            f"the match was recorded under rules revision {value}, newer than this version of "
            f"tournament knows ({known}): upgrade to read it",
            "FORMAT",
        )
    return value
