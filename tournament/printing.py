"""What the printable exports need, gathered from the store and handed to :mod:`exports`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.games import game
from exports import render
from tournament import day, readmodels
from tournament.audit import timeline
from tournament.matches import Refused, load, summary
from tournament.store import Store


class Printer:
    """Writes printable files into a folder and says what it wrote."""

    def __init__(
        self,
        store: Store,
        out: Path,
        lang: str | None = None,
        templates: Path | None = None,
        lexicon: str | None = None,
    ) -> None:
        self.store, self.out, self.lexicon = store, out, lexicon
        self.env = render.environment(templates)
        self.lang = lang or self._tournament_lang()
        self.written: list[Path] = []

    def _tournament_lang(self) -> str:
        try:
            return str(day.get_tournament(self.store).settings["lang"])
        except Refused:
            return "it"

    def write(self, name: str, text: str) -> Path:
        self.out.mkdir(parents=True, exist_ok=True)
        path = self.out / name
        path.write_text(text, encoding="utf-8")
        self.written.append(path)
        return path

    # --- sheets and matches ------------------------------------------------------------------

    def blank_sheet(self, name: str, players: int = 2) -> Path:
        title = "Tetragon" if name == "partita" else game(name).title
        return self.write(
            f"sheet-{name}.html", render.blank_sheet(self.env, name, title, players, self.lang)
        )

    def match_files(self, number: str) -> list[Path]:
        loaded = load(self.store, number, self.lexicon)
        info = summary(loaded)
        rows = timeline(loaded)
        qr = render.qr_svg(info["head"] or "")
        return [
            self.write(
                f"scoresheet-{info['id']}.html",
                render.score_sheet(self.env, info, rows, qr, self.lang),
            ),
            self.write(
                f"report-{info['id']}.html", render.match_report(self.env, info, rows, self.lang)
            ),
        ]

    # --- the tournament ----------------------------------------------------------------------

    def standings(self, formats: tuple[str, ...] = ("html", "csv", "json", "md")) -> list[Path]:
        t = day.get_tournament(self.store)
        readmodels.update(self.store)
        rows = list(
            readmodels.database(self.store).query("select * from standings order by rank, player")
        )
        name = t.settings["name"]
        makers: dict[str, Any] = {
            "html": lambda: render.standings_html(self.env, name, rows, self.lang),
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
            raise Refused("no round has been paired yet")
        n = number or len(t.rounds)
        if not 1 <= n <= len(t.rounds):
            raise Refused(f"there is no round {n}")
        r = t.rounds[n - 1]
        name = t.settings["name"]
        makers: dict[str, Any] = {
            "html": lambda: render.pairings_html(self.env, name, r, self.lang),
            "csv": lambda: render.pairings_csv(r),
            "json": lambda: render.pairings_json(r),
            "md": lambda: render.pairings_markdown(r, self.lang),
        }
        return [self.write(f"pairings-{n}.{f}", makers[f]()) for f in formats]

    def bracket(self) -> Path:
        t = day.get_tournament(self.store)
        if t.settings["format"] != "elimination":
            raise Refused("a bracket is drawn for a single-elimination tournament")
        return self.write(
            "bracket.html", render.bracket_html(self.env, t.settings["name"], t.rounds, self.lang)
        )

    def everything(self) -> list[Path]:
        """Every output the tournament has: sheets, pairings, standings, bracket, matches."""
        for name in render.GAMES_WITH_SHEETS:
            self.blank_sheet(name)
        try:
            t = day.get_tournament(self.store)
        except Refused:
            t = None
        if t is not None:
            self.standings()
            for n in range(1, len(t.rounds) + 1):
                self.pairings(n)
            if t.settings["format"] == "elimination":
                self.bracket()
        for match in self.store.matches():
            self.match_files(match.number)
        return self.written
