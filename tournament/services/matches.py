"""Application services for matches: import, record, show. Thin: get, decide, save."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson

from engine import jsontext
from engine.digital_dice import check_hand_roll
from engine.errors import RuleViolation
from engine.events import REFEREE, DiceReveal, Event, parse_event
from engine.header import parse_header
from engine.match import Replay
from engine.message import Msg, msg
from engine.notation import NotationError, judged
from engine.notation import format as format_move
from engine.record import Record
from tournament.domain.names import registered
from tournament.errors import Refused
from tournament.logformat.lexicons import lexicon_for, open_lexicon  # noqa: F401 (the front ends ask here)
from tournament.logformat.matchlog import LogError, MatchLog, event_line, read_log
from tournament.readside import kept
from tournament.storage import heard, holds
from tournament.storage.store import Match, Store, StoreError, normalise_number

if TYPE_CHECKING:  # a recording call reads through the aggregate: it never imports the read path
    from tournament.readside.reading import StoredMatch


class Loaded(Record):  # a Record, not a dataclass: no code generated at start-up (#15)
    """A stored match and its replay (the aggregate when it is to be written to)."""

    match: Match | StoredMatch
    replay: Replay


def load(
    store: Store,
    number: str,
    lexicon_path: str | None = None,
    *,
    write: bool = False,
    read_match: Match | None = None,
) -> Loaded:
    """Read a stored match and replay it: read in one query (:mod:`tournament.readside.reading`),
    or, to ``write`` to it, as its aggregate (``read_match``, when the caller has just read it
    with :func:`tournament.readside.kept.match_to_write`: not read twice, #27)."""
    if write:
        # A server takes the aggregate its last write to the match left, brought forward (#27).
        match: Match | StoredMatch = (
            kept.match_to_write(store, normalise_number(number))
            if read_match is None
            else read_match
        )
        holds.check(store, [match], fresh=False)  # (#26) said before any rule; the save asks
    else:
        from tournament.readside import reading  # not imported by a recording call (#15)

        match = reading.read_match(store, number)
    return replayed(match, lexicon_path or store.lexicon, store)


def replayed(
    match: Match | StoredMatch, lexicon_path: str | None, store: Store | None = None
) -> Loaded:
    """A match replayed through the rules (one sentence when its log does not replay); read
    from ``store``, the replay a server keeps of it is extended instead (#27)."""
    position = 0
    lines = match.lines

    def events(after: int) -> Iterator[Event]:
        nonlocal position  # read after a refusal
        for position, line in enumerate(lines[after:], after + 1):  # noqa: B007
            yield parse_event(orjson.loads(line))

    def start() -> Replay:
        header = parse_header(orjson.loads(match.header))
        return Replay.start(header, lexicon_for(header, lexicon_path), rules=match.rules)

    try:
        if store is None:
            replay = start().extend(events(0))
        else:
            # A server keeps each match's replay and extends it by the lines stored since (#27).
            replay = kept.replayed(
                store, _replay_key(store, match, lexicon_path), match.header, lines, start,
                lambda kept_replay, after: kept_replay.extend(events(after)),
            )  # fmt: skip
    except RuleViolation as v:
        if not position:  # the header (changed outside the program, or a newer version's)
            raise Refused(refusal(v)) from None
        raise Refused(
            msg(
                "the stored log of %(match)s does not replay at position %(position)s: %(why)s "
                "(was the database changed outside the program?)",
                match=match.number,
                position=position,
                why=refusal(v) if v.rule else str(v),
            )
        ) from None
    return Loaded(match, replay)


def _replay_key(store: Store, match: Match | StoredMatch, lexicon_path: str | None) -> Any:
    """What a kept replay of a match depends on beside its lines: the word list, the rules."""
    return (match.number, lexicon_path or store.lexicon, match.rules)


def read_deck(path: Path) -> list[Any]:
    """An organizer's deck file: a JSON list of cards (PN-1), inlined into the match header."""
    try:
        deck = jsontext.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as e:
        raise Refused(
            msg("cannot read the deck %(path)s: %(why)s", path=str(path), why=e.strerror)
        ) from None
    except (jsontext.JsonError, UnicodeDecodeError):
        deck = None  # not JSON: the same sentence as JSON that is not a list
    if not isinstance(deck, list):
        raise Refused(msg("the deck %(path)s is not a JSON list of cards", path=str(path)))
    return deck


def check_log(
    text: str,
    lexicon_path: str | None = None,
    counted: Callable[[int, int], None] | None = None,
) -> MatchLog:
    """Check a whole ``tournament-match/1`` log before anything is stored (raises LogError);
    ``counted(done, total)`` hears each event checked."""
    return read_log(text, lambda header: lexicon_for(header, lexicon_path), counted)


def check_header(header: dict[str, Any], lexicon_path: str | None = None) -> MatchLog:
    """A new match's header, checked as a log of one line; no file is involved, so a refusal
    names no line (#11).

    A new match may not name one player twice in different case or accents (``giallo`` and
    ``Giallo``), which a stored log from elsewhere may do: the notation then asks which.
    """
    names = [*header.get("players", []), *header.get("outside", [])]
    for i, name in enumerate(names):
        if isinstance(name, str) and (same := registered(name, names[:i])) is not None:
            raise Refused(
                msg(
                    "%(name)s and %(same)s are one player (names are read regardless of case)",
                    name=name,
                    same=same,
                )
            )
    try:
        return check_log(json.dumps(header), lexicon_path)
    except LogError as e:
        raise Refused(str(e).removeprefix(f"line {e.line}: ")) from None


def stored_as(store: Store, log: MatchLog) -> str | None:
    """The number of a stored match with the same header and events as ``log``, if any: the
    same file imported twice (#11)."""
    from tournament.readside.reading import with_header  # not imported by a recording call (#15)

    for match in with_header(store, log.stored_header):  # (issue 15: not every match rebuilt)
        if tuple(match.lines) == log.lines:
            return match.number
    return None


def import_log(store: Store, log: MatchLog) -> Match:
    """Store a checked log as a new match, all its events in one transaction.

    A log exported from a store keeps its number, id and times where they are free here, and so
    its chain and head hash (export, import, export gives the same file). Where they are taken
    (or the log's chain is 0.1's plain one) it is stored under the next number, with a new chain,
    and the chain it had is kept as its provenance: ``verify M12 --head ORIGINAL`` still finds it
    (:mod:`tournament.storage.provenance`)."""
    went_on = _went_on(store, log)
    if went_on is not None:
        return went_on
    match = store.create(log.stored_header, log.lines, log.binding)
    if log.file_head is not None and match.head != log.file_head:
        from tournament.storage import provenance

        assert log.file_header is not None  # (set together)
        provenance.note_origin(store, match.number, log.file_header, log.binding, log.lines)
    return match


def _went_on(store: Store, log: MatchLog) -> Match | None:
    """A longer log of a match stored here, under its own number (exported from a store that
    recorded more of it): its new events appended as a fast-forward, keeping their times and
    hashes (:mod:`tournament.services.merge`). None when it is not one (no binding, another
    match under that number, or no event more): the log is stored as a new match then."""
    from tournament.services.merge import Incoming, fast_forward

    binding = log.binding
    if binding is None or log.file_header not in (None, log.header_line):
        return None
    try:
        mine = store.get_match(binding.match)
    except StoreError:
        return None
    try:
        went_on = fast_forward(mine, Incoming.of(log.header_line, log.lines, binding), "")
    except Refused:
        return None
    if went_on is None:
        return None
    replayed(went_on, store.lexicon)
    store.append(went_on, [])
    if log.replay.outcome is not None:
        from tournament.services.stored import record_head

        record_head(store, went_on)
    return went_on


def record(
    store: Store,
    number: str,
    obj: dict[str, Any] | Event,
    lexicon_path: str | None = None,
    *,
    read_match: Match | None = None,
) -> tuple[Loaded, list[Event]]:
    """Check one input event (its JSON object, or the event) against the replay and store it
    with the derived events it implies (``read_match``: as :func:`load`).

    Returns the match after the event and the events stored (the input first).
    """
    loaded = load(store, number, lexicon_path, write=True, read_match=read_match)
    event = obj if isinstance(obj, Record) else parsed(obj)
    return _store_event(store, loaded, event, lexicon_path=lexicon_path)


def record_move(
    store: Store,
    number: str,
    text: str,
    lexicon_path: str | None = None,
    expected_position: int | None = None,
    *,
    seed: str | Callable[[], str | None] | None = None,
    sealer: Callable[[str], str] | None = None,
    reveal: bool = False,
    read_match: Match | None = None,
) -> tuple[Loaded, list[Event]]:
    """Read one move in the notation (:mod:`engine.notation`) against the stored match and
    record it as :func:`record` does.

    ``expected_position`` is the position the writer saw: when the match has moved on since
    (another phone at the same table), nothing is stored. ``seed`` and ``sealer`` are the
    digital dice and hidden words (see :func:`engine.notation.parse`; a ``seed`` to call is
    asked only of a match whose dice are sealed, #27); with ``reveal``, a move
    that ends a match whose dice are sealed reveals the ``seed`` in the same transaction
    (the front ends record through :func:`tournament.services.play.record_move`). ``read_match``:
    as :func:`load`.
    """
    loaded = load(store, number, lexicon_path, write=True, read_match=read_match)
    now = loaded.replay.position
    if expected_position is not None and now != expected_position:
        raise _changed(
            loaded.match.number,
            msg("is at position %(now)s, not %(seen)s", now=now, seen=expected_position),
        )
    if callable(seed):  # (a sealed match's own: an unsealed one has none to read)
        seed = seed() if loaded.replay.dice_commit_at is not None else None
    try:
        event, after = judged(text, loaded.replay, seed=seed, sealer=sealer)
    except NotationError as e:
        raise Refused(refusal(e)) from None
    try:
        return _store_event(store, loaded, event, seed if reveal else None, lexicon_path, after)
    except StoreError:
        if expected_position is None:
            raise
        # Another phone wrote between our read and our write: the same answer as above.
        raise _changed(loaded.match.number, msg("was written to a moment ago")) from None


def _changed(number: str, how: Msg) -> Refused:
    return Refused(
        msg(
            "the match changed since you looked: %(match)s %(how)s; nothing was stored, "
            "look at it again and repeat",
            match=number,
            how=how,
        )
    )


def parsed(obj: dict[str, Any]) -> Event:
    """An input event from its JSON object (refused in the engine's words when it is not one)."""
    try:
        return parse_event(obj)
    except RuleViolation as v:
        raise Refused(refusal(v)) from None


def refusal(e: RuleViolation | NotationError) -> Msg | str:
    """The engine's refusal and the rule it cites, as a message a front end says in its
    language (the same English as ``str(e)``)."""
    if not e.rule:
        return e.message
    return msg("%(why)s (%(rule)s)", why=e.message, rule=e.rule)


def _store_event(
    store: Store,
    loaded: Loaded,
    event: Event,
    seed: str | None = None,
    lexicon_path: str | None = None,
    applied: Replay | None = None,
) -> tuple[Loaded, list[Event]]:
    """Store ``event`` (``applied``: the match after it, as the notation judged it) with what
    it brings (the derived events, the seed's reveal)."""
    assert isinstance(loaded.match, Match), "loaded with write=True"
    try:
        # A sealed match takes only the seed's dice, whichever front end records (#28).
        check_hand_roll(event, loaded.replay.dice_commit_at, loaded.replay.dice_reveal_at)
        replay = applied if applied is not None else loaded.replay.apply(event)
    except RuleViolation as v:
        raise Refused(refusal(v)) from None
    stored = [event]
    for derived in replay.pending_derived():
        replay = replay.apply(derived)
        stored.append(derived)
    sealed = replay.dice_commit_at is not None and replay.dice_reveal_at is None
    if seed is not None and sealed and replay.outcome is not None:
        shown = DiceReveal(REFEREE, seed)
        try:
            replay = replay.apply(shown)
            stored.append(shown)
        except RuleViolation:
            pass  # a seed that is not the one sealed: the match stays sealed (verify says so)
    looked = heard.look(store)  # (before the save: see reading.keep_written)
    store.append(loaded.match, [event_line(e) for e in stored])
    # A server keeps the aggregate and the replay as the move left them: the page drawn next
    # and the next move start from there (each checked against the store first, #27).
    # The replay is kept with the lines it replayed before the aggregate is handed on: once
    # handed on, another thread's move may extend it (its lines change in place).
    key = _replay_key(store, loaded.match, lexicon_path)
    kept.remember(store, key, loaded.match.header, tuple(loaded.match.lines), replay)
    if kept.kept(store):  # (the refresh after it reads no row back; a command line: nothing)
        from tournament.readside.reading import keep_written

        keep_written(store, loaded.match, looked)
    if replay.outcome is not None:
        from tournament.services.stored import (
            record_head,  # the tournament keeps a finished match's head
        )

        record_head(store, loaded.match)
    kept.written(store, loaded.match)  # the last use of it here
    return Loaded(loaded.match, replay), stored


def sealed_word(word: str) -> tuple[str, str]:
    """PN-3: the commitment of a word typed unseen, and the fresh salt the player keeps."""
    import secrets  # only La parola nascosta pays for it (#15)

    from engine.games.parola_nascosta import seal  # only La parola nascosta pays for it

    salt = secrets.token_hex(8)
    return seal(word, salt), salt


def summary(loaded: Loaded) -> dict[str, Any]:
    """What ``match show --json`` prints (DESIGN.md names the fields others rely on)."""
    replay, match = loaded.replay, loaded.match
    outcome = replay.outcome
    header = replay.header
    return {
        "id": match.number,
        "game": header.game,
        "title": replay.rules.title,
        "players": list(header.players),
        "outside": list(header.outside),
        "status": "finished" if outcome else "in_progress",
        "winners": list(outcome.winners) if outcome else [],
        "points": dict(outcome.points) if outcome else {p: 0 for p in header.players},
        "out": [o.player for o in replay.out],
        "out_reasons": [
            {"player": o.player, "reason": o.reason, "rule": o.rule} for o in replay.out
        ],
        "next": [
            {"player": t.player, "events": list(t.events), "expects": t.say, "rule": t.rule}
            for t in replay.turns
        ],
        "notes": [
            {"position": n.position, "player": n.player, "text": n.text, "rule": n.rule, "ok": n.ok}
            for n in replay.notes
        ],
        "voided": sorted(replay.voided),
        "rulings": {str(k): v for k, v in sorted(replay.rulings.items())},
        "events": replay.position,
        "state": replay.rules.summary(replay.state),  # Il Ventuno's total and the like (#11)
        "head": match.head,
        "lexicon": header.lexicon,
    }


def describe(event: Event) -> str:
    """One line for a stored event, for the referee's screen: its canonical notation.

    >>> from engine.events import Ruling
    >>> describe(Ruling("referee", 4, False, "after time"))
    'rule 4 reject after time'
    """
    return format_move(event)
