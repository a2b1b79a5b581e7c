"""The command line's words, from the one catalogue (exports/locale/, English message ids).

Every sentence the CLI prints is written ``t("... %(name)s ...", name=...)``: the id is the
English text, its Italian is in ``exports/locale/it/LC_MESSAGES/messages.po``. An error raised
with a catalogue message (:class:`engine.message.Msg`) is said with :func:`said`.

The language of a run (docs/cli.md, "Language") is chosen, first that names one:

1. ``tournament --lang it|en ...`` (before the command);
2. the ``TOURNAMENT_LANG`` environment variable;
3. the locale, as gettext programs read it: the first of ``LANGUAGE``, ``LC_ALL``,
   ``LC_MESSAGES``, ``LANG`` that is set, when it names Italian or English (``C``, ``POSIX``
   or another language name neither);
4. the tournament's own ``lang`` (``create --lang``), when the command opens one;
5. Italian, as the sheets, the web and the console.

:func:`choose` reads 1 to 3 before any command is built, so ``--help`` is said in the same
language; 4 is asked only when a sentence is said and nothing before it chose.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.message import Msg
from exports.i18n import LANGS, say, translator

DEFAULT = "it"
ENV = "TOURNAMENT_LANG"
LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")  # gettext's order

# [the language chosen by 1-3 or set, or None], [where the tournament's own is asked, or None],
# [the --lang of the command line, or None]
_lang: list[str | None] = [None]
_tournament: list[Callable[[], str | None] | None] = [None]
_given: list[str | None] = [None]


def given_lang(argv: Sequence[str]) -> str | None:
    """The value of a global ``--lang`` (before the command's first word), else None.

    >>> given_lang(["--lang", "it", "status"]), given_lang(["--db=x", "--lang=en", "status"])
    ('it', 'en')
    >>> given_lang(["export", "all", "--lang", "en"]) is None  # the sheets' language
    True
    """
    from tournament.cli.lazy import GLOBAL_OPTIONS_WITH_VALUE

    args = iter(argv)
    for arg in args:
        if arg == "--lang":
            return next(args, None)
        if arg.startswith("--lang="):
            return arg.split("=", 1)[1]
        if arg in GLOBAL_OPTIONS_WITH_VALUE:
            next(args, None)
        elif not arg.startswith("-"):
            return None
    return None


def locale_lang(environ: Mapping[str, str]) -> str | None:
    """The language the locale names, when it is Italian or English (as gettext reads it).

    >>> locale_lang({"LANG": "it_IT.UTF-8"}), locale_lang({"LC_ALL": "en_GB", "LANG": "it_IT"})
    ('it', 'en')
    >>> locale_lang({"LANG": "C.UTF-8"}), locale_lang({"LANG": "fr_FR.UTF-8"})
    (None, None)
    >>> locale_lang({"LANGUAGE": "fr:it", "LANG": "fr_FR.UTF-8"})
    'it'
    """
    for variable in LOCALE_VARIABLES:
        value = environ.get(variable, "")
        if not value:
            continue
        for name in value.split(":"):
            code = name.split(".")[0].split("@")[0]
            if code in ("C", "POSIX"):
                return None
            if code.split("_")[0] in LANGS:
                return code.split("_")[0]
        return None
    return None


def choose(argv: Sequence[str], environ: Mapping[str, str] | None = None) -> None:
    """Choose this run's language from the command line, the environment and the locale (1-3
    of the order above); the tournament's is asked later. A ``--lang`` the CLI does not speak is
    left to the option itself to refuse, in English."""
    environ = os.environ if environ is None else environ
    given = given_lang(argv)
    _given[0] = given if given in LANGS else None
    env = environ.get(ENV, "")
    _lang[0] = _given[0] or (env if env in LANGS else None) or locale_lang(environ)
    _tournament[0] = None


def given() -> str | None:
    """The language ``tournament --lang`` named on this command line, if any."""
    return _given[0]


def from_tournament(ask: Callable[[], str | None]) -> None:
    """Where to ask the tournament's language (4 of the order), if a sentence needs it."""
    _tournament[0] = ask


def set_lang(lang: str) -> None:
    """Speak ``lang`` (``it`` or ``en``) from now on in this run."""
    if lang not in LANGS:
        raise ValueError(f"the command line speaks Italian (it) or English (en), not {lang!r}")
    _lang[0] = lang


def lang() -> str:
    """The language this run speaks."""
    if _lang[0] is None and _tournament[0] is not None:
        ask, _tournament[0] = _tournament[0], None
        try:
            found = ask()
        except Exception:  # noqa: BLE001 - a language is never worth failing a command for
            found = None
        _lang[0] = found if found in LANGS else None
    return _lang[0] or DEFAULT


def t(message: str, /, **params: Any) -> str:
    """``message`` (a catalogue id) said in this run's language, its ``%(name)s`` filled."""
    return say(Msg(message, params), lang())


def tn(singular: str, plural: str, n: int, /, **params: Any) -> str:
    """The form of ``singular``/``plural`` for ``n`` (the language's plural rule), filled."""
    return say(Msg(singular, params, plural, n), lang())


def said(text: Any) -> str:
    """A text in this run's language: a catalogue :class:`Msg` translated, anything else as
    it is (a name, a plain sentence)."""
    return say(text, lang())


def gettext(text: str) -> str:
    """``text`` (a catalogue id with no parameters) in this run's language."""
    return translator(lang()).gettext(text)
