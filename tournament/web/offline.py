"""A referee's page that outlives the room's network (issue #26): ``/table/TOKEN/move`` takes one
move a phone kept while it could not send it, and ``/table/sw.js`` is the service worker that
keeps the page itself where the browser allows one (https, or this machine).

The phone (``static/offline.js``) keeps every move it could not send, with the position the
match was at when the move was made, and sends them again in order. The endpoint speaks JSON,
under the table page's own rules (its link, the session's CSRF token), and stores a move only
when the match is still at that position: a phone's queue merges as a fast-forward. It answers
``stored`` (with the match's new position, at which the next move of the queue is sent, and
the table's page as the move left it when the phone asks for it: ``"page": true``),
``refused`` (the reason, in the page's language: the queue stops there) or ``conflict`` (the
match moved on meanwhile, a second phone at the table: the queue stops, kept for the referee).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import BaseRoute, Route

from engine.errors import RuleViolation
from engine.events import DERIVED, DiceReveal
from engine.match import Replay
from engine.message import Msg, msg
from engine.notation import NotationError, parse
from engine.notation import format as notation
from exports.i18n import say
from tournament.errors import UserError
from tournament.services import dice
from tournament.services.matches import load
from tournament.services.stores import Store, as_user_errors
from tournament.web.actions import field, flash, flashed, writer, written
from tournament.web.referee import (
    DIGITS,
    _match_of_table,
    _opened,
    drawn,
    move_text,
    recorded,
    store_move,
)
from tournament.web.security import csrf_ok
from tournament.web.shelf import encoded_json
from tournament.web.tokens import find
from tournament.web.words import lang_of

WORKER = Path(__file__).parent / "static" / "sw.js"
FIELDS = 32  # a table's form has a dozen fields at most
NO_STORE = {"Cache-Control": "no-store"}


def answer(request: Request, status: int, what: str, reason: Msg | str, **more: Any) -> Response:
    """A JSON answer: ``what`` (stored, refused, conflict) and the reason in the page's words."""
    text = say(reason, lang_of(request)) if isinstance(reason, Msg) else reason
    body = encoded_json({"status": what, "reason": text, **more})  # (a page in it: by orjson)
    return Response(body, status, headers=NO_STORE, media_type="application/json")


def sent(body: Any) -> tuple[str, int, FormData] | Msg:
    """The match, the position and the form's fields a phone sent, or why they are not a move
    of a table's page."""
    if not isinstance(body, dict):
        return msg("this is not a move sent by a table's page")
    match, at, fields = body.get("match"), body.get("at"), body.get("fields")
    if not isinstance(match, str) or not isinstance(fields, dict) or len(fields) > FIELDS:
        return msg("this is not a move sent by a table's page")
    if isinstance(at, bool) or not isinstance(at, int) or not 0 <= at < 10**DIGITS:
        return msg("this is not a move sent by a table's page")
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in fields.items()):
        return msg("this is not a move sent by a table's page")
    own = [(k, v) for k, v in fields.items() if k not in ("csrf", "match", "position")]
    return match, at, FormData([*own, ("match", match), ("position", str(at))])


def position_of(
    store: Store, found: tuple[int, int], match: str, lexicon: str | None
) -> int | None:
    """Where a match of the table stands now, its round open or closed since (``None``: it is
    no match of this table)."""
    try:
        with as_user_errors():
            _match_of_table(store, found, match, closed=True)
            return int(load(store, match, lexicon).replay.position)
    except UserError:
        return None


def settled(
    store: Store,
    found: tuple[int, int] | str,
    move: tuple[str, int, FormData],
    lexicon: str | None,
) -> tuple[int | None, int | None]:
    """Where the match of a move that was not stored now stands (``None``: no match of the
    table), and the position after it when the store holds this very move already (``None``
    otherwise): a move stored is answered "stored already" whatever happened since, its round
    closed included. ``found``: the table, or the link's token when it refused (expired)."""
    if isinstance(found, str):
        looked = find(store, found)
        if looked is None:
            return None, None
        found = looked
    match, at, form = move
    now = position_of(store, found, match, lexicon)
    if now is None or now == at:
        return now, None
    return now, already(store, form, at, lexicon)


