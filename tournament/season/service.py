"""The season's services: open a season file, read its tournaments, compute what is asked.

Nothing is stored: every call reads the tournaments' logs again and recomputes, so the season
is a pure function of its matches. A front end (the CLI, the web) calls these and prints.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.games import game
from engine.message import msg
from tournament.domain import views
from tournament.domain.tournaments import Tournament
from tournament.season import projection
from tournament.season.config import Season, SeasonError, load_season
from tournament.season.projection import Result, TournamentFacts
from tournament.season.ratings import MU, SIGMA, Contest, Rating, Ratings, rate
from tournament.season.standings import SeasonRow, season_standings


@dataclass(frozen=True)
class Patch:
    """One tournament seen otherwise (for the audit): other match results, or another aggregate."""

    index: int
    results: Mapping[str, Result | None] | None = None
    tournament: Tournament | None = None


@dataclass(frozen=True)
class SeasonData:
    """A season and its tournaments as read from their files."""

    season: Season
    tournaments: tuple[TournamentFacts, ...]

    def places(self, patch: Patch | None = None) -> list[dict[str, int]]:
        """Each tournament's places (player -> rank) so far, for those who have played in it: a
        challenge to its end at least (before it a tournament's order is only its lot, and a
        player who withdrew before playing one, or had only byes, scores nothing, #24)."""
        out = []
        for i, facts in enumerate(self.tournaments):
            p = patch if patch and patch.index == i else Patch(i)
            rows = projection.standings(facts, p.results, p.tournament)
            out.append({r.player: r.rank for r in rows if r.challenges})
        return out

    def contests(self, patch: Patch | None = None) -> Iterator[Contest]:
        """Every rated contest of the season, tournament after tournament, in playing order."""
        for i, facts in enumerate(self.tournaments):
            p = patch if patch and patch.index == i else Patch(i)
            yield from projection.contests(facts, i, p.results, p.tournament)

    def standings(self, patch: Patch | None = None) -> list[SeasonRow]:
        return season_standings(self.places(patch), self.season.scoring)

    def ratings(self, patch: Patch | None = None) -> Ratings:
        return rate(self.contests(patch))


PARALLEL_FROM = 4  # tournaments: below this, starting worker processes costs more than it saves


def open_season(
    path: str | Path,
    jobs: int = 1,
    lexicon: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> SeasonData:
    """Read a season file and each of its tournaments (raises :class:`SeasonError`); ``lexicon``
    is the organizer's word list, for matches recorded with one; ``progress(done, total)`` is
    called as each tournament has been read.

    Replaying every match is most of the work: ``jobs`` processes may read whole tournaments
    side by side (0: one per processor, up to 4, for a long season). They are forked, so a
    caller with threads of its own (a web server) keeps the default, one.
    """
    season = load_season(path)
    pairs = [
        (label, source, lexicon)
        for label, source in zip(season.tournaments, season.sources, strict=True)
    ]
    if jobs == 0:
        jobs = min(4, os.cpu_count() or 1) if len(pairs) >= PARALLEL_FROM else 1
    said = progress or (lambda done, total: None)
    read: list[TournamentFacts] = []
    if jobs > 1:
        context = multiprocessing.get_context("fork")  # the workers share what is loaded
        with ProcessPoolExecutor(jobs, mp_context=context) as pool:
            for one in pool.map(projection.read_tournament, *zip(*pairs, strict=True)):
                read.append(one)
                said(len(read), len(pairs))
    else:
        for pair in pairs:
            read.append(projection.read_tournament(*pair))
            said(len(read), len(pairs))
    facts = tuple(read)
    # A copy of a file is the same tournament: created at the same instant, under the same name.
    seen: dict[tuple[str, str], str] = {}
    for f in facts:
        identity = (str(f.tournament.created_on), f.name)
        if identity in seen:
            raise SeasonError(
                msg(
                    "the season names the tournament %(name)r twice: %(label)s is a copy of "
                    "%(seen)s",
                    name=f.name,
                    label=f.label,
                    seen=seen[identity],
                )
            )
        seen[identity] = f.label
    return SeasonData(season, facts)


def seed_order(data: SeasonData) -> list[str]:
    """The season's players, best rated first (by ordinal): the seeding of a new tournament."""
    return [player for player, _ in data.ratings().ranked()]


# --- what the front ends print ----------------------------------------------------------------


def tournaments_report(data: SeasonData) -> list[dict[str, Any]]:
    return [
        {
            "number": i + 1,
            "label": f.label,
            "name": f.name,
            "date": f.date,
            "players": len(f.registered),
            "rounds": len(f.tournament.rounds),
            "closed": sum(1 for r in views.rounds(f.tournament) if r.closed),
        }
        for i, f in enumerate(data.tournaments)
    ]


def standings_report(data: SeasonData) -> dict[str, Any]:
    """The season standings as plain data (``season standings --json``)."""
    scoring = data.season.scoring
    return {
        "season": data.season.name,
        "scoring": {
            "points": list(scoring.points),
            "participation": scoring.participation,
            "best": scoring.best,
        },
        "tournaments": tournaments_report(data),
        "standings": [
            {
                "rank": r.rank,
                "player": r.player,
                "points": r.points,
                "played": r.played,
                "results": [
                    {
                        "tournament": p.tournament + 1,
                        "rank": p.rank,
                        "points": p.points,
                        "counted": p.counted,
                    }
                    for p in r.results
                ],
            }
            for r in data.standings()
        ],
    }


def rating_row(rank: int, player: str, r: Rating) -> dict[str, Any]:
    return {
        "rank": rank,
        "player": player,
        "mu": round(r.mu, 6),
        "sigma": round(r.sigma, 6),
        "ordinal": round(r.ordinal, 6),
        "contests": r.contests,
    }


def ratings_report(data: SeasonData, ratings: Ratings | None = None) -> dict[str, Any]:
    """Ratings overall and per game (``season ratings --json``)."""
    ratings = ratings or data.ratings()
    return {
        "season": data.season.name,
        "model": "openskill: Bradley-Terry (duels), Plackett-Luce (tables of 3+); "
        "ordinal = mu - 3 sigma",
        "overall": [rating_row(i, p, r) for i, (p, r) in enumerate(ratings.ranked(), 1)],
        "games": {
            g: [rating_row(i, p, r) for i, (p, r) in enumerate(ratings.ranked(g), 1)]
            for g in sorted(ratings.games)
        },
        "titles": {g: game(g).title for g in sorted(ratings.games)},
    }


def history_report(data: SeasonData, player: str, ratings: Ratings | None = None) -> dict[str, Any]:
    """One player's overall rating after each tournament they played, and per game now."""
    ratings = ratings or data.ratings()
    if player not in ratings.overall:
        raise SeasonError(
            msg(
                "%(player)s has played no rated match in the season %(season)s",
                player=player,
                season=data.season.name,
            )
        )
    steps = []
    for step in ratings.history[player]:
        f = data.tournaments[step.tournament]
        steps.append(
            {"tournament": step.tournament + 1, "label": f.label, "name": f.name, "date": f.date}
            | rating_row(0, player, step.rating)
        )
    for s in steps:
        s.pop("rank")
        s.pop("player")
    overall = ratings.overall[player]
    return {
        "season": data.season.name,
        "player": player,
        "overall": rating_row(_rank(ratings, player), player, overall),
        "games": {
            g: rating_row(_rank(ratings, player, g), player, table[player])
            for g, table in sorted(ratings.games.items())
            if player in table
        },
        "history": steps,
        "prior": {"mu": MU, "sigma": SIGMA},
    }


def _rank(ratings: Ratings, player: str, game: str | None = None) -> int:
    return next(i for i, (p, _) in enumerate(ratings.ranked(game), 1) if p == player)


# --- printing ---------------------------------------------------------------------------------


def player_chart_svg(season: SeasonData | str | Path, player: str, lang: str = "it") -> str:
    """One player's rating history as an SVG chart (for ``/players/NAME`` and the print-outs);
    ``season`` is an opened season or its file. Raises :class:`SeasonError` for a player the
    season has not rated."""
    from exports import season as sheets

    _check_lang(lang)
    data = season if isinstance(season, SeasonData) else open_season(season)
    return sheets.history_svg(
        sheets.shared_environment(), history_report(data, player), len(data.tournaments), lang
    )


def print_season(
    data: SeasonData,
    out: Path,
    lang: str = "it",
    templates: Path | None = None,
    pdf: bool = False,
) -> tuple[list[Path], str | None]:
    """Write the season sheet (and its PDF with ``pdf``) and every player's chart into ``out``
    (with an organizer's ``templates`` searched first); return what was written, and why the
    PDF was not (WeasyPrint or pango missing: the HTML is written all the same)."""
    from exports import season as sheets

    _check_lang(lang)
    env = sheets.shared_environment(templates)
    ratings = data.ratings()
    written = []
    out.mkdir(parents=True, exist_ok=True)
    sheet = out / "season.html"
    html = sheets.season_sheet(env, standings_report(data), ratings_report(data, ratings), lang)
    sheet.write_text(html, encoding="utf-8")
    written.append(sheet)
    used: set[str] = set()
    for player, _ in ratings.ranked():
        svg = sheets.history_svg(
            env, history_report(data, player, ratings), len(data.tournaments), lang
        )
        name = slug(player)
        while name in used:  # two names that differ only in punctuation or case
            name += "-"
        used.add(name)
        path = out / f"rating-{name}.svg"
        path.write_text(svg, encoding="utf-8")
        written.append(path)
    if pdf:
        from exports.pdf import PdfUnavailable, write_pdf

        try:
            written.append(write_pdf(html, out / "season.pdf"))
        except PdfUnavailable as e:
            return written, str(e)
    return written, None


def slug(name: str) -> str:
    """A player's name as a file name: letters and digits, the rest as dashes.

    >>> slug("Giocatore 07"), slug("Nicolò d'Este")
    ('giocatore-07', 'nicolò-d-este')
    """
    return "-".join("".join(c if c.isalnum() else " " for c in name.lower()).split()) or "player"


def _check_lang(lang: str) -> None:
    if lang not in ("it", "en"):
        raise SeasonError(
            msg("printed material is in Italian (it) or English (en), not %(lang)r", lang=lang)
        )
