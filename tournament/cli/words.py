"""The command line's words, from the one catalogue (exports/locale/, English message ids).

Every sentence the CLI prints is written ``t("... %(name)s ...", name=...)``: the id is the
English text, its Italian is in ``exports/locale/it/LC_MESSAGES/messages.po``. The language is
the one :func:`set_lang` chose for this run (English until something chooses).
"""

from __future__ import annotations

import os
from typing import Any

from engine.message import Msg
from exports.i18n import LANGS, say

_lang: list[str] = [os.environ.get("TOURNAMENT_LANG", "en")]


def set_lang(lang: str) -> None:
    """Speak ``lang`` (``it`` or ``en``) from now on in this run."""
    if lang not in LANGS:
        raise ValueError(f"the command line speaks Italian (it) or English (en), not {lang!r}")
    _lang[0] = lang


def lang() -> str:
    """The language this run speaks."""
    return _lang[0] if _lang[0] in LANGS else "en"


def t(text: str, **params: Any) -> str:
    """``text`` (a catalogue id) said in this run's language, with its ``%(name)s`` filled."""
    return say(Msg(text, params), lang())