def already(store: Store, form: FormData, at: int, lexicon: str | None) -> int | None:
    """The match's position after this very move, when the store holds it at ``at`` already
    (a phone that did not hear the answer sends it again); ``None`` when it holds another move
    there (a second phone's), or the move is no move there.

    The store's copy then has the phone's move as its next: a fast-forward with nothing to add.
    """
    if field(form, "kind") == "seal":
        return None  # a new salt each time: never the same move twice
    try:
        with as_user_errors():
            loaded = load(store, field(form, "match"), lexicon)
            replay, events = loaded.replay, loaded.replay.events
            if not 0 <= at < replay.position:
                return None
            before = Replay.of(replay.header, replay.lexicon, events[:at], rules=replay.revision)
            seed = dice.seed(store, loaded.match.number)
            if notation(parse(move_text(form), before, seed=seed)) != notation(events[at]):
                return None
    except (UserError, NotationError, RuleViolation):
        return None
    after = at + 1  # past what the move brought with it: a player out, the end, the seed
    while after < len(events) and isinstance(events[after], (*DERIVED, DiceReveal)):
        after += 1
    return after


async def send_move(request: Request) -> Response:
    """``POST /table/TOKEN/move``: one move at the position it was made at (JSON in and out).

    The link is looked up, the move stored and the page drawn in one worker thread's turn
    (#27); the link's refusal comes first, then the form's (its CSRF token, its fields)."""
    try:
        body = await request.json()
    except ValueError:
        body = None
    stale = not isinstance(body, dict) or not csrf_ok(request.session, body.get("csrf"))
    move = sent(body) if not stale else msg("this is not a move sent by a table's page")
    store, lexicon = request.app.state.store, request.app.state.settings.lexicon
    with_page = not stale and body.get("page") is True  # the page drawn with the answer
    said_as: list[str] = []  # what was stored, in the page's words (said once, #27)

    def write(found: tuple[int, int], t: Any) -> tuple[bool, Any]:
        assert not isinstance(move, Msg)
        form = move[2]

        def draw(said: tuple[list[Any], str | None, Any]) -> str | None:
            stored, salt, after = said
            if not with_page:
                return None
            kept = {"player": form.get("by", ""), "salt": salt} if salt else None
            # The tournament as read with the link, unless the move ended the match (its head
            # is kept in the tournament then: read as stored now).
            now = t if after.replay.outcome is None else None
            said_as.append(recorded(stored, request))
            page = drawn(request, found, flashed(said_as[0]), kept, None, after, now)
            return bytes(page.body).decode()

        locked = writer(request, store_move, store, found, form, lexicon, refresh=False, then=draw)
        return written(request, locked)

    opened = await _opened(request, None if isinstance(move, Msg) else write)
    if isinstance(opened, Response):  # the link's refusal, its status kept (429: try later)
        if opened.status_code == 403 and not stale and not isinstance(move, Msg):
            # (403: the link expired, its round closed) a move it stored before is stored
            token = request.path_params["token"]
            _, after = await run_in_threadpool(settled, store, token, move, lexicon)
            if after is not None:
                return stored_already(request, after)
        why = getattr(opened, "reason", None) or bytes(opened.body).decode()  # a page's refusal
        return answer(request, opened.status_code, "refused", why)
    if stale:
        # (a server started again has new sessions: the phone asks the page for its new token)
        why = msg("the form is stale or forged (CSRF token): reload the page")
        return answer(request, 403, "refused", why, stale=True)
    if isinstance(move, Msg):
        return answer(request, 400, "refused", move)
    found, (ok, said) = opened
    _, at, form = move
    if ok:
        (stored, salt, after), page = said
        position = int(after.replay.position)  # (the match as the move left it: not read again)
        text = said_as[0] if said_as else recorded(stored, request)
        if page is not None:
            return answer(request, 200, "stored", text, position=position, page=page)
        if salt:
            request.session["salt"] = {"player": form.get("by", ""), "salt": salt}
        flash(request, text)  # the page drawn next says it, as after a form
        return answer(request, 200, "stored", text, position=position)
    now, after = await run_in_threadpool(settled, store, found, move, lexicon)
    if after is not None:  # stored before, its answer lost on the way
        return stored_already(request, after)
    if now is not None and now != at:
        why = msg(
            "the match moved on: it is at position %(now)s, this move was made at %(at)s",
            now=now,
            at=at,
        )
        return answer(request, 409, "conflict", why, position=now)
    return answer(request, 422, "refused", said, position=now)


def stored_already(request: Request, after: int) -> Response:
    """The answer to a move the store holds already (a phone that had not heard the first)."""
    why = msg("stored already: the phone had not heard the server's answer")
    return answer(request, 200, "stored", why, position=after)


async def service_worker(request: Request) -> Response:
    """The service worker, served from ``/table/`` so that it may keep the tables' pages."""
    return FileResponse(WORKER, media_type="text/javascript", headers={"Cache-Control": "no-cache"})


def routes() -> list[BaseRoute]:
    """Before the referee's routes: ``/table/sw.js`` is no table's link."""
    return [
        Route("/table/sw.js", service_worker),
        Route("/table/{token}/move", send_move, methods=["POST"]),
    ]
