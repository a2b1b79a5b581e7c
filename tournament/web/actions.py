"""What the organizer's and the referees' forms share: reading a form safely, running a
service in a worker thread, turning its refusal into one sentence, flash messages."""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import PlainTextResponse, RedirectResponse, Response

from engine.message import Msg, msg
from exports.i18n import say
from tournament.errors import Refused, UserError
from tournament.services.stores import as_user_errors
from tournament.web.security import FLASH_BYTES, csrf_ok, within
from tournament.web.words import lang_of

log = logging.getLogger("tournament.web")

# One writer at a time in this server: the store refuses a concurrent write anyway, but the
# organizer's two tabs should queue, not race.
WRITE = threading.Lock()


async def read_form(request: Request) -> FormData:
    """A posted form (files refused, fields bounded; the body's size is limited before this)."""
    return await request.form(max_files=0, max_fields=64)


def plain(request: Request, status: int, text: Msg) -> Response:
    """A refusal with no page around it (a status and one sentence), in the visitor's language."""
    return PlainTextResponse(say(text, lang_of(request)), status_code=status)


def refusal(
    request: Request, status: int, text: Msg, heading: str = "", hint: str = ""
) -> Response:
    """A refusal as a page of the site (its layout, its words and a way on), for a visitor who
    followed a link: a table's card, a page that is gone."""
    from tournament.web.pages import page

    data = {"message": text, "heading": heading, "hint": hint}
    response = page(request, "missing.html", data, status=status)
    response.reason = text  # type: ignore[attr-defined]  # (what a JSON caller answers)
    return response


async def checked_form(request: Request) -> FormData | Response:
    """The form, or 403 when its CSRF token is not the session's."""
    form = await read_form(request)
    if not csrf_ok(request.session, form.get("csrf")):
        return plain(request, 403, msg("the form is stale or forged (CSRF token): reload the page"))
    return form


async def run(
    request: Request,
    fn: Callable[..., Any],
    *args: Any,
    refresh: bool = True,
    then: Callable[[Any], Any] | None = None,
) -> tuple[bool, Any]:
    """Run a service that writes; (True, result), or (False, one sentence why not); with
    ``then``, (True, (result, then(result))), ``then`` run after the write in the same worker
    thread's turn (#27: the page a move draws), outside the writers' lock.

    A write that meets another terminal's save is made again by the service itself
    (:mod:`tournament.services.retry`), as from the command line: nothing is retried here.
    ``refresh`` brings the read models up to date at once, for a page that reads them next
    (the referee's page does not: the live task refreshes them within its interval).
    """
    locked = writer(request, fn, *args, refresh=refresh, then=then)
    return await run_in_threadpool(written, request, locked)


class Together:
    """This process's writes of one kind that arrive while one is being made: they wait here
    in the event loop (holding no worker thread, which a move needs meanwhile) and are made in
    the next turn all at once, ``write_all(store, items)`` giving each item its result or why
    it was refused (:func:`tournament.services.tables.start_matches`, #27). ``refresh``: the
    read models brought up to date after each turn."""

    LARGEST = 100  # writes made in one transaction at most

    def __init__(
        self, live: Any, write_all: Callable[[Any, list[Any]], list[Any]], refresh: bool = True
    ) -> None:
        self.live, self.write_all, self.refresh = live, write_all, refresh
        self.waiting: list[tuple[Any, asyncio.Future[Any] | None]] = []
        self.making: asyncio.Task[None] | None = None
        self.closed = False
        self._closing = threading.Lock()

    async def make(self, request: Request, item: Any) -> tuple[bool, Any]:
        """(True, the item's result), or (False, one sentence why not), as :func:`run`."""
        done = asyncio.get_running_loop().create_future()
        self._queue(item, done)
        result = await done
        if isinstance(result, UserError):
            return False, refused(request, result)
        return True, result

    def hand(self, loop: asyncio.AbstractEventLoop, item: Any) -> None:
        """Queue ``item`` from any thread, no one waiting for it (raises RuntimeError once
        closed, or the loop is: the caller writes it itself then)."""
        with self._closing:
            if self.closed:
                raise RuntimeError("closed")
            loop.call_soon_threadsafe(self._queue, item, None)

    def close(self) -> None:
        """Take nothing more from :meth:`hand` (what it queued before is made)."""
        with self._closing:
            self.closed = True

    async def settled(self) -> None:
        """Once every write queued is made."""
        while self.making is not None:
            await asyncio.shield(self.making)

    def _queue(self, item: Any, done: asyncio.Future[Any] | None) -> None:
        self.waiting.append((item, done))
        if self.making is None:
            self.making = asyncio.get_running_loop().create_task(self._made())

    async def _made(self) -> None:
        try:
            while self.waiting:
                batch, self.waiting = self.waiting[: self.LARGEST], self.waiting[self.LARGEST :]
                items = [item for item, _ in batch]
                locked = locked_write(
                    self.live, self.write_all, self.live.store, items, refresh=self.refresh
                )
                try:
                    with as_user_errors():
                        results: list[Any] = await run_in_threadpool(locked)
                except UserError as e:  # (the store failed them all: none was stored)
                    results = [e] * len(batch)
                except Exception as e:  # (a bug: every request waiting on it fails with it)
                    log.exception("writes made together failed")
                    _failed(batch, e)
                    continue
                except BaseException as e:  # (cancelled: no request is left waiting)
                    _failed(batch + self.waiting, e)
                    self.waiting = []
                    raise
                for (_, done), result in zip(batch, results, strict=True):
                    if done is not None and not done.done():  # (a visitor gone: it stands)
                        done.set_result(result)
        finally:
            self.making = None


