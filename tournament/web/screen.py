"""``/screen``: the room's screen, for a projector across a hall (Tabbycat's projector view is
the model): the round in play, each table's players and state in large type, scrolling by
itself, then the standings; it follows the live stream as every public page does."""

from __future__ import annotations

from typing import Any

from starlette.routing import BaseRoute, Route

from tournament.services.stores import Store
from tournament.web import views
from tournament.web.shelf import public

TOP = 16  # the standings' rows the screen shows (the rest are a page away, on /standings)


def gather(store: Store) -> dict[str, Any]:
    """The round in play (as ``/`` has it) and the top of the standings."""
    info = views.now(store)
    info["standings"] = []
    if info["tournament"] is not None:
        info["standings"] = views.standings(store, top=TOP, last=1)["rows"]  # (the top alone)
    return info


# Kept for the store's position as every public page is (#27): a hall's screens, one render.
SCREEN = public("screen.html", lambda st: gather(st.store), lambda request: "/api")[0]


def routes() -> list[BaseRoute]:
    return [Route("/screen", SCREEN)]
