"""The bracket as it is drawn: every round of it, paired or still to come, each table with its
players and seeds, its points and who went through (and whether by the higher seed, or a draw
still waiting for its decider), the match for third place, the champion. Pure data for the
printed bracket (:mod:`exports.bracket`) and the web's bracket page, in no language."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tournament.domain import knockouts, views
from tournament.domain.pairing.bracket import is_third_place, round_code
from tournament.domain.results import OutcomeOf, played_result

if TYPE_CHECKING:
    from tournament.domain.tournaments import Tournament


def _box(
    t: Tournament, tb: views.Table, outcome_of: OutcomeOf, seeds: dict[str, int]
) -> dict[str, Any]:
    played = played_result(t, tb, outcome_of)
    result = knockouts.settle(t, tb, played)
    return {
        "round": tb.round,
        "table": tb.number,
        "players": list(tb.players),
        "seeds": [seeds.get(p) for p in tb.players],
        "bye": tb.bye,
        "points": dict(played.points) if played.points and not tb.bye else None,
        "winner": knockouts.winner(t, tb.round, result) if result.decided else None,
        "by_seed": bool(result.decided and knockouts.by_seed(t, tb.round, result)),
        "decider": knockouts.needs_decider(t, tb, played),
        "why": tb.why,
        "reasons": [dict(r) for r in tb.reasons],
    }


def _empty() -> dict[str, Any]:
    return {"players": [], "seeds": [], "bye": False, "points": None, "winner": None}


def drawn_bracket(t: Tournament, outcome_of: OutcomeOf) -> dict[str, Any] | None:
    """The bracket's rounds (``name``: a round's code, ``players``: how many it starts with,
    ``number``: its round once paired), the match for third place and the champion; None for a
    tournament without a bracket, no rounds before it is paired (a Swiss before its cut)."""
    start = knockouts.first_round(t)
    if start is None:
        return None
    out: dict[str, Any] = {"rounds": [], "third": None, "champion": None, "start": start}
    if len(t.rounds) < start:
        return out
    seeds = knockouts.seeds_of(t)
    size = 2 * len(views.paired(t, start).tables)
    for c in range(size.bit_length() - 1):
        number = start + c
        count = size >> (c + 1)
        code, players = round_code(count)
        boxes = [_empty() for _ in range(count)]
        paired = number <= len(t.rounds)
        if paired:
            tables = views.paired(t, number).tables
            main = [tb for tb in tables if not is_third_place(tb.why)]
            boxes[: len(main)] = [_box(t, tb, outcome_of, seeds) for tb in main]
            third = [tb for tb in tables if is_third_place(tb.why)]
            if third:
                out["third"] = _box(t, third[0], outcome_of, seeds)
        out["rounds"].append(
            {"number": number if paired else None, "name": code, "players": players,
             "tables": boxes}
        )  # fmt: skip
    if out["third"] is None and t.settings.get("third_place") and len(seeds) >= 4:
        out["third"] = _empty()  # to be played once the semi-finals are decided
    final = out["rounds"][-1]["tables"][0]
    if len(final["players"]) == 2 and final["winner"]:
        out["champion"] = final["winner"]
    return out
