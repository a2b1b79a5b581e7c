"""The lines a match's progress is told in, by the recording verbs and the console alike: who
won, who acts next, what a correction in a closed round moves (catalogue messages: each front
end says them in its language)."""

from __future__ import annotations

from typing import Any

from engine.events import REFEREE
from engine.message import Msg, msg, nmsg


def finished(winners: list[str]) -> Msg:
    """The line that closes a match: who won, or that nobody did."""
    if not winners:
        return msg("finished: nobody wins")
    return nmsg(
        "finished: winner %(winners)s",
        "finished: winners %(winners)s",
        len(winners),
        winners=tuple(winners),
    )


def next_line(turn: dict[str, Any]) -> Msg:
    """Who acts next, what is expected, and the moves open (in the notation)."""
    events = "/".join(turn["events"])
    if turn["player"] == REFEREE:  # dealing cards, naming who starts: the referee's own move
        return msg(
            "next: the referee: %(expects)s [%(events)s]", expects=turn["expects"], events=events
        )
    return msg(
        "next: %(player)s: %(expects)s [%(events)s]",
        player=turn["player"],
        expects=turn["expects"],
        events=events,
    )


def closed_round(match: str, round: int) -> Msg:
    """The first line of a correction's preview in a closed round."""
    return msg(
        "%(match)s is in round %(round)s, already closed: the standings are recomputed; "
        "pairings already published stay as they are.",
        match=match,
        round=round,
    )


def moved(row: dict[str, Any]) -> Msg:
    """A player a correction moves in the standings: where they are, where they were."""
    return msg(
        "%(player)s: #%(rank)s with %(points)s (was #%(rank_before)s with %(before)s)",
        player=row["player"],
        rank=row["rank"],
        points=f"{row['points']:g}",
        rank_before=row["rank_before"],
        before=f"{row['points_before']:g}",
    )
