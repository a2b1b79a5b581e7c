"""``/organizer/``: the organizer's pages behind the passphrase.

Every action is a POST that needs the organizer's session (401 otherwise) and the session's
CSRF token (403 otherwise), and stores nothing when either is missing. Failed passphrases are
rate-limited per client.
"""

from __future__ import annotations

import copy
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

from engine.events import parse_event
from engine.message import msg
from tournament.readside import queries
from tournament.services import corrections, day, dice, tables
from tournament.services.audit import outcome_json
from tournament.services.matches import Refused, load, record, refusal
from tournament.web import tokens, views
from tournament.web.actions import back, checked_form, field, number, plain, refused, run
from tournament.web.security import PRINT_CSP, client_of, csrf_token, same_passphrase
from tournament.web.words import kind, page_words

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
    from tournament.web.app import page

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
        info["players"] = [{"name": p, **i} for p, i in t.players.items()]
        info["settings"] = t.settings
        info["open_round"] = bool(t.rounds and not t.rounds[-1]["closed"])
        info["games"] = list(t.settings["games"])
    return info


async def login(request: Request) -> Response:
    guesses = request.app.state.guesses
    client = client_of(request)
    if guesses.blocked(client):
        return plain(request, 429, msg("too many wrong passphrases: wait a minute"))
    form = await checked_form(request)
    if isinstance(form, Response):
        return form
    if not same_passphrase(request.app.state.settings.passphrase, form.get("passphrase")):
        guesses.failed(client)
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
    names = [n.strip() for n in field(form, "names").splitlines() if n.strip()]
    store = request.app.state.store
    ok, said = await run(request, lambda: day.add_players(store, names) and names)
    return back(request, HOME, f"+ {', '.join(names)}" if ok else said, ok)


@action
async def withdraw(request: Request, form: FormData) -> Response:
    store = request.app.state.store
    name, reason = field(form, "player"), field(form, "reason") or "withdrawn"
    ok, said = await run(request, day.withdraw, store, name, reason)
    return back(request, HOME, f"{name}: {reason}" if ok else said, ok)


@action
async def pair(request: Request, form: FormData) -> Response:
    store = request.app.state.store
    ok, said = await run(request, lambda: day.pair_next_round(store))
    if not ok:
        return back(request, HOME, said, False)
    return back(request, f"/rounds/{said['number']}", words(request, "paired_n", n=said["number"]))


@action
async def close(request: Request, form: FormData) -> Response:
    store = request.app.state.store
    ok, said = await run(request, lambda: day.close_round(store))
    return back(request, HOME, words(request, "closed_n", n=said["number"]) if ok else said, ok)


@action
async def partita(request: Request, form: FormData) -> Response:
    store = request.app.state.store
    games = [g for g in form.getlist("games") if isinstance(g, str)]
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
        match = tables.start_match(
            store,
            number(form, "round"),
            number(form, "table"),
            field(form, "game"),
            outside,
            lexicon_path=lexicon,
        )
        if field(form, "digital"):  # the referee's page rolls them; the seed stays here
            dice.seal(store, match.number, lexicon)
        return str(match.number)

    ok, said = await run(request, go)
    return back(request, HOME, words(request, "started_m", m=said) if ok else said, ok)


@action
async def cards(request: Request, form: FormData) -> Response:
    """New private links for every table of the open round, shown once as printable cards."""
    from tournament.web.app import page

    store = request.app.state.store
    ok, said = await run(request, tokens.issue_cards, store)
    if not ok:
        return back(request, HOME, said, False)
    base = str(request.base_url).rstrip("/")
    response = page(request, "/table_card.html", {"cards": tokens.card_data(said, base)})
    response.headers["Content-Security-Policy"] = PRINT_CSP  # the sheets' own print styles
    return response


# --- corrections -----------------------------------------------------------------------------


