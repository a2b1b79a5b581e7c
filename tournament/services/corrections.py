"""Corrections after the fact: a ruling, a void and the move that replaces it (REF-1, REF-2),
an amended result; one preview of each, and one way of storing it, for every front end.

A correction's preview is the correction as it will stand once stored, never a half state: a
void's shows the match with the void applied and says which move it then waits for; the move
that replaces it is previewed and confirmed in its turn. What it changes is reckoned on the
tournament as it stands (earlier corrections included, before and after alike): the standings,
and how each later round would be paired now (published pairings are never changed). In a
closed round a correction is stored only once confirmed (``--yes``, the web's confirm step).
An amended result stands beside the match logs, which stay as recorded.

Every move recorded from the command line passes through :func:`record_correction`: what only
a correction needs (the tournament, its standings and pairings) is imported where it is used,
so that a roll at the table loads none of it (#15).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import orjson

from engine.errors import RuleViolation
from engine.events import Event, Ruling, Void
from engine.games.base import Outcome
from engine.jsontext import MAX_INT
from engine.message import Msg, msg
from engine.notation import NotationError, parse, read
from engine.notation import format as notation
from engine.record import NamedTuple
from tournament.domain.names import registered
from tournament.errors import Refused
from tournament.readside import kept
from tournament.services.matches import Loaded, load, record, refusal
from tournament.services.play import record_move
from tournament.storage.store import Match, Store, normalise_number

if TYPE_CHECKING:
    from tournament.domain.tournaments import Tournament


# Named tuples, not dataclasses: a recording call imports this module, and eventsourcing's
# patched dataclasses cost it milliseconds a class (#15).
class Preview(NamedTuple):
    """A correction as it will stand once stored, and what it changes (nothing is stored)."""

    correction: str  # the move in the notation, or the amended points (``a=0 b=1``)
    match: str | None = None  # the match corrected; None for an amended result
    round: int | None = None  # the tournament's round it is in (None: a match on its own)
    closed: bool = False  # in a closed round: stored only once confirmed
    before: dict[str, Any] | None = None  # the match's outcome now ...
    after: dict[str, Any] | None = None  # ... and once corrected (None: in play)
    awaits: Msg | None = None  # after a void: the move the match then waits for
    standings: Sequence[dict[str, Any]] = ()
    later_pairings: Sequence[dict[str, Any]] = ()
    stored: bool = False
    position: int | None = None  # the match's position the preview was reckoned at

    @property
    def moved(self) -> list[dict[str, Any]]:
        """The standings' rows that the correction changes."""
        return [
            r
            for r in self.standings
            if (r["rank"], r["points"]) != (r["rank_before"], r["points_before"])
        ]

    def to_json(self) -> dict[str, Any]:
        return {
            "stored": self.stored,
            "correction": self.correction,
            "match": self.match,
            "round": self.round,
            "closed": self.closed,
            "outcome_before": self.before,
            "outcome_after": self.after,
            "awaits": self.awaits,
            "standings": list(self.standings),
            "later_pairings": list(self.later_pairings),
        }


class Recorded(NamedTuple):
    """A move recorded (or not yet: a closed round's, unconfirmed) and the preview shown."""

    preview: Preview | None  # a correction's in a closed round; None elsewhere
    loaded: Loaded | None  # the match after it, once stored
    stored: list[Event]  # the events stored, the move first (none while unconfirmed)


# --- a match's corrections: rulings, voids, and the moves that replace voided ones -------------


def preview_move(
    store: Store,
    number: str,
    move: str | Event,
    lexicon: str | None = None,
    *,
    sealer: Callable[[str], str] | None = None,
) -> Preview:
    """What a move (a ruling, a void, a replacement: in the notation, or an event) would do to
    its match, the standings and the later pairings; nothing is stored."""
    from tournament.services.audit import outcome_json

    loaded = load(store, number, lexicon)
    event = _read(store, move, loaded, sealer)
    try:
        after = loaded.replay.apply(event)
    except RuleViolation as v:
        raise Refused(refusal(v)) from None
    preview = Preview(
        notation(event),
        loaded.match.number,
        before=outcome_json(loaded.replay.outcome),
        after=outcome_json(after.outcome),
        position=loaded.replay.position,
    )
    if isinstance(event, Void) and after.outcome is None:
        turns = tuple(
            msg("%(player)s: %(expects)s [%(events)s]", player=t.player, expects=t.say,
                events="/".join(t.events))
            for t in after.turns
        )  # fmt: skip
        awaits = msg(
            "%(match)s then waits for the move that replaces it (REF-2): %(turns)s; "
            "until then its table is not decided",
            match=loaded.match.number,
            turns=turns,
        )
        preview = preview._replace(awaits=awaits)
    return _with_effect(store, preview, after.outcome)


