"""The public pages a server keeps, each rendered once for what it stands on and kept with its
compressed body (#27).

A public page (``/``, ``/standings``, a round, a match, the room's screen, their JSON twins) is
the same for every visitor of one language until the store moves on: it is rendered once a
position, gzipped once (not again for every phone that asks), and answered from here until
the position (or, for a match's page, that match's stored rows) is another. Its ETag names
what it stands on, so a browser that holds it is answered 304 without a body at all.
"""

from __future__ import annotations

import gzip
import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from typing import Any

import orjson

try:  # ISA-L's gzip, several times quicker than zlib's at the same sizes (#27)
    from isal import igzip
except ImportError:  # pragma: no cover - a platform without its wheel: zlib's
    igzip = None  # type: ignore[assignment]
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import Headers
from starlette.middleware.gzip import GZipResponder
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send

from tournament.readside import queries
from tournament.web.pages import page
from tournament.web.views import NotFound
from tournament.web.words import lang_of

SIZE = 256  # pages kept (each language and each JSON twin is a page of its own)
BYTES = 64 * 2**20  # and at most this much of them (a festival's whole standings is 700 KB)
SMALLEST = 1000  # bytes: a smaller body is sent as it is (as GZipMiddleware's minimum_size)
LEVEL = 6  # gzip's level: compressed once a position, so a better ratio costs nothing later...
BIG = 64 * 1024  # ...but a body past this many bytes is compressed at the fastest level


@dataclass(frozen=True)
class Kept:
    """A page as it stands on ``stamp``: its body, gzipped (None: too small to be worth it)."""

    stamp: Hashable
    tag: str  # the ETag ("": none)
    body: bytes
    gzipped: bytes | None
    media_type: str
    headers: tuple[tuple[str, str], ...]


class Shelf:
    """The pages kept by one server, the oldest dropped past :data:`SIZE`."""

    def __init__(self, size: int = SIZE, most: int = BYTES) -> None:
        self.size, self.most, self.bytes = size, most, 0
        self.pages: OrderedDict[Hashable, Kept] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: Hashable, stamp: Hashable) -> Kept | None:
        """The page kept under ``key``, if it stands on ``stamp``."""
        with self.lock:
            hit = self.pages.get(key)
            if hit is None or hit.stamp != stamp:
                return None
            self.pages.move_to_end(key)
            return hit

    def put(
        self,
        key: Hashable,
        stamp: Hashable,
        tag: str,
        body: bytes,
        media_type: str,
        headers: dict[str, str] | None = None,
    ) -> Kept:
        """Keep a page rendered on ``stamp`` (compressed here, once)."""
        gzipped = compressed(body) if len(body) >= SMALLEST else None
        kept = Kept(stamp, tag, body, gzipped, media_type, tuple((headers or {}).items()))
        with self.lock:
            old = self.pages.pop(key, None)
            self.bytes += _size(kept) - (_size(old) if old else 0)
            self.pages[key] = kept
            while len(self.pages) > 1 and (len(self.pages) > self.size or self.bytes > self.most):
                self.bytes -= _size(self.pages.popitem(last=False)[1])
        return kept

    def clear(self) -> None:
        with self.lock:
            self.pages.clear()
            self.bytes = 0


def compressed(body: bytes) -> bytes:
    """A body gzipped: at :data:`LEVEL`, or past :data:`BIG` bytes at the fastest level, by
    ISA-L where it is installed (a festival's 590 KB of standings' JSON: 1 ms and 59 KB, where
    level 6 took 12.6 ms for 46 KB and zlib's fastest 3.8 ms for 60 KB, #27); the same gzip
    format either way."""
    if len(body) < BIG:
        return gzip.compress(body, LEVEL, mtime=0)
    if igzip is not None:
        return igzip.compress(body, 1, mtime=0)  # type: ignore[no-any-return]
    return gzip.compress(body, 1, mtime=0)


def _size(kept: Kept) -> int:
    return len(kept.body) + len(kept.gzipped or b"")


