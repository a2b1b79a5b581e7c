"""The ASGI app: routes in one ordered table, each page gathered once and rendered last.

A public page renders HTML with a ``Link: rel="alternate"`` to its JSON twin under ``/api/``;
errors on the JSON path are JSON too. Pages are rendered with the exports' Jinja environment
(templates in ``exports/templates/web/``), Italian by default, English by a switch.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

from anyio import to_thread
from sse_starlette.sse import EventSourceResponse
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.sessions import SessionMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import Receive, Scope, Send

from exports import render
from exports.i18n import N_, translator
from tournament.services.stores import Location, Store, close_reads
from tournament.web import views
from tournament.web.live import Live
from tournament.web.pages import page
from tournament.web.security import Guard, RateLimit
from tournament.web.words import LANGS, jinja_globals, lang_of

STATIC = Path(__file__).parent / "static"
SESSION_HOURS = 12
PAGE_CACHE = 256  # pages' data kept, each until the store moves on
RETRY_AFTER = 10  # seconds a stream refused for want of places is told to wait
FULL = N_("the live stream is full: try again in a few seconds")


@dataclass
class Settings:
    """What a server is given: the store (a file, or a PostgreSQL server), its word list, the
    organizer's passphrase."""

    db: Path | Location
    passphrase: str
    lexicon: str | None = None
    season: Path | None = None  # the season file naming this tournament (serve --season)
    secret: str = field(default_factory=lambda: secrets.token_urlsafe(32))
    interval: float = 0.1  # how often the live task looks at the store, in seconds
    guesses: int = 5  # failed passphrase or token guesses a client may make a minute
    https: bool = False  # cookies marked Secure (behind a TLS proxy)
    # Bounds within the open-file limit (serve works them out; None: no bound): live streams
    # held at once (past them, 503 with Retry-After), and threads gathering pages.
    streams: int | None = None
    threads: int | None = None
    live_threads: int = 4  # the live task's threads then (its polls, refreshes, replays)
    public_url: str | None = None  # where the room reaches the server (the cards' links)


def public(
    template: str,
    gather: Callable[..., dict[str, Any]],
    api: Callable[[Request], str],
    cache: bool = True,
) -> tuple[Callable[..., Any], Callable[..., Any]]:
    """A public page and its JSON twin, from one function that gathers the page's data.

    ``cache=False`` for a page that must look at the stored bytes every time (a match's page
    verifies its hash chain: a change made behind the program's back moves no counter).
    """

    def cached(state: Any, params: dict[str, Any]) -> dict[str, Any]:
        # A page's data stands until the store or the read models move on: one cheap look at
        # both spares the gathering (a busy /standings is loaded many times between two moves).
        if not cache:
            return gather(state, **params)
        key = (template, tuple(sorted(params.items())))
        version = state.live.version()
        if version[1] < version[0]:  # the read models lag the store: bring them up first
            state.live.refresh()
            version = state.live.version()
        hit = state.pages.get(key)
        if hit is not None and hit[0] == version:
            return hit[1]  # type: ignore[no-any-return]
        value = gather(state, **params)
        state.pages[key] = (version, value)
        while len(state.pages) > PAGE_CACHE:
            state.pages.pop(next(iter(state.pages)))
        return value

    async def data(request: Request) -> dict[str, Any]:
        return await run_in_threadpool(cached, request.app.state, dict(request.path_params))

    async def html(request: Request) -> Response:
        try:
            # Rendered in a worker thread too: the event loop keeps the live streams flowing.
            gathered = await data(request)
            return await run_in_threadpool(page, request, template, gathered, api(request))
        except views.NotFound as e:
            return page(request, "missing.html", {"message": e.args[0]}, status=404)

    async def as_json(request: Request) -> Response:
        try:
            shown = {k: v for k, v in (await data(request)).items() if not k.startswith("_")}
            return JSONResponse(shown, headers={"Cache-Control": "no-store"})
        except views.NotFound as e:
            return JSONResponse({"error": str(e)}, status_code=404)

    return html, as_json


def _quoted(name: str) -> str:
    return quote(name, safe="")


PAGES = {
    "now": public("now.html", lambda st: views.now(st.store), lambda r: "/api"),
    "standings": public(
        "standings.html", lambda st: views.standings(st.store), lambda r: "/api/standings"
    ),
    "round": public(
        "round.html",
        lambda st, number: views.round_(st.store, number),
        lambda r: f"/api/rounds/{r.path_params['number']}",
    ),
    "bracket": public("bracket.html", lambda st: views.bracket(st.store), lambda r: "/api/bracket"),
    "match": public(
        "match.html",
        lambda st, number: views.match(st.store, number, st.settings.db, st.settings.lexicon),
        lambda r: f"/api/matches/{_quoted(r.path_params['number'])}",
        cache=False,
    ),
    "player": public(
        "player.html",
        lambda st, name: views.player(st.store, name, st.settings.season),
        lambda r: f"/api/players/{_quoted(r.path_params['name'])}",
    ),
}