def outcome_effect(store: Store, number: str, after: Outcome | None) -> dict[str, Any]:
    """What a match ending in ``after`` instead would change in its tournament: its round, and
    the standings and later pairings (empty where the match is no tournament's)."""
    preview = _with_effect(store, Preview("", number), after)
    if preview.round is None:
        return {}
    return {"standings": preview.standings, "later_pairings": preview.later_pairings}


def record_correction(
    store: Store,
    number: str,
    move: str | Event,
    lexicon: str | None = None,
    *,
    confirmed: bool,
    expected_position: int | None = None,
    sealer: Callable[[str], str] | None = None,
    reveal: bool = True,
) -> Recorded:
    """Record a move; in a closed round every move is a correction (a ruling, a void, or the
    move that replaces a voided one): it is previewed, and stored only when ``confirmed``.

    ``expected_position`` is the position the writer saw (a preview's, once confirmed): when
    the match has moved on since, nothing is stored. ``reveal``: as
    :func:`tournament.services.play.record_move` (the console reveals after its undo)."""
    may, read_match = _may_correct(store, number, move)
    place = _place(store, number) if may else None
    if place is None or not _closed(*place):
        stored = _store(store, number, move, lexicon, expected_position, sealer, reveal, read_match)
        return Recorded(None, *stored)
    preview = preview_move(store, number, move, lexicon, sealer=sealer)
    if not confirmed:
        return Recorded(preview, None, [])
    # The move as previewed, in its canonical notation: a sealed word is not asked again.
    stored = _store(store, number, preview.correction, lexicon, expected_position, None, reveal)
    return Recorded(preview._replace(stored=True), *stored)


def _closed(t: Tournament, round_number: int) -> bool:
    from tournament.domain import views  # only when a correction asks (#15)

    return views.paired(t, round_number).closed


def _may_correct(store: Store, number: str, move: str | Event) -> tuple[bool, Match | None]:
    """Whether the move may be a correction of a closed round: a ruling or a void, or any move
    on a match that has ended once (a closed round's tables were decided when it closed); and
    the match's aggregate when it was read to tell, for recording the move without reading it
    again (#27)."""
    if isinstance(move, (Ruling, Void)):
        return True, None
    if isinstance(move, str):
        try:
            if read(move).kind in ("ruling", "void"):
                return True, None
        except NotationError:
            return False, None  # not a move at all: recording it refuses it in one sentence
    match = kept.match_to_write(store, normalise_number(number))
    return any(orjson.loads(line).get("type") == "end" for line in match.lines), match


def _read(
    store: Store, move: str | Event, loaded: Loaded, sealer: Callable[[str], str] | None
) -> Event:
    """The move as an event, read as recording it would read it (a roll without its faces
    takes them from the sealed digital dice)."""
    if not isinstance(move, str):
        return move
    from tournament.services import dice

    try:
        return parse(move, loaded.replay, seed=dice.seed(store, loaded.match.number), sealer=sealer)
    except (NotationError, RuleViolation) as e:
        raise Refused(refusal(e)) from None


def _store(
    store: Store,
    number: str,
    move: str | Event,
    lexicon: str | None,
    expected_position: int | None,
    sealer: Callable[[str], str] | None,
    reveal: bool,
    read_match: Match | None = None,
) -> tuple[Loaded, list[Event]]:
    """Record the move (``read_match``: the match's aggregate already read for it, if any)."""
    if not isinstance(move, str) and expected_position is not None:
        move = notation(move)  # the position checked as for a move in the notation
    if isinstance(move, str):
        return record_move(
            store,
            number,
            move,
            lexicon,
            expected_position,
            sealer=sealer,
            reveal=reveal,
            read_match=read_match,
        )
    return record(store, number, move, lexicon, read_match=read_match)


def _place(store: Store, number: str) -> tuple[Tournament, int] | None:
    """The tournament and the round whose table plays this match, if any."""
    from tournament.services.day import get_tournament
    from tournament.services.effects import round_of_match  # a correction's only (#27)

    try:
        t = get_tournament(store)
    except Refused:
        return None
    found = round_of_match(t, number)
    return None if found is None else (t, found)


def _with_effect(store: Store, preview: Preview, after: Outcome | None) -> Preview:
    from tournament.domain import views  # only when a correction asks (#15)

    assert preview.match is not None
    place = _place(store, preview.match)
    if place is None:
        return preview
    t, round_number = place
    known = outcomes(store)
    changed = {**known, preview.match: after}
    from tournament.services.effects import effect

    found = effect(t, known.get, t, changed.get, round_number)
    closed = views.paired(t, round_number).closed
    return preview._replace(
        round=round_number,
        closed=closed,
        standings=found.standings,
        later_pairings=found.later_pairings,
    )


