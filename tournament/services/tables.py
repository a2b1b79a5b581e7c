"""A round's tables at play: the partita a table chooses (CH-3) and the matches it opens, each
created and attached to the tournament in one transaction.

Several tables' writes can be made together, in one turn and one transaction (#27): eighty
tables starting their challenges at the same moment each read the tournament, decided and
saved it in turn, one save after another on its one aggregate, and the last waited for
seventy-nine saves (2.4 s on a server). A server's front end hands the writes that arrive
while one is made to :func:`start_matches` or :func:`choose_partitas` at once: they are decided
one after another on one copy of the tournament and saved in one transaction. Each is judged
as it would be alone, in the order given: one refused (a table started twice, a round closed
meanwhile) gets its own refusal, and the others are decided again without it on a fresh copy,
so that nothing it began is saved. A failure of the store fails them all, none stored. One
table's write alone (:func:`start_match`, :func:`choose_partita`) is a batch of one.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from engine.message import msg
from tournament.domain import knockouts, views
from tournament.domain.names import registered
from tournament.domain.results import played_result
from tournament.domain.tournaments import Tournament
from tournament.errors import Refused, UserError
from tournament.readside import kept
from tournament.readside.reading import keep_written, read_match
from tournament.services.day import (
    PARTITA,
    PARTITA_GAMES,
    get_tournament,
    replayed_outcome,
    save,
    table_games,
)
from tournament.services.matches import check_header
from tournament.services.retry import retried
from tournament.services.stored import snapshot
from tournament.storage import heard
from tournament.storage.failures import as_user_errors
from tournament.storage.store import Match, Store, StoreError

ATTACHED: Any = Tournament.MatchAttached  # type: ignore[attr-defined]  # made by @event


def table_at(t: Tournament, round_number: int, table_number: int) -> views.Table:
    """A paired table by its round's and its own number, or one sentence saying there is none."""
    if not 1 <= round_number <= len(t.rounds):
        raise Refused(msg("there is no round %(round)s", round=round_number))
    paired = views.paired(t, round_number)
    if not 1 <= table_number <= len(paired.tables):
        raise Refused(
            msg("round %(round)s has no table %(table)s", round=round_number, table=table_number)
        )
    return paired.table(table_number)


def _open_table(t: Tournament, round_number: int, table_number: int) -> views.Table:
    table = table_at(t, round_number, table_number)
    if views.paired(t, round_number).closed:
        raise Refused(msg("round %(round)s is closed", round=round_number))
    if table.bye:
        raise Refused(msg("table %(table)s is a bye", table=table_number))
    return table


def choose_partita(
    store: Store, round_number: int, table_number: int, games: Sequence[str], by: str = "organizer"
) -> Tournament:
    """CH-3: the four games a table's partita plays, chosen at its start. (On a server the
    tournament returned is the one its readers share, #27: only to read.)"""
    return _alone(choose_partitas(store, [Choice(round_number, table_number, tuple(games), by)]))


def decide_partita(
    t: Tournament, round_number: int, table_number: int, games: Sequence[str], by: str
) -> None:
    """Check a partita's choice and record it on ``t`` (the caller saves)."""
    if t.settings["plays"] != PARTITA:
        raise Refused(
            msg("this tournament plays %(plays)s, not partite", plays=t.settings["plays"])
        )
    table = _open_table(t, round_number, table_number)
    if table.games:
        raise Refused(
            msg(
                "the partita of table %(table)s already plays %(games)s",
                table=table_number,
                games=table.games,
            )
        )
    allowed = t.settings["games"]
    if len(games) != PARTITA_GAMES or len(set(games)) != PARTITA_GAMES:
        raise Refused(msg("a partita is four different games (CH-3)"))
    bad = [g for g in games if g not in allowed]
    if bad:
        raise Refused(
            msg(
                "%(game)s is not among this tournament's games (%(games)s)",
                game=bad[0],
                games=tuple(allowed),
            )
        )
    t.choose_partita(round=round_number, table=table_number, games=list(games), by=by)


def start_match(
    store: Store,
    round_number: int,
    table_number: int,
    game_name: str,
    outside: Sequence[str] = (),
    by: str = "organizer",
    lexicon_path: str | None = None,
    referee: str | None = None,
) -> Match:
    """Create the match of one challenge of a table, with the table's players, and attach it
    (with its ``referee``'s name, checked by the caller): one transaction, made again from the
    start when another terminal changed the tournament."""
    start = Start(round_number, table_number, game_name, tuple(outside), by, lexicon_path, referee)
    return _alone(start_matches(store, [start]))


def _alone(made: list[Made | UserError]) -> Made:
    if isinstance(made[0], UserError):
        raise made[0]
    return made[0]


