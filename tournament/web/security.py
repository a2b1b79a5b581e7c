"""What keeps the organizer's and referees' pages safe: headers, body limits, rate limits,
CSRF tokens, the passphrase and the table tokens' hashes."""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import secrets
import time
from collections import deque
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

MAX_BODY = 64 * 1024  # a form of the organizer's is a few hundred bytes
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; "
    "object-src 'none'"
)
# A flash message rides in the session's cookie, which a browser drops past 4,096 bytes: the
# message is at most this many bytes as the cookie writes it (JSON, then base64 and a signature).
FLASH_BYTES = 1000
LOOK = 1.0  # seconds between two looks at the store's latest failure (a limit heard this late)
ROOM = 20  # the phones of a hall behind one address: its failures count this many times more
PRINT_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"  # exports' sheets
HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    # A table's link is its credential: never send it on to another site.
    (b"referrer-policy", b"no-referrer"),
]


class Guard:
    """ASGI middleware: security headers on every response, and request bodies size-limited
    (by their declared length, and by counting what arrives)."""

    def __init__(self, app: ASGIApp, max_body: int = MAX_BODY) -> None:
        self.app, self.max_body = app, max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_body):
            await _too_large(send)
            return
        received = 0
        started = False

        async def limited() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_body:
                    raise BodyTooLarge
            return message

        async def with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                own = message.get("headers", [])
                names = {k.lower() for k, _ in own}
                message = {**message, "headers": [*own, *(h for h in HEADERS if h[0] not in names)]}
            await send(message)

        try:
            await self.app(scope, limited, with_headers)
        except BodyTooLarge:
            if not started:
                await _too_large(send)


class BodyTooLarge(Exception):
    pass


async def _too_large(send: Send) -> None:
    body = b"the request is too large\n"
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [(b"content-type", b"text/plain; charset=utf-8"), *HEADERS],
        }
    )
    await send({"type": "http.response.body", "body": body})


