"""What the printable exports need, gathered from the store and handed to :mod:`exports`."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from engine.games import game
from engine.message import msg
from exports import render
from tournament.domain import knockouts, rounds, views
from tournament.domain.brackets import drawn_bracket
from tournament.domain.results import PARTITA, table_result
from tournament.errors import Refused
from tournament.readside import queries, readmodels
from tournament.services import day
from tournament.services.audit import best_possible
from tournament.services.files import whole_folder, write_whole
from tournament.services.matches import load, summary
from tournament.services.referees import match_referee, table_referee
from tournament.storage.store import Store


class Printer:
    """Writes printable files into a folder and says what it wrote."""

    def __init__(
        self,
        store: Store,
        out: Path,
        lang: str | None = None,
        templates: Path | None = None,
        lexicon: str | None = None,
        pdf: bool = False,
    ) -> None:
        self.store, self.out, self.lexicon = store, out, lexicon
        self.lang = lang or self._tournament_lang()
        self.env = render.environment(templates, self.lang)
        self.pdf = pdf
        self.written: list[Path] = []
        self.pdf_missing: str | None = None  # why no PDF could be written, once known

    def _tournament_lang(self) -> str:
        try:
            return str(day.get_tournament(self.store).settings["lang"])
        except Refused:
            return "it"

    def write(self, name: str, text: str) -> Path:
        self.out.mkdir(parents=True, exist_ok=True)
        path = write_whole(self.out / name, text)  # whole or not at all (#29)
        self.written.append(path)
        if self.pdf and path.suffix == ".html" and self.pdf_missing is None:
            from exports.pdf import PdfUnavailable, write_pdf

            try:
                self.written.append(write_pdf(text, path.with_suffix(".pdf")))
            except PdfUnavailable as e:
                self.pdf_missing = str(e)
        return path

    def _where(self, number: str) -> dict[str, Any]:
        """The tournament, its date, the round and the table a match was played at, if any,
        and its referee (named when the table was started)."""
        try:
            t = day.get_tournament(self.store)
        except Refused:
            return {}
        where = {
            "tournament": t.settings["name"],
            "date": t.settings.get("date", ""),
            "referee": t.referee_of(number),
        }
        tb = views.table_of(t, number)
        if tb is None:
            return where
        referee = match_referee(t, tb, number)
        return {**where, "round": tb.round, "table": tb.number, "referee": referee}

    # --- sheets and matches ------------------------------------------------------------------

    def blank_sheet(self, name: str, players: int = 2) -> Path:
        title = "Tetragon" if name == "partita" else game(name).title
        return self.write(
            f"sheet-{name}.html", render.blank_sheet(self.env, name, title, players, self.lang)
        )

    def match_files(self, number: str) -> list[Path]:
        loaded = load(self.store, number, self.lexicon)
        info = summary(loaded)
        replay = loaded.replay
        qr = render.qr_svg(info["head"] or "")
        memo: dict[str, Any] = {}
        best = {
            position: best_possible(replay, position, event, memo)
            for position, event in enumerate(replay.events, 1)
        }
        where = self._where(info["id"])
        return [
            self.write(
                f"scoresheet-{info['id']}.html",
                render.score_sheet(self.env, info, replay, qr, self.lang, where),
            ),
            self.write(
                f"report-{info['id']}.html",
                render.match_report(self.env, info, replay, best, self.lang, where),
            ),
        ]

    # --- the tournament ----------------------------------------------------------------------

    def standings(self, formats: tuple[str, ...] = ("html", "csv", "json", "md")) -> list[Path]:
        t = day.get_tournament(self.store)
        readmodels.update(self.store)
        rows = queries.standings(self.store)
        name = t.settings["name"]
        closed = [r.number for r in views.rounds(t) if r.closed]
        stage = day.swiss_stage(self.store)  # a Swiss with a cut: its table first (#24)
        makers: dict[str, Any] = {
            "html": lambda: render.standings_html(
                self.env,
                name,
                rows,
                self.lang,
                t.settings.get("date", ""),
                closed[-1] if closed else None,
                {"round": stage[0], "rows": stage[1]} if stage else None,
                [p for p, info in t.players.items() if info["status"] != "active"],
            ),
            "csv": lambda: render.standings_csv(rows),
            "json": lambda: render.standings_json(rows),
            "md": lambda: render.standings_markdown(rows, self.lang),
        }
        return [self.write(f"standings.{f}", makers[f]()) for f in formats]

    def pairings(
        self, number: int | None = None, formats: tuple[str, ...] = ("html", "csv", "json", "md")
    ) -> list[Path]:
        t = day.get_tournament(self.store)
        if not t.rounds:
            raise Refused(msg("no round has been paired yet"))
        n = number or len(t.rounds)
        if not 1 <= n <= len(t.rounds):
            raise Refused(msg("there is no round %(round)s", round=n))
        r = t.rounds[n - 1]
        name = t.settings["name"]
        missing = rounds.unpaired(t, n) if t.settings.get("check_in") else []
        makers: dict[str, Any] = {
            "html": lambda: render.pairings_html(
                self.env,
                name,
                r,
                self.lang,
                t.settings.get("date", ""),
                self._closed(t, n),
                knockouts.round_name(t, n),  # a round of a bracket: its name (#24)
                missing,
            ),
            "csv": lambda: render.pairings_csv(r),
            "json": lambda: render.pairings_json(r),
            "md": lambda: render.pairings_markdown(r, self.lang, missing),
        }
        return [self.write(f"pairings-{n}.{f}", makers[f]()) for f in formats]

    def _closed(self, t: Any, before: int) -> list[dict[str, Any]]:
        """The results of the closed rounds before round ``before``, table by table."""
        readmodels.update(self.store)
        known = queries.outcome_of(self.store)
        closed = []
        for r in views.rounds(t)[: before - 1]:
            if not r.closed:
                continue
            tables = []
            for tb in r.tables:
                result = table_result(t, tb, known)
                tables.append(
                    {
                        "table": tb.number,
                        "players": list(tb.players),
                        "bye": tb.bye,
                        "points": dict(result.points) if result.points is not None else None,
                        "forfeits": [f.to_json() for f in tb.forfeits],  # #24
                        # the organizer's result, marked on the sheet with its reason (#28)
                        "amended": tb.amended.reason if tb.amended else None,
                    }
                )
            closed.append({"number": r.number, "tables": tables})
        return closed

    def partite(self) -> list[Path]:
        """Each table's Tetragon partita, filled in from its four matches (CH-3)."""
        t = day.get_tournament(self.store)
        if t.settings["plays"] != PARTITA:
            return []
        readmodels.update(self.store)
        known = queries.outcome_of(self.store)
        written = []
        for tb in views.tables(t):
            if tb.bye or not tb.games:
                continue
            games = []
            for g in tb.games:
                match = tb.matches.get(g)
                outcome = known(match) if match else None
                games.append(
                    {
                        "title": game(g).title,
                        "match": match,
                        "points": dict(outcome.points) if outcome else None,
                    }
                )
            where = {
                "tournament": t.settings["name"],
                "date": t.settings.get("date", ""),
                "round": tb.round,
                "table": tb.number,
                "referee": table_referee(t, tb),
            }
            html = render.partita_sheet(
                self.env,
                list(tb.players),
                games,
                self.lang,
                where,
                dict(tb.amended.points) if tb.amended else None,
            )
            written.append(self.write(f"partita-{tb.round}-{tb.number}.html", html))
        return written

    def bracket(self) -> Path:
        """The bracket of an elimination or of a Swiss's cut, on one landscape page (#24)."""
        t = day.get_tournament(self.store)
        readmodels.update(self.store)
        bracket = drawn_bracket(t, queries.outcome_of(self.store))
        if bracket is None:
            raise Refused(msg("a bracket is drawn for a single-elimination tournament"))
        html = render.bracket_html(
            self.env, t.settings["name"], bracket, self.lang, t.settings.get("date", "")
        )
        return self.write("bracket.html", html)

    def everything(self, done: Callable[[str, int], None] | None = None) -> list[Path]:
        """Every output the tournament has: sheets, pairings, standings, bracket, matches.

        ``done(what, total)`` hears each piece written and how many there are in all (a
        progress bar, #11).
        """
        try:
            t = day.get_tournament(self.store)
        except Refused:
            t = None
        # As many player slots and signatures as the largest table seats (#28).
        table = max((len(tb.players) for tb in views.tables(t)), default=None) if t else None
        jobs: list[tuple[str, Callable[[], Any]]] = [
            (name, partial(self.blank_sheet, name, render.blank_seats(name, table)))
            for name in render.sheets()
        ]
        if t is not None:
            jobs.append(("standings", self.standings))
            jobs += [
                (f"pairings {n}", partial(self.pairings, n)) for n in range(1, len(t.rounds) + 1)
            ]
            jobs.append(("partite", self.partite))
            if knockouts.first_round(t) is not None:  # an elimination, or a Swiss's cut
                jobs.append(("bracket", self.bracket))
        jobs += [(m.number, partial(self.match_files, m.number)) for m in self.store.matches()]
        # Made beside the folder and moved into it once every file is written: a refusal (a
        # full disk) leaves no half-made folder (#29).
        out, before = self.out, len(self.written)
        with whole_folder(out) as self.out:
            try:
                for what, job in jobs:
                    job()
                    if done is not None:
                        done(what, len(jobs))
            finally:
                self.out = out
        self.written[before:] = [out / p.name for p in self.written[before:]]
        return self.written
