"""The season's printed material: the season sheet (standings and ratings) and each player's
rating-history chart, an SVG drawn from our own template (no plotting library).

Works on the plain reports that :mod:`tournament.season.service` hands over; touches no store.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import jinja2

from exports.render import environment

WORDS: dict[str, dict[str, str]] = {
    "it": {
        "season": "Stagione", "standings": "Classifica della stagione", "rank": "Pos.",
        "player": "Giocatore", "points": "Punti", "played": "Tornei", "tournament": "Torneo",
        "tournaments": "Tornei della stagione", "ratings": "Valutazioni (OpenSkill)",
        "ordinal": "Valutazione prudente (μ − 3σ)", "mu": "Media (μ)", "sigma": "Incertezza (σ)",
        "contests": "Sfide", "history": "Andamento della valutazione", "start": "inizio",
        "band": "μ ± σ", "dropped": "tra parentesi: risultato non conteggiato",
        "scoring": "Punti per piazzamento", "best": "contano i migliori {n} tornei",
        "all": "contano tutti i tornei", "participation": "oltre: {n} punto di partecipazione",
        "model": "Duelli: Bradley-Terry; tavoli di 3 o più: Plackett-Luce. Si parte da μ 25, "
                 "σ 8,33.",
        "in_play": "in corso", "entrants": "Giocatori", "place": "{n}ª", "games": "Per gioco",
        "by_game": "In ogni gioco: posizione · valutazione prudente, sulle sue sole sfide.",
    },
    "en": {
        "season": "Season", "standings": "Season standings", "rank": "Rank",
        "player": "Player", "points": "Points", "played": "Played", "tournament": "Tournament",
        "tournaments": "The season's tournaments", "ratings": "Ratings (OpenSkill)",
        "ordinal": "Conservative rating (μ − 3σ)", "mu": "Mean (μ)", "sigma": "Uncertainty (σ)",
        "contests": "Contests", "history": "Rating history", "start": "start",
        "band": "μ ± σ", "dropped": "in brackets: a result not counted",
        "scoring": "Points by place", "best": "the best {n} tournaments count",
        "all": "every tournament counts", "participation": "beyond: {n} point for taking part",
        "model": "Duels: Bradley-Terry; tables of 3 or more: Plackett-Luce. Everyone starts at "
                 "μ 25, σ 8.33.",
        "in_play": "in play", "entrants": "Players", "place": "#{n}", "games": "By game",
        "by_game": "In each game: place · conservative rating, from its contests alone.",
    },
}  # fmt: skip


def words(lang: str) -> dict[str, str]:
    """The season's words in one language (``it`` or ``en``)."""
    if lang not in WORDS:
        raise ValueError(f"printed material is in Italian (it) or English (en), not {lang!r}")
    return WORDS[lang]


def season_sheet(
    env: jinja2.Environment,
    standings: Mapping[str, Any],
    ratings: Mapping[str, Any],
    lang: str,
) -> str:
    """The season sheet: the tournaments, the season standings and the overall ratings (A4)."""
    return env.get_template("season.html").render(
        w=words(lang), lang=lang, s=standings, r=ratings, orientation="landscape"
    )


# The chart's frame, in millimetres (the SVG's viewBox units).
WIDTH, HEIGHT = 160.0, 90.0
LEFT, RIGHT, TOP, BOTTOM = 14.0, 6.0, 12.0, 12.0
TICK = 5.0  # rating points between the horizontal grid lines


def history_svg(
    env: jinja2.Environment, history: Mapping[str, Any], tournaments: int, lang: str
) -> str:
    """A player's overall rating after each tournament, with its uncertainty band, as SVG.

    ``history`` is what :func:`tournament.season.service.history_report` returns (with the
    model's ``prior``); ``tournaments`` is how many the season has: the x axis shows them all,
    from the start of the season.
    """
    prior = history["prior"]
    return env.get_template("season_history.svg").render(
        w=words(lang),
        player=history["player"],
        season=history["season"],
        width=WIDTH,
        height=HEIGHT,
        **chart(history["history"], tournaments, (prior["mu"], prior["sigma"])),
    )


def chart(
    steps: Sequence[Mapping[str, Any]], tournaments: int, prior: tuple[float, float]
) -> dict[str, Any]:
    """The chart's geometry: the mean's line, the band of one sigma, the ordinal's line, the
    axes' ticks, all in the SVG's millimetres.

    >>> c = chart([{"tournament": 1, "mu": 30.0, "sigma": 5.0}], 2, (25.0, 25 / 3))
    >>> c["mu_line"]
    '14.0,30.9 84.0,21.4'
    >>> [t["label"] for t in c["x_ticks"]]
    ['0', 'T1', 'T2']
    """
    points = [(0, prior[0], prior[1])] + [(s["tournament"], s["mu"], s["sigma"]) for s in steps]
    low = min(min(mu - 3 * sigma, mu - sigma) for _, mu, sigma in points)
    high = max(mu + sigma for _, mu, sigma in points)
    bottom = TICK * math.floor(low / TICK)
    top = TICK * math.ceil(high / TICK)
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM

    def x(k: float) -> float:
        return round(LEFT + plot_w * k / max(1, tournaments), 1)

    def y(v: float) -> float:
        return round(TOP + plot_h * (top - v) / (top - bottom), 1)

    def line(values: Sequence[tuple[float, float]]) -> str:
        return " ".join(f"{x(k)},{y(v)}" for k, v in values)

    upper = [(k, mu + sigma) for k, mu, sigma in points]
    lower = [(k, mu - sigma) for k, mu, sigma in reversed(points)]
    ticks = []
    v = bottom
    while v <= top + 1e-9:
        ticks.append({"y": y(v), "label": f"{v:g}"})
        v += TICK
    return {
        "mu_line": line([(k, mu) for k, mu, _ in points]),
        "ordinal_line": line([(k, mu - 3 * sigma) for k, mu, sigma in points]),
        "band": line(upper + lower),
        "dots": [{"x": x(k), "y": y(mu)} for k, mu, _ in points],
        "x_ticks": [
            {"x": x(k), "label": "0" if k == 0 else f"T{k}"} for k in range(tournaments + 1)
        ],
        "y_ticks": ticks,
        "left": LEFT,
        "right": WIDTH - RIGHT,
        "top": TOP,
        "bottom": HEIGHT - BOTTOM,
    }


def shared_environment(user_templates: str | Path | None = None) -> jinja2.Environment:
    """The exports' one Jinja environment (season templates sit beside the others), with an
    organizer's templates searched first."""
    return environment(user_templates)
