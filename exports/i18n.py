"""Every text a person reads, in Italian (the default) or English, from one gettext catalogue.

The message ids are the English texts. They are marked with ``_()``/``ngettext()`` in templates
and Python, and with :func:`engine.message.msg` in the engine (which stays pure: it hands over
a :class:`~engine.message.Msg`, an id with parameters, and this module says it in a language).
The catalogues are ``exports/locale/<lang>/LC_MESSAGES/messages.po``; their compiled ``.mo`` are
committed beside them and shipped as package data (a test checks they match the ``.po``).

For the command line and the web (which adopt it next): ``translator(lang)`` gives ``gettext``
and ``ngettext``; ``say(text, lang)`` says an engine :class:`~engine.message.Msg` (or any
value) in ``lang``; :func:`exports.render.environment` (``lang=``) is a Jinja environment with
the i18n extension installed (``_()``, ``ngettext()``, ``{% trans %}``) and ``say`` as a global.

Refresh after changing texts::

    pybabel extract -F babel.cfg -k msg -k expecting -k nmsg:1,2 -o exports/locale/messages.pot .
    pybabel update -i exports/locale/messages.pot -d exports/locale
    pybabel compile --statistics -d exports/locale

>>> t = translator("it")
>>> t.ngettext("%(num)s player", "%(num)s players", 1) % {"num": 1}
'1 giocatore'
>>> from engine.message import msg
>>> say(msg("round %(round)s: no word: 0", round=2), "it")
'turno 2: nessuna parola: 0'
"""

from __future__ import annotations

import gettext
import struct
from bisect import bisect_left
from collections.abc import Iterator, Mapping
from functools import cache
from itertools import pairwise
from pathlib import Path
from typing import Any

from engine.message import Msg

LANGS = ("it", "en")
LOCALES = Path(__file__).resolve().parent / "locale"


def check_lang(lang: str) -> str:
    """``lang`` when it is one we print in; a ValueError that says which otherwise."""
    if lang not in LANGS:
        raise ValueError(f"printed material is in Italian (it) or English (en), not {lang!r}")
    return lang


@cache
def translator(lang: str) -> gettext.GNUTranslations:
    """The catalogue of one language, with ``gettext`` and ``ngettext`` (plural forms)."""
    check_lang(lang)
    return gettext.translation(  # type: ignore[return-value]
        "messages", LOCALES, languages=[lang], class_=Catalogue
    )


class Catalogue(gettext.GNUTranslations):
    """A compiled catalogue read as it is asked: a text is found by a binary search of the
    file's sorted message ids, where gettext would decode every message of the file when it
    opens it (#27: a command line call says a few texts of a catalogue of thousands, and the
    whole decoding cost it more than the rest of its work). Anything unusual about the file
    (another byte order, ids not sorted as Babel and msgfmt write them) is read by gettext's
    own way."""

    def _parse(self, fp: Any) -> None:
        buf = fp.read()
        try:
            self._catalog = _Sorted(buf)  # type: ignore[assignment]
        except ValueError:
            import io

            super()._parse(io.BytesIO(buf))  # type: ignore[misc]
            return
        self.plural = lambda n: int(n != 1)
        self._read_header(self._catalog.header())

    def _read_header(self, text: str) -> None:
        """What gettext takes from the header entry: its fields, charset and plural rule."""
        last = None
        for line in text.split("\n"):
            item = line.strip()
            if not item:
                continue
            if ":" in item:
                k, v = (x.strip() for x in item.split(":", 1))
                last = k = k.lower()
                self._info[k] = v  # type: ignore[attr-defined]
                if k == "content-type" and "charset=" in v:
                    self._charset = v.split("charset=")[1]
                elif k == "plural-forms":
                    self.plural = gettext.c2py(v.split(";")[1].split("plural=")[1])
            elif last:
                self._info[last] += "\n" + item  # type: ignore[attr-defined]


