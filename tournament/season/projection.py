"""One tournament as a season sees it: read from its logs, never written to.

Each match of the tournament's tables is replayed (the logs are the truth; the read models may
be stale and updating them would write to the file). What a match gives the season is its
:class:`Result`: the outcome and the order players went out, as the engine decides them. A
correction recorded after a match had ended (a referee's ruling or void, REF-1 and REF-2) is
kept with the result the match had before it, so that the season's audit can say what it moved.
"""

from __future__ import annotations

import copy
import json
import sqlite3
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from uuid import UUID

from eventsourcing.utils import get_topic

from engine.errors import RuleViolation
from engine.events import End, Event, Ruling, Void, parse_event
from engine.games.base import Outcome
from engine.header import parse_header
from engine.match import Replay
from engine.message import msg
from tournament.domain import views
from tournament.domain.results import current_standings, table_games
from tournament.domain.standings import Row
from tournament.domain.tournaments import Tournament
from tournament.errors import Refused
from tournament.logformat.lexicons import lexicon_for
from tournament.logformat.matchlog import RULES_OF_CHAIN
from tournament.season.config import SeasonError
from tournament.season.ratings import Contest, placing
from tournament.services import day
from tournament.services.matches import describe
from tournament.storage.store import PAGE, STARTED, Match, Store

RECORDED = get_topic(Match.Recorded)  # type: ignore[attr-defined]  # made by @event


@dataclass(frozen=True)
class Result:
    """How a finished match ended: its players, its outcome and who went out, in order."""

    players: tuple[str, ...]
    outcome: Outcome
    out: tuple[str, ...]


@dataclass(frozen=True)
class Correction:
    """Rulings and voids recorded after a match had ended, and the result it had before them."""

    positions: tuple[int, ...]
    said: tuple[str, ...]  # each correction in words, as the referee's screen shows it
    before: Result | None


@dataclass(frozen=True)
class MatchFacts:
    number: str
    game: str
    round: int
    table: int
    result: Result | None  # None while the match is in play
    correction: Correction | None = None


@dataclass(frozen=True)
class TournamentFacts:
    """A tournament of the season: its aggregate (read-only) and the facts of its matches."""

    label: str  # as the season file names it
    tournament: Tournament
    matches: Mapping[str, MatchFacts] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return str(self.tournament.settings["name"])

    @property
    def date(self) -> str:
        return str(self.tournament.settings.get("date") or "")

    @property
    def results(self) -> dict[str, Result | None]:
        return {number: m.result for number, m in self.matches.items()}

    @property
    def registered(self) -> list[str]:
        """Every player who took part, in the order they registered."""
        return list(self.tournament.ranked_players)


def standings(
    facts: TournamentFacts,
    results: Mapping[str, Result | None] | None = None,
    tournament: Tournament | None = None,
) -> list[Row]:
    """The tournament's standings on its decided tables, by the tournament's own rules."""
    known = facts.results if results is None else results

    def outcome_of(number: str) -> Outcome | None:
        found = known.get(number)
        return found.outcome if found else None

    return current_standings(tournament or facts.tournament, outcome_of)


def contests(
    facts: TournamentFacts,
    index: int,
    results: Mapping[str, Result | None] | None = None,
    tournament: Tournament | None = None,
) -> Iterator[Contest]:
    """The tournament's rated contests in the order played: each finished match of each table.

    A table whose result the organizer amended is one contest of the whole table, ranked by
    the amended points (the amendment stands over its matches, as in the standings); it counts
    in the overall rating only, as it is no one game.
    """
    known = facts.results if results is None else results
    t = tournament or facts.tournament
    for tb in views.tables(t):
        if tb.bye:
            continue
        if tb.amended is not None:
            ranks = placing(tb.players, Outcome((), dict(tb.amended.points)), ())
            yield Contest(index, tb.round, tb.number, None, None, tb.players, ranks)
            continue
        for game in table_games(t, tb):
            number = tb.matches.get(game)
            found = known.get(number) if number else None
            if found is None:
                continue
            ranks = placing(found.players, found.outcome, found.out)
            yield Contest(index, tb.round, tb.number, game, number, found.players, ranks)


def without_amendment(t: Tournament, round_number: int, table_number: int) -> Tournament:
    """A copy of the tournament as it was before the organizer amended one table's result."""
    changed = copy.deepcopy(t)
    changed.table(round_number, table_number).pop("amendments", None)
    return changed


# --- reading a tournament's file ------------------------------------------------------------


