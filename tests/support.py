"""Small builders that make the rule tests read like the table: rolls, words, doubts."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from engine.events import parse_event
from engine.header import FORMAT, parse_header
from engine.lexicon import Lexicon, default_lexicon
from engine.match import Replay

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def header(game: str, players: Sequence[str], outside: Sequence[str] = (), **extra: Any) -> dict:
    obj: dict[str, Any] = {"format": FORMAT, "game": game, "players": list(players)}
    if outside:
        obj["outside"] = list(outside)
    return {**obj, **extra}


def play(
    game: str,
    players: Sequence[str],
    events: Iterable[dict],
    outside: Sequence[str] = (),
    lexicon: Lexicon | None = None,
    **extra: Any,
) -> Replay:
    """Replay a list of event objects through the engine."""
    replay = Replay.start(
        parse_header(header(game, players, outside, **extra)), lexicon or default_lexicon()
    )
    for obj in events:
        replay = replay.apply(parse_event(obj))
    return replay


def example(name: str) -> tuple[dict, list[dict]]:
    """An example file's header and events."""
    lines = (EXAMPLES / name).read_text().splitlines()
    return json.loads(lines[0]), [json.loads(line) for line in lines[1:]]


def roll(by: str, die: str, *values: Any) -> dict:
    return {"type": "roll", "by": by, "die": die, "values": list(values)}


def word(by: str, text: str, **more: Any) -> dict:
    return {"type": "word", "by": by, "word": text, **more}


def chain(by: str, *words: str) -> dict:
    return {"type": "chain", "by": by, "words": list(words)}


def expr(by: str, text: str, target: str | None = None) -> dict:
    e = {"type": "expression", "by": by, "expr": text}
    return {**e, "target": target} if target else e


def choose(by: str, value: Any) -> dict:
    return {"type": "choose", "by": by, "value": value}


def bet(by: str, call: str) -> dict:
    return {"type": "bet", "by": by, "call": call}


def doubt(by: str) -> dict:
    return {"type": "doubt", "by": by}


def pass_(by: str) -> dict:
    return {"type": "pass", "by": by}


def timeout(by: str) -> dict:
    return {"type": "timeout", "by": by}


def ruling(on: int, accept: bool) -> dict:
    return {"type": "ruling", "by": "referee", "on": on, "accept": accept}


def void(on: int, reason: str = "entered by mistake") -> dict:
    return {"type": "void", "by": "referee", "on": on, "reason": reason}


def winners(replay: Replay) -> tuple[str, ...] | None:
    outcome = replay.outcome
    return None if outcome is None else outcome.winners


def out(replay: Replay) -> list[str]:
    return [o.player for o in replay.out]


def require_weasyprint() -> None:
    """Skip the calling test module, saying what to install, where WeasyPrint cannot draw
    (not installed, or without the pango library)."""
    import pytest

    try:
        import weasyprint  # noqa: F401
    except (ImportError, OSError):  # OSError: WeasyPrint without the pango library
        pytest.skip(
            "WeasyPrint or the pango library is missing: pip install -e '.[pdf]', "
            "apt-get install libpango-1.0-0",
            allow_module_level=True,
        )
