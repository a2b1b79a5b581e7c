"""``/organizer/``: the organizer's pages behind the passphrase.

Every action is a POST that needs the organizer's session (401 otherwise) and the session's
CSRF token (403 otherwise), and stores nothing when either is missing. Failed passphrases are
rate-limited per client.
"""

from __future__ import annotations

import io
import tempfile
import zipfile
from pathlib import Path
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from engine.errors import RuleViolation
from engine.events import Event, parse_event
from engine.message import msg
from exports.i18n import say
from tournament.domain.names import admitted, registered, short
from tournament.domain.views import open_round, players, round_of
from tournament.errors import Refused, UserError
from tournament.services import corrections, day, play, tables
from tournament.services.matches import refusal
from tournament.services.stores import as_user_errors
from tournament.web import tokens, views
from tournament.web.actions import back, checked_form, field, number, plain, refused, run, ticked
from tournament.web.security import PRINT_CSP, csrf_token, same_passphrase
from tournament.web.words import LANGS, kind, page_words

HOME = "/organizer/"
EXPORTS = ("standings.html", "standings.csv", "standings.json", "standings.md", "all.zip")


def is_organizer(request: Request) -> bool:
    return request.session.get("organizer") is True


def _needs_login(request: Request) -> Response:
    return plain(request, 401, msg("the organizer's passphrase is needed"))


def action(fn: Any) -> Any:
    """A POST of the organizer's: session first (401), then the CSRF token (403)."""

    async def endpoint(request: Request) -> Response:
        if not is_organizer(request):
            return _needs_login(request)
        form = await checked_form(request)
        if isinstance(form, Response):
            return form
        return await fn(request, form)

    endpoint.__name__ = fn.__name__
    return endpoint


# --- the pages -------------------------------------------------------------------------------


async def home(request: Request) -> Response:
    from tournament.web.pages import page

    flash = request.session.pop("flash", None)
    if not is_organizer(request):
        csrf_token(request.session)
        return page(request, "login.html", {}, flash=flash)
    data = await run_in_threadpool(_overview, request.app.state.store)
    return page(request, "organizer.html", data, flash=flash, exports=EXPORTS)


def _overview(store: Any) -> dict[str, Any]:
    info = views.now(store)
    t = views.tournament_or_none(store)
    if t is not None:
        info["players"] = [{"name": p.name, **p.to_json()} for p in players(t).values()]
        info["settings"] = t.settings
        info["open_round"] = open_round(t) is not None
        info["games"] = list(t.settings["games"])
        if t.settings.get("check_in"):  # the next round's check-in (#24; tournament.web.checkin)
            info["check_in"] = day.check_in_state(t)
    return info


async def login(request: Request) -> Response:
    guesses = request.app.state.guesses
    if await guesses.blocked(request):
        return plain(request, 429, msg("too many wrong passphrases: wait a minute"))
    form = await checked_form(request)
    if isinstance(form, Response):
        return form
    if not same_passphrase(request.app.state.settings.passphrase, form.get("passphrase")):
        await guesses.failed(request)
        return back(request, HOME, words(request, "wrong_passphrase"), good=False)
    request.session.clear()  # a fresh session and CSRF token for the organizer
    request.session["organizer"] = True
    csrf_token(request.session)
    return RedirectResponse(HOME, status_code=303)


@action
async def logout(request: Request, form: FormData) -> Response:
    request.session.clear()
    return RedirectResponse(HOME, status_code=303)


# --- the day ---------------------------------------------------------------------------------


@action
async def register(request: Request, form: FormData) -> Response:
    typed = [n.strip() for n in field(form, "names").splitlines() if n.strip()]
    store = request.app.state.store

    def add() -> list[str]:
        names = [admitted(n) for n in typed]  # a new name: normalised, or refused (#29)
        day.add_players(store, names)
        return names

    ok, said = await run(request, add)
    return back(request, HOME, "+ " + ", ".join(map(short, said)) if ok else said, ok)


@action
async def withdraw(request: Request, form: FormData) -> Response:
    store = request.app.state.store
    name, reason = field(form, "player"), field(form, "reason") or "withdrawn"
    ok, said = await run(request, day.withdraw, store, name, reason)
    if not ok:
        return back(request, HOME, said, False)
    from tournament.web.words import lang_of

    forfeit = day.forfeit_said(said, registered(name, said.players) or name)  # #24
    text = f"{name}: {reason}" + (f". {say(forfeit, lang_of(request))}" if forfeit else "")
    return back(request, HOME, text)


@action
async def pair(request: Request, form: FormData) -> Response:
    store = request.app.state.store
    ok, said = await run(request, lambda: day.pair_next_round(store))
    if not ok:
        return back(request, HOME, said, False)
    n = round_of(said).number
    return back(request, f"/rounds/{n}", words(request, "paired_n", n=n))


