"""The ``tournament-match/1`` interchange format: JSON Lines, a header then one event a line.

Every stored event carries a hash: sha256 of the previous hash and the event's canonical JSON
(keys sorted, no spaces, UTF-8), starting from the sha256 of the header's canonical JSON. So a
match log is a hash chain and its head hash, printed on the score sheet, seals the whole match.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from engine import jsontext
from engine.errors import RuleViolation
from engine.events import Event, event_to_json, parse_event
from engine.header import Header, parse_header
from engine.lexicon import Lexicon
from engine.match import Replay

HEADER_ORDER = ("format", "game", "players", "outside")


class LogError(ValueError):
    """A log that cannot have happened: names the file's line (header = line 1) and the rule."""

    def __init__(self, line: int, message: str, rule: str = "FORMAT") -> None:
        super().__init__(f"line {line}: {message} ({rule})")
        self.line = line
        self.rule = rule


def canonical(obj: Any) -> str:
    """The canonical JSON text of an object: what hashes are computed over and what is stored."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def genesis(header_line: str) -> str:
    """The hash the chain starts from: sha256 of the header's canonical JSON."""
    return hashlib.sha256(header_line.encode()).hexdigest()


def link(previous: str, line: str) -> str:
    """One link of the chain: sha256 of the previous hash followed by the event's canonical JSON."""
    return hashlib.sha256((previous + line).encode()).hexdigest()


def chain(header_line: str, lines: Iterable[str]) -> list[str]:
    """The hash of every event, in order."""
    hashes, previous = [], genesis(header_line)
    for line in lines:
        previous = link(previous, line)
        hashes.append(previous)
    return hashes


@dataclass(frozen=True)
class MatchLog:
    """A checked match log: the header and events as canonical JSON lines, and their replay."""

    header_line: str
    lines: tuple[str, ...]
    replay: Replay

    @property
    def hashes(self) -> list[str]:
        return chain(self.header_line, self.lines)


def _json_lines(text: str) -> list[tuple[int, Any]]:
    rows = text.split("\n")
    while rows and not rows[-1].strip():
        rows.pop()
    out = []
    for number, row in enumerate(rows, 1):
        if not row.strip():
            raise LogError(number, "is empty; a match log has one JSON object a line")
        try:
            out.append((number, jsontext.loads(row)))
        except jsontext.JsonError as e:
            raise LogError(number, e.message) from None
    if not out:
        raise LogError(1, "the file is empty: a match log starts with its header")
    return out


def read_log(text: str, lexicon_for: Callable[[Header], Lexicon]) -> MatchLog:
    """Read and check a whole log; raise :class:`LogError` naming the first impossible line.

    ``lexicon_for`` finds the word list the header names (or the default); it may raise.
    Where a line carries ``seq`` and ``hash`` (an exported log), both are checked.
    """
    rows = _json_lines(text)
    number, header_obj = rows[0]
    try:
        header = parse_header(header_obj)
        replay = Replay.start(header, lexicon_for(header))
    except RuleViolation as v:
        raise LogError(1, v.message, v.rule) from None
    if header_obj.get("lexicon") is None:
        header_obj = {**header_obj, "lexicon": replay.lexicon.identity}
    file_previous = genesis(canonical(rows[0][1]))
    lines = []
    for position, (number, obj) in enumerate(rows[1:], 1):
        if not isinstance(obj, dict):
            raise LogError(number, "an event must be a JSON object")
        body = {k: v for k, v in obj.items() if k not in ("seq", "hash")}
        line = canonical(body)
        if "seq" in obj and obj["seq"] != position:
            raise LogError(number, f"seq is {obj['seq']!r} but this is position {position}")
        file_previous = link(file_previous, line)
        if "hash" in obj and obj["hash"] != file_previous:
            raise LogError(number, "the hash does not match: the log was changed after export")
        try:
            replay = replay.apply(parse_event(body))
        except RuleViolation as v:
            raise LogError(number, v.message, v.rule) from None
        lines.append(line)
    return MatchLog(canonical(header_obj), tuple(lines), replay)


def _ordered(obj: dict[str, Any], first: Sequence[str]) -> dict[str, Any]:
    return {
        **{k: obj[k] for k in first if k in obj},
        **{k: v for k, v in obj.items() if k not in first},
    }


def write_log(header_line: str, lines: Sequence[str], hashes: Sequence[str]) -> str:
    """The exported text: the header, then each event with ``seq`` first and ``hash`` last."""
    out = [json.dumps(_ordered(json.loads(header_line), HEADER_ORDER), ensure_ascii=False)]
    for seq, (line, digest) in enumerate(zip(lines, hashes, strict=True), 1):
        body = _ordered(json.loads(line), ("type",))
        out.append(json.dumps({"seq": seq, **body, "hash": digest}, ensure_ascii=False))
    return "\n".join(out) + "\n"


def event_line(event: Event) -> str:
    """The canonical line of an event recorded by a command."""
    return canonical(event_to_json(event))