def accepts_gzip(headers: Mapping[str, str]) -> bool:
    """Whether the client takes a gzipped body (``Accept-Encoding``, ``q=0`` refusing it)."""
    for part in headers.get("accept-encoding", "").split(","):
        coding, _, params = part.strip().partition(";")
        if coding.strip().lower() in ("gzip", "*"):
            quality = params.strip().replace(" ", "")
            return quality not in ("q=0", "q=0.0", "q=0.00", "q=0.000")
    return False


def quickly(body: bytes) -> bytes:
    """A body gzipped at the fastest level, by ISA-L where it is installed (a table's page
    with a move's answer, 5.5 KB: 36 us for 1,657 bytes, where zlib's level 5 took 128 us for
    1,588, #27), drawn once and sent once."""
    if igzip is not None:
        return igzip.compress(body, 1, mtime=0)  # type: ignore[no-any-return]
    return gzip.compress(body, 1, mtime=0)


class _Responder(GZipResponder):
    """Starlette's gzip of a response, a body sent in one piece compressed by :func:`quickly`
    (a stream's pieces as Starlette compresses them)."""

    def _compress_body(self, body: bytes, more_body: bool) -> bytes:
        if not more_body and self._compressor is None:  # (the whole body, in one piece)
            return quickly(body)
        return super()._compress_body(body, more_body)


class Compressed:
    """Starlette's GZipMiddleware for the responses not kept here (the organizer's pages, a
    move's answer...), for a client that takes gzip: ``gzip;q=0`` is a refusal (the middleware
    reads only whether the word is there), and a kept page already carries its encoding, left
    as it is."""

    def __init__(self, app: ASGIApp, minimum_size: int = SMALLEST, compresslevel: int = 5) -> None:
        self.app, self.minimum_size, self.level = app, minimum_size, compresslevel

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and accepts_gzip(Headers(scope=scope)):
            gzipped = _Responder(self.app, self.minimum_size, compresslevel=self.level)
            await gzipped(scope, receive, send)
        else:
            await self.app(scope, receive, send)


def revalidated(tag: str) -> dict[str, str]:
    """A public page's headers: kept by the browser, asked again each time with its ETag (what
    the page stands on: 304 while nothing moved); its words follow the language cookie, its
    bytes the encoding asked for."""
    if not tag:
        return {"Cache-Control": "no-store"}
    return {"ETag": tag, "Cache-Control": "no-cache", "Vary": "Accept-Encoding, Cookie"}


def unchanged(request: Request, tag: str) -> Response | None:
    """304 when the client already holds the page tagged ``tag``."""
    if tag and tag in request.headers.get("if-none-match", ""):
        return Response(status_code=304, headers=revalidated(tag))
    return None


def respond(request: Request, kept: Kept) -> Response:
    """The kept page, gzipped when the client takes it (the same bytes every time)."""
    headers = {**dict(kept.headers), **revalidated(kept.tag)}
    if kept.gzipped is not None and accepts_gzip(request.headers):
        headers["Content-Encoding"] = "gzip"
        return Response(kept.gzipped, media_type=kept.media_type, headers=headers)
    return Response(kept.body, media_type=kept.media_type, headers=headers)


Gather = Callable[..., dict[str, Any]]
Stamp = Callable[[Any, dict[str, Any]], Hashable | None]


@dataclass(frozen=True)
class Shape:
    """How a page's HTML shows its gathered data, by its query: ``variant`` reads what the query
    asks (cheap, before anything is gathered: it is part of the page's key and tag), ``data``
    makes the template's data of the gathered data for it (the JSON twin is always whole);
    ``part`` gives, for a variant that shows only part of it, what gathers that part on its
    own (a festival's standings on a phone: the top rows, not a thousand, #27; None: the
    whole, shared with the JSON twin); ``stamp`` what the page of a variant stands on when it
    shows less than the page's own stamp covers (asked with the server's state and the
    variant; None: the page's own), so that it stays kept across the moves it does not show
    (a festival's home page on a phone and a move at a table further down, #27)."""

    variant: Callable[[Request], Hashable]
    data: Callable[[dict[str, Any], Any], dict[str, Any]]
    part: Callable[[Any], Gather | None] = lambda variant: None
    stamp: Callable[[Any, Any], Hashable | None] = lambda state, variant: None


