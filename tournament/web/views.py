"""What each public page shows, gathered once as plain data (rendered as HTML or JSON later).

Everything here reads through the services the CLI uses (day, matches, audit, verify, the read
models); nothing is stored. A match in play shows no "best play" hints: players at other tables
could read them on their phones.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from engine.errors import RuleViolation
from engine.message import msg
from tournament.domain import knockouts, views
from tournament.domain.brackets import drawn_bracket
from tournament.domain.results import table_result
from tournament.domain.rounds import unpaired
from tournament.domain.tournaments import Tournament
from tournament.errors import Refused, UserError
from tournament.readside import queries
from tournament.services import day
from tournament.services.audit import timeline
from tournament.services.matches import lexicon_for, load, summary
from tournament.services.stored import read_tournament
from tournament.services.stores import Location, Store, normalise_number
from tournament.web.roundstate import next_of, table_states, where_of


class NotFound(Exception):
    """The page asked for does not exist (the message says what: a catalogue message, said in
    the page's language)."""


def said(e: UserError) -> Any:
    """What a refusal says, as the catalogue's message where it is one."""
    return e.args[0] if e.args else str(e)


def tournament_or_none(store: Store, heard_ok: bool = False) -> Tournament | None:
    """The tournament, only to read: the server keeps it, brought up to date from the
    tournament's own events (a move at a table does not make it read again, #27); with
    ``heard_ok`` not even asked after while the store's listener heard nobody else write."""
    try:
        return read_tournament(store, heard_ok)
    except Refused:
        return None


def current_tournament(store: Store, heard_ok: bool = False) -> Tournament:
    """The tournament, for reading (raises Refused when there is none)."""
    t = tournament_or_none(store, heard_ok)
    if t is None:
        raise Refused(msg("there is no tournament in this database: create one first"))
    return t


def now(store: Store) -> dict[str, Any]:
    """``/``: the round in play, its tables and what each waits for; matches outside rounds.

    Only the round in play is read (its matches' outcomes, not every match's: #27)."""
    t = tournament_or_none(store)
    info: dict[str, Any] = {"tournament": None, "matches": []}
    if t is not None:
        current = views.last_round(t)
        # (each table's state kept while its matches stand, #27)
        states = table_states(store, t, current.number) if current is not None else []
        info["tournament"] = day.status(t, lambda number: None, tables=states)
        waiting = {}
        if current is not None:
            waiting = {m["id"]: m for m in queries.matches(
                store, status="in_progress", round_number=current.number)}  # fmt: skip
        for tb in info["tournament"]["tables"]:
            tb["waiting"] = [
                {
                    "game": g,
                    "match": n,
                    "events": waiting[n]["events"],
                    "next": next_of(store, n, waiting[n]["events"], t.created_on),
                }  # fmt: skip
                for g, n in tb["matches"].items()
                if n in waiting
            ]
        info["rounds"] = len(t.rounds)
        info["where"] = where_of(store, t, info["tournament"]["tables"])
    info["matches"] = queries.matches(store, outside_rounds=True)
    return info


def standings(store: Store, top: int | None = None, last: int | None = None) -> dict[str, Any]:
    """``/standings``: the standings and the results of the round in play; ``top`` and ``last``:
    the first rows and the last results alone (a phone's page of a festival: 50 rows, not a
    thousand, #27), with how many there are in all (``_ranked``, ``_finished``)."""
    t = tournament_or_none(store)
    if t is None:
        raise NotFound(msg("there is no tournament in this database"))
    current = views.last_round(t)
    latest: list[dict[str, Any]] = []
    finished = 0
    if current is not None:
        n = current.number
        latest = queries.matches(store, status="finished", round_number=n, last=last)
        finished = len(latest) if last is None else queries.count_matches(
            store, status="finished", round_number=n)  # fmt: skip
    start = knockouts.first_round(t)
    # A Swiss with a cut, once its bracket is paired: its table first (#24).
    stage = day.swiss_stage(store) if start is not None and 1 < start <= len(t.rounds) else None
    rows = queries.standings(store, top)
    return {
        "name": t.settings["name"],
        "round": current.number if current is not None else None,
        "rows": rows,
        "latest": latest,
        "swiss": {"round": stage[0], "rows": stage[1]} if stage else None,
        "_ranked": len(rows) if top is None else queries.ranked(store),
        "_finished": finished,
    }


def standings_stamp(store: Store) -> tuple[Any, ...] | None:
    """What ``/standings`` and its JSON stand on: the tournament (its players, withdrawals,
    rounds) and the finished matches' rows (:func:`queries.decided_at`), never the store's
    position: a move inside a match in play leaves the page kept (#27). The read models are
    current when this is asked (:func:`tournament.web.shelf.shown`)."""
    t = tournament_or_none(store)
    if t is None:
        return None
    # (its chain head: a tournament started over by the same steps has another, #27)
    return t.version, getattr(t, "head", None), queries.decided_at(store)


def round_(store: Store, number: int) -> dict[str, Any]:
    """``/rounds/N``: the pairings of a round and each table's result."""
    t = tournament_or_none(store)
    if t is None or not 1 <= number <= len(t.rounds):
        raise NotFound(msg("there is no round %(round)s", round=number))
    r = views.paired(t, number)
    tables = table_states(store, t, number, why=True)  # that round's matches alone (#27)
    return {
        "name": t.settings["name"],
        "number": number,
        "closed": r.closed,
        "rounds": len(t.rounds),
        "tables": tables,
        "stage": knockouts.round_name(t, number),  # a round of the bracket: its name (#24)
        "missing": unpaired(t, number),  # not checked in, not paired (#24)
    }


def bracket(store: Store) -> dict[str, Any]:
    """``/bracket``: the bracket of an elimination or of a Swiss's cut, every round of it
    (paired or to come), the match for third place and the champion (empty rounds without a
    bracket); :func:`tournament.domain.brackets.drawn_bracket`."""
    t = tournament_or_none(store)
    if t is None:
        raise NotFound(msg("there is no tournament in this database"))
    drawn = drawn_bracket(t, queries.outcome_of(store))
    return {
        "name": t.settings["name"],
        "format": t.settings["format"],
        "knockout": drawn is not None,
        "rounds": drawn["rounds"] if drawn else [],
        "third": drawn["third"] if drawn else None,
        "champion": drawn["champion"] if drawn else None,
    }


def match_stamp(store: Store, number: str) -> tuple[str, str] | None:
    """What a match's page stands on: a digest of that match's stored rows (the bytes its page
    verifies: a change behind the program's back changes it) and where it is recorded when not
    here (a table file, #26); None: nothing is stored under that number."""
    from tournament.services.tablefiles import out_of

    try:
        number = normalise_number(number)
    except UserError as e:
        raise NotFound(said(e)) from None
    digest = queries.stored_digest(store, number)
    if digest is None:
        return None
    return digest, repr(out_of(store, number))


def match(
    store: Store, number: str, db: Path | Location, lexicon: str | None = None
) -> dict[str, Any]:
    """``/matches/M7``: the state, the timeline with rule ids, the head hash and its check
    (that match's stored rows verified, not the store's: ``db`` is where they are)."""
    from tournament.verify import verify_match

    try:
        number = normalise_number(number)
    except UserError as e:
        raise NotFound(said(e)) from None

    def check() -> tuple[Any, list[str]]:
        try:
            report = verify_match(store, number, lambda header: lexicon_for(header, lexicon))
            return report, [str(f) for f in report.failures]
        except (OSError, RuleViolation, UserError) as e:  # a broken file
            return None, [str(e)]

    try:
        loaded = load(store, number, lexicon)
    except UserError as e:
        report, problems = check()
        stored = [f for f in (report.failures if report else []) if f.match == number]
        if not stored or any(f.problem == "no such match is stored" for f in stored):
            raise NotFound(said(e)) from None
        # Stored, but changed behind the program's back: say so, and where.
        return {"id": number, "title": "", "players": [], "outside": [], "status": "",
                "next": [], "head": None, "timeline": [], "verified": False,
                "problems": problems}  # fmt: skip
    from engine.notation import format as notation

    info = summary(loaded)
    rows = timeline(loaded)
    for row, event in zip(rows, loaded.replay.events, strict=True):
        row["notation"] = notation(event)  # the line a referee would type for it
    if info["status"] != "finished":
        for row in rows:
            row["best"] = ""
    report, problems = check()
    verified = bool(report and report.ok and report.heads.get(number) == info["head"])
    from exports.i18n import say
    from tournament.services.tablefiles import out_of

    out = out_of(store, number)  # recorded in a table file meanwhile (#26)
    return {**info, "timeline": rows, "verified": verified, "problems": problems,
            "_words": InWords(loaded.replay, rows),
            "_out": {lang: say(out, lang) for lang in ("it", "en")} if out else None}  # fmt: skip


class InWords(Mapping[str, list[dict[str, Any]]]):
    """The timeline in the words of each language (the page's; the JSON keeps the notation),
    each worked out the first time a page of that language asks (a match's page is drawn in
    one language at a time, its JSON twin in none: #27). The replay and the rows it stands on
    are the gathered ones, never changed, so a language said later says the same."""

    LANGS = ("it", "en")

    def __init__(self, replay: Any, rows: list[dict[str, Any]]) -> None:
        self.replay, self.rows = replay, rows
        self.said: dict[str, list[dict[str, Any]]] = {}
        self.lock = threading.Lock()

    def __getitem__(self, lang: str) -> list[dict[str, Any]]:
        if lang not in self.LANGS:
            raise KeyError(lang)
        with self.lock:
            if lang not in self.said:
                self.said[lang] = _in_words(self.replay, self.rows, lang)
            return self.said[lang]

    def __iter__(self) -> Iterator[str]:
        return iter(self.LANGS)

    def __len__(self) -> int:
        return len(self.LANGS)


def _in_words(replay: Any, rows: list[dict[str, Any]], lang: str) -> list[dict[str, Any]]:
    """The timeline in the words of ``lang``."""
    from exports.eventlog import event_log
    from exports.i18n import say
    from exports.wording import best_play

    return [
        {
            "who": said.who,
            "what": said.what,
            "notes": said.notes,
            "state": said.state,
            "later": said.later,  # a later ruling's rewriting of it (#28)
            "best": say(best_play(row["best"]), lang) if row["best"] else "",
        }  # fmt: skip
        for said, row in zip(event_log(replay, lang), rows, strict=True)
    ]


def player(store: Store, name: str, season: Path | None = None) -> dict[str, Any]:
    """``/players/NAME``: registration, standing, tables round by round, matches; with the
    season the tournament belongs to (``serve --season``), the player's rating after each of
    its tournaments (``season``: the points; ``_chart``: the SVG chart in each language, for
    the page only)."""
    t = tournament_or_none(store)
    if t is None or name not in t.players:
        raise NotFound(msg("there is no player %(name)r in this tournament", name=name))
    known = queries.outcome_of(store)
    tables = []
    for tb in views.tables(t):
        if name in tb.players:
            result = table_result(t, tb, known)
            tables.append(
                {
                    "round": tb.round,
                    "table": tb.number,
                    "players": list(tb.players),
                    "bye": tb.bye,
                    "points": dict(result.points) if result.points else None,
                    "matches": dict(tb.matches),
                }
            )
    return {
        "name": name,
        **{k: v for k, v in t.players[name].items()},
        "standing": queries.standing(store, name),
        "tables": tables,
        "matches": queries.matches(store, player=name),
        **(season_chart(season, name, store.lexicon) if season else {}),
    }


_SEASONS: dict[Path, tuple[Any, Any]] = {}  # season file -> (what its files were, the season)


def _stamp(season: Path) -> tuple[Any, ...]:
    """What the season file and its tournaments' files are now (their writes move it)."""
    from tournament.season.config import load_season

    files = [season, *load_season(season).sources]
    return tuple(
        (f.stat().st_mtime_ns, f.stat().st_size) if f.exists() else None
        for path in files
        for f in (path, Path(f"{path}-wal"))
    )


def season_chart(season: Path, name: str, lexicon: str | None = None) -> dict[str, Any]:
    """The player's season: its name and their rating after each tournament (the chart's
    points), or nothing for a player the season has not rated yet."""
    from exports import season as sheets
    from tournament.season.config import SeasonError
    from tournament.season.service import history_report, open_season

    stamp = _stamp(season)
    kept = _SEASONS.get(season)
    if kept is None or kept[0] != stamp:
        kept = _SEASONS[season] = (stamp, open_season(season, lexicon=lexicon))
    data = kept[1]
    try:
        history = history_report(data, name)
    except SeasonError:
        return {"season": None}
    # player_chart_svg's, drawn with every value escaped: the page embeds the SVG as it is,
    # and a name is whatever the organizer typed (the print-outs' environment escapes HTML only).
    env = sheets.shared_environment()
    env.autoescape = True
    charts = {
        lang: sheets.history_svg(env, history, len(data.tournaments), lang) for lang in ("it", "en")
    }
    return {"season": history, "_chart": charts}
