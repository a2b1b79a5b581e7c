"""What a server store's notification names (#27): the payload of the NOTIFY each insert
sends (:class:`tournament.storage.postgres.Recorder`) and of the web's table links' changes,
read by every process's listener (:mod:`tournament.storage.heard`)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any
from uuid import UUID

__all__ = ["LINKS", "NAMES", "name_of", "names", "payload"]

NAMES = 100  # at most this many aggregates named in a notification (more: named none)
LINKS = "links"  # the name a notification of the web's table links gives (:func:`payload`)


def payload(token: str, names: Iterable[str | None]) -> str:
    """A notification's payload: the writer's token, then what it stored (each aggregate's id
    in hex, or :data:`LINKS`), so that a listener elsewhere looks again at those only; none
    named (too many, or an id that is not a UUID, None): anything may have changed."""
    named = set(names)
    if len(named) > NAMES or None in named:
        return token
    return " ".join((token, *sorted(n for n in named if n is not None)))


def names(text: str) -> tuple[str, list[str] | None]:
    """A payload's token and names (None: it names nothing this program knows, as an older
    version's or anyone else's NOTIFY: anything may have changed)."""
    token, *words = text.split(" ")
    if words and all(w == LINKS or _is_hex(w) for w in words):
        return token, words
    return token, None


def name_of(originator: Any) -> str | None:
    """An aggregate's name in a notification's payload: its id in hex (None: not a UUID)."""
    return originator.hex if isinstance(originator, UUID) else None


def _is_hex(word: str) -> bool:
    return len(word) == 32 and all(c in "0123456789abcdef" for c in word)
