"""The ``tournament-match/1`` interchange format: JSON Lines, a header then one event a line.

Every stored event carries a hash: sha256 of the previous hash and the event's canonical JSON
(keys sorted, no spaces, UTF-8), starting from the sha256 of the header's canonical JSON. So a
match log is a hash chain and its head hash, printed on the score sheet, seals the whole match.

A stored match binds more into its chain (a :class:`Binding`): its number, its id and the time
each event was stored, so that no stored byte can change unseen; an exported log carries them
(``match``, ``id`` and ``at`` on the header line, ``at`` on each event line) so that it still
verifies on its own. docs/format.md gives the exact recipe.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from engine import jsontext
from engine.errors import RuleViolation
from engine.events import Event, event_to_json, parse_event
from engine.header import Header, parse_header
from engine.lexicon import Lexicon
from engine.match import Replay
from engine.record import Record
from tournament.errors import UserError
from tournament.logformat.digests import sha256  # not hashlib's: it loads OpenSSL (#15)

HEADER_ORDER = ("format", "game", "players", "outside")


class LogError(UserError):
    """A log that cannot have happened: names the file's line (header = line 1) and the rule."""

    def __init__(self, line: int, message: str, rule: str = "FORMAT") -> None:
        super().__init__(f"line {line}: {message} ({rule})")
        self.line = line
        self.rule = rule