class RateLimit:
    """At most ``limit`` failures per client in ``window`` seconds (guesses of a passphrase or
    a table's token); past that every attempt of that client is refused until the window
    moves on.

    A client is its session (a browser's cookie) first: every phone on a room's Wi-Fi comes
    from one address, and one referee's old links must not lock out the next table. The
    address is counted too, with room for a hall of phones (``room`` times the limit), so that
    a guesser who drops its cookies is still stopped.

    Given a ``store``, the failures are counted in the store's own table (``web_guesses``:
    :func:`tournament.services.stores.note_guess`), so that every server process over it
    (``serve --workers``, servers on several machines) counts the same guesses (#27); a look is
    one indexed query, made only by a request that could fail (a login, a table's link). Where
    the store cannot keep them (a file opened read-only, a moment of a busy or lost database),
    this process counts alone for a window, then asks the store again.

    Most requests come from phones that never fail: the process remembers when the store's
    latest failure was (any client's), looked at most once every ``look`` seconds and set by
    its own failures at once, and asks for a client's count only while a failure may still be
    in the window (#27). A limit other processes reached may so be heard ``look`` seconds late,
    never later.
    """

    def __init__(
        self,
        limit: int = 5,
        window: float = 60.0,
        room: int = ROOM,
        store: Any = None,
        look: float = LOOK,
    ) -> None:
        self.limit, self.window, self.room, self.store = limit, window, room, store
        self.failures: dict[str, deque[float]] = {}
        self.resting = float("-inf")  # the store is not asked before then (it failed)
        self.look = look
        self.latest = float("-inf")  # the store's latest failure (the clock's seconds)...
        self.looked = float("-inf")  # ... as looked at then (monotonic)

    def _recent(self, client: str) -> deque[float]:
        now = time.monotonic()
        q = self.failures.setdefault(client, deque())
        while q and now - q[0] > self.window:
            q.popleft()
        if not q:  # (a client with nothing recent is forgotten)
            self.failures.pop(client, None)
        return q

    def _keys(self, request: Request, start: bool) -> list[tuple[str, int]]:
        keys = [(f"address {client_of(request)}", self.limit * self.room)]
        session = request.scope.get("session")
        if session is not None:
            if start and "guesser" not in session:
                session["guesser"] = secrets.token_urlsafe(9)
            if "guesser" in session:
                keys.append((f"session {session['guesser']}", self.limit))
        return keys

    async def blocked(self, request: Request) -> bool:
        keys = self._keys(request, False)
        if self._asks():
            if not self._quiet():
                counted = await run_in_threadpool(self._counted, [k for k, _ in keys])
                if counted is not None:
                    return any(counted.get(k, 0) >= most for k, most in keys)
            elif not self.failures:
                return False  # no failure in the store's window, nor counted here
        return any(len(self._recent(k)) >= most for k, most in keys)

    def _quiet(self) -> bool:
        """Whether the store held no failure young enough to count when last looked at (at most
        ``look`` seconds ago): no client's count is asked then."""
        fresh = time.monotonic() - self.looked < self.look
        return fresh and time.time() - self.latest > self.window

    def _counted(self, keys: list[str]) -> dict[str, float] | None:
        """The keys' counts, the store's latest failure looked at first when it is due (one
        worker thread's turn): None when the store cannot say."""
        if time.monotonic() - self.looked >= self.look:
            latest = self._stored("latest", keys)
            if latest is None:
                return None
            stored = latest.get("", float("-inf"))  # (a failure noted meanwhile kept)
            self.latest, self.looked = max(self.latest, stored), time.monotonic()
            if time.time() - self.latest > self.window:
                return {}  # none in the window: no count to ask
        return self._stored("count", keys)

    async def failed(self, request: Request) -> None:
        keys = [k for k, _ in self._keys(request, True)]
        self.latest = time.time()  # this process's own failure: counts are asked from now on
        if self._asks():
            if await run_in_threadpool(self._stored, "note", keys) is not None:
                return
        for key in keys:
            self._recent(key)
            self.failures.setdefault(key, deque()).append(time.monotonic())

    def _asks(self) -> bool:
        """Whether the store is asked (given one, and it did not fail in the last window)."""
        return self.store is not None and time.monotonic() >= self.resting

    def _stored(self, what: str, keys: list[str]) -> dict[str, float] | None:
        """The store's count of each key's recent failures (``note``: one more each; ``latest``:
        the latest failure of any, under ""); None
        when the store cannot keep them (then this process counts: said once)."""
        from tournament.services import stores

        try:
            with stores.as_user_errors():
                if what == "note":
                    stores.note_guess(self.store, keys, time.time(), self.window)
                    return {}
                if what == "latest":
                    latest = stores.latest_guess(self.store)
                    return {} if latest is None else {"": latest}
                return stores.count_guesses(self.store, keys, time.time() - self.window)
        except Exception as e:  # noqa: BLE001 - guesses are still counted, in this process
            logging.getLogger("tournament.web").warning(
                "wrong guesses are counted in this process only for %d s (the store cannot "
                "keep them): %s", self.window, e,
            )  # fmt: skip
            self.resting = time.monotonic() + self.window
            return None


def within(text: str, most: int) -> str:
    """``text`` cut with an ellipsis to at most ``most`` bytes as JSON writes it (a character
    outside ASCII is a 6- or 12-byte escape there).

    >>> within("Giallo", 10)
    'Giallo'
    >>> within("x" * 20, 10)
    'xxxx…'
    """
    if len(json.dumps(text)) - 2 <= most:  # (one encoding: a move's flash fits, #27)
        return text
    sizes = [len(json.dumps(c)) - 2 for c in text]
    room, end = most - len(json.dumps("…")) + 2, 0
    while end < len(text) and sizes[end] <= room:
        room -= sizes[end]
        end += 1
    return text[:end] + "…"


def client_of(request: Request) -> str:
    return request.client.host if request.client else "?"


def csrf_token(session: dict[str, Any]) -> str:
    """The session's CSRF token, made on first use."""
    if "csrf" not in session:
        session["csrf"] = secrets.token_urlsafe(32)
    return str(session["csrf"])


def csrf_ok(session: dict[str, Any], given: Any) -> bool:
    expected = session.get("csrf")
    if not isinstance(expected, str) or not isinstance(given, str):
        return False
    return hmac.compare_digest(expected.encode(), given.encode())


def same_passphrase(expected: str, given: Any) -> bool:
    return isinstance(given, str) and hmac.compare_digest(
        hashlib.sha256(expected.encode()).digest(), hashlib.sha256(given.encode()).digest()
    )


def new_token() -> str:
    """A table's private key: 128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()
