"""One notation for moves: every event of a match log as one short line of text.

As python-chess reads SAN, a line is read in steps: its syntax alone (a verb, then words, numbers
and quoted strings: :class:`MalformedMove`), then against the match (who acts, which die:
:class:`IllegalMove` when the rules refuse it, :class:`AmbiguousMove` when it has two readings).
Input is lenient (case, accents, spacing; the player left out when only one may act; player
names matched regardless of case); :func:`format` writes the one canonical form, and
``parse(format(e), replay) == e`` for every event the replay allows. A quoted string is taken
exactly as written: that is how the canonical form keeps a value the lenient reading would change.

>>> from engine.events import Expression, Roll, Ruling
>>> format(Roll("blu", "d6", (5, 4)))
'roll blu d6 5 4'
>>> format(Ruling("referee", 4, False, "after time"))
'rule 4 reject after time'
>>> format(Expression("giallo", "6 x (5:6+1)"))
'expr giallo 6 x (5:6+1)'

Reading needs the match, to know who may act and what:

>>> from engine.header import parse_header
>>> from engine.lexicon import default_lexicon
>>> from engine.match import Replay
>>> header = {"format": "tournament-match/1", "game": "ventuno", "players": ["giallo", "blu"]}
>>> match = Replay.start(parse_header(header), default_lexicon())
>>> parse("ROLL 4,5", match)
Roll(by='giallo', die='d6', values=(4, 5), digital=None)
>>> parse("roll blu d6 4 5", match)
Traceback (most recent call last):
...
engine.notation.IllegalMove: it is not blu's turn; now: giallo (roll d6 x2) (VEN-1)
"""

from engine.notation.reading import PLAYER_MOVES, REFEREE_MOVES, SHORT_FORMS, judged, parse
from engine.notation.words import (
    VERBS,
    AmbiguousMove,
    Draft,
    IllegalMove,
    MalformedMove,
    NotationError,
    Token,
    read,
    token,
    tokens,
)
from engine.notation.writing import format

__all__ = [
    "PLAYER_MOVES",
    "REFEREE_MOVES",
    "SHORT_FORMS",
    "VERBS",
    "AmbiguousMove",
    "Draft",
    "IllegalMove",
    "MalformedMove",
    "NotationError",
    "Token",
    "format",
    "judged",
    "parse",
    "read",
    "token",
    "tokens",
]