@action
async def close(request: Request, form: FormData) -> Response:
    store = request.app.state.store
    ok, said = await run(request, lambda: day.close_round(store))
    if not ok:
        return back(request, HOME, said, False)
    return back(request, HOME, words(request, "closed_n", n=round_of(said).number))


@action
async def partita(request: Request, form: FormData) -> Response:
    store = request.app.state.store
    games = ticked(form)
    ok, said = await run(
        request,
        lambda: tables.choose_partita(store, number(form, "round"), number(form, "table"), games),
    )
    return back(request, HOME, ", ".join(games) if ok else said, ok)


@action
async def start(request: Request, form: FormData) -> Response:
    store, lexicon = request.app.state.store, request.app.state.settings.lexicon
    outside = [p.strip() for p in field(form, "outside").split(",") if p.strip()]

    def go() -> str:
        match = play.start_challenge(
            store,
            number(form, "round"),
            number(form, "table"),
            field(form, "game"),
            outside,
            referee=field(form, "referee") or None,
            digital=bool(field(form, "digital")),  # the referee's page rolls them
            lexicon=lexicon,
        )
        return str(match.number)

    ok, said = await run(request, go)
    return back(request, HOME, words(request, "started_m", m=said) if ok else said, ok)


@action
async def cards(request: Request, form: FormData) -> Response:
    """New private links for every table of the open round, shown once as printable cards.

    Printing again cuts off every referee holding the earlier cards: when tables are in play,
    or this server printed the round's cards already, the organizer is asked first (and told
    which tables)."""
    from tournament.web.pages import page

    store = request.app.state.store
    printed: set[int] = getattr(request.app.state, "printed", set())
    if field(form, "confirm") != "yes":
        playing, open_no = await run_in_threadpool(_in_play, store)
        if open_no is not None and (playing or open_no in printed):
            return confirm(request, "cards", "/organizer/cards", playing)
    ok, said = await run(request, tokens.issue_cards, store)
    if not ok:
        return back(request, HOME, said, False)
    request.app.state.printed = printed | {c.round for c in said}
    base = request.app.state.settings.public_url or str(request.base_url).rstrip("/")
    data = {"cards": tokens.card_data(said, base), "local": tokens.loopback(base), "base": base}
    response = page(request, "/table_card.html", data)
    response.headers["Content-Security-Policy"] = PRINT_CSP  # the sheets' own print styles
    return response


def _in_play(store: Any) -> tuple[list[int], int | None]:
    """The tables of the open round with a challenge started and not decided, and the open
    round's number (None: no round is open)."""
    t = views.tournament_or_none(store)
    r = open_round(t) if t is not None else None
    if r is None:
        return [], None
    tables = views.now(store)["tournament"]["tables"]
    return [tb["table"] for tb in tables if tb["matches"] and not tb["decided"]], r.number


def confirm(request: Request, what: str, action: str, tables: list[int]) -> Response:
    """The page that asks before an action that cuts someone off (new cards, closing a round),
    naming the tables in play."""
    from tournament.web.pages import page

    data = {"what": what, "action": action, "tables": tables}
    return page(request, "confirm.html", data)


# --- corrections -----------------------------------------------------------------------------
#
# Each correction is previewed (the what-if page), then recorded from the preview's confirm
# button: the same service, preview and events as the CLI's (tournament.services.corrections).


def _correction(form: FormData) -> Event | str:
    """The correction a form describes: a void, a ruling, or the move that replaces a voided
    one (in the notation)."""
    kind = field(form, "kind")
    if kind == "move":
        return field(form, "move")
    on = number(form, "on")
    if kind == "void":
        reason = field(form, "reason")
        if not reason:
            raise Refused(msg("a void needs a reason (REF-2)"))
        event: dict[str, Any] = {"type": "void", "by": "referee", "on": on, "reason": reason}
    elif kind in ("accept", "reject"):
        event = {"type": "ruling", "by": "referee", "on": on, "accept": kind == "accept"}
        if field(form, "reason"):
            event["note"] = field(form, "reason")
    else:
        raise Refused(msg("a correction is a void, or a ruling that accepts or rejects"))
    try:
        return parse_event(event)
    except RuleViolation as v:
        raise Refused(refusal(v)) from None


def _amendment(form: FormData) -> tuple[int, int, dict[str, int], str]:
    points = corrections.read_points(field(form, "points").replace(",", " ").split())
    return number(form, "round"), number(form, "table"), points, field(form, "reason")


def _shown(preview: corrections.Preview, action: str, lang: str) -> dict[str, Any]:
    """A preview as the what-if page shows it."""
    effect = None
    if preview.round is not None:
        effect = {"moved": preview.moved, "later_pairings": preview.later_pairings}
    return {
        "action": action,
        "match": preview.match,
        "move": preview.correction,
        "before": preview.before,
        "after": preview.after,
        "awaits": say(preview.awaits, lang) if preview.awaits else None,
        "round": preview.round,
        "effect": effect,
    }


