"""The registry of games: one module per game, looked up by the name a match header uses."""

from __future__ import annotations

from types import ModuleType

from engine.errors import BadHeader
from engine.games import asta, battaglia, catena, roulette_russa, texas, tiro, updown, ventuno

GAMES: dict[str, ModuleType] = {
    m.name: m for m in (catena, asta, roulette_russa, texas, tiro, ventuno, battaglia, updown)
}
TETRAGON = tuple(GAMES)  # the eight mini-games of a Tetragon partita (CH-3)


def game(name: str) -> ModuleType:
    """The rules module of a game by its header name (``"tiro"`` -> :mod:`engine.games.tiro`)."""
    try:
        return GAMES[name]
    except KeyError:
        raise BadHeader(f"unknown game {name!r} (known: {', '.join(GAMES)})") from None
