"""The registry of games: each a :class:`~engine.games.contract.Game`, looked up by the name a
match header uses. Every list of games in the program is read here (:func:`names`,
:func:`tetragon`): the help texts, the sheets, the console's clocks, the computer players.

The games of the program are one module each, imported when first asked for, so a command that
records one move of Il Ventuno does not pay for loading the rules of the other games. Another
game (the toy game of the tests) is added with :func:`register`, or for a while with
:func:`registered`.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from importlib import import_module
from typing import TYPE_CHECKING

from engine.errors import BadHeader

if TYPE_CHECKING:
    from engine.games.contract import Game

# The program's games, by header name, each a module of engine.games; the first eight are
# Tetragon's (CH-3).
GAMES: tuple[str, ...] = (
    "catena", "asta", "roulette_russa", "texas", "tiro", "ventuno", "battaglia", "updown",
    "alphatiana", "parola_nascosta",
)  # fmt: skip
TETRAGON = GAMES[:8]

_ADDED: dict[str, Game] = {}  # games registered besides the program's, in order


def names() -> tuple[str, ...]:
    """Every registered game's header name: the program's, then any registered since.

    >>> names()[:3]
    ('catena', 'asta', 'roulette_russa')
    """
    return (*GAMES, *_ADDED) if _ADDED else GAMES


def tetragon() -> tuple[str, ...]:
    """The eight games a Tetragon partita chooses from (CH-3)."""
    return TETRAGON


def game(name: str) -> Game:
    """A game by its header name (``"tiro"`` -> the game of :mod:`engine.games.tiro`).

    >>> game("tiro").title
    'Tiro di precisione'
    """
    found = _LOADED.get(name) or _ADDED.get(name)
    if found is None:
        if name not in GAMES:
            raise BadHeader(f"unknown game {name!r} (known: {', '.join(names())})")
        from engine.games.contract import Game

        found = _LOADED[name] = Game.of(import_module(f"engine.games.{name}"))
    return found


def register(new: Game) -> None:
    """Add a game to the registry (one whose name no registered game has)."""
    if new.name in GAMES or new.name in _ADDED:
        raise ValueError(f"a game named {new.name!r} is already registered")
    _ADDED[new.name] = new


def unregister(name: str) -> None:
    """Take a game :func:`register` added out of the registry again."""
    if name not in _ADDED:
        raise ValueError(f"{name!r} is not a game registered besides the program's")
    del _ADDED[name]


@contextmanager
def registered(new: Game) -> Iterator[Game]:
    """The registry with ``new`` in it, for the ``with`` block (the tests' toy game)."""
    register(new)
    try:
        yield new
    finally:
        unregister(new.name)


_LOADED: dict[str, Game] = {}  # (import_module costs microseconds even when imported)
