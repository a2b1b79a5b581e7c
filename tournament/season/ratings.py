"""Ratings over a season with OpenSkill (Weng and Lin's Bayesian approximation).

Every finished match is one contest, rated in the order played: a duel with the Bradley-Terry
model (``BradleyTerryFull``), a table of three or more with Plackett-Luce, both with the package's
defaults (a newcomer starts at mu 25, sigma 25/3). Each player has one rating overall and one
for each game, each a mean ``mu`` and an uncertainty ``sigma``; players are listed by the
conservative ``ordinal`` (mu - 3 sigma), which a player climbs by playing as well as by winning.

A contest's places come from the match's outcome as the engine decides it (:func:`placing`):
the winners first (CH-2: tied winners draw), then by points, then those still in before those
who went out, who went out the later the better. Players equal on all of it draw.

Pure functions: the same contests always give the same ratings, to the last bit.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from engine.games.base import Outcome

MU = 25.0
SIGMA = MU / 3
Z = 3.0  # the ordinal is mu - Z sigma


@dataclass(frozen=True)
class Contest:
    """One rated contest: a match (or an amended table), its players and their places (0 best)."""

    tournament: int  # index of the tournament in the season
    round: int
    table: int
    game: str | None  # None for an amended table: the overall rating only
    match: str | None
    players: tuple[str, ...]
    ranks: tuple[int, ...]


@dataclass(frozen=True)
class Rating:
    """A player's skill as OpenSkill believes it: a mean and its uncertainty."""

    mu: float = MU
    sigma: float = SIGMA
    contests: int = 0

    @property
    def ordinal(self) -> float:
        """The conservative estimate: 99.7% likely to be below the player's true skill."""
        return self.mu - Z * self.sigma


@dataclass(frozen=True)
class Step:
    """A player's overall rating after one tournament of the season they played in."""

    tournament: int
    rating: Rating


@dataclass(frozen=True)
class Ratings:
    """The season's ratings: overall, per game, and each player's overall history."""

    overall: Mapping[str, Rating] = field(default_factory=dict)
    games: Mapping[str, Mapping[str, Rating]] = field(default_factory=dict)
    history: Mapping[str, tuple[Step, ...]] = field(default_factory=dict)

    def ranked(self, game: str | None = None) -> list[tuple[str, Rating]]:
        """Players best first (by ordinal, then mean, then name), overall or in one game."""
        table = self.overall if game is None else self.games.get(game, {})
        return sorted(table.items(), key=lambda kv: (-kv[1].ordinal, -kv[1].mu, kv[0]))


def placing(players: Sequence[str], outcome: Outcome, out: Sequence[str]) -> tuple[int, ...]:
    """Each player's place in a finished contest (0 is first; equal places draw).

    >>> placing(("a", "b", "c", "d"), Outcome(("c",), {"a": 0, "b": 0, "c": 1, "d": 0}), ("b", "a"))
    (2, 3, 0, 1)
    >>> placing(("a", "b"), Outcome(("a", "b"), {"a": 1, "b": 1}), ())
    (0, 0)
    """
    gone = {p: len(out) - i for i, p in enumerate(out)}  # the first out is the last
    key = {
        p: (p not in outcome.winners, -outcome.points.get(p, 0), gone.get(p, 0)) for p in players
    }
    levels = sorted(set(key.values()))
    return tuple(levels.index(key[p]) for p in players)


def _models() -> tuple[object, object]:
    from openskill.models import BradleyTerryFull, PlackettLuce

    return BradleyTerryFull(mu=MU, sigma=SIGMA), PlackettLuce(mu=MU, sigma=SIGMA)


def update(
    ratings: dict[str, Rating], players: Sequence[str], ranks: Sequence[int], models: tuple
) -> None:
    """Rate one contest into ``ratings`` (players new to it start at the prior)."""
    duel, table = models
    model = duel if len(players) == 2 else table
    before = [ratings.get(p, Rating()) for p in players]
    teams = [[model.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    after = model.rate(teams, ranks=list(ranks))
    for p, r, (new,) in zip(players, before, after, strict=True):
        ratings[p] = Rating(new.mu, new.sigma, r.contests + 1)


def rate(contests: Iterable[Contest]) -> Ratings:
    """Rate a season's contests, in the order given (the order they were played)."""
    models = _models()
    overall: dict[str, Rating] = {}
    games: dict[str, dict[str, Rating]] = {}
    history: dict[str, list[Step]] = {}
    played: set[str] = set()
    current: int | None = None

    def close(index: int | None) -> None:
        if index is None:
            return
        for p in sorted(played):
            history.setdefault(p, []).append(Step(index, overall[p]))
        played.clear()

    for c in contests:
        if len(c.players) < 2:
            continue
        if c.tournament != current:
            close(current)
            current = c.tournament
        update(overall, c.players, c.ranks, models)
        if c.game is not None:
            update(games.setdefault(c.game, {}), c.players, c.ranks, models)
        played.update(c.players)
    close(current)
    return Ratings(overall, games, {p: tuple(s) for p, s in history.items()})