class LiveStream:
    """``/api/live`` as an ASGI app: a stream holds one of the server's places for as long as
    it runs; with every place taken, 503 and when to try again (the server keeps its open files
    for the pages)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        request = Request(scope, receive)
        hub: Live = request.app.state.live
        with hub.place() as held:
            if held:
                response = await live(request)
            else:
                message = translator(lang_of(request)).gettext(FULL)
                # (closed after it: the socket's file is the server's to keep)
                headers = {"Retry-After": str(RETRY_AFTER), "Cache-Control": "no-store",
                           "Connection": "close"}  # fmt: skip
                response = JSONResponse({"error": message}, status_code=503, headers=headers)
            await response(scope, receive, send)


async def live(request: Request) -> Response:
    """``/api/live``: one Server-Sent Event per stored event (``Last-Event-ID`` resumes)."""
    hub: Live = request.app.state.live
    last = request.headers.get("last-event-id", "")
    after = int(last) if last.isdigit() else None

    async def messages() -> AsyncIterator[dict[str, Any]]:
        async for m in hub.listen(after):
            yield {"id": str(m["id"]), "event": "stored", "data": json.dumps(m)}

    return EventSourceResponse(messages(), ping=15, headers={"Cache-Control": "no-store"})


async def switch_lang(request: Request) -> Response:
    """``/lang/en?next=/standings``: remember the language in a cookie, go back."""
    lang = request.path_params["lang"]
    target = request.query_params.get("next", "/")
    if not target.startswith("/") or target.startswith("//") or "\\" in target:
        target = "/"  # never a redirect to another site
    response = RedirectResponse(target, status_code=303)
    if lang in LANGS:
        response.set_cookie("lang", lang, max_age=365 * 86400, samesite="strict", httponly=True)
    return response


def routes() -> list[BaseRoute]:
    """Every route, in one ordered table (JSON twins first, then the pages)."""
    from tournament.web import checkin, offline, organizer, referee, screen

    table: list[BaseRoute] = [
        Route("/api", PAGES["now"][1]),
        Route("/api/live", LiveStream(), methods=["GET"]),
        Route("/api/standings", PAGES["standings"][1]),
        Route("/api/rounds/{number:int}", PAGES["round"][1]),
        Route("/api/bracket", PAGES["bracket"][1]),
        Route("/api/matches/{number}", PAGES["match"][1]),
        Route("/api/players/{name:path}", PAGES["player"][1]),
        Route("/", PAGES["now"][0]),
        Route("/standings", PAGES["standings"][0]),
        Route("/rounds/{number:int}", PAGES["round"][0]),
        Route("/bracket", PAGES["bracket"][0]),
        Route("/matches/{number}", PAGES["match"][0]),
        Route("/players/{name:path}", PAGES["player"][0]),
        Route("/lang/{lang}", switch_lang),
        *organizer.routes(),
        *checkin.routes(),
        *offline.routes(),  # (its /table/sw.js before the tables' links)
        *referee.routes(),
        *screen.routes(),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return table


def create_app(settings: Settings, store: Store | None = None) -> Starlette:
    """The app over one database; the live task starts and stops with it."""
    store = store or Store(settings.db)
    hub = Live(store, settings.interval, settings.streams)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        from tournament.web import tokens

        if settings.threads is not None:  # each thread holds its own connections' files
            to_thread.current_default_thread_limiter().total_tokens = settings.threads
            asyncio.get_running_loop().set_default_executor(
                ThreadPoolExecutor(settings.live_threads, thread_name_prefix="live")
            )
        await asyncio.to_thread(tokens.prepare, store)
        await hub.start()
        try:
            yield
        finally:
            await hub.stop()
            close_reads(store)  # a server's connections, one a worker thread

    app = Starlette(
        routes=routes(),
        middleware=[
            Middleware(Guard),
            Middleware(
                SessionMiddleware,
                secret_key=settings.secret,
                session_cookie="session",
                max_age=SESSION_HOURS * 3600,
                same_site="strict",
                https_only=settings.https,
            ),
        ],
        lifespan=lifespan,
    )
    app.state.store, app.state.live, app.state.settings = store, hub, settings
    # One environment per language, each speaking its own (switching one would race).
    app.state.envs = {lang: render.environment(lang=lang) for lang in LANGS}
    for lang, env in app.state.envs.items():
        env.globals.update(jinja_globals(lang))
    app.state.guesses = RateLimit(settings.guesses)
    app.state.pages = {}
    return app
