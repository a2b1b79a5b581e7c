"""Season ratings against OpenSkill's formulas worked by hand (Weng and Lin 2011, with the
package's defaults and its dynamics ``tau``), independently of the package's ``rate``; and a
contest's places as the engine's outcome decides them.

openskill 6.2 also has a step meant to move players of equal place by their mean change; it
compares with ratings it has already updated, so it changes nothing, and each player moves by
the paper's formulas: these tests would show it if a release started to average.
"""

from __future__ import annotations

import math

import pytest

from engine.games.base import Outcome
from tournament.season.ratings import MU, SIGMA, Contest, Rating, placing, rate

BETA = MU / 6
TAU = MU / 300
KAPPA = 0.0001


def contest(players: tuple[str, ...], ranks: tuple[int, ...], game: str = "tiro") -> Contest:
    return Contest(0, 1, 1, game, "M1", players, ranks)


def bradley_terry_duel(
    a: tuple[float, float], b: tuple[float, float], score_a: float
) -> tuple[tuple[float, float], tuple[float, float]]:
    """One duel by Bradley-Terry (full pairing), ``score_a`` 1 for a win, 0.5 for a draw."""
    (mu_a, s_a), (mu_b, s_b) = a, b
    s_a, s_b = math.hypot(s_a, TAU), math.hypot(s_b, TAU)  # the dynamics' tau first
    c = math.sqrt(s_a**2 + s_b**2 + 2 * BETA**2)
    p_a = 1 / (1 + math.exp((mu_b - mu_a) / c))
    p_b = 1 - p_a
    out = []
    for mu, s, p, score in ((mu_a, s_a, p_a, score_a), (mu_b, s_b, p_b, 1 - score_a)):
        omega = s**2 / c * (score - p)
        gamma = s / c
        delta = gamma * s**2 / c**2 * p * (1 - p)
        out.append((mu + omega, s * math.sqrt(max(1 - delta, KAPPA))))
    return out[0], out[1]


def plackett_luce(
    players: list[tuple[float, float]], ranks: list[int]
) -> list[tuple[float, float]]:
    """One table by Plackett-Luce (Algorithm 4 of Weng and Lin), with shared places."""
    sig = [math.hypot(s, TAU) for _, s in players]
    mus = [mu for mu, _ in players]
    n = len(players)
    c = math.sqrt(sum(s**2 + BETA**2 for s in sig))
    e = [math.exp(mu / c) for mu in mus]
    sum_q = [sum(e[s] for s in range(n) if ranks[s] >= ranks[q]) for q in range(n)]
    a = [sum(1 for s in range(n) if ranks[s] == ranks[q]) for q in range(n)]
    new = []
    for i in range(n):
        omega = delta = 0.0
        for q in range(n):
            if ranks[q] <= ranks[i]:
                share = e[i] / sum_q[q]
                omega += ((1 if q == i else 0) - share) / a[q]
                delta += share * (1 - share) / a[q]
        omega *= sig[i] ** 2 / c
        delta *= sig[i] ** 2 / c**2 * (sig[i] / c)
        new.append([mus[i] + omega, sig[i] * math.sqrt(max(1 - delta, KAPPA))])
    return [(mu, s) for mu, s in new]


def close(r: Rating, expected: tuple[float, float]) -> bool:
    return r.mu == pytest.approx(expected[0], abs=1e-9) and r.sigma == pytest.approx(
        expected[1], abs=1e-9
    )