def read_tournament(label: str, path: Path, lexicon: str | None = None) -> TournamentFacts:
    """Read one tournament of the season; anything wrong is one sentence naming it.

    ``lexicon`` is the organizer's word list (``--lexicon``) for matches recorded with it.
    """
    _check_file(label, path)
    store = Store(path)
    try:
        try:
            t = day.get_tournament(store)
        except Refused:
            raise SeasonError(
                msg("%(label)s holds no tournament (only loose matches)", label=label)
            ) from None
        logs = match_logs(store)
        matches: dict[str, MatchFacts] = {}
        for tb in views.tables(t):
            for number in tb.matches.values():
                if number not in logs:
                    raise SeasonError(
                        msg(
                            "%(label)s: the log of %(number)s is missing",
                            label=label,
                            number=number,
                        )
                    )
                header, lines, rules = logs[number]
                where = (number, tb.round, tb.number)
                matches[number] = _match_facts(label, lexicon, header, lines, rules, *where)
        return TournamentFacts(label, t, matches)
    finally:
        store.close()


def _check_file(label: str, path: Path) -> None:
    """A file that exists, is SQLite and holds an event store: checked without writing to it."""
    if not path.exists():
        raise SeasonError(
            msg(
                "the season's tournament %(label)s does not exist (%(path)s)",
                label=label,
                path=path,
            )
        )
    if path.is_dir():
        raise SeasonError(
            msg("the season's tournament %(label)s is a folder, not a database file", label=label)
        )
    try:
        db = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as e:
        raise SeasonError(
            msg("the season's tournament %(label)s cannot be opened: %(e)s", label=label, e=e)
        ) from None
    try:
        found = db.execute(
            "select 1 from sqlite_master where type = 'table' and name = 'stored_events'"
        ).fetchone()
    except sqlite3.DatabaseError:
        raise SeasonError(
            msg("the season's tournament %(label)s is not a SQLite database", label=label)
        ) from None
    finally:
        db.close()
    if not found:
        raise SeasonError(
            msg("the season's tournament %(label)s is not a tournament database", label=label)
        )


def match_logs(store: Store) -> dict[str, tuple[str, list[str], int]]:
    """Every stored match's header and log lines, and the rules its header means when it names
    none (by its chain's format: :data:`tournament.logformat.matchlog.RULES_OF_CHAIN`), read in a
    few pages of the event table.

    A season reads thousands of matches: one pass over the stored events is several times
    quicker than rebuilding each match's aggregate on its own, and decodes the same events.
    """
    logs: dict[UUID, tuple[str, list[str], int]] = {}
    start = 1
    while True:
        page = store.recorder.select_notifications(start, PAGE, topics=[STARTED, RECORDED])
        for notification in page:
            event: Any = store.mapper.to_domain_event(notification)  # Match.Started/Recorded
            if notification.topic == STARTED:
                chain_format = 1 if vars(event).get("hash") is None else 2  # v1: 0.1's
                logs[event.originator_id] = (
                    event.number,
                    [event.header],
                    RULES_OF_CHAIN[chain_format],
                )
            else:
                logs[event.originator_id][1].append(event.line)
        if len(page) < PAGE:
            break
        start = page[-1].id + 1
    return {number: (lines[0], lines[1:], rules) for number, lines, rules in logs.values()}


def _match_facts(
    label: str,
    lexicon_path: str | None,
    header_line: str,
    lines: list[str],
    rules: int,
    number: str,
    round_: int,
    table: int,
) -> MatchFacts:
    try:
        header = parse_header(json.loads(header_line))
        lexicon = lexicon_for(header, lexicon_path)
        events = [parse_event(json.loads(line)) for line in lines]
        replay = Replay.start(header, lexicon, rules=rules).extend(events)
    except Refused as e:  # the user's word list is not the match's
        raise SeasonError(msg("%(label)s: %(e)s", label=label, e=e)) from None
    except (RuleViolation, ValueError) as e:  # changed outside the program, or older rules
        raise SeasonError(
            msg(
                "%(label)s: the stored log of %(number)s does not replay (%(e)s)",
                label=label,
                number=number,
                e=e,
            )
        ) from None
    correction = None
    late = _late_corrections(events)
    if late:
        before = Replay.start(header, lexicon, rules=rules).extend(events[: late[0] - 1])
        correction = Correction(
            tuple(late),
            tuple(f"#{i} {describe(events[i - 1])}" for i in late),
            _result(before),
        )
    return MatchFacts(number, header.game, round_, table, _result(replay), correction)


def _late_corrections(events: list[Event]) -> list[int]:
    """Positions of rulings and voids recorded after the log had said the match ended."""
    ended = False
    late = []
    for i, e in enumerate(events, 1):
        if isinstance(e, End):
            ended = True
        elif ended and isinstance(e, (Ruling, Void)):
            late.append(i)
    return late


def _result(replay: Replay) -> Result | None:
    outcome = replay.outcome
    if outcome is None:
        return None
    return Result(tuple(replay.header.players), outcome, tuple(o.player for o in replay.out))
