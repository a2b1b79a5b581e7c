"""The tournament aggregate: registration, rounds, pairings, partite; every change an event.

One tournament per database file. Its events say who did what (``by``) and eventsourcing
stamps when. Results are never stored here: they are derived from the match logs.
"""

from __future__ import annotations

from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.domain import Aggregate, event

TOURNAMENT_ID = uuid5(NAMESPACE_URL, "tournament/tournament")
FORMATS = ("swiss", "round_robin", "elimination", "pods")


class Tournament(Aggregate):
    """A club tournament: its settings, players and rounds."""

    @staticmethod
    def create_id(**_: Any) -> UUID:
        return TOURNAMENT_ID

    @event("Created")
    def __init__(self, settings: dict[str, Any], by: str) -> None:
        self.settings = settings
        self.players: dict[str, dict[str, Any]] = {}  # name -> status, since (round), seed
        self.rounds: list[dict[str, Any]] = []

    @event("PlayerRegistered")
    def register(self, player: str, by: str) -> None:
        self.players[player] = {
            "status": "active",
            "since": len(self.rounds) + 1,  # a late entry joins from the next round
            "seed": len(self.players) + 1,
        }

    @event("PlayerWithdrawn")
    def withdraw(self, player: str, reason: str, by: str) -> None:
        # Before any round a withdrawal removes the player; later it is a drop-out.
        self.players[player]["status"] = "dropped" if self.rounds else "withdrawn"
        self.players[player]["until"] = len(self.rounds)
        self.players[player]["reason"] = reason

    @event("RoundPaired")
    def pair_round(self, number: int, tables: list[dict[str, Any]], by: str) -> None:
        self.rounds.append({"number": number, "tables": tables, "closed": False})

    @event("PartitaChosen")
    def choose_partita(self, round: int, table: int, games: list[str], by: str) -> None:  # noqa: A002
        self.table(round, table)["games"] = games

    @event("MatchAttached")
    def attach_match(self, round: int, table: int, game: str, match: str, by: str) -> None:  # noqa: A002
        self.table(round, table).setdefault("matches", {})[game] = match

    @event("ResultAmended")
    def amend_result(
        self,
        round: int,
        table: int,
        points: dict[str, int],
        reason: str,
        by: str,  # noqa: A002
    ) -> None:
        # The match logs stay as they are: the amendment stands beside them, and is shown.
        self.table(round, table).setdefault("amendments", []).append(
            {"points": points, "reason": reason, "by": by}
        )

    @event("RoundClosed")
    def close_round(self, number: int, by: str) -> None:
        self.rounds[number - 1]["closed"] = True

    def table(self, round_number: int, table_number: int) -> dict[str, Any]:
        return self.rounds[round_number - 1]["tables"][table_number - 1]

    @property
    def active(self) -> list[str]:
        return [p for p, info in self.players.items() if info["status"] == "active"]

    @property
    def ranked_players(self) -> list[str]:
        """Everyone who stays in the standings (withdrawn before the start do not)."""
        return [p for p, info in self.players.items() if info["status"] != "withdrawn"]
