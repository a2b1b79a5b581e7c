"""How a phone is shown a long public page (#27): the standings of a festival trimmed to the
top with the visitor's own row, its home page to the round in play counted, the visitor's table
and the first tables; the whole list or round a link away, and the JSON twin whole. Each page's
variant is read from its query (cheap: part of the kept page's key) and shapes the data its
view gathered (:class:`tournament.web.shelf.Shape`)."""

from __future__ import annotations

import hashlib
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any

import jinja2
import orjson

from engine.message import Msg
from tournament.domain import views as rounds
from tournament.readside import mirror, queries
from tournament.web import views
from tournament.web.roundstate import name_key
from tournament.web.shelf import position

DRAWN = 8192  # rows drawn kept, each language


# Per environment (one a language), each row as a template's macro drew it: (template, macro,
# the digest of the row's JSON) -> its HTML.
_drawn: weakref.WeakKeyDictionary[jinja2.Environment, OrderedDict[Any, Any]]
_drawn = weakref.WeakKeyDictionary()
_drawing = threading.Lock()


def _whole(value: Any) -> Any:
    """A subclass's value as JSON keeps all of it: a Msg its id, params and plural (its string
    is the English text alone, which two different messages may share), others their base type."""
    if isinstance(value, Msg):
        return ["\u0000msg", value.id, value.params, value.plural, value.n]
    for base in (str, int, float, dict, list, tuple):
        if isinstance(value, base):
            return base(value)
    raise TypeError(type(value).__name__)


def row_key(row: dict[str, Any]) -> bytes:
    """A row's key for :func:`drawn`: the digest of its JSON, messages whole (the page's
    language draws them by id and params). A digest, not the JSON itself: a round's table card
    is kilobytes of JSON, and the kept rows' keys alone ran to a couple of hundred megabytes at
    a festival's size; 32 bytes of BLAKE2b tell different rows apart as surely as their text."""
    text = orjson.dumps(
        row, default=_whole, option=orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_SUBCLASS
    )
    return hashlib.blake2b(text, digest_size=32).digest()


@jinja2.pass_context
def drawn(context: Any, macro: Any, row: dict[str, Any]) -> Any:
    """``macro(row)`` as it drew the same row before in the same language (a page's rows: the
    standings' of each variant and every stamp, #27), for a macro whose lines follow from its
    row and the page's language alone (never from the rest of the page's data)."""
    try:
        key = (context.name, macro.name, row_key(row))
    except TypeError:  # (a value JSON does not hold: drawn, not kept)
        return macro(row)
    with _drawing:
        cache = _drawn.setdefault(context.environment, OrderedDict())
        hit = cache.get(key)
    if hit is None:
        hit = macro(row)
        with _drawing:
            cache[key] = hit
            while len(cache) > DRAWN:
                cache.popitem(last=False)
    return hit


TOP = 50  # the standings' rows a page shows before "show all" (a festival's are a thousand)
LATEST = 20  # the round's latest results it shows (the round's page has them all)


def standings_variant(request: Any) -> tuple[str, ...]:
    """What ``/standings`` is asked for: the whole list (``?all=1``), the top and one player's
    row (``?player=NAME``), or the top."""
    query = request.query_params
    if query.get("all") not in (None, "", "0"):
        return ("all",)
    name = query.get("player", "").strip()
    return ("player", name) if name else ()


def standings_part(variant: tuple[str, ...]) -> Callable[[Any], dict[str, Any]] | None:
    """What the page of ``variant`` gathers on its own: the top and the last results alone for
    the page of the top (None: the whole, as its JSON twin and the others)."""
    return _top if variant == () else None


def _top(state: Any) -> dict[str, Any]:
    return views.standings(state.store, top=TOP, last=LATEST)