def canonical(obj: Any) -> str:
    """The canonical JSON text of an object: what hashes are computed over and what is stored."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


class Binding(Record):  # a Record, not a dataclass: no code generated at start-up (#15)
    """What ties a stored match's chain to its place: the match's number and id, when it was
    started, and when each event was stored (ISO 8601 texts, as the store keeps them)."""

    match: str
    id: str
    at: str
    times: tuple[str, ...] = ()


def genesis(header_line: str, binding: Binding | None = None) -> str:
    """The hash the chain starts from: sha256 of the header's canonical JSON, or of
    ``match + "\\n" + id + "\\n" + at + "\\n" + header`` for a bound chain."""
    if binding is not None:
        header_line = f"{binding.match}\n{binding.id}\n{binding.at}\n{header_line}"
    return sha256(header_line.encode()).hexdigest()


def link(previous: str, line: str, at: str | None = None, digest: Any = sha256) -> str:
    """One link of the chain: sha256 of the previous hash followed by the event's canonical JSON
    (bound: ``previous + "\\n" + at + "\\n" + line``). ``digest``: another sha256 (hashlib's,
    where OpenSSL is loaded anyway: twice as fast over a whole store)."""
    text = previous + line if at is None else f"{previous}\n{at}\n{line}"
    hashed: str = digest(text.encode()).hexdigest()
    return hashed


def chain(header_line: str, lines: Iterable[str], binding: Binding | None = None) -> list[str]:
    """The hash of every event, in order."""
    lines = list(lines)
    hashes, previous = [], genesis(header_line, binding)
    times: Sequence[str | None] = binding.times if binding else [None] * len(lines)
    for line, at in zip(lines, times, strict=True):
        previous = link(previous, line, at)
        hashes.append(previous)
    return hashes


class MatchLog(Record):
    """A checked match log: the header and events as canonical JSON lines, and their replay
    (with the binding of the stored match it was exported from, if the file carries one)."""

    header_line: str
    lines: tuple[str, ...]
    replay: Replay
    binding: Binding | None = None
    # The file's own header line and head hash, when its lines carried hashes (an exported log):
    # the chain it had where it was exported from (its header may be completed here: lexicon).
    file_header: str | None = None
    file_head: str | None = None

    @property
    def hashes(self) -> list[str]:
        """The chain the log carries (over the file's own header, before anything was added)."""
        return chain(self.file_header or self.header_line, self.lines, self.binding)

    @property
    def stored_header(self) -> str:
        """The header a new match is stored with: a new chain's says the rules it is played
        under; a bound log keeps its header as it was, for its chain (its store reads it under
        the rules of its format)."""
        header = json.loads(self.header_line)
        if self.binding is not None or header.get("rules") is not None:
            return self.header_line
        return canonical({**header, "rules": self.replay.revision})


# The revision of the rules (docs/rules-revisions.md) a header that names none was played under,
# by the format of its chain: a plain chain is 0.1's (match chain v1), a bound one 0.2's (v2).
RULES_OF_CHAIN = {1: 1, 2: 2}

BOUND = ("match", "id", "at")  # on an exported header line: the stored match's binding


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


def read_log(
    text: str,
    lexicon_for: Callable[[Header], Lexicon],
    counted: Callable[[int, int], None] | None = None,
) -> MatchLog:
    """Read and check a whole log; raise :class:`LogError` naming the first impossible line.

    ``lexicon_for`` finds the word list the header names (or the default); it may raise.
    ``counted`` hears each event checked, and how many there are (a progress bar, #11).
    Where a line carries ``seq`` and ``hash`` (an exported log), both are checked, with the
    binding (``match``, ``id``, ``at``) when the header carries one.
    """
    rows = _json_lines(text)
    number, header_obj = rows[0]
    if not isinstance(header_obj, dict):
        raise LogError(1, "the header must be a JSON object")
    binding = _binding(header_obj)
    if binding:
        header_obj = {k: v for k, v in header_obj.items() if k not in BOUND}
    # The rules a header that names none was played under: 0.1's (revision 1) for a log 0.1
    # exported (a plain chain: hashes, no binding), else those of the version that wrote it.
    hashed = any(isinstance(obj, dict) and "hash" in obj for _, obj in rows[1:])
    rules = RULES_OF_CHAIN[2] if binding else RULES_OF_CHAIN[1] if hashed else None
    try:
        header = parse_header(header_obj)
        replay = Replay.start(header, lexicon_for(header), rules=rules)
    except RuleViolation as v:
        raise LogError(1, v.message, v.rule) from None
    file_header = canonical(header_obj)
    file_previous = genesis(file_header, binding)
    lines, times = [], []
    for position, (number, obj) in enumerate(rows[1:], 1):
        if not isinstance(obj, dict):
            raise LogError(number, "an event must be a JSON object")
        at = obj.get("at") if binding else None
        if binding and not isinstance(at, str):
            raise LogError(number, "carries no at: the header binds every event to its time")
        added = ("seq", "hash", "at") if binding else ("seq", "hash")
        body = {k: v for k, v in obj.items() if k not in added}
        line = canonical(body)
        if "seq" in obj and obj["seq"] != position:
            raise LogError(number, f"seq is {obj['seq']!r} but this is position {position}")
        file_previous = link(file_previous, line, at)
        if "hash" in obj and obj["hash"] != file_previous:
            raise LogError(number, "the hash does not match: the log was changed after export")
        try:
            replay = replay.apply(parse_event(body))
        except RuleViolation as v:
            raise LogError(number, v.message, v.rule) from None
        lines.append(line)
        times.append(at)
        if counted is not None:
            counted(position, len(rows) - 1)
    if header_obj.get("lexicon") is None:
        header_obj = {**header_obj, "lexicon": replay.lexicon.identity}
    if binding:
        binding = Binding(binding.match, binding.id, binding.at, tuple(map(str, times)))
    return MatchLog(
        canonical(header_obj),
        tuple(lines),
        replay,
        binding,
        file_header if hashed else None,
        file_previous if hashed else None,
    )


def _binding(header: dict[str, Any]) -> Binding | None:
    """The binding an exported header carries (``match``, ``id``, ``at``), if any."""
    if not any(k in header for k in BOUND):
        return None
    if not all(isinstance(header.get(k), str) for k in BOUND):
        raise LogError(1, "match, id and at go together, as texts (an exported header)")
    return Binding(header["match"], header["id"], header["at"])


def _ordered(obj: dict[str, Any], first: Sequence[str]) -> dict[str, Any]:
    return {
        **{k: obj[k] for k in first if k in obj},
        **{k: v for k, v in obj.items() if k not in first},
    }


def write_log(
    header_line: str,
    lines: Sequence[str],
    hashes: Sequence[str],
    binding: Binding | None = None,
) -> str:
    """The exported text: the header, then each event with ``seq`` first and ``hash`` last;
    a stored match's binding goes on the header line (``match``, ``id``, ``at``) and before each
    ``hash`` (``at``)."""
    header = _ordered(json.loads(header_line), HEADER_ORDER)
    times: Sequence[str | None] = [None] * len(lines)
    if binding is not None:
        header |= {"match": binding.match, "id": binding.id, "at": binding.at}
        times = binding.times
    out = [json.dumps(header, ensure_ascii=False)]
    for seq, (line, at, digest) in enumerate(zip(lines, times, hashes, strict=True), 1):
        body = {"seq": seq, **_ordered(json.loads(line), ("type",))}
        if at is not None:
            body["at"] = at
        out.append(json.dumps({**body, "hash": digest}, ensure_ascii=False))
    return "\n".join(out) + "\n"


def event_line(event: Event) -> str:
    """The canonical line of an event recorded by a command."""
    return canonical(event_to_json(event))
