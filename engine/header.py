"""The match header: the first line of a match log (FORMAT.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.dice import DEFAULT_FACES, FaceSet
from engine.errors import BadHeader, MalformedEvent
from engine.events import REFEREE
from engine.jsontext import JsonError, check
from engine.record import EMPTY, Record
from engine.rules import revision

FORMAT = "tournament-match/1"


class Header(Record):
    """Who plays which game, with which dice, words and rule switches."""

    game: str
    players: tuple[str, ...]
    outside: tuple[str, ...] = ()
    variants: Mapping[str, Any] = EMPTY
    dice: FaceSet = DEFAULT_FACES  # (a Record: one value shared, as nothing can change it)
    lexicon: Mapping[str, str] | None = None
    options: Mapping[str, Any] = EMPTY  # game fields: start, deck ...
    # The revision of the rules the match is played under (engine.rules), when the header says;
    # None: the replay decides (``Replay.start``'s ``rules``, else the current revision).
    rules: int | None = None

    @property
    def everyone(self) -> tuple[str, ...]:
        """The players in the challenge, then those outside it."""
        return self.players + self.outside

    @property
    def simple(self) -> bool:
        """A simple challenge has two players, a multiple one three or more (CH-1)."""
        return len(self.players) == 2


def _names(obj: Mapping[str, Any], key: str, required: bool) -> tuple[str, ...]:
    value = obj.get(key)
    if value is None and not required:
        return ()
    if not isinstance(value, list) or not all(isinstance(p, str) and p.strip() for p in value):
        raise MalformedEvent(f"the header's {key!r} must be a list of player names")
    if REFEREE in value:
        raise BadHeader(f"{REFEREE!r} is reserved for the referee and cannot be a player")
    if len(set(value)) != len(value):
        raise BadHeader(f"the header's {key!r} names a player twice")
    return tuple(value)


def parse_header(obj: Any) -> Header:
    """Read and check a header object; the game's own checks come when the game starts."""
    if not isinstance(obj, Mapping):
        raise MalformedEvent("the header must be a JSON object")
    try:
        # The header is kept whole (options, variants, a deck): all of it must be storable JSON.
        check(dict(obj))
    except JsonError as e:
        raise MalformedEvent(f"the header {e.message}") from None
    if obj.get("format") != FORMAT:
        raise MalformedEvent(f"the header's format must be {FORMAT!r}, not {obj.get('format')!r}")
    game = obj.get("game")
    if not isinstance(game, str):
        raise MalformedEvent("the header must name the game")
    players = _names(obj, "players", required=True)
    outside = _names(obj, "outside", required=False)
    if set(players) & set(outside):
        raise BadHeader("a player cannot be both in the challenge and outside it")
    variants = obj.get("variants") or {}
    if not isinstance(variants, Mapping):
        raise MalformedEvent("the header's 'variants' must be an object")
    lexicon = obj.get("lexicon")
    if lexicon is not None and not (
        isinstance(lexicon, Mapping)
        and isinstance(lexicon.get("name"), str)
        and isinstance(lexicon.get("sha256"), str)
    ):
        raise MalformedEvent("the header's 'lexicon' must be an object with name and sha256")
    rules = obj.get("rules")
    if rules is not None:
        rules = revision(rules, "the header's")  # a revision this version knows (FORMAT)
    known = {"format", "game", "players", "outside", "variants", "dice", "lexicon", "rules"}
    options = {k: v for k, v in obj.items() if k not in known}
    return Header(
        game,
        players,
        outside,
        dict(variants),
        FaceSet.from_header(obj.get("dice")),
        lexicon,
        options,
        rules,
    )
