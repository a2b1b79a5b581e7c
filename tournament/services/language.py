"""The tournament's own language (``create --lang``), read without loading the tournament.

The command line says its sentences in it when nothing chose another (docs/cli.md,
"Language"); a recording call must not load the tournament's aggregate for that (#15), so this
reads the one stored event that holds it: the tournament's first, ``Created``, whose settings
carry ``lang`` (Italian where an early version wrote none).
"""

from __future__ import annotations

import json
from typing import Any
from uuid import UUID

# tournament.domain.tournaments.TOURNAMENT_ID, uuid5(NAMESPACE_URL, "tournament/tournament"),
# written out: without importing the aggregate's classes, and uuid5 would load OpenSSL (#15, #27)
TOURNAMENT = UUID("a56382de-a77f-573d-9ac0-59b2073067ac")
CREATED = "tournament.tournaments:Tournament.Created"


def tournament_lang(store: Any) -> str | None:
    """The language the store's tournament was created with; None without a tournament, or
    where its first event cannot be read (a language is never worth a refusal)."""
    try:
        first = store.recorder.select_events(TOURNAMENT, limit=1)
        if not first or first[0].topic != CREATED:
            return None
        settings = json.loads(first[0].state).get("settings") or {}
        return str(settings.get("lang") or "it")
    except (ValueError, AttributeError, TypeError):
        return None