def open_match(
    store: Store,
    t: Tournament,
    round_number: int,
    table_number: int,
    game_name: str,
    outside: Sequence[str] = (),
    by: str = "organizer",
    lexicon_path: str | None = None,
    *,
    referee: str | None = None,
    save: bool = True,
) -> Match:
    """Store a table's new match and attach it to ``t``, in one transaction with every change
    pending on ``t`` (raises :class:`Conflict`, nothing stored, when another terminal saved
    first). Without ``save`` both are left for the caller to save together (a simulation saves
    a whole round in one transaction)."""
    table = _open_table(t, round_number, table_number)
    games = table_games(t, table)
    if game_name not in games:
        planned = tuple(games) or msg("nothing yet (choose the partita first)")
        raise Refused(
            msg(
                "table %(table)s plays %(planned)s, not %(game)s",
                table=table_number,
                planned=planned,
                game=game_name,
            )
        )
    players = [p for p in table.players if p not in table.forfeited]  # the others play on (#24)
    if len(players) < 2:
        raise Refused(
            msg(
                "%(player)s withdrew from table %(table)s: the forfeit decided it",
                player=table.forfeited[0],
                table=table_number,
            )
        )
    key = game_name
    if game_name in table.matches:
        if not _drawn_knockout(store, t, table):
            raise Refused(
                msg(
                    "%(game)s of table %(table)s is already %(match)s",
                    game=game_name,
                    table=table_number,
                    match=table.matches[game_name],
                )
            )
        key = knockouts.decider_key(game_name, len(table.matches))  # a decider (#24)
        if vars(t).get("table_file"):  # its number is the tournament's to give (#26)
            raise Refused(
                msg(
                    "a decider is started in the tournament, not in a table file: check table "
                    "%(table)s in (table checkin), then start it there",
                    table=table_number,
                )
            )
    # Seats rotate from one challenge to the next (a decider's too).
    turn = (games.index(game_name) if key == game_name else len(table.matches)) % len(players)
    players = players[turn:] + players[:turn]
    header: dict[str, Any] = {"format": "tournament-match/1", "game": game_name, "players": players}
    if outside:
        header["outside"] = [_registered(t, name) for name in outside]
    log = check_header(header, lexicon_path or store.lexicon)
    _same_word_list(store, t, json.loads(log.header_line)["lexicon"])
    # A table once checked out to a table file (#26) keeps the numbers its checkout gave.
    given = vars(t).get("reserved", {}).get(f"{round_number}/{table_number}", {}).get(key)
    match = Match.begin(given, log.stored_header) if given else store.new_match(log.stored_header)
    t.attach_match(round=round_number, table=table_number, game=key, match=match.number, by=by)
    if referee is not None:
        t.name_referee(match=match.number, referee=referee, by=by)
    if save:
        before, looked = t.version - len(t.pending_events), heard.look(store)
        store.save_new(match, t)
        snapshot(store, t, before)
        _kept_as_saved(store, match, looked)
    return match


def _kept_as_saved(store: Store, match: Match, looked: heard.Look | None) -> None:
    """A new match just saved, kept by a server as it stored it: the aggregate for its first
    move, the rows for its page and the read models' refresh (#27: a room's tables starting at
    once, then each drawing its page), as read at ``looked``. A command line call: nothing."""
    if kept.kept(store):
        keep_written(store, match, looked)
        kept.written(store, match)


def _drawn_knockout(store: Store, t: Tournament, table: views.Table) -> bool:
    """Whether a knockout table, every challenge of it ended, is drawn and waits for a decider
    (the ``replay`` rule, :mod:`tournament.domain.knockouts`): its matches replayed."""
    if not knockouts.is_knockout(t, table.round) or knockouts.draw_rule(t) != "replay":
        return False
    if table.amended is not None:  # the amendment stands over the matches, a decider too
        return False
    return knockouts.needs_decider(t, table, played_result(t, table, replayed_outcome(store)))


def _registered(t: Tournament, name: str) -> str:
    """A registered player's name as registered (#11), or one sentence."""
    found = registered(name, t.players)
    if found is None:
        raise Refused(msg("%(name)r is not a registered player of this tournament", name=name))
    return found


def _same_word_list(store: Store, t: Tournament, lexicon: dict[str, str]) -> None:
    """EQ-4: a tournament's matches share one word list, so that one ``--lexicon`` replays them
    all (the read models, verify); a match with another list than the last one is refused.
    Matches attached in this call but not yet saved (``simulate`` saves a round at once) were
    opened with this same list, so the last stored one decides. It is read without its
    aggregate (:func:`tournament.readside.reading.read_match`; a server takes the header of the
    one it keeps, as a match's header never changes); a stored match that is missing or cannot
    be read is said so, never passed over for an older one."""
    unsaved = {e.match for e in t.pending_events if isinstance(e, ATTACHED)}
    for r in reversed(views.rounds(t)):
        for tb in r.tables:
            for number in tb.matches.values():
                if number in unsaved:
                    continue
                try:  # (its header only, which never changes: as kept, when it is, #27)
                    stored = kept.stored_match(store, number) or read_match(store, number)
                except StoreError as e:
                    raise Refused(
                        msg(
                            "this tournament's word list cannot be checked (EQ-4): %(why)s",
                            why=e.args[0] if len(e.args) == 1 else str(e),
                        )
                    ) from None
                other = json.loads(stored.header).get("lexicon") or {}
                if other.get("sha256") != lexicon["sha256"]:
                    raise Refused(
                        msg(
                            "this tournament's matches are recorded with the word list "
                            "%(stored)r, not %(given)r: pass that list with --lexicon",
                            stored=other.get("name"),
                            given=lexicon["name"],
                        )
                    )
                return