def outcomes(store: Store) -> dict[str, Outcome | None]:
    """Every match's outcome, from the read models brought up to date."""
    from tournament.readside import queries, readmodels  # only when a correction asks

    readmodels.update(store)
    return queries.outcomes(store)


# --- amended results -----------------------------------------------------------------------------


def read_points(items: list[str]) -> dict[str, int]:
    """Challenge points written ``player=number`` (``giallo=3 blu=1``), as an amendment takes
    them."""
    given: dict[str, int] = {}
    for item in items:
        player, _, value = item.partition("=")
        # ASCII digits only ("²".isdigit() is True), and no more than any JSON reader holds
        # exactly: a larger number would be stored and then break every later reading.
        if not (value.isascii() and value.isdigit()) or len(value) > 18 or int(value) > MAX_INT:
            raise Refused(msg("points are written player=number, not %(item)r", item=item))
        given[player] = int(value)
    return given


def preview_amend(
    store: Store,
    round_number: int,
    table_number: int,
    points: dict[str, int],
    reason: str,
    by: str = "organizer",
) -> Preview:
    """What amending a table's result would change; nothing is stored."""
    from tournament.domain import views  # only when a correction asks (#15)
    from tournament.services.day import get_tournament

    t = get_tournament(store)
    changed = copy.deepcopy(t)
    amend_result(changed, round_number, table_number, points, reason, by)
    known = outcomes(store).get
    amended = views.paired(changed, round_number).table(table_number).amended
    assert amended is not None  # amend_result has just added it
    from tournament.services.effects import effect

    found = effect(t, known, changed, known, round_number)
    return Preview(
        " ".join(f"{p}={v}" for p, v in amended.points.items()),
        round=round_number,
        closed=views.paired(t, round_number).closed,
        standings=found.standings,
        later_pairings=found.later_pairings,
    )


def amend(
    store: Store,
    round_number: int,
    table_number: int,
    points: dict[str, int],
    reason: str,
    by: str = "organizer",
    *,
    confirmed: bool,
) -> Preview:
    """Amend a table's result, previewed; in a closed round stored only when ``confirmed``."""
    preview = preview_amend(store, round_number, table_number, points, reason, by)
    if preview.closed and not confirmed:
        return preview
    from tournament.services.day import get_tournament, save
    from tournament.services.retry import retried

    def once() -> None:  # read, decide, save: made again if another terminal saved first
        t = get_tournament(store)
        amend_result(t, round_number, table_number, points, reason, by)
        save(store, t)

    retried(once, store=store)
    return preview._replace(stored=True)


def amend_result(
    t: Tournament,
    round_number: int,
    table_number: int,
    points: dict[str, int],
    reason: str,
    by: str = "organizer",
) -> None:
    """Amend a table's result on ``t`` (the caller saves): the match logs stay as recorded."""
    from tournament.services.day import PARTITA, PARTITA_GAMES
    from tournament.services.tables import table_at

    table = table_at(t, round_number, table_number)
    if table.bye:
        raise Refused(
            msg("table %(table)s is a bye: there is no result to amend", table=table_number)
        )
    points = {registered(p, table.players) or p: v for p, v in points.items()}  # #11
    if set(points) != set(table.players):
        raise Refused(
            msg(
                "give the challenge points of %(players)s, each once",
                players=table.players,
            )
        )
    most = most_points(t)
    if any(type(v) is not int or not 0 <= v <= most for v in points.values()):
        raise Refused(
            msg(
                "challenge points at a table are whole numbers from 0 to %(most)s: %(why)s",
                most=most,
                why=msg(
                    "a point for each of the partita's %(games)s challenges won (CH-2, CH-3)",
                    games=PARTITA_GAMES,
                )
                if t.settings["plays"] == PARTITA
                else msg("a point for its one challenge won (CH-2)"),
            )
        )
    if not reason.strip():
        raise Refused(msg("an amended result needs a reason"))
    t.amend_result(round=round_number, table=table_number, points=points, reason=reason, by=by)


def most_points(t: Tournament) -> int:
    """The most challenge points a player can score at one table: a point for each challenge
    won (CH-2), and a table plays a partita's four challenges (CH-3) or the tournament's one."""
    from tournament.services.day import PARTITA, PARTITA_GAMES

    return PARTITA_GAMES if t.settings["plays"] == PARTITA else 1