def standings_shown(data: dict[str, Any], variant: tuple[str, ...]) -> dict[str, Any]:
    """The standings as the page shows them: whole (``("all",)``), or the top :data:`TOP`
    rows with the player's own row after them (``("player", NAME)``); the round's last
    :data:`LATEST` results either way; with what was left out counted for the links to the
    rest (the data may hold the top and the last results alone: :func:`standings_part`)."""
    whole = variant == ("all",)
    mine = name_key(variant[1]) if variant[:1] == ("player",) else None
    ranked = data.get("_ranked", len(data["rows"]))

    def marked(r: dict[str, Any]) -> dict[str, Any]:
        return {**r, "own": True} if mine and name_key(r["player"]) == mine else r

    def trimmed(rows: list[dict[str, Any]], count: int) -> dict[str, Any]:
        if whole:
            return {"rows": rows, "own": [], "left": 0}
        top = [marked(r) for r in rows[:TOP]]
        own = [marked(r) for r in rows[TOP:] if mine and name_key(r["player"]) == mine]
        return {"rows": top, "own": own[:1], "left": count - len(top)}

    shown = trimmed(data["rows"], ranked)
    swiss = data["swiss"]
    return {
        **data,
        "rows": shown["rows"],
        "own": shown["own"],
        "more": shown["left"],
        "swiss": {**swiss, **trimmed(swiss["rows"], len(swiss["rows"]))} if swiss else None,
        "latest": data["latest"][-LATEST:],
        "earlier": max(0, data.get("_finished", len(data["latest"])) - LATEST),
        "whole": whole,
        "player": variant[1] if mine else "",
        "unknown": bool(mine) and not any(name_key(r["player"]) == mine for r in data["rows"]),
        "_drawn": drawn,
    }


FIRST = 12  # the home page's tables shown before "every table" (a festival's round is 512)


def now_variant(request: Any) -> tuple[str, ...]:
    """What ``/`` is asked for: the round's first tables (``()``), or with the visitor's own
    (``?player=NAME``: "Where do I play?")."""
    name = request.query_params.get("player", "").strip()
    return ("player", name) if name else ()


def now_part(variant: tuple[str, ...]) -> Callable[[Any], dict[str, Any]] | None:
    """The home page of the first tables gathers on its own (it stands on :func:`now_stamp`,
    its JSON twin on the store's position)."""
    return _now if variant == () else None


def _now(state: Any) -> dict[str, Any]:
    return views.now(state.store)


def now_stamp(state: Any, variant: tuple[str, ...]) -> Hashable | None:
    """What the home page of a big round shows a phone (:func:`now_shown`, the first tables):
    the tournament, where a finished match's row last changed (the tables decided and in
    play, counted), the rows of the first tables' matches (who acts next in them) and those
    of the matches outside the rounds; so a move at a table further down leaves the page kept
    (#27). None (the store's position): another variant, a round of :data:`FIRST` tables or
    fewer, a store that keeps no rows."""
    if variant != ():
        return None
    position(state)  # (the read models brought up to every stored event first)
    store = state.store
    t = views.tournament_or_none(store)
    current = None if t is None else rounds.last_round(t)
    if t is None or current is None or len(current.tables) <= FIRST:
        return None
    m = queries.kept_rows(store)
    if m is None:
        return None
    first = rounds.paired(t, current.number).tables[:FIRST]
    shown = tuple(m.rows.get(n) for tb in first for n in tb.matches.values())
    outside = tuple(m.rows[n] for n in mirror.in_round(m, None))
    return "now", t.version, getattr(t, "head", None), m.decided, shown, outside


def now_shown(data: dict[str, Any], variant: tuple[str, ...]) -> dict[str, Any]:
    """The home page as a phone shows a big round (#27): how many tables are decided and in
    play, the visitor's table (``("player", NAME)``) and the first :data:`FIRST`, the whole
    round a link away (``/rounds/N``); a round of :data:`FIRST` tables or fewer whole, with
    where each player plays. The JSON twin is whole either way."""
    t = data["tournament"]
    if t is None or len(t["tables"]) <= FIRST:
        return {**data, "trimmed": False, "_drawn": drawn}
    mine = name_key(variant[1]) if variant[:1] == ("player",) else None
    seats = [s for s in data["where"] if mine and name_key(s["player"]) == mine]
    own = {s["table"] for s in seats}
    tables = t["tables"]
    shown = [tb for tb in tables if tb["table"] in own] + [
        tb for tb in tables[:FIRST] if tb["table"] not in own
    ]
    played = [tb for tb in tables if not tb.get("bye")]
    return {
        **data,
        "tournament": {**t, "tables": shown},
        "trimmed": True,
        "own": sorted(own),
        "seats": seats,
        "player": variant[1] if mine else "",
        "unknown": bool(mine) and not seats,
        "count": len(tables),
        "done": sum(1 for tb in played if tb.get("decided")),
        "playing": sum(1 for tb in played if not tb.get("decided")),
        "_drawn": drawn,
    }
