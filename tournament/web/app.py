"""The ASGI app: routes in one ordered table, each page gathered once and rendered last.

A public page renders HTML with a ``Link: rel="alternate"`` to its JSON twin under ``/api/``;
errors on the JSON path are JSON too. Pages are rendered with the exports' Jinja environment
(templates in ``exports/templates/web/``), Italian by default, English by a switch.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import jinja2
from anyio import to_thread
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.sessions import SessionMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import Receive, Scope, Send

from exports import render
from exports.i18n import N_, translator
from tournament.readside import kept
from tournament.services import stored, stores
from tournament.services.stores import Location, Store, as_user_errors, close_reads
from tournament.web import trims, views
from tournament.web.actions import Together
from tournament.web.live import Live
from tournament.web.pages import COMPILED, QuickTemplate, warm
from tournament.web.security import Guard, RateLimit
from tournament.web.shelf import Compressed, Shape, Shelf, public, shown
from tournament.web.sinks import Outermost
from tournament.web.words import LANGS, jinja_globals, lang_of

STATIC = Path(__file__).parent / "static"
SESSION_HOURS = 12
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
    # What sessions and CSRF tokens are signed with (None: the store's own, shared by every
    # process serving it: services.stores.shared_secret).
    secret: str | None = None
    interval: float = 0.1  # how often the live task looks at a file, in seconds
    # On a server the database wakes it (LISTEN/NOTIFY); it looks anyway this often, in seconds.
    safety: float = 1.0
    guesses: int = 5  # failed passphrase or token guesses a client may make a minute
    https: bool = False  # cookies marked Secure (behind a TLS proxy)
    # Bounds within the open-file limit (serve works them out; None: no bound): live streams
    # held at once (past them, 503 with Retry-After), and threads gathering pages.
    streams: int | None = None
    threads: int | None = None
    live_threads: int = 4  # the live task's threads then (its polls, refreshes, replays)
    public_url: str | None = None  # where the room reaches the server (the cards' links)


def _quoted(name: str) -> str:
    return quote(name, safe="")


PAGES = {
    "now": public(
        "now.html",
        lambda st: views.now(st.store),
        lambda r: "/api",
        # a big round trimmed, kept across the moves it does not show (#27)
        shape=Shape(trims.now_variant, trims.now_shown, trims.now_part, trims.now_stamp),
    ),
    "standings": public(
        "standings.html",
        lambda st: views.standings(st.store),
        lambda r: "/api/standings",
        stamp=shown(views.standings_stamp),  # what it shows, not the store's position (#27)
        shape=Shape(trims.standings_variant, trims.standings_shown, trims.standings_part),
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
        # What the page verifies, read each time: that match's stored rows (#27).
        stamp=lambda st, params: views.match_stamp(st.store, params["number"]),
    ),
    "player": public(
        "player.html",
        lambda st, name: views.player(st.store, name, st.settings.season),
        lambda r: f"/api/players/{_quoted(r.path_params['name'])}",
        # A season's chart reads files beside the store: no position stands for them.
        stands=lambda r: not r.app.state.settings.season,
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

    # Written by the hub, encoded once for every stream (#27); a server stopping ends each
    # stream cleanly, its response complete (hub.closing).
    return hub.respond(after)


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


STATIC_SECONDS = 3600  # how long a browser keeps a static file before asking again (ETag)


class Static(StaticFiles):
    """The static files, with a lifetime (they change only with the program)."""

    def file_response(self, *args: Any, **kwargs: Any) -> Response:
        response = super().file_response(*args, **kwargs)
        response.headers["Cache-Control"] = f"public, max-age={STATIC_SECONDS}"
        return response


async def favicon(request: Request) -> Response:
    """``/favicon.ico``: the icon every browser asks for (an SVG, kept a day)."""
    return Response((STATIC / "favicon.svg").read_bytes(), media_type="image/svg+xml",
                    headers={"Cache-Control": "public, max-age=86400"})  # fmt: skip


def routes() -> list[BaseRoute]:
    """Every route, in one ordered table (a table's phone's first, then the JSON twins, then the
    pages)."""
    from tournament.web import checkin, offline, organizer, referee, screen

    table: list[BaseRoute] = [
        # A table's phone first: its move is the request a server answers most (#27: each
        # route asked before it costs every move); /table/sw.js before the tables' links.
        *offline.routes(),
        *referee.routes(),
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
        *screen.routes(),
        Route("/favicon.ico", favicon),
        Mount("/static", Static(directory=STATIC), name="static"),
    ]
    return table


SETTINGS_ENV = "TOURNAMENT_SERVE_SETTINGS"  # serve --workers: the file of each process's settings


def settings_text(settings: Settings, db: str) -> str:
    """The settings a worker process rebuilds its app from (see :func:`from_environment`),
    with ``db`` as ``--db`` named it."""
    fields = {k: getattr(settings, k) for k in Settings.__dataclass_fields__}
    fields["db"] = db
    fields["season"] = str(settings.season) if settings.season else None
    return json.dumps(fields)


def from_environment() -> Starlette:
    """The app of one of ``serve --workers``' processes, from the settings the serving
    process wrote in the file the environment names (readable by its owner only: the
    passphrase and the store's URL are never in the workers' environment)."""
    fields = json.loads(Path(os.environ[SETTINGS_ENV]).read_text(encoding="utf-8"))
    fields["db"] = stores.locate(fields["db"])
    fields["season"] = Path(fields["season"]) if fields["season"] else None
    return create_app(Settings(**fields))


def signing_secret(store: Store) -> str:
    """The store's signing secret; where it cannot be read or kept (a read-only file, a server
    away), this process's own, and sessions then hold in this process only."""
    try:
        with as_user_errors():
            return stores.shared_secret(store)
    except Exception as e:  # noqa: BLE001 - the server still serves, one process alone
        logging.getLogger("tournament.web").warning(
            "sessions are this process's own (the store's secret cannot be kept): %s", e
        )
        return secrets.token_urlsafe(32)


