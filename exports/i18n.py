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
from functools import cache
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
    return gettext.translation("messages", LOCALES, languages=[lang])  # type: ignore[return-value]


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