WHOLE = Shape(lambda request: (), lambda gathered, variant: gathered)


def position(state: Any) -> tuple[int, int]:
    """Where the store and the read models stand (read models that lag the store are brought
    up first: one thread does it, the others find them current)."""
    version = queries.positions(state.store)
    if version[1] < version[0]:
        state.live.refresh()
        version = queries.positions(state.store)
    return version


def shown(what: Callable[[Any], Hashable | None]) -> Stamp:
    """A page's stamp of what it shows, ``what(store)``, asked once the read models hold every
    stored event (:func:`position`): a page that stands on it is kept across the moves it
    does not show, and drawn again after the first that it shows, whichever process stored it."""

    def stamp(state: Any, params: dict[str, Any]) -> Hashable | None:
        position(state)
        return what(state.store)

    return stamp


def etag(stamp: Hashable, kind: str, variant: Hashable = ()) -> str:
    """A weak ETag naming what a page stands on: the store's position (``W/"12.12.it"``), or a
    digest of a match's stored rows; a variant of the page (its query) adds its own digest."""
    if isinstance(stamp, tuple) and all(isinstance(v, int) for v in stamp):
        label = ".".join(map(str, stamp))
    else:
        label = hashlib.blake2b(repr(stamp).encode(), digest_size=12).hexdigest()
    if variant != ():
        kind += "." + hashlib.blake2b(repr(variant).encode(), digest_size=6).hexdigest()
    return f'W/"{label}.{kind}"'


def public(
    template: str,
    gather: Gather,
    api: Callable[[Request], str],
    stamp: Stamp | None = None,
    shape: Shape = WHOLE,
    stands: Callable[[Request], bool] = lambda request: True,
) -> tuple[Callable[..., Any], Callable[..., Any]]:
    """A public page and its JSON twin, from one function that gathers the page's data.

    Both are kept on the server's :class:`Shelf` for what they stand on: by default the store's
    position (:func:`position`); ``stamp`` gives another (a match's page: that match's stored
    rows, which it verifies, so a change made behind the program's back is seen at once; None:
    nothing to stand on, gathered each time). ``stands`` False: a request that must be gathered
    every time (a season's chart reads files beside the store).
    """

    def stamp_of(state: Any, request: Request, variant: Any = None) -> Hashable | None:
        if not stands(request):
            return None
        if variant is not None and (own := shape.stamp(state, variant)) is not None:
            return own
        if stamp is not None:
            return stamp(state, dict(request.path_params))
        return position(state)

    def gathered(
        state: Any, params: dict[str, Any], at: Hashable | None, part: Gather | None = None
    ) -> dict[str, Any]:
        # A page's data stands with what it stands on: one look at that spares the gathering,
        # shared by the page in either language, its variants and its JSON twin (a part, by
        # the variants that show it).
        fn = part or gather
        if at is None:
            return fn(state, **params)
        key = (template, tuple(sorted(params.items())), part)
        with state.shelf.lock:
            hit = state.pages.get(key)
        if hit is not None and hit[0] == at:
            return hit[1]  # type: ignore[no-any-return]
        value = fn(state, **params)
        with state.shelf.lock:
            state.pages[key] = (at, value)
            while len(state.pages) > SIZE:
                state.pages.pop(next(iter(state.pages)))
        return value

    def link(request: Request) -> dict[str, str]:
        return {"Link": f'<{api(request)}>; rel="alternate"; type="application/json"'}

    def rendered(request: Request, at: Hashable, key: Hashable, tag: str, variant: Any) -> Kept:
        # Gathered, rendered and compressed in one worker thread: the event loop keeps the
        # live streams flowing.
        state = request.app.state
        data = gathered(state, dict(request.path_params), at, shape.part(variant))
        shown = shape.data(data, variant)
        body = page(request, template, shown, api(request)).body
        return state.shelf.put(key, at, tag, body, "text/html", link(request))  # type: ignore[no-any-return]

    async def html(request: Request) -> Response:
        state = request.app.state
        try:
            lang, variant = lang_of(request), shape.variant(request)
            at = await run_in_threadpool(stamp_of, state, request, variant)
            if at is None:
                data = await run_in_threadpool(gathered, state, dict(request.path_params), None)
                shown = shape.data(data, variant)
                return await run_in_threadpool(page, request, template, shown, api(request))
            if variant[:1] == ("player",):  # a name typed (any text): drawn, not kept
                data = await run_in_threadpool(gathered, state, dict(request.path_params), at)
                shown = shape.data(data, variant)
                return await run_in_threadpool(page, request, template, shown, api(request))
            tag = etag(at, lang, variant)
            if (same := unchanged(request, tag)) is not None:
                return same
            key = (template, request.url.path, variant, lang)
            kept = state.shelf.get(key, at)
            if kept is None:
                kept = await run_in_threadpool(rendered, request, at, key, tag, variant)
            return respond(request, kept)
        except NotFound as e:
            return page(request, "missing.html", {"message": e.args[0]}, status=404)

    def encoded(state: Any, params: dict[str, Any], at: Hashable, key: Hashable, tag: str) -> Kept:
        body = encoded_json(_shown(gathered(state, params, at)))
        return state.shelf.put(key, at, tag, body, "application/json")  # type: ignore[no-any-return]

    async def as_json(request: Request) -> Response:
        state = request.app.state
        params = dict(request.path_params)
        try:
            at = await run_in_threadpool(stamp_of, state, request)
            if at is None:
                data = await run_in_threadpool(gathered, state, params, None)
                return JSONResponse(_shown(data), headers={"Cache-Control": "no-store"})
            tag = etag(at, "json")
            if (same := unchanged(request, tag)) is not None:
                return same
            key = (template, request.url.path, "json")
            kept = state.shelf.get(key, at)
            if kept is None:
                kept = await run_in_threadpool(encoded, state, params, at, key, tag)
            return respond(request, kept)
        except NotFound as e:
            return JSONResponse({"error": str(e)}, status_code=404)

    return html, as_json