def _failed(batch: list[tuple[Any, asyncio.Future[Any] | None]], e: BaseException) -> None:
    for _, done in batch:
        if done is not None and not done.done():
            done.set_exception(e)


def writer(
    request: Request,
    fn: Callable[..., Any],
    *args: Any,
    refresh: bool = True,
    then: Callable[[Any], Any] | None = None,
) -> Callable[[], Any]:
    """The write :func:`run` makes, to call in a worker thread (see :func:`written`)."""
    return locked_write(request.app.state.live, fn, *args, refresh=refresh, then=then)


def locked_write(
    live: Any,
    fn: Callable[..., Any],
    *args: Any,
    refresh: bool = True,
    then: Callable[[Any], Any] | None = None,
) -> Callable[[], Any]:
    """``fn(*args)`` as this server writes (see :func:`writer`), ``live`` its hub."""
    server = live.store.location.is_server

    def locked() -> Any:
        if server:  # the server coordinates its writers: moves at different tables go side by side
            result = fn(*args)
        else:  # one SQLite file takes one writer at a time: they queue here
            with WRITE, live.lock:
                result = fn(*args)
        if refresh:
            live.refresh()
        if then is None:
            return result
        try:
            return result, then(result)
        except UserError:  # the write stands, said as written: nothing drawn with it
            return result, None

    return locked


def written(request: Request, locked: Callable[[], Any]) -> tuple[bool, Any]:
    """``locked()`` (a write, in a worker thread): (True, what it gave), or (False, one
    sentence why not)."""
    try:
        with as_user_errors():  # the store's libraries' errors, said as the application's
            return True, locked()
    except UserError as e:
        return False, refused(request, e)


def refused(request: Request, e: UserError) -> str:
    """A refusal in the page's language: the services' messages are catalogue messages; any
    other text is shown as it is."""
    why = e.args[0] if e.args else str(e)
    return say(dice_named(why) if isinstance(why, Msg) else str(e), lang_of(request))


def dice_named(why: Msg) -> Msg:
    """A refusal whose die is a kind's id (``vowel``) names the kind in the page's words."""
    from tournament.web.words import DIE_IN_SENTENCE

    die = why.params.get("die")
    if why.plural is not None or not isinstance(die, str) or die not in DIE_IN_SENTENCE:
        return why
    return Msg(why.id, {**why.params, "die": Msg(DIE_IN_SENTENCE[die], {})})


def flash(request: Request, text: str, good: bool = True) -> None:
    """A message for the next page, carried by the session's cookie: bounded, so that the cookie
    stays one a browser keeps (#29)."""
    request.session["flash"] = flashed(text, good)


def flashed(text: str, good: bool = True) -> dict[str, Any]:
    """A page's message as its template shows it (bounded as a cookie carries it)."""
    return {"text": within(text, FLASH_BYTES), "good": good}


def back(request: Request, to: str, text: str, good: bool = True) -> Response:
    flash(request, text, good)
    return RedirectResponse(to, status_code=303)


def ticked(form: FormData) -> list[str]:
    """A partita's games in the order they were ticked (the page's ``order``, kept by its
    script), else in the form's order."""
    games = [g for g in form.getlist("games") if isinstance(g, str)]
    order = [g for g in field(form, "order").split(",") if g]
    return order if sorted(order) == sorted(games) else games


def field(form: FormData, name: str, default: str = "") -> str:
    value = form.get(name, default)
    return value.strip() if isinstance(value, str) else default


def number(form: FormData, name: str, digits: int = 18) -> int:
    """A form's whole number (ASCII digits, an optional minus), of at most ``digits`` digits:
    no position, round or table is longer, and Python reads no more than 4,300 (#29)."""
    text = field(form, name)
    figures = text[1:] if text.startswith("-") else text
    if len(figures) > digits:  # said without the text: it may be thousands of characters long
        raise Refused(
            msg("a number has at most %(digits)s digits (%(name)s)", digits=digits, name=name)
        )
    if not (figures.isascii() and figures.isdigit()):  # "²".isdigit(), and int() refuses it
        raise Refused(msg("%(name)s must be a whole number, not %(text)r", name=name, text=text))
    return int(text)