def _correction(form: FormData) -> dict[str, Any]:
    kind = field(form, "kind")
    on = number(form, "on")
    if kind == "void":
        reason = field(form, "reason")
        if not reason:
            raise Refused(msg("a void needs a reason (REF-2)"))
        return {"type": "void", "by": "referee", "on": on, "reason": reason}
    if kind in ("accept", "reject"):
        event: dict[str, Any] = {"type": "ruling", "by": "referee", "on": on}
        event["accept"] = kind == "accept"
        if field(form, "reason"):
            event["note"] = field(form, "reason")
        return event
    raise Refused(msg("a correction is a void, or a ruling that accepts or rejects"))


def preview_of(store: Any, number_: str, event: dict[str, Any], lexicon: str | None) -> dict:
    """What a void or ruling would change: the match's outcome, the standings, later pairings."""
    from engine.errors import RuleViolation

    loaded = load(store, number_, lexicon)
    try:
        after = loaded.replay.apply(parse_event(event))
    except RuleViolation as v:
        raise Refused(refusal(v) if v.rule else str(v)) from None
    from engine.notation import format as notation

    preview: dict[str, Any] = {
        "match": loaded.match.number,
        "event": event,
        "move": notation(parse_event(event)),
        "before": outcome_json(loaded.replay.outcome),
        "after": outcome_json(after.outcome),
        "effect": None,
    }
    t = views.tournament_or_none(store)
    round_number = corrections.round_of_match(t, loaded.match.number) if t else None
    if t is not None and round_number is not None:
        known = queries.outcomes(store)
        changed = {**known, loaded.match.number: after.outcome}
        preview["round"] = round_number
        effect = corrections.effect(t, known.get, copy.deepcopy(t), changed.get, round_number)
        effect["moved"] = [
            r
            for r in effect["standings"]
            if (r["rank"], r["points"]) != (r["rank_before"], r["points_before"])
        ]
        preview["effect"] = effect
    return preview


@action
async def correct(request: Request, form: FormData) -> Response:
    """Preview a void or ruling (the what-if), or record it."""
    from tournament.web.app import page

    store, lexicon = request.app.state.store, request.app.state.settings.lexicon
    match = field(form, "match")
    if field(form, "do") == "record":
        ok, said = await run(
            request, lambda: record(store, match, _correction(form), lexicon)[0].match.number
        )
        done = words(request, "recorded_m", m=said) + f" ({what(request, field(form, 'kind'))})"
        return back(request, HOME, done if ok else said, ok)
    try:
        preview = await run_in_threadpool(
            lambda: preview_of(store, match, _correction(form), lexicon)
        )
    except (Refused, ValueError) as e:
        return back(request, HOME, refused(request, e), False)
    except Exception as e:  # a store error, said in one sentence
        return back(request, HOME, refused(request, e), False)
    return page(request, "correction.html", preview, form=dict(form))


# --- exports ---------------------------------------------------------------------------------


async def export(request: Request) -> Response:
    """The printable and postable files, made on demand (the same code as ``tournament export``)."""
    if not is_organizer(request):
        return _needs_login(request)
    name = request.path_params["name"]
    if name not in EXPORTS:
        return plain(request, 404, msg("no export called %(name)s", name=name))
    store = request.app.state.store
    from tournament.web.app import lang_of

    lang = lang_of(request)

    def make() -> tuple[bytes, str]:
        from tournament.readside.printing import Printer

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
        body, kind = await run_in_threadpool(make)
    except Refused as e:
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
        Route("/organizer/export/{name}", export),
    ]


def words(request: Request, key: str, **values: Any) -> str:
    """One of the pages' sentences in the visitor's language (a flash after an action)."""
    from tournament.web.app import lang_of

    return page_words(lang_of(request))[key].format(**values)


def what(request: Request, name: str) -> str:
    """A kind of event in the visitor's language."""
    from tournament.web.app import lang_of

    return kind(name, lang_of(request))
