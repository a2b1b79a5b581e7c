"""Players' names as people type them (RULES EQ-4's folding), and as a new registration takes
them (#29).

A tournament registers ``Giallo``; the organizer and the referee type ``giallo`` or ``GIALLO``
and mean the same player, and everything shown keeps the registered spelling. Names are
compared by a key that also sees through what a screen does not show: an invisible character
(``Gi\\u200dallo``), a Cyrillic or Greek letter drawn as a Latin one (``G\\u0456allo``), a
full-width letter. A new name is normalised (NFC, spaces collapsed) and refused when it holds a
control or invisible character, shows nothing, or is longer than :data:`LONGEST`; a name stored
by an earlier version is read as it is, whatever it holds.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from functools import lru_cache

from engine.message import msg
from tournament.errors import Refused

LONGEST = 60  # characters: a name on a table card, a score sheet, a phone's line

# Characters that draw nothing though Unicode calls them letters or symbols (Hangul fillers,
# the blank Braille pattern), and the invisible ones outside the format category (Unicode's
# Default_Ignorable_Code_Point: the combining grapheme joiner, variation selectors...).
_BLANK = frozenset("\u115f\u1160\u17b4\u17b5\u2800\u3164\uffa0\u034f")
_IGNORABLE = ((0x180B, 0x180F), (0xFE00, 0xFE0F), (0xE0100, 0xE01EF))

# Cyrillic and Greek letters drawn as Latin ones (capitals as capitals: the key folds case
# after this). Unicode's confusables.txt has thousands; these are the ones a keyboard makes.
_LOOKALIKES = str.maketrans(
    {
        **dict(zip("АВЕЅІЈКМНОРСТХУԚԜӀ", "ABESIJKMHOPCTXYQWI", strict=True)),
        **dict(zip("аеѕіјорсухһԁԛԝӏ", "aesijopcyxhdqwl", strict=True)),
        **dict(zip("ΑΒΕΖΗΙΚΜΝΟΡΤΥΧ", "ABEZHIKMNOPTYX", strict=True)),
        **dict(zip("αικνορτυχ", "aikvoptux", strict=True)),
        "ı": "i",  # Latin dotless i
        "ɡ": "g",  # Latin script g
    }
)


def hidden(c: str) -> bool:
    """A character a reader cannot see or that steers the text: a control (Cc), a format
    character (Cf: zero-width spaces and joiners, bidi controls), a line or paragraph
    separator, a lone surrogate, a variation selector.

    >>> [hidden(c) for c in "a\\u200b\\u202e\\x1b "]
    [False, True, True, True, False]
    """
    if unicodedata.category(c) in ("Cc", "Cf", "Cs", "Zl", "Zp") or c in _BLANK:
        return True
    return any(lo <= ord(c) <= hi for lo, hi in _IGNORABLE)


def key(name: str) -> str:
    """What two names are compared by: case, accents, invisible characters, spacing, full-width
    forms and Cyrillic or Greek look-alikes of Latin letters aside.

    >>> key("Giallo") == key("GIALLO") == key("gi\\u200dallo") == key("G\\u0456allo")
    True
    >>> key("Città") == key("citta") == key("ＣＩＴＴＡ")
    True
    """
    # (a pure function of the name, kept for the names a server asks again and again, #27;
    # not for a long text typed in a form)
    return _kept_key(name) if len(name) <= KEPT_NAME else _key(name)


KEPT_NAME = 4 * LONGEST


def _key(name: str) -> str:
    decomposed = unicodedata.normalize("NFKD", name)
    kept = "".join(c for c in decomposed if not hidden(c)).translate(_LOOKALIKES)
    folded = unicodedata.normalize("NFKD", kept.casefold()).translate(_LOOKALIKES)
    return " ".join("".join(c for c in folded if not unicodedata.combining(c)).split())


_kept_key = lru_cache(maxsize=4096)(_key)


def registered(name: str, names: Iterable[str]) -> str | None:
    """The registered spelling of ``name`` among ``names`` (the same name exactly, else by
    :func:`key`), or None.

    >>> registered("giallo", ["Giallo", "Blu"])
    'Giallo'
    >>> registered("G\\u0456allo", ["Giallo"])
    'Giallo'
    >>> registered("Nessuno", ["Giallo"]) is None
    True
    """
    names = list(names)
    if name in names:  # two look-alikes an earlier version stored: each is itself
        return name
    wanted = key(name)
    return next((n for n in names if key(n) == wanted), None)


def admitted(name: str) -> str:
    """A new player's name as it is stored (NFC, spaces collapsed), or Refused in one sentence.

    >>> admitted("  Giallo   Rossi ")
    'Giallo Rossi'
    >>> try:
    ...     admitted("Blu\\u200b")
    ... except Refused as e:
    ...     print(e.args[0])
    a player's name cannot hold an invisible or control character (U+200B)
    """
    name = unicodedata.normalize("NFC", name).strip()
    odd = next((c for c in name if hidden(c)), None)
    if odd is not None:
        raise Refused(
            msg(
                "a player's name cannot hold an invisible or control character (%(char)s)",
                char=f"U+{ord(odd):04X}",
            )
        )
    name = " ".join(name.split())  # the spaces left are spaces: one between two words
    if len(name) > LONGEST:
        raise Refused(
            msg(
                "a player's name has at most %(most)s characters, not %(count)s",
                most=LONGEST,
                count=len(name),
            )
        )
    if not any(unicodedata.category(c)[0] in "LN" for c in name):
        raise Refused(msg("a player's name needs a letter or a digit that shows"))
    return name


def short(text: str, most: int = 40) -> str:
    """``text`` cut to ``most`` characters with an ellipsis (a name in a one-line message).

    >>> short("x" * 50, 10)
    'xxxxxxxxx…'
    """
    return text if len(text) <= most else text[: most - 1] + "…"
