"""Texts for people, as message ids with parameters: the engine says them in English, and
whoever shows them (:mod:`exports.i18n`) translates them from the id.

A :class:`Msg` *is* its English text (a ``str``), so the command line, the JSON of ``match show``
and the derived ``out`` events read exactly as before; it also carries the gettext message id and
its parameters, so a printed sheet can say it in Italian. The engine stays pure: it never looks
up a translation. Message ids are marked with :func:`msg` and :func:`nmsg`, which Babel's
extraction reads (``pybabel extract -k msg -k expecting -k nmsg:1,2``; see ``babel.cfg``).

>>> m = msg("round %(round)s: no word: 0", round=2)
>>> m
'round 2: no word: 0'
>>> m.id, m.params
('round %(round)s: no word: 0', {'round': 2})
>>> nmsg("chain of %(n)s word", "chain of %(n)s words", 1)
'chain of 1 word'
>>> msg("totals %(totals)s", totals=(msg("%(player)s none", player="blu"), "giallo 3"))
'totals blu none, giallo 3'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


class Msg(str):
    """A text for people: its English words (the ``str``), its message id and parameters.

    A parameter may itself be a :class:`Msg` (translated in turn) or a tuple of texts, which
    is written joined by commas.
    """

    # Slots: a replay makes one or more of these per event, and a str subclass with a __dict__
    # costs a dict and its filling each time.
    __slots__ = ("id", "params", "plural", "n")

    id: str
    params: Mapping[str, Any]
    plural: str | None
    n: int | None

    def __new__(
        cls, id: str, params: Mapping[str, Any], plural: str | None = None, n: int | None = None
    ) -> Msg:
        return _made(cls, id, dict(params), plural, n)

    def __reduce__(self) -> tuple[Any, ...]:  # pickles (and copies) as a Msg, not a bare str
        return (Msg, (self.id, self.params, self.plural, self.n))


def _made(
    cls: type[Msg], id: str, params: dict[str, Any], plural: str | None, n: int | None
) -> Msg:
    """A Msg that keeps ``params`` itself: a dict of its own (``msg`` passes its fresh keywords)."""
    template = plural if plural is not None and n != 1 else id
    for value in params.values():
        if isinstance(value, tuple):
            text = template % {k: joined(v) for k, v in params.items()}
            break
    else:  # no tuple to join: the parameters are the English text's as they are
        text = template % params
    self = str.__new__(cls, text)
    self.id, self.params, self.plural, self.n = id, params, plural, n
    return self


def joined(value: Any) -> Any:
    """A parameter as English text: a tuple of texts joined by commas, anything else as is."""
    if isinstance(value, tuple):
        return ", ".join(str(v) for v in value)
    return value


def msg(id: str, **params: Any) -> Msg:
    """A message: ``id`` is the English text with ``%(name)s`` placeholders."""
    return _made(Msg, id, params, None, None)


def either(values: Sequence[Any]) -> Msg | str:
    """Alternatives: ``a or b``, ``a, b or c`` (one value as it is, none as nothing)."""
    if len(values) < 2:
        return "".join(str(v) for v in values)
    return msg("%(values)s or %(last)s", values=tuple(values[:-1]), last=values[-1])


def nmsg(singular: str, plural: str, n: int, **params: Any) -> Msg:
    """A message with plural forms chosen by ``n`` (``%(n)s`` in the text is ``n``)."""
    return _made(Msg, singular, {"n": n, **params}, plural, n)