# --- several tables at once (#27) ---------------------------------------------------------------

Item = TypeVar("Item")
Made = TypeVar("Made")


@dataclass(frozen=True)
class Start:
    """One table's challenge to start (see :func:`start_match`)."""

    round: int
    table: int
    game: str
    outside: tuple[str, ...] = ()
    by: str = "organizer"
    lexicon: str | None = None
    referee: str | None = None  # (checked by the caller)


@dataclass(frozen=True)
class Choice:
    """One table's partita (CH-3, see :func:`choose_partita`)."""

    round: int
    table: int
    games: tuple[str, ...]
    by: str = "organizer"


def start_matches(store: Store, starts: Sequence[Start]) -> list[Match | UserError]:
    """Start every table's challenge of ``starts`` in one transaction: for each, its new match
    or why it was refused (the others started all the same)."""

    def open_one(t: Tournament, s: Start) -> Match:
        return open_match(
            store, t, s.round, s.table, s.game, s.outside, s.by, s.lexicon,
            referee=s.referee, save=False,
        )  # fmt: skip

    def save_all(t: Tournament, made: list[Match]) -> None:
        before = t.version - len(t.pending_events)
        # The highest number first: the store counts on from it (a table file's are lower).
        top = max(made, key=lambda m: int(m.number[1:]))
        looked = heard.look(store)  # (before the save: see reading.keep_written)
        store.save_new(top, *(m for m in made if m is not top), t)
        snapshot(store, t, before)
        for m in made:  # (a server's first move, page and refresh: none read back, #27)
            _kept_as_saved(store, m, looked)

    return _together(store, starts, open_one, save_all)


def choose_partitas(store: Store, choices: Sequence[Choice]) -> list[Tournament | UserError]:
    """Record every table's partita of ``choices`` in one transaction: for each, the tournament
    saved (only to read) or why it was refused."""

    def decide(t: Tournament, c: Choice) -> Tournament:
        decide_partita(t, c.round, c.table, c.games, c.by)
        return t

    def save_all(t: Tournament, made: list[Tournament]) -> None:
        save(store, t)

    return _together(store, choices, decide, save_all)


def _together(
    store: Store,
    items: Sequence[Item],
    decide: Callable[[Tournament, Item], Made],
    save_all: Callable[[Tournament, list[Made]], None],
) -> list[Made | UserError]:
    """Decide ``items`` in order on one copy of the tournament and save them with
    ``save_all``; an item refused is left out (the rest decided again from a fresh copy if it
    had changed the copy), made again whole when another writer saved first. A save refused
    for what one item holds (its table checked out to a table file, the store failing) is
    made again one item at a time: each is told its own."""
    refused: dict[int, UserError] = {}

    def once() -> dict[int, Made]:
        while True:
            store.numbers_unused()  # (counted from what is stored: nothing of a try kept)
            t = get_tournament(store)
            made: dict[int, Made] = {}
            for i, item in enumerate(items):
                if i in refused:
                    continue
                changes = len(t.pending_events)
                try:
                    made[i] = decide(t, item)
                except UserError as e:
                    refused[i] = e
                    if len(t.pending_events) != changes:
                        break  # (it changed the copy before its refusal: a fresh one)
            else:
                if made:
                    save_all(t, list(made.values()))
                    kept.saved(store, t)  # (the one a server's readers share, from here on)
                return made

    try:
        made = retried(once, store=store)
    except UserError as e:
        store.numbers_unused()
        if len(items) - len(refused) <= 1:
            return [refused.get(i, e) for i in range(len(items))]
        return [refused[i] if i in refused else _alone_said(store, item, decide, save_all)
                for i, item in enumerate(items)]  # fmt: skip
    except BaseException:  # (a failure of the program: nothing saved, no number taken)
        store.numbers_unused()
        raise
    return [refused[i] if i in refused else made[i] for i in range(len(items))]


def _alone_said(
    store: Store,
    item: Item,
    decide: Callable[[Tournament, Item], Any],
    save_all: Callable[[Tournament, list[Any]], None],
) -> Any:
    """One item of a batch whose save was refused, made alone: its result or its refusal (the
    store's libraries' failures said as the program's)."""
    try:
        with as_user_errors():
            return _together(store, [item], decide, save_all)[0]
    except UserError as e:
        return e