class _Sorted(Mapping[Any, str]):
    """The messages of a little-endian .mo file as gettext's catalogue keys them (``id``, or
    ``(id, n)`` for a plural form), looked up in the file itself. ValueError: not such a file,
    or its ids out of order."""

    def __init__(self, buf: bytes) -> None:
        magic, version, count, ids, texts = struct.unpack("<5I", buf[:20])
        if magic != gettext.GNUTranslations.LE_MAGIC or version >> 16 not in (0, 1):
            raise ValueError("not a little-endian .mo file")
        self.buf, self.count = buf, count
        where = struct.unpack(f"<{2 * count}I", buf[ids : ids + 8 * count])
        self.ids = [buf[o : o + n] for n, o in zip(where[::2], where[1::2], strict=True)]
        self.texts = struct.unpack(f"<{2 * count}I", buf[texts : texts + 8 * count])
        if count and self.ids[0] != b"":
            raise ValueError("no header entry first")
        if not all(a < b for a, b in pairwise(self.ids)):
            raise ValueError("message ids not sorted")
        self.charset = "utf-8"
        self._whole: dict[Any, str] | None = None

    def _text(self, i: int) -> str:
        length, offset = self.texts[2 * i], self.texts[2 * i + 1]
        return self.buf[offset : offset + length].decode(self.charset)

    def header(self) -> str:
        return self._text(0) if self.count else ""

    def _find(self, prefix: bytes) -> int:
        i = bisect_left(self.ids, prefix)
        return i if i < self.count else -1

    def __getitem__(self, key: Any) -> str:
        if isinstance(key, tuple):  # a plural form: stored as "id\0plural"
            wanted = key[0].encode(self.charset) + b"\0"
            i = self._find(wanted)
            if i < 0 or not self.ids[i].startswith(wanted):
                raise KeyError(key)
            forms = self._text(i).split("\0")
            if not 0 <= key[1] < len(forms):
                raise KeyError(key)
            return forms[key[1]]
        if key == "" and self.count:
            return self.header()
        wanted = key.encode(self.charset) if isinstance(key, str) else b"\xff"
        i = self._find(wanted)
        if i <= 0 or self.ids[i] != wanted:  # (entry 0 is the header, found above)
            raise KeyError(key)
        return self._text(i)

    def _all(self) -> dict[Any, str]:
        """Every message decoded, as gettext would hold them (for a listing of them all)."""
        if self._whole is None:
            whole: dict[Any, str] = {"": self.header()} if self.count else {}
            for i in range(1, self.count):
                original, text = self.ids[i].decode(self.charset), self._text(i)
                if "\0" in original:
                    for n, form in enumerate(text.split("\0")):
                        whole[(original.split("\0")[0], n)] = form
                else:
                    whole[original] = text
            self._whole = whole
        return self._whole

    def __iter__(self) -> Iterator[Any]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())


def say(text: Any, lang: str) -> str:
    """A text in ``lang``: a :class:`Msg` is translated (its parameters too), anything else is
    written as it is (a name, a number, a word played)."""
    if not isinstance(text, Msg):
        return "" if text is None else str(text)
    t = translator(lang)
    if text.plural is not None:
        template = t.ngettext(text.id, text.plural, text.n or 0)
    else:
        template = t.gettext(text.id)
    return template % {k: _param(v, lang) for k, v in text.params.items()}


def _param(value: Any, lang: str) -> Any:
    if isinstance(value, Msg):
        return say(value, lang)
    if isinstance(value, tuple):
        return ", ".join(say(v, lang) for v in value)
    return value


def N_(text: str) -> str:
    """Mark a text for the catalogue where it is defined; it is translated where it is shown."""
    return text


# The words printed material used before the catalogue, by key: kept so that templates written
# for ``w.key`` (an organizer's own) still render. New templates call ``_()`` directly.
KEYS: dict[str, str] = {
    "sheet": N_("Score sheet"), "match": N_("Match"), "players": N_("Players"),
    "date": N_("Date"), "table": N_("Table"), "round": N_("Round"), "referee": N_("Referee"),
    "signature": N_("Signature"), "winners": N_("Winners"), "points": N_("Points"),
    "total": N_("Total"), "word": N_("Word"), "score": N_("Score"), "bonus": N_("Bonus"),
    "letters": N_("Letters"), "dice": N_("Dice"), "target": N_("Target"),
    "expression": N_("Expression"), "divisions": N_("Divisions"),
    "multiplications": N_("Multiplications"), "subtractions": N_("Subtractions"),
    "anchors": N_("Anchor words"), "chain": N_("Chain"), "length": N_("Links"),
    "base": N_("Base"), "ships": N_("Ships"), "sunk": N_("Sunk"), "number": N_("Number"),
    "call": N_("Call"), "consonants": N_("Consonants"), "doubts": N_("Doubts"),
    "damage": N_("Damage"), "attack": N_("Attack"), "defence": N_("Defence"),
    "card": N_("Card"), "hint": N_("Hint"), "guess": N_("Guess"), "games": N_("Games chosen"),
    "head": N_("Seal (the log's head hash)"), "position": N_("No."), "who": N_("Who"),
    "what": N_("What"), "state": N_("State"), "pairings": N_("Pairings"), "bye": N_("Bye"),
    "standings": N_("Standings"), "rank": N_("Rank"), "player": N_("Player"),
    "challenge": N_("Challenge points"), "buchholz": N_("Buchholz"),
    "buchholz_cut1": N_("Buchholz cut-1"), "sonneborn_berger": N_("Sonneborn-Berger"),
    "head_to_head": N_("Head-to-head"), "bracket": N_("Bracket"), "report": N_("Match report"),
    "why": N_("Why"), "void": N_("void"), "ruling": N_("referee's ruling"), "turn": N_("Turn"),
    "challenger": N_("Challenger"), "outside": N_("Outside"), "running": N_("Running total"),
    "value": N_("Value"), "first": N_("First letter"), "last": N_("Last letter"),
    "percentile": N_("Percentile"), "answer": N_("Answer"), "round_n": N_("Round {n}"),
    "silent": N_("Silent round"), "yes_no": N_("yes / no"), "hit": N_("Hit"),
    "total_points": N_("Total"),
}  # fmt: skip


def words(lang: str) -> dict[str, str]:
    """The words of one language (``it`` or ``en``) by key, from the catalogue."""
    t = translator(check_lang(lang))
    return {key: t.gettext(text) for key, text in KEYS.items()}
