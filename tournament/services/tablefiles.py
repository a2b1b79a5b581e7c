"""Table files (#26): a table that records with no network, on a store of its own.

- :func:`checkout`: the tournament records that the table is out (``TableCheckedOut``: its
  matches, those started and those its partita still plays, numbered now) and a new SQLite file
  gets a verified copy of the whole store (``db copy``: every chain, the tournament as it is, so
  that every usual command, the console and ``verify`` work on it), with the digital dice seeds
  of that table's matches only, marked as that table's file (``TableFileWritten``).
- :func:`checkin`: what the file added to each of the table's matches is appended to the
  tournament's as a fast-forward (:mod:`tournament.services.merge`), keeping the file's events,
  times and hashes; the matches the file started are attached, with their referees and heads;
  and the table is back (``TableCheckedIn``): all in one transaction, or nothing.
- :func:`release`: the table is back without its file (``TableReleased``).

While a table is out each store refuses what is the other's (:mod:`tournament.domain.tablefiles`,
checked on every save by :mod:`tournament.storage.holds`).
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from engine.message import Msg, msg
from engine.record import Record
from tournament.domain import views
from tournament.domain.tablefiles import Out, where
from tournament.errors import Refused, StoreError
from tournament.services import dice
from tournament.services.day import table_games
from tournament.services.matches import replayed
from tournament.services.merge import fast_forward
from tournament.services.retry import retried
from tournament.services.stored import get_tournament, save
from tournament.services.tables import table_at
from tournament.storage.holds import holds
from tournament.storage.locations import SqliteFile, close, locate
from tournament.storage.sealedlog import match_uuid
from tournament.storage.sql import own_tables
from tournament.storage.store import Store

FORMAT = 1  # of the table events' fields
# A test's hook: ``table checkin`` writes PATH.ready and waits (at most a minute) until PATH
# exists, right before its one transaction (tests/tournament/test_tablefiles_processes.py).
PAUSE = "TOURNAMENT_TEST_CHECKIN_PAUSE"


class CheckedOut(Record):
    round: int
    table: int
    file: str
    matches: dict[str, str]  # game -> number
    started: tuple[str, ...]


class CheckedIn(Record):
    round: int
    table: int
    added: dict[str, int]  # match -> events added here
    new: tuple[str, ...]  # matches the file started
    file_closed: bool  # the file was told (it refuses more writes)


def checkout(
    store: Store, round_number: int, table_number: int, to: str | Path, by: str = "organizer"
) -> CheckedOut:
    """Check a table out to a new table file ``to`` (see the module)."""
    target = locate(str(to))
    if not isinstance(target, SqliteFile):
        raise Refused(msg("a table file is an SQLite file, not a server"))
    if target.path.exists():
        raise Refused(
            msg("%(file)s already exists: a table file is a new file", file=str(target.path))
        )
    here = holds(store).file
    if here is not None:
        raise Refused(_is_a_file(here))
    path = str(target.path.resolve())

    def once() -> tuple[dict[str, str], tuple[str, ...]]:
        t = get_tournament(store)
        table = table_at(t, round_number, table_number)
        if views.paired(t, round_number).closed:
            raise Refused(msg("round %(round)s is closed", round=round_number))
        if table.bye:
            raise Refused(msg("table %(table)s is a bye", table=table_number))
        games = table_games(t, table)
        if not games:
            raise Refused(
                msg(
                    "the partita of table %(table)s is not chosen yet: choose it first (CH-3)",
                    table=table_number,
                )
            )
        given = vars(t).get("reserved", {}).get(f"{round_number}/{table_number}", {})
        numbers = dict(table.matches)
        for game in games:
            if game not in numbers:
                numbers[game] = given.get(game) or store.new_match("").number
        t.check_out_table(
            round=round_number, table=table_number, matches=numbers, to=path, by=by, format=FORMAT
        )
        save(store, t)
        return numbers, tuple(table.matches.values())

    numbers, started = retried(once)
    try:
        _write_file(store, target, round_number, table_number, numbers, by)
    except BaseException:
        from tournament.storage.sqlitefile import remove

        remove(target.path)
        release(store, round_number, table_number, "the table file could not be written", by)
        raise
    return CheckedOut(round_number, table_number, path, numbers, started)


def _write_file(
    store: Store, target: SqliteFile, round_number: int, table_number: int,
    numbers: dict[str, str], by: str,
) -> None:  # fmt: skip
    """The verified copy of the whole store, its seeds but the table's taken away, marked."""
    from tournament.services.copy import copy
    from tournament.services.matches import lexicon_for

    copied = copy(store.location, target, lambda header: lexicon_for(header, store.lexicon))
    if copied.failures:
        raise StoreError(msg("the table file did not verify: %(why)s", why=copied.failures[0]))
    file = Store(target)
    file.lexicon = store.lexicon
    try:
        mine = set(numbers.values())
        others = [m for m, _ in dice.every_seed(file) if m not in mine]
        if others:
            with own_tables(file) as db:
                for number in others:  # another table's secret stays in the tournament
                    db.run(f"delete from {dice.TABLE} where match = ?", [number])
        t = get_tournament(file)
        home = store.location.full_name()
        t.write_table_file(round=round_number, table=table_number, home=home, by=by, format=FORMAT)
        save(file, t)
    finally:
        close(file)


def _is_a_file(file: Out) -> Msg:
    return msg(
        "this is the table file of table %(table)s of round %(round)s: check it in to the "
        "tournament at %(home)s first",
        table=file.table,
        round=file.round,
        home=file.to,
    )