async def _previewed(request: Request, form: FormData, action: str, fn: Any) -> Response:
    from tournament.web.pages import page
    from tournament.web.words import lang_of

    try:
        with as_user_errors():
            preview = await run_in_threadpool(fn)
    except UserError as e:
        return back(request, HOME, refused(request, e), False)
    kept = dict(form)  # what the confirm step sends back, with the position previewed
    if preview.position is not None:
        kept["position"] = str(preview.position)
    switch = field(form, "lang")  # the language switch of the preview, sent as its form
    if switch in LANGS:
        request.state.lang = switch
    response = page(
        request, "correction.html", _shown(preview, action, lang_of(request)), form=kept
    )
    if switch in LANGS:
        response.set_cookie("lang", switch, max_age=365 * 86400, samesite="strict", httponly=True)
    return response


@action
async def correct(request: Request, form: FormData) -> Response:
    """Preview a void, a ruling or a voided move's replacement (the what-if), or record it."""
    store, lexicon = request.app.state.store, request.app.state.settings.lexicon
    match = field(form, "match")
    if field(form, "do") == "record":

        def go() -> str:
            # The match as previewed: if another terminal wrote to it since, nothing is stored.
            seen = number(form, "position") if field(form, "position") else None
            done = corrections.record_correction(
                store, match, _correction(form), lexicon, confirmed=True, expected_position=seen
            )
            assert done.loaded is not None  # confirmed: stored
            return str(done.loaded.match.number)

        ok, said = await run(request, go)
        done = words(request, "recorded_m", m=said) + f" ({what(request, field(form, 'kind'))})"
        return back(request, HOME, done if ok else said, ok)
    return await _previewed(
        request,
        form,
        "/organizer/correct",
        lambda: corrections.preview_move(store, match, _correction(form), lexicon),
    )


@action
async def amend(request: Request, form: FormData) -> Response:
    """Preview an amended result of a table, or record it."""
    store = request.app.state.store
    if field(form, "do") == "record":
        ok, said = await run(
            request, lambda: corrections.amend(store, *_amendment(form), confirmed=True)
        )
        done = words(request, "amended_n", round=number(form, "round"), table=number(form, "table"))
        return back(request, HOME, done if ok else said, ok)
    return await _previewed(
        request,
        form,
        "/organizer/amend",
        lambda: corrections.preview_amend(store, *_amendment(form)),
    )


# --- exports ---------------------------------------------------------------------------------


async def export(request: Request) -> Response:
    """The printable and postable files, made on demand (the same code as ``tournament export``)."""
    if not is_organizer(request):
        return _needs_login(request)
    name = request.path_params["name"]
    if name not in EXPORTS:
        return plain(request, 404, msg("no export called %(name)s", name=name))
    store = request.app.state.store
    from tournament.web.words import lang_of

    lang = lang_of(request)

    def make() -> tuple[bytes, str]:
        from tournament.services.printing import Printer

        with tempfile.TemporaryDirectory() as tmp:
            printer = Printer(store, Path(tmp), lang)
            if name == "all.zip":
                buffer = io.BytesIO()
                with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as z:
                    for path in printer.everything():
                        z.write(path, path.name)
                return buffer.getvalue(), "application/zip"
            stem, _, fmt = name.partition(".")
            [path] = printer.standings((fmt,))
            kinds = {"html": "text/html", "csv": "text/csv", "json": "application/json"}
            return path.read_bytes(), kinds.get(fmt, "text/markdown") + "; charset=utf-8"

    try:
        with as_user_errors():
            body, kind = await run_in_threadpool(make)
    except UserError as e:
        return back(request, HOME, str(e), False)
    return Response(
        body,
        media_type=kind,
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


def routes() -> list[BaseRoute]:
    return [
        Route("/organizer", lambda r: RedirectResponse(HOME, status_code=307)),
        Route(HOME, home),
        Route("/organizer/login", login, methods=["POST"]),
        Route("/organizer/logout", logout, methods=["POST"]),
        Route("/organizer/players", register, methods=["POST"]),
        Route("/organizer/players/withdraw", withdraw, methods=["POST"]),
        Route("/organizer/round/pair", pair, methods=["POST"]),
        Route("/organizer/round/close", close, methods=["POST"]),
        Route("/organizer/partita", partita, methods=["POST"]),
        Route("/organizer/table/start", start, methods=["POST"]),
        Route("/organizer/cards", cards, methods=["POST"]),
        Route("/organizer/correct", correct, methods=["POST"]),
        Route("/organizer/amend", amend, methods=["POST"]),
        Route("/organizer/export/{name}", export),
    ]


def words(request: Request, key: str, **values: Any) -> str:
    """One of the pages' sentences in the visitor's language (a flash after an action)."""
    from tournament.web.words import lang_of

    return page_words(lang_of(request))[key].format(**values)


def what(request: Request, name: str) -> str:
    """A kind of event in the visitor's language."""
    from tournament.web.words import lang_of

    return kind(name, lang_of(request))