def test_a_duel_by_bradley_terry_worked_by_hand() -> None:
    # Two duels, so that the second starts from unequal ratings: Giallo beats Blu, then Blu
    # beats Verde, then Verde and Giallo draw.
    g1, b1 = bradley_terry_duel((MU, SIGMA), (MU, SIGMA), 1)
    assert g1[0] > MU > b1[0] and g1[1] < SIGMA
    b2, v2 = bradley_terry_duel(b1, (MU, SIGMA), 1)
    v3, g3 = bradley_terry_duel(v2, g1, 0.5)
    got = rate(
        [
            contest(("Giallo", "Blu"), (0, 1)),
            contest(("Blu", "Verde"), (0, 1)),
            contest(("Verde", "Giallo"), (0, 0)),
        ]
    )
    assert close(got.overall["Blu"], b2)
    assert close(got.overall["Verde"], v3)
    assert close(got.overall["Giallo"], g3)
    assert got.overall["Giallo"].contests == 2
    # One game only: its ratings are the overall ones.
    assert got.games["tiro"] == got.overall


def test_a_table_of_three_by_plackett_luce_worked_by_hand() -> None:
    # A duel first, so the table starts from unequal ratings; then Rosso wins a table of three
    # where Giallo and Blu go out together (they share second place).
    g1, b1 = bradley_terry_duel((MU, SIGMA), (MU, SIGMA), 1)
    table = plackett_luce([(MU, SIGMA), g1, b1], [0, 1, 1])
    got = rate(
        [
            contest(("Giallo", "Blu"), (0, 1), "ventuno"),
            contest(("Rosso", "Giallo", "Blu"), (0, 1, 1), "texas"),
        ]
    )
    for player, expected in zip(("Rosso", "Giallo", "Blu"), table, strict=True):
        assert close(got.overall[player], expected), player
    # Per game, the table's players all start from the prior.
    fresh = plackett_luce([(MU, SIGMA)] * 3, [0, 1, 1])
    assert close(got.games["texas"]["Giallo"], fresh[1])
    assert got.games["texas"]["Giallo"].mu == got.games["texas"]["Blu"].mu
    assert "Rosso" not in got.games["ventuno"]


def test_a_table_of_four_in_distinct_places() -> None:
    expected = plackett_luce([(MU, SIGMA)] * 4, [0, 1, 2, 3])
    got = rate([contest(("a", "b", "c", "d"), (0, 1, 2, 3))])
    for player, e in zip("abcd", expected, strict=True):
        assert close(got.overall[player], e)
    assert [p for p, _ in got.ranked()] == ["a", "b", "c", "d"]


def test_places_follow_the_outcome_winners_points_then_who_went_out_last() -> None:
    players = ("Giallo", "Blu", "Verde", "Rosso", "Nero")
    outcome = Outcome(("Verde",), {p: int(p == "Verde") for p in players})
    # Nero went out first, then Blu; Giallo and Rosso were still in when Verde won.
    assert placing(players, outcome, ("Nero", "Blu")) == (1, 2, 0, 1, 3)
    # No winner and nobody out: everyone draws.
    assert placing(players, Outcome((), dict.fromkeys(players, 0)), ()) == (0,) * 5
    # Two winners draw for first place (CH-2).
    both = Outcome(("Giallo", "Blu"), {"Giallo": 1, "Blu": 1, "Verde": 0})
    assert placing(("Giallo", "Blu", "Verde"), both, ()) == (0, 0, 1)


def test_ratings_are_the_same_when_recomputed_and_order_matters() -> None:
    contests = [
        contest(("a", "b"), (0, 1)),
        contest(("a", "b", "c"), (2, 0, 1)),
        contest(("c", "a"), (0, 1)),
    ]
    assert rate(contests) == rate(list(contests))
    assert rate(contests) != rate(list(reversed(contests)))


def test_history_has_a_step_after_each_tournament_played() -> None:
    contests = [
        Contest(0, 1, 1, "tiro", "M1", ("a", "b"), (0, 1)),
        Contest(1, 1, 1, "tiro", "M1", ("b", "c"), (0, 1)),
        Contest(2, 1, 1, "tiro", "M1", ("a", "c"), (1, 0)),
    ]
    got = rate(contests)
    assert [s.tournament for s in got.history["a"]] == [0, 2]
    assert [s.tournament for s in got.history["b"]] == [0, 1]
    assert got.history["a"][-1].rating == got.overall["a"]
