"""Check-in on the web (#24): the organizer ticks who is here, and players check themselves in
at the door.

A tournament created with ``--check-in`` pairs each round only the players checked in for it
(check-ins reset each round). The organizer's page has a check-in section (one tick a player,
saved at once) and prints the door's link: a QR code and its address, 128 random bits stored only
as a hash (like the table cards' links, :mod:`tournament.web.tokens`), valid until printed again.
Whoever scans it gets ``/checkin/TOKEN``: the active players not checked in yet for the next
round, each a button that checks that player in. The link checks in and nothing else: it cannot
check anyone out, pair, or see anything the public pages do not show. Unknown links count as
guesses (rate-limited, like the table links).
"""

from __future__ import annotations

from typing import Any

import segno
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from engine.message import msg
from tournament.domain.names import registered
from tournament.services import day, stores
from tournament.services.stores import Store
from tournament.web.actions import back, checked_form, field, plain, run
from tournament.web.organizer import HOME, action, words
from tournament.web.security import PRINT_CSP, new_token, token_hash

SELF = "self check-in"  # who a check-in at the door is recorded as (``by``)


def _state(store: Store) -> dict[str, Any]:
    t = day.get_tournament(store)
    return {"name": t.settings["name"], **day.check_in_state(t)}


# --- the organizer's ------------------------------------------------------------------------


@action
async def tick(request: Request, form: FormData) -> Response:
    """The organizer's ticks: exactly those ticked are checked in for the next round."""
    store = request.app.state.store
    ticked = form.getlist("here")
    ok, said = await run(request, day.set_checked_in, store, [str(n) for n in ticked])
    if not ok:
        return back(request, HOME + "#check-in", said, False)
    state = day.check_in_state(said)
    here = words(request, "checked_in_n", n=len(state["checked_in"]), round=state["round"])
    return back(request, HOME + "#check-in", here)


@action
async def door(request: Request, form: FormData) -> Response:
    """A new door link (the earlier one stops working), shown once as a printable sheet."""
    from tournament.web.pages import page

    store = request.app.state.store
    token = new_token()

    def issue() -> dict[str, Any]:
        day.asks_check_in(day.get_tournament(store))  # or one sentence why not
        stores.replace_door(store, token_hash(token))
        return _state(store)

    ok, said = await run(request, issue)
    if not ok:
        return back(request, HOME, said, False)
    url = f"{str(request.base_url).rstrip('/')}/checkin/{token}"
    qr = segno.make(url, error="m").svg_inline(scale=7, border=2, omitsize=True)
    response = page(request, "/checkin_door.html", {**said, "url": url, "qr": qr})
    response.headers["Content-Security-Policy"] = PRINT_CSP  # the sheets' own print styles
    return response


# --- the door's ------------------------------------------------------------------------------


async def _known(request: Request) -> Response | None:
    """None when the link is the door's; else the refusal (unknown links count as guesses)."""
    guesses = request.app.state.guesses
    if await guesses.blocked(request):
        return plain(request, 429, msg("too many wrong check-in links: wait a minute"))
    token = request.path_params["token"]
    store = request.app.state.store
    if len(token) < 64 and await run_in_threadpool(stores.is_door, store, token_hash(token)):
        return None
    await guesses.failed(request)
    return plain(request, 404, msg("this check-in link is not known: ask the organizer"))


async def door_page(request: Request) -> Response:
    from tournament.web.pages import page

    refused = await _known(request)
    if refused is not None:
        return refused
    data = await run_in_threadpool(_state, request.app.state.store)
    flash = request.session.pop("flash", None)
    return page(request, "checkin.html", data, flash=flash, token=request.path_params["token"])


async def check_in(request: Request) -> Response:
    """A player at the door checks in (themselves: the link checks in, never out)."""
    refused = await _known(request)
    if refused is not None:
        return refused
    form = await checked_form(request)
    if isinstance(form, Response):
        return form
    here = f"/checkin/{request.path_params['token']}"
    name = field(form, "player")
    ok, said = await run(request, day.check_in, request.app.state.store, [name], SELF)
    if not ok:
        return back(request, here, said, False)
    name = registered(name, said.players) or name  # as registered (#11)
    round_number = day.check_in_state(said)["round"]
    return back(request, here, words(request, "welcome_n", name=name, round=round_number))


def routes() -> list[BaseRoute]:
    return [
        Route("/organizer/checkin", tick, methods=["POST"]),
        Route("/organizer/checkin/door", door, methods=["POST"]),
        Route("/checkin/{token}", door_page),
        Route("/checkin/{token}", check_in, methods=["POST"]),
    ]
