"""``/table/TOKEN``: a table's private referee page, opened from the QR code on its card.

The link opens its table only, until its round closes (see :mod:`tournament.web.tokens`). The
page shows the state, who acts and what the engine allows, and records through the same services
as the CLI. A form carries the position it was drawn at: when
the match moved on meanwhile (a second phone at the table), nothing is stored and the page is
drawn again.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from engine.message import msg
from engine.notation import format as notation
from exports.i18n import say
from tournament.domain.views import paired
from tournament.errors import Refused
from tournament.readside import ahead
from tournament.services import matches, play, referees, tables
from tournament.services.matches import Loaded, parsed
from tournament.services.stores import Store
from tournament.web import views
from tournament.web.actions import (
    Together,
    back,
    checked_form,
    field,
    number,
    plain,
    read_form,
    refusal,
    refused,
    ticked,
    writer,
    written,
)
from tournament.web.security import csrf_ok, token_hash
from tournament.web.tableview import kept_of, log_html, table_view, worded
from tournament.web.tokens import find
from tournament.web.words import lang_of, page_words

LETTER_DICE = ("consonant", "vowel")
DIGITS = 18  # the longest number a table's form holds (Python reads no more than 4,300, #29)
# The fields that hold numbers, or a move typed in the notation (which reads its numbers).
NUMERIC = ("position", "on", "values", "dice", "value", "die", "text", "expr", "target")
_TOO_LONG = re.compile(rf"\d{{{DIGITS + 1},}}")


# --- recording -------------------------------------------------------------------------------


def _value(text: str) -> int | str:
    # ASCII digits only: "²".isdigit() is True, and int() refuses it (the engine judges "²")
    return int(text) if text.isascii() and text.isdigit() else text.upper()


def bounded(form: FormData) -> None:
    """Refuse a form whose number is longer than any the table holds, in one sentence of ours
    (Python's own reading of a 5,000-digit number says something else, in English)."""
    for name in NUMERIC:
        if _TOO_LONG.search(field(form, name)):
            raise Refused(
                msg("a number has at most %(digits)s digits (%(name)s)", digits=DIGITS, name=name)
            )


def _split(text: str) -> list[str]:
    return [x for x in re.split(r"[\s,;]+", text) if x]


_SINGLE_DIGIT_DIE = re.compile(r"d[1-9]")  # d4, d6, d8: every face one digit


def _faces(die: str, text: str) -> list[str]:
    """The faces typed for ``die``: ``6651`` is 6 6 5 1 for a die whose faces are single digits
    (a phone's numeric keypad has no space or comma); anything else is split as written."""
    values = _split(text)
    if _SINGLE_DIGIT_DIE.fullmatch(die) and len(values) == 1 and values[0].isascii():
        if values[0].isdigit():
            return list(values[0])
    return values


def event_from_form(kind: str, by: str, form: FormData) -> dict[str, Any]:
    """The event a referee's form describes (the engine judges it when it is recorded)."""
    e: dict[str, Any] = {"type": kind, "by": by}
    if kind == "roll":
        e["die"] = field(form, "die")
        e["values"] = [_value(v) for v in _faces(e["die"], field(form, "values"))]
    elif kind in ("choose", "bet"):
        value = field(form, "value")
        e["value" if kind == "choose" else "call"] = _value(value) if kind == "choose" else value
    elif kind == "word":
        e["word"] = field(form, "word")
        if field(form, "jolly"):
            e["jolly"] = field(form, "jolly")
    elif kind == "chain":
        e["words"] = [w for item in _split(field(form, "words")) for w in item.split("-") if w]
    elif kind == "expression":
        e["expr"] = field(form, "expr")
        if field(form, "target"):
            e["target"] = field(form, "target")
    elif kind == "reroll":
        e["dice"] = [_value(v) for v in _split(field(form, "dice"))]
        e["values"] = [_value(v) for v in _split(field(form, "values"))]
    elif kind == "card":
        e = {"type": kind, "to": field(form, "to") or by, "card": field(form, "card")}
    elif kind == "start":
        e = {"type": kind, "by": "referee", "player": field(form, "player")}
    elif kind == "guess":
        e.update(target=field(form, "target"), word=field(form, "word"))
    elif kind == "answer":
        e["right"] = field(form, "value") == "right"
    elif kind == "reveal":
        e.update(word=field(form, "word"), salt=field(form, "salt"))
    elif kind == "hint":
        e["letter"] = field(form, "letter")
    elif kind not in ("doubt", "pass", "timeout", "stand", "void"):
        raise Refused(msg("the table's page does not record %(kind)r events", kind=kind))
    return e


def record_at(
    store: Store, number_: str, event: dict[str, Any], expected: int, lexicon: str | None
) -> tuple[Loaded, list[Any]]:
    """Record a form's move through the notation service, as the CLI and the console do: if
    the match is no longer at ``expected`` (another phone at the table), nothing is stored."""
    return play.record_move(store, number_, notation(parsed(event)), lexicon, expected)


# --- the page (gathered in tournament.web.tableview) ---------------------------------------------


OPENED = 8  # the table links a phone's session remembers having opened


Then = Callable[[tuple[int, int], Any], Any]  # (the table, the tournament read with it)


def _looked_up(
    store: Store, token: str, then: Then | None = None
) -> tuple[tuple[int, int], bool, Any] | None:
    """A token's round and table, whether that round is closed (None: no table's token), and
    what ``then`` makes of an open table and the tournament read for it; in one worker
    thread's turn (#27: every request of a table asks, the tournament read once). The link is
    taken as found before while nobody printed cards since, for a write too
    (:func:`tournament.services.stores.find_link`): a move made with a link a moment before
    its reprint was heard is one made a moment before the reprint."""
    found = find(store, token, fresh=False)
    if found is None:
        return None
    # (as last looked at while nobody else wrote since: a write asks again in its turn, #27)
    t = views.current_tournament(store, heard_ok=True)
    closed = paired(t, found[0]).closed
    return found, closed, None if closed or then is None else then(found, t)


async def _table_of(request: Request) -> tuple[int, int] | Response:
    """The token's round and table, or the refusal as a page (see :func:`_opened`)."""
    opened = await _opened(request)
    return opened if isinstance(opened, Response) else opened[0]


async def _opened(
    request: Request, then: Then | None = None
) -> tuple[tuple[int, int], Any] | Response:
    """The token's round and table, or the refusal as a page (unknown tokens count as guesses,
    per session and per address: see :class:`tournament.web.security.RateLimit`), and what
    ``then`` made of the table in the same worker thread's turn as its lookup (the page, see
    :func:`_looked_up`).

    A session remembers the tables it opened (by a part of the link's hash): a link that
    opened this phone's table before and is unknown now was replaced by new cards, and says so
    instead of counting as a guess.
    """

    guesses = request.app.state.guesses
    words = page_words(lang_of(request))
    if await guesses.blocked(request):
        return refusal(request, 429, msg("too many wrong table links: wait a minute"))
    store = request.app.state.store
    token = request.path_params["token"]
    looked = (await run_in_threadpool(_looked_up, store, token, then)
              if len(token) < 64 else None)  # fmt: skip
    found, closed, made = looked if looked is not None else (None, False, None)
    opened = dict(request.session.get("opened") or {})
    key = token_hash(token)[:16]
    if found is None:
        if key in opened:
            rnd, tbl = opened[key]
            text = msg("new table cards were printed: this link of table %(table)s no longer "
                       "opens it", table=tbl)  # fmt: skip
            hint = words["new_card"].format(n=tbl, round=rnd)
            return refusal(request, 410, text, words["reprinted"], hint)
        await guesses.failed(request)
        return refusal(request, 404, msg("this table link is not known"), words["unknown_link"],
                       words["scan_again"])  # fmt: skip
    if opened.get(key) != list(found):
        opened[key] = list(found)
        request.session["opened"] = dict(list(opened.items())[-OPENED:])
    if closed:
        return refusal(
            request,
            403,
            msg("this table link has expired: round %(round)s is closed", round=found[0]),
            words["expired"],
        )
    return found, made


async def table_page(request: Request) -> Response:
    def draw(found: tuple[int, int], t: Any) -> Response:  # (the link opens its table: shown)
        flash, salt, typed = (request.session.pop(k, None) for k in ("flash", "salt", "typed"))
        return drawn(request, found, flash, salt, typed, t=t)

    opened = await _opened(request, draw)  # (looked up and drawn in one thread's turn, #27)
    return opened if isinstance(opened, Response) else opened[1]


def drawn(
    request: Request,
    found: tuple[int, int],
    flash: dict[str, Any] | None = None,
    salt: dict[str, str] | None = None,
    typed: dict[str, Any] | None = None,
    moved: Loaded | None = None,
    t: Any = None,
) -> Response:
    """The table's page, gathered and rendered in one worker thread's turn (#27); ``moved``:
    a match as the move just stored left it (not read again), ``t``: the tournament as the
    request read it."""
    from tournament.web.pages import page

    store, lexicon = request.app.state.store, request.app.state.settings.lexicon
    lang = lang_of(request)
    data, words = table_view(store, found[0], found[1], lexicon, lang, moved, t), page_words(lang)
    worded(data, lang, words)
    if data["current"] is not None:  # (its lines drawn once each: #27)
        log = data["current"]["log"]
        data["current"]["log_html"] = log_html(request.app.state.envs[lang], lang, words, log)
    return page(request, "table.html", data, flash=flash, salt=salt, token=request.path_params[
        "token"], kept=kept_of(typed), switch_to=_here(request))  # fmt: skip


def _here(request: Request) -> str:
    return f"/table/{request.path_params['token']}"


async def _checked(request: Request) -> tuple[tuple[int, int], FormData] | Response:
    found = await _table_of(request)
    if isinstance(found, Response):
        return found
    form = await checked_form(request)
    if isinstance(form, Response):
        return form
    return found, form


def _match_of_table(store: Store, found: tuple[int, int], match: str, closed: bool = False) -> str:
    """The match named by a form, if it is one of this table's (a token opens its table only)
    and its round is open (or ``closed`` too: a move stored before asked again): the tournament
    as stored now (a writer's, in its turn, or as heard with its save's check of it:
    tournament.readside.ahead, so that a round closed since the link was looked up refuses
    the move, not the next one)."""
    t = views.current_tournament(store)
    round_number, table_number = found
    played = paired(t, round_number)
    if played.closed and not closed:
        raise Refused(
            msg("this table link has expired: round %(round)s is closed", round=round_number)
        )
    if not played.table(table_number).plays(match):
        raise Refused(msg("%(match)s is not a match of this table", match=match))
    return match


def move_text(form: FormData) -> str:
    """The move a table's form describes, in the notation (a word to seal excepted): read
    against the match when it is recorded, as the console's."""
    kind, by = field(form, "kind"), field(form, "by")
    if kind == "text":
        return field(form, "text")  # a move typed in the notation
    if kind == "roll" and field(form, "digital"):
        # The program rolls: the faces follow from the sealed seed and the position.
        return f"roll {by} {field(form, 'die')}"
    if kind == "void":
        reason = field(form, "reason")
        if not reason:
            raise Refused(msg("say why the event is struck (REF-2)"))
        event = {"type": "void", "by": "referee", "on": number(form, "on"), "reason": reason}
    else:
        event = event_from_form(kind, by, form)
    return notation(parsed(event))


def store_move(
    store: Store, found: tuple[int, int], form: FormData, lexicon: str | None
) -> tuple[list[Any], str | None, Loaded]:
    """Record the move a table's form describes (at the position it carries): the events
    stored, the salt of a word sealed (shown once to the referee), and the match after it.
    Called in the writer's turn: the table's matches are the tournament's as stored then (its
    looks made together, or taken as heard and checked by the save: tournament.readside.ahead,
    #27)."""
    bounded(form)

    def write() -> tuple[list[Any], str | None, Loaded]:
        match = _match_of_table(store, found, field(form, "match"))
        expected = number(form, "position", DIGITS)
        if field(form, "kind") == "seal":
            word = field(form, "word")
            if not word:
                raise Refused(msg("an empty word cannot be sealed"))
            commitment, salt = matches.sealed_word(word)  # the word itself is kept nowhere
            event = {"type": "seal", "by": field(form, "by"), "commitment": commitment}
            loaded, stored = record_at(store, match, event, expected, lexicon)
            return stored, salt, loaded
        loaded, stored = play.record_move(store, match, move_text(form), lexicon, expected)
        return stored, None, loaded

    return ahead.write_ahead(store, field(form, "match"), write)  # (its looks: #27)


async def record_move(request: Request) -> Response:
    """Record one move from the table's page: the link looked up and the move stored in one
    worker thread's turn (#27); the link's refusal first, then the form's CSRF token's."""
    form = await read_form(request)
    forged = not csrf_ok(request.session, form.get("csrf"))
    store, lexicon = request.app.state.store, request.app.state.settings.lexicon

    def write(found: tuple[int, int], t: Any) -> tuple[bool, Any] | None:
        if forged:
            return None
        return written(request, writer(request, store_move, store, found, form, lexicon,
                                       refresh=False))  # fmt: skip

    opened = await _opened(request, write)
    if isinstance(opened, Response):
        return opened
    if opened[1] is None:
        return plain(request, 403, msg("the form is stale or forged (CSRF token): reload the page"))
    ok, said = opened[1]
    if not ok:
        keep_typed(request, form)
    if ok and said[1]:
        request.session["salt"] = {"player": field(form, "by"), "salt": said[1]}
    if ok:
        return back(request, _here(request), recorded(said[0], request))
    return back(request, _here(request), said, False)


KEPT = ("values", "value", "word", "words", "expr", "dice", "card", "letter", "salt", "text", "on",
        "reason")  # fmt: skip
KEPT_CHARS = 120  # each field kept at most this long (the session's cookie holds them)


def keep_typed(request: Request, form: FormData) -> None:
    """What a refused move's form held, for the page to fill again (a sealed word never)."""
    kind = field(form, "kind")
    if kind == "seal":
        return
    fields = {n: field(form, n)[:KEPT_CHARS] for n in KEPT if field(form, n)}
    by = field(form, "by")
    request.session["typed"] = {"kind": kind, "by": by, "die": field(form, "die"), "fields": fields}


def recorded(stored: list[Any], request: Request) -> str:
    """What was stored, in the page's language (the flash after a move)."""
    from exports.wording import event_message
    from tournament.web.words import lang_of

    return "; ".join(say(event_message(e), lang_of(request)) for e in stored)


async def start_challenge(request: Request) -> Response:
    """Start the table's next challenge (the organizer may also start it). The starts of a
    room's tables arriving at once are made together (:class:`tournament.web.actions.Together`)."""
    checked = await _checked(request)
    if isinstance(checked, Response):
        return checked
    found, form = checked
    outside = tuple(p.strip() for p in field(form, "outside").split(",") if p.strip())
    try:
        named = field(form, "referee") or None
        start = tables.Start(
            *found,
            field(form, "game"),
            outside,
            by="referee",
            lexicon=request.app.state.settings.lexicon,
            referee=referees.checked(named) if named is not None else None,
        )
    except Refused as e:
        return back(request, _here(request), refused(request, e), False)
    digital = bool(field(form, "digital"))  # sealed before anything is rolled
    ok, said = await _together(request, "starts", _start_all).make(request, (start, digital))
    return back(request, _here(request), str(said.number) if ok else said, ok)


def _start_all(store: Store, items: list[tuple[tables.Start, bool]]) -> list[Any]:
    return play.start_challenges(store, [s for s, _ in items], [d for _, d in items])


async def choose_partita(request: Request) -> Response:
    """Record the four games of the table's partita (CH-3); a room's tables choosing at once
    are recorded together."""
    checked = await _checked(request)
    if isinstance(checked, Response):
        return checked
    found, form = checked
    games = tuple(ticked(form))
    choice = tables.Choice(*found, games, "referee")
    ok, said = await _together(request, "partitas", tables.choose_partitas).make(request, choice)
    return back(request, _here(request), ", ".join(games) if ok else said, ok)


def _together(request: Request, name: str, write_all: Callable[..., list[Any]]) -> Together:
    """The app's queue of one kind of the tables' writes (made on first use)."""
    state = request.app.state
    queue = getattr(state, name, None)
    if queue is None:  # (the read models: the live task's refresh, a room's starts together;
        # the table's page after them reads none, #27)
        queue = Together(state.live, write_all, refresh=False)
        setattr(state, name, queue)
    return queue  # type: ignore[no-any-return]


def routes() -> list[BaseRoute]:
    return [
        Route("/table/{token}", table_page),
        Route("/table/{token}/record", record_move, methods=["POST"]),
        Route("/table/{token}/start", start_challenge, methods=["POST"]),
        Route("/table/{token}/partita", choose_partita, methods=["POST"]),
    ]


__all__ = ["RedirectResponse", "routes"]
