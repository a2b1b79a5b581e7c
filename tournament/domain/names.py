"""Players' names as people type them: without regard to case or accents (RULES EQ-4's folding).

A tournament registers ``Giallo``; the organizer and the referee type ``giallo`` or ``GIALLO``
and mean the same player, and everything shown keeps the registered spelling.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.text import fold


def registered(name: str, names: Iterable[str]) -> str | None:
    """The registered spelling of ``name`` among ``names`` (case and accents aside), or None.

    >>> registered("giallo", ["Giallo", "Blu"])
    'Giallo'
    >>> registered("Nessuno", ["Giallo"]) is None
    True
    """
    wanted = fold(name)
    return next((n for n in names if fold(n) == wanted), None)
