"""What a long-running process keeps in memory between requests (#27): the tournament and the
replays of its matches, each checked against the store before it is used (a page's read, on
a server, may take what the last look found while the store's listener heard nobody else
write: :mod:`tournament.storage.heard`).

A command line call reads a store once and exits; a web server reads the same tournament and
the same matches thousands of times, and a move changes one match and never the tournament.
For a store the server marks with :func:`keep`:

- :func:`tournament` gives the tournament as stored now, shared by every reader of the process
  (never to be changed: a writer takes :func:`tournament_copy`). It is brought up to date from
  the tournament's own events stored after the version kept (one indexed query when nothing
  moved), so a move elsewhere in the store costs it nothing, and a change made by another
  process (a CLI call, another server) is seen at the next read (a page's: once heard).
- :func:`replayed` gives a match's replay, kept with the lines it replayed and extended by the
  lines stored since (a move replays one event, not the whole log); a log whose kept lines are
  not the stored ones any more is replayed from the start.

Other stores (every command line call) read as before: nothing is kept.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Sequence
from copy import deepcopy
from typing import TYPE_CHECKING, Any

import orjson
from eventsourcing.application import AggregateNotFoundError

from engine.match import Replay
from engine.message import msg
from tournament.storage import heard
from tournament.storage.store import Match, Store, _project

if TYPE_CHECKING:
    from tournament.domain.tournaments import Tournament

REPLAYS = 2048  # matches' replays kept a store (a festival's round in play, and more)

_keeping: weakref.WeakSet[Store] = weakref.WeakSet()
_tournaments: weakref.WeakKeyDictionary[Store, Tournament] = weakref.WeakKeyDictionary()
_heads: weakref.WeakKeyDictionary[Store, bytes | None] = weakref.WeakKeyDictionary()
_replays: weakref.WeakKeyDictionary[Store, OrderedDict[Any, tuple[str, tuple[str, ...], Replay]]]
_replays = weakref.WeakKeyDictionary()
_lock = threading.Lock()
_forwarding = threading.Lock()
# The listener's count when the tournament kept was last found to be the store's (None: not
# since it changed here): see tournament(heard_ok=True).
_looked: weakref.WeakKeyDictionary[Store, heard.Look | None]
_looked = weakref.WeakKeyDictionary()


def keep(store: Store) -> None:
    """Keep this store's tournament and replays in memory from now on (a server's store)."""
    from tournament.storage.sqlitefile import share_connections  # (a server only: #15)

    share_connections(store)  # and each thread reads its file through a connection kept
    heard.listen(store)  # a server's: what others store is heard, not asked each look
    with _lock:
        _keeping.add(store)
        _replays.setdefault(store, OrderedDict())


def kept(store: Store) -> bool:
    return store in _keeping


def _stored(store: Store) -> Tournament | None:
    """The tournament read afresh; in a kept store kept with its head (the state of its last
    event, the one the next reads compare with the store's)."""
    from tournament.domain.tournaments import TOURNAMENT_ID  # not loaded by a recording call (#15)

    count = heard.look(store)  # (before the reads)
    head = last_event(store, TOURNAMENT_ID) if kept(store) else None
    try:
        t: Tournament = store.get(TOURNAMENT_ID, msg("the tournament"))
    except AggregateNotFoundError:
        t = None  # type: ignore[assignment]
    if kept(store):
        with _lock:
            if t is None:
                _tournaments.pop(store, None)
            else:
                _tournaments[store] = t
                # (None: another write came between the two reads; the next read reads again)
                _heads[store] = head[1] if head is not None and head[0] == t.version else None
                _looked[store] = count if _heads[store] is not None else None
    return t


def tournament(store: Store, heard_ok: bool = False) -> Tournament | None:
    """The store's tournament (None: the store holds matches only), read-only: shared by every
    reader of a kept store; read afresh otherwise. ``heard_ok``: a reader's that may take the
    one kept without asking the server while its listener heard nobody else write since the
    last look (:mod:`tournament.storage.heard`: a page, never a writer deciding)."""
    if not kept(store):
        return _stored(store)
    t = _tournaments.get(store)
    if t is None:
        return _stored(store)
    from tournament.domain.tournaments import TOURNAMENT_ID

    if heard_ok and heard.unchanged_since(store, _looked.get(store), TOURNAMENT_ID, t.version):
        return t  # (#27: no round trip for a table's every request while nothing moved)
    count = heard.look(store)  # (before the look: what is heard during it is looked at again)
    new = _newer(store, t)
    if new == []:
        with _lock:
            if _tournaments.get(store) is t:
                _looked[store] = count
        return t
    # One thread brings it forward, on a copy (others may be reading the one kept); the
    # others wait for it rather than copy it too.
    with _forwarding:
        now = _tournaments.get(store) or t
        if now is not t:  # (brought forward meanwhile: what is newer than that, asked again)
            t, new = now, _newer(store, now)
        if new == []:
            return t
        if new is None:
            return _stored(store)
        events, head = new
        try:
            forward: Tournament = _project(copied(t), events)
        except Exception:  # a changed byte, or a tournament replaced: read it afresh
            return _stored(store)
        with _lock:
            _tournaments[store], _heads[store] = forward, head
            _looked[store] = count
    return forward


def _newer(store: Store, t: Tournament) -> list[Any] | tuple[list[Any], bytes] | None:
    """The tournament's events stored after the version ``t`` is at, with the new head: ``[]``
    when the store's last event is the one kept (one indexed query), None when the tournament
    is not the one kept any more (started over, another copy in its place: read it again)."""
    from tournament.domain.tournaments import TOURNAMENT_ID

    head = _heads.get(store)
    try:
        if not store.location.is_server:  # (a file's look: its kept connection's one read)
            version, state = last_event(store, TOURNAMENT_ID)
            if version == t.version and head is not None and state == head:
                return []
            if version <= t.version or head is None:
                return None  # as many events or fewer, another last one: another tournament
        elif head is None:
            return None
        # (a server's: the kept head and what came after it, in one round trip, #27)
        from tournament.storage.newer import events_after  # (a server's only)

        rows = events_after(store, TOURNAMENT_ID, t.version - 1)
        if not rows or rows[0].originator_version != t.version or rows[0].state != head:
            return None  # the kept head is not in the store's chain any more
        if len(rows) == 1:
            return []  # nothing stored after it
        to_domain = store.repository.event_store.mapper.to_domain_event
        return [to_domain(row) for row in rows[1:]], bytes(rows[-1].state)
    except Exception:  # an event that cannot be read: said by the next full read
        return None


def copied(t: Tournament) -> Tournament:
    """A copy of an aggregate that shares nothing with it (pickled and read back: a few times
    quicker than ``deepcopy`` for the tournament's nested dicts)."""
    import pickle  # only a server copies (a command line call never loads it: #27)

    try:
        return pickle.loads(pickle.dumps(t, pickle.HIGHEST_PROTOCOL))  # type: ignore[no-any-return]
    except Exception:  # pragma: no cover - something pickle cannot carry
        return deepcopy(t)


def saved(store: Store, t: Tournament) -> None:
    """Share ``t``, just saved by a writer that changes it no more, as the tournament kept: the
    next read need not bring the one kept forward by the events ``t`` stored (#27). Only when
    the store's last event of it is at ``t``'s version (its own) and the one kept is older."""
    from tournament.domain.tournaments import TOURNAMENT_ID

    if not kept(store) or t.pending_events:
        return
    # (this process's own save of it: its state as stored, not read back, #27)
    own = heard.own_last(store, TOURNAMENT_ID)
    version, state = (
        own if own is not None and own[0] == t.version else last_event(store, TOURNAMENT_ID)
    )
    with _lock:
        was = _tournaments.get(store)
        if version == t.version and state is not None and (was is None or was.version < version):
            _tournaments[store], _heads[store], _looked[store] = t, bytes(state), None


def tournament_copy(store: Store) -> Tournament | None:
    """The tournament for a writer to change and save: a copy of the one kept (or read afresh)."""
    t = tournament(store)
    return copied(t) if t is not None and kept(store) else t


def replayed(
    store: Store,
    key: Any,
    header: str,
    lines: Sequence[str],
    start: Callable[[], Replay],
    extend: Callable[[Replay, int], Replay],
) -> Replay:
    """A match's replay after ``lines``: ``extend(start(), 0)`` replays the whole log, or, in a
    kept store, ``extend(kept, n)`` the lines after the ``n`` a replay kept under ``key`` (the
    match's number, lexicon, rules) had replayed, when its header and those lines are the
    stored ones."""
    cache = _replays.get(store) if kept(store) else None
    if cache is None:
        return extend(start(), 0)
    with _lock:
        hit = cache.get(key)
    replay = None
    if hit is not None:
        kept_header, kept_lines, kept_replay = hit
        n = len(kept_lines)
        if kept_header == header and n <= len(lines) and tuple(lines[:n]) == kept_lines:
            replay = kept_replay if n == len(lines) else extend(kept_replay, n)
    if replay is None:
        replay = extend(start(), 0)
    remember(store, key, header, lines, replay)
    return replay


def remember(store: Store, key: Any, header: str, lines: Sequence[str], replay: Replay) -> None:
    """Keep a match's replay after ``lines`` (a move just recorded: the next read extends it)."""
    cache = _replays.get(store) if kept(store) else None
    if cache is None:
        return
    with _lock:
        cache[key] = (header, tuple(lines), replay)
        cache.move_to_end(key)
        while len(cache) > REPLAYS:
            cache.popitem(last=False)


_outcomes: weakref.WeakKeyDictionary[Store, tuple[int, Any]] = weakref.WeakKeyDictionary()


def at_position(store: Store, position: int, compute: Callable[[], Any]) -> Any:
    """What ``compute`` gives of the read models at ``position`` (every match's outcome), once
    a position in a kept store: shared by every page that needs it, never to be changed."""
    if not kept(store):
        return compute()
    hit = _outcomes.get(store)
    if hit is not None and hit[0] == position:
        return hit[1]
    value = compute()
    with _lock:
        _outcomes[store] = (position, value)
    return value


# --- the matches as stored (#27): a read is one indexed query for the rows after the kept ones

_as_read: weakref.WeakKeyDictionary[Store, OrderedDict[str, Any]] = weakref.WeakKeyDictionary()
_writing: weakref.WeakKeyDictionary[Store, dict[str, Match]] = weakref.WeakKeyDictionary()
_written_at: weakref.WeakKeyDictionary[Store, dict[str, heard.Look | None]]
_written_at = weakref.WeakKeyDictionary()


def stored_match(store: Store, number: str) -> Any | None:
    """The match as last read in this process (a ``StoredMatch``), to be brought forward by the
    rows stored after it (:func:`tournament.readside.reading.read_match`); None in a store
    that keeps nothing."""
    found = looked_match(store, number)
    return None if found is None else found[0]


def keep_match(store: Store, match: Any, looked: heard.Look | None = None) -> None:
    """Keep a match as read (the store's rows up to its last line), by a look made at
    ``looked`` (:func:`tournament.storage.heard.look`; None: not said, the next reader asks)."""
    if not kept(store):
        return
    with _lock:
        cache = _as_read.setdefault(store, OrderedDict())
        cache[match.number] = (match, looked)
        cache.move_to_end(match.number)
        while len(cache) > REPLAYS:
            cache.popitem(last=False)


def looked_match(store: Store, number: str) -> tuple[Any, heard.Look | None] | None:
    """The match kept as read and the listener's count of the look that found it the store's
    (see :func:`keep_match`); None in a store that keeps nothing, or none kept."""
    if not kept(store):
        return None
    with _lock:
        cache = _as_read.get(store)
        return None if cache is None else cache.get(number)


def kept_tournament(store: Store) -> tuple[Tournament | None, bytes | None, heard.Look | None]:
    """The tournament kept, the state of its last event (None: to be read again) and the
    listener's count when it was last found the store's (None: not since it changed here)."""
    with _lock:
        return _tournaments.get(store), _heads.get(store), _looked.get(store)


def writing(store: Store, number: str) -> tuple[Match | None, heard.Look | None]:
    """The match this process's last write to ``number`` left (not taken: see
    :func:`match_to_write`), and the listener's count after its save."""
    with _lock:
        return _writing.get(store, {}).get(number), _written_at.get(store, {}).get(number)


def match_to_write(store: Store, number: str) -> Match:
    """A match's aggregate to write to: the one this process's last write to it left, brought
    forward by the events stored since by anyone (one indexed query), else read from the store.
    Taken, not shared: a second writer of the same match at the same moment reads its own."""
    if kept(store):
        with _lock:
            match = _writing.get(store, {}).pop(number, None)
            _written_at.get(store, {}).pop(number, None)
        if match is not None and store.location.is_server:
            rows = after_head(store, match.id, match.version, match.head or match.start)
            if rows == []:
                return match
            try:
                if rows is not None:
                    to_domain = store.repository.event_store.mapper.to_domain_event
                    match = _project(match, [to_domain(r) for r in rows])
                    if match.intact():
                        return match
            except Exception:  # anything a changed byte can make of a stored event
                pass  # read whole below, which says what is wrong
        elif match is not None:
            same = unchanged(store, match.id, match.version, match.head or match.start)
            if same:
                return match
            try:
                newer = list(store.repository.event_store.get(match.id, gt=match.version))
                if not newer:
                    raise ValueError  # changed underneath (another file in its place)
                match = _project(match, newer)
                if match.intact():
                    return match
            except Exception:  # anything a changed byte can make of a stored event
                pass  # read whole below, which says what is wrong
    return store.get_match(number)


def written(store: Store, match: Match) -> None:
    """Keep the aggregate of a match just saved (its version is the store's), for the next
    write to it, with the listener's count after its save (see :func:`write_ahead`)."""
    if not kept(store) or match.pending_events:
        return
    looked = heard.look(store)
    with _lock:
        cache = _writing.setdefault(store, {})
        cache[match.number] = match
        stamps = _written_at.setdefault(store, {})
        stamps[match.number] = looked
        while len(cache) > REPLAYS:
            stamps.pop(next(iter(cache)), None)
            del cache[next(iter(cache))]


def last_event(store: Store, originator: Any) -> tuple[int, bytes | None]:
    """An aggregate's last stored event, its version and state (``(0, None)``: none stored), in
    one indexed read: through a server's kept connection to its file, else eventsourcing's
    own query on the events table's primary key (a PostgreSQL server)."""
    from tournament.storage.sqlitefile import last_of

    last = last_of(store, originator)
    if last is not None:
        return last
    rows = store.recorder.select_events(originator, desc=True, limit=1)
    return (0, None) if not rows else (int(rows[0].originator_version), bytes(rows[0].state))


def after_head(store: Store, originator: Any, version: int, head: str | None) -> list[Any] | None:
    """On a server, the rows an aggregate kept at ``version`` with the chain's ``head`` has
    gained since, read with the one at ``version`` in one round trip (#27: not a look at the
    last event, then a second query when it moved): ``[]`` when nothing was stored since, None
    when the store's is not the one kept any more (read it whole). A file's store: None too
    (its look is one read through its kept connection: see :func:`unchanged`)."""
    if not store.location.is_server or head is None:
        return None
    from tournament.storage.newer import events_after  # (a server's only)

    try:
        rows = events_after(store, originator, version - 1)
        if not rows or rows[0].originator_version != version:
            return None
        return list(rows[1:]) if orjson.loads(rows[0].state).get("hash") == head else None
    except Exception:  # an event that cannot be read: said by the whole read
        return None


def unchanged(store: Store, originator: Any, version: int, head: str | None) -> bool:
    """Whether a match the store holds is still at ``version`` with the chain's ``head`` (its
    last hash, which seals every line before it): one indexed read, on either backend, so a
    match replaced underneath by as many events is seen at once."""
    last_version, state = last_event(store, originator)
    if last_version != version or state is None:
        return False
    try:
        return bool(orjson.loads(state).get("hash") == head)
    except (ValueError, AttributeError):  # (orjson's errors are ValueErrors)
        return False
