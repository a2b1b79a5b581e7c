"""Pairings: Swiss, round robin (Berger tables), single elimination and tables of 3 to 10.

Pure functions: they take the players in ranking order and what happened so far, and return
the tables with the reasons for each decision (a code with its values, and English text), so
that the organizer and the arbiter can read why.
"""

from tournament.domain.pairing.schedules import (
    berger,
    bracket_order,
    first_elimination_round,
    next_elimination_round,
    pods,
    table_sizes,
)
from tournament.domain.pairing.swiss_round import swiss
from tournament.domain.pairing.tables import History, Reason, Table

__all__ = [
    "History",
    "Reason",
    "Table",
    "berger",
    "bracket_order",
    "first_elimination_round",
    "next_elimination_round",
    "pods",
    "swiss",
    "table_sizes",
]