def checkin(store: Store, path: str | Path, by: str = "organizer") -> CheckedIn:
    """Take what the table file at ``path`` added to its table's matches (see the module)."""
    source = locate(str(path))
    if not isinstance(source, SqliteFile) or not source.path.is_file():
        raise Refused(msg("there is no table file at %(file)s", file=str(path)))
    from tournament.services.stores import open_store

    file = open_store(source, store.lexicon)
    try:
        return retried(lambda: _checkin(store, file, str(source.path), by))
    finally:
        close(file)


def _checkin(store: Store, file: Store, name: str, by: str) -> CheckedIn:
    theirs = holds(file)
    mark = theirs.file
    if mark is None:
        raise Refused(msg("%(file)s is not a table file", file=name))
    ours = holds(store)
    if ours.file is not None:
        raise Refused(_is_a_file(ours.file))
    r, n = mark.round, mark.table
    out = ours.out.get((r, n))
    if out is None:
        raise Refused(
            msg(
                "table %(table)s of round %(round)s is not out (it was checked in or released): "
                "%(file)s is not taken in",
                table=n,
                round=r,
                file=name,
            )
        )
    if out.seal != mark.seal:
        raise Refused(
            msg(
                "%(file)s is not the file table %(table)s of round %(round)s is out to (%(to)s)",
                file=name,
                table=n,
                round=r,
                to=out.to,
            )
        )
    t, ft = get_tournament(store), get_tournament(file)
    there = msg("the table file %(file)s", file=name)
    table = table_at(t, r, n)
    merged, added, new = [], {}, []
    for game, number in out.matches.items():
        incoming = _match(file, number)
        if incoming is None:
            continue  # not started in the file
        if game not in table.matches:  # started in the file: attached here, with its referee
            t.attach_match(round=r, table=n, game=game, match=number, by=by)
            new.append(number)
        referee = ft.referee_of(number)
        if referee is not None and t.referee_of(number) != referee:
            t.name_referee(match=number, referee=referee, by=by)
        mine = _match(store, number)
        before = len(mine.lines) if mine is not None else 0
        match = fast_forward(mine, incoming, there)
        if match is not None:
            loaded = replayed(match, store.lexicon)  # the rules judge the merged log
            merged.append(match)
            added[number] = len(match.lines) - before
            if loaded.replay.outcome is not None and match.head is not None:
                t.record_head(match=number, events=len(match.lines), head=match.head, by=by)
    t.check_in_table(round=r, table=n, by=by, format=FORMAT)
    _carry_seeds(file, store, set(out.numbers))
    _pause()
    save(store, t, *merged)
    return CheckedIn(r, n, added, tuple(new), _close_file(file, r, n, by))


def _match(store: Store, number: str) -> Any:
    """The match's aggregate, or None when the store holds none under that number."""
    if not store.recorder.select_events(match_uuid(number), limit=1):
        return None
    return store.get_match(number)


def _carry_seeds(file: Store, store: Store, numbers: set[str]) -> None:
    """The seeds of the digital dice the file sealed (its table's), kept here too."""
    have = {m for m, _ in dice.every_seed(store)}
    seeds = [(m, s) for m, s in dice.every_seed(file) if m in numbers and m not in have]
    dice.keep_seeds(store, seeds)


def _pause() -> None:
    hook = os.environ.get(PAUSE)
    if not hook:
        return
    Path(hook + ".ready").write_text("ready")
    deadline = time.monotonic() + 60
    while not Path(hook).exists() and time.monotonic() < deadline:
        time.sleep(0.05)


def _close_file(file: Store, round_number: int, table_number: int, by: str) -> bool:
    """Record in the file that it was checked in (it then refuses more writes); False when the
    file cannot be written (a read-only copy): the tournament has its moves all the same."""
    try:
        ft = get_tournament(file)
        ft.check_in_table(round=round_number, table=table_number, by=by, format=FORMAT)
        save(file, ft)
    except (StoreError, Refused, OSError):
        return False
    return True


def release(
    store: Store, round_number: int, table_number: int, reason: str, by: str = "organizer"
) -> None:
    """Take a table back without its file: what the file recorded is not taken in."""

    def once() -> None:
        t = get_tournament(store)
        table_at(t, round_number, table_number)
        if f"{round_number}/{table_number}" not in vars(t).get("out", {}):
            raise Refused(
                msg(
                    "table %(table)s of round %(round)s is not out",
                    table=table_number,
                    round=round_number,
                )
            )
        t.release_table(round=round_number, table=table_number, reason=reason, by=by, format=FORMAT)
        save(store, t)

    retried(once)


def out_of(store: Store, number: str) -> Msg | None:
    """Where a match is recorded when it is not here (its table is out, or this store is a
    table file and the match is the tournament's), for the pages to say."""
    found = holds(store)
    if found.file is not None:
        mine = number in found.file.numbers and not found.closed
        return None if mine else _is_a_file(found.file)
    out = found.out_with(number)
    return where(out) if out is not None else None


def tables_out(store: Store, round_number: int) -> dict[int, Msg]:
    """The tables of a round out in table files, each with where it is (for the status)."""
    found = holds(store)
    return {tb: where(out) for (r, tb), out in found.out.items() if r == round_number}


def table_out(store: Store, round_number: int, table_number: int) -> Msg | None:
    """Where a table's matches are recorded when not here (for its referee's page)."""
    found = holds(store)
    if found.file is not None:
        mine = (found.file.round, found.file.table) == (round_number, table_number)
        return None if mine and not found.closed else _is_a_file(found.file)
    out = found.out.get((round_number, table_number))
    return where(out) if out is not None else None