def encoded_json(data: dict[str, Any]) -> bytes:
    """A JSON twin's body, compact UTF-8 as Starlette's JSONResponse writes it, by orjson
    (a festival's standings: 1.5 ms where the standard library took 18, #27); what orjson
    does not take (a number past 64 bits) the standard way."""
    try:
        return orjson.dumps(_fragments(data), option=orjson.OPT_NON_STR_KEYS)
    except TypeError:
        return bytes(JSONResponse(data).body)


FRAGMENTS = 64  # lists of rows whose encoding is kept
_encoded: OrderedDict[int, tuple[Any, orjson.Fragment]] = OrderedDict()
_encoded_lock = threading.Lock()


def _fragments(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` with each list of rows a server shares (:class:`queries.Shared`, never
    changed) as the JSON it encodes to, encoded once a list (the standings' thousand rows
    stand until a match ends: the JSON twin afresh encodes the rest alone, #27)."""
    return {k: _fragment(v) if isinstance(v, queries.Shared) else v for k, v in data.items()}


def _fragment(rows: queries.Shared) -> orjson.Fragment:
    with _encoded_lock:
        hit = _encoded.get(id(rows))
        if hit is not None and hit[0] is rows:  # (the list itself is kept: its id not reused)
            _encoded.move_to_end(id(rows))
            return hit[1]
    fragment = orjson.Fragment(orjson.dumps(rows, option=orjson.OPT_NON_STR_KEYS))
    with _encoded_lock:
        _encoded[id(rows)] = (rows, fragment)
        while len(_encoded) > FRAGMENTS:
            _encoded.popitem(last=False)
    return fragment


def _shown(gathered: dict[str, Any]) -> dict[str, Any]:
    """What the JSON twin shows: the page's data but the keys for the page alone (``_...``)."""
    return {k: v for k, v in gathered.items() if not k.startswith("_")}
