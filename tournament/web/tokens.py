"""The tables' private links: 128 random bits each, stored only as a hash.

The hashes live in ``web_tables``, one of the store's own tables beside its events (in the
SQLite file, or in the tournament's schema on a PostgreSQL server; created when a server starts,
written only by the organizer's actions); a link opens its table until the table's round closes,
and printing the cards again replaces the links of the open round.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import segno

from engine.message import msg
from tournament.domain.views import open_round
from tournament.errors import Refused
from tournament.services import day, stores
from tournament.services.referees import table_referee
from tournament.services.stores import Store
from tournament.web.security import new_token, token_hash
from tournament.web.words import title


@dataclass(frozen=True)
class Card:
    """A table's card: its round, number, players, games (their titles), referee and the new
    link's token (shown once, stored only as a hash)."""

    round: int
    table: int
    players: tuple[str, ...]
    games: tuple[str, ...]
    referee: str | None
    token: str


def prepare(store: Store) -> None:
    """Create the tokens' table, and the wrong guesses', on first use (a server's start)."""
    stores.prepare_links(store)
    stores.prepare_guesses(store)


def issue_cards(store: Store) -> list[Card]:
    """A new link for every table of the open round (earlier links of those tables stop working)."""
    t = day.get_tournament(store)
    r = open_round(t)
    if r is None:
        raise Refused(msg("there is no open round: pair one first"))
    issued = [
        Card(
            r.number,
            tb.number,
            tb.players,
            tuple(title(g) for g in day.table_games(t, tb)),
            table_referee(t, tb),
            new_token(),
        )
        for tb in r.tables
        if not tb.bye
    ]
    stores.replace_links(store, r.number, {c.table: token_hash(c.token) for c in issued})
    return issued


def card_data(issued: list[Card], base: str) -> list[dict[str, Any]]:
    """What the printable table cards show: the players, the link and its QR code."""
    cards = []
    for c in issued:
        url = f"{base}/table/{c.token}"
        # Larger than a score sheet's QR: it is scanned from across a table. A viewBox and no
        # size of its own, so that the card's 62 mm scale it whole rather than crop it.
        qr = segno.make(url, error="m").svg_inline(scale=7, border=2, omitsize=True)
        cards.append({**asdict(c), "url": url, "qr": qr})
    return cards


def loopback(base: str) -> bool:
    """Whether links under ``base`` open on this machine only (127.0.0.1, localhost, ::1)."""
    import ipaddress
    from urllib.parse import urlsplit

    host = urlsplit(base).hostname or ""
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:  # a name: it is what the room reaches
        return False


def find(store: Store, token: str, fresh: bool = True) -> tuple[int, int] | None:
    """The round and table of a token, if it was issued (asked of the store; not ``fresh``: a
    table's request, which may take a link found before,
    :func:`tournament.services.stores.find_link`)."""
    return stores.find_link(store, token_hash(token), fresh)