def fast_getattr(env: jinja2.Environment) -> None:
    """``env``'s ``a.b`` on a plain dict looks its key up at once, as Jinja does once the
    attribute is not found (a dict's own methods, ``pts.items``, still win): a page reads
    hundreds (#27: Jinja's way raises and catches an AttributeError for each)."""
    undefined, slow = env.undefined, env.getattr
    own = frozenset(dir(dict))  # (a set's look-up, not hasattr's, each of a page's reads)

    def getattr_(obj: Any, attribute: str) -> Any:
        if type(obj) is dict and attribute not in own:
            try:
                return obj[attribute]
            except KeyError:
                return undefined(obj=obj, name=attribute)
        return slow(obj, attribute)

    env.getattr = getattr_  # type: ignore[method-assign]


def flat_globals(env: jinja2.Environment) -> None:
    """``env``'s templates read its globals from one plain dict, made when each is loaded
    (#27: Jinja's ChainMap of a template's globals over the environment's is copied key by key
    into every render's context, a tenth of a table page's drawing). The web's environments
    take their globals once, before any template is loaded, as Jinja asks of them."""

    def make_globals(d: Any = None) -> dict[str, Any]:
        return {**env.globals, **(d or {})}

    env.make_globals = make_globals  # type: ignore[method-assign]


def later_heads(store: Store, hub: Live) -> Together:
    """A finished match's head kept in the tournament after the move's answer, the heads of
    the matches ending at once in one save (:func:`tournament.services.stored.heads_later`)."""
    loop = asyncio.get_running_loop()

    def record(s: Store, items: list[stored.Head]) -> list[None]:
        stored.record_heads(s, items)
        return [None] * len(items)

    heads = Together(hub, record, refresh=False)

    def hand(head: stored.Head) -> None:
        try:
            heads.hand(loop, head)
        except RuntimeError:  # (the server stopping: this thread records it)
            stored.record_heads(store, [head])

    stored.heads_later(store, hand)
    return heads


async def heads_recorded(store: Store, heads: Together) -> None:
    """Every head handed on recorded before the server's connections close (one handed from
    now on is recorded by its own thread)."""
    stored.heads_later(store, None)
    heads.close()
    await asyncio.sleep(0)  # (the heads handed just before: queued by now)
    try:
        await heads.settled()
    except Exception:  # (said where it failed: the server stops all the same)
        logging.getLogger("tournament.web").warning("a finished match's head was not recorded")


def create_app(settings: Settings, store: Store | None = None) -> Starlette:
    """The app over one database; the live task starts and stops with it."""
    store = store or Store(settings.db)
    kept.keep(store)  # the tournament and the matches' replays kept between requests (#27)
    hub = Live(store, settings.interval, settings.streams, settings.safety)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        from tournament.web import tokens

        if settings.threads is not None:  # each thread holds its own connections' files
            to_thread.current_default_thread_limiter().total_tokens = settings.threads
            asyncio.get_running_loop().set_default_executor(
                ThreadPoolExecutor(settings.live_threads, thread_name_prefix="live")
            )
        await asyncio.to_thread(tokens.prepare, store)
        await asyncio.to_thread(warm, app.state.envs)  # (not on the first phones' requests, #27)
        await hub.start()
        heads = later_heads(store, hub)
        try:
            yield
        finally:
            await heads_recorded(store, heads)
            await hub.stop()
            close_reads(store)  # a server's connections, one a worker thread
            stores.close_turn(store)  # and the writers' lock (PostgreSQL)

    secret = settings.secret or signing_secret(store)
    app = Starlette(
        routes=routes(),
        middleware=[
            Middleware(Outermost),  # (the live stream's messages written past the others)
            Middleware(Guard),
            # Pages and their JSON compressed (the event stream is not: Starlette leaves
            # text/event-stream alone, and a proxy must not buffer it either).
            Middleware(Compressed, minimum_size=1000, compresslevel=5),
            Middleware(
                SessionMiddleware,
                secret_key=secret,
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
        env.auto_reload = False  # (the templates change only with the program: never stat'ed, #27)
        env.bytecode_cache = COMPILED  # (compiled once a process, for every environment)
        fast_getattr(env)
        flat_globals(env)
        env.template_class = QuickTemplate  # (before any template is loaded)
    app.state.guesses = RateLimit(settings.guesses, store=store)  # counted in the store
    # The public pages kept, rendered and compressed once for what they stand on (#27), and
    # the data each gathered (shared by both languages and the JSON twin).
    app.state.shelf, app.state.pages = Shelf(), {}
    return app
