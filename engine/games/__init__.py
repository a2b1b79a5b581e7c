"""The registry of games: one module per game, looked up by the name a match header uses.

Modules are imported when first asked for, so a command that records one move of Il Ventuno
does not pay for loading the rules of the other games.
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

from engine.errors import BadHeader

# Header names, each a module of engine.games; the first eight are Tetragon's (CH-3).
GAMES: tuple[str, ...] = (
    "catena", "asta", "roulette_russa", "texas", "tiro", "ventuno", "battaglia", "updown",
    "alphatiana", "parola_nascosta",
)  # fmt: skip
TETRAGON = GAMES[:8]


def game(name: str) -> ModuleType:
    """The rules module of a game by its header name (``"tiro"`` -> :mod:`engine.games.tiro`).

    >>> game("tiro").title
    'Tiro di precisione'
    """
    module = _LOADED.get(name)
    if module is None:
        if name not in GAMES:
            raise BadHeader(f"unknown game {name!r} (known: {', '.join(GAMES)})")
        module = _LOADED[name] = import_module(f"engine.games.{name}")
    return module


_LOADED: dict[str, ModuleType] = {}  # (import_module costs microseconds even when imported)
