"""A table's referee page as it is gathered: the table, its challenges, the match in play with
who acts and what is legal, its log in the page's words (drawn by :mod:`tournament.web.referee`,
after every move: #27)."""

from __future__ import annotations

from typing import Any

from engine.events import Out
from engine.notation import format as notation
from exports.i18n import say
from tournament.domain.views import paired
from tournament.services import day, dice, tablefiles
from tournament.services.matches import Loaded, load, summary
from tournament.services.stores import Store
from tournament.web import views


def table_view(
    store: Store,
    round_number: int,
    table_number: int,
    lexicon: str | None,
    lang: str = "it",
    moved: Loaded | None = None,
) -> dict:
    """The table, its challenges, and the match in play with who acts and what is legal (its
    log in the words of ``lang``); ``moved``: one of its matches as a move just left it."""
    t = views.current_tournament(store)
    tb = paired(t, round_number).table(table_number)
    games = day.table_games(t, tb)
    attached = tb.matches
    info: dict[str, Any] = {
        "round": round_number,
        "table": table_number,
        "players": list(tb.players),
        "games": games,
        "allowed": list(t.settings["games"]),
        "partita": t.settings["plays"] == day.PARTITA,
        "challenges": [],
        "current": None,
        "next_game": None,
    }
    for g in games:
        n = attached.get(g)
        if n is None:
            info["next_game"] = info["next_game"] or g
            info["challenges"].append({"game": g, "match": None, "status": None})
            continue
        same = moved is not None and moved.match.number == n
        loaded = moved if same else load(store, n, lexicon)
        s = summary(loaded)
        info["challenges"].append(
            {"game": g, "match": n, "status": s["status"], "points": s["points"]}
        )
        if s["status"] != "finished" and info["current"] is None:
            info["current"] = _match_view(loaded, s, lang)
    if info["current"] is not None:
        info["next_game"] = None  # one challenge at a time
    out = tablefiles.table_out(store, round_number, table_number)  # in a table file (#26)
    info["out"] = say(out, lang) if out is not None else None
    return info


LINES: dict[tuple[str, Any], tuple[str, str]] = {}  # (lang, event): its line of a table's log
MOST_LINES = 50_000  # (forgotten all at once past this many)


def _log(replay: Any, lang: str) -> list[dict[str, Any]]:
    """The match's log as the table's page shows it: each event in words (as the sheets'
    :func:`exports.eventlog.event_log` says it) and in the notation. Each event's words are a
    function of the event alone (a player out aside: the engine's reason), kept per process
    (#27: the page is drawn after every move, its log grown by one line)."""
    from exports.wording import event_message

    reasons = {o.player: o.reason for o in replay.out}
    rows = []
    for position, e in enumerate(replay.events, 1):
        key = (lang, e)
        line = None if isinstance(e, Out) else LINES.get(key)
        if line is None:
            line = (say(event_message(e, reasons), lang), notation(e))
            if not isinstance(e, Out):
                if len(LINES) >= MOST_LINES:
                    LINES.clear()
                LINES[key] = line
        rows.append({"position": position, "what": line[0], "notation": line[1],
                     "void": position in replay.voided})  # fmt: skip
    return rows


def _match_view(loaded: Any, s: dict[str, Any], lang: str) -> dict[str, Any]:
    replay = loaded.replay
    return {
        **s,
        "state": replay.rules.summary(replay.state),
        "position": replay.position,
        "digital": dice.sealed(loaded),  # whether it rolls them (the seed stays on the server)
        "turns": [
            {
                "player": t.player,
                "events": list(t.events),
                "say": t.say,
                "rule": t.rule,
                "dice": [{"die": d, "count": c} for d, c in t.dice],
                "choices": [str(c) for c in t.choices],
                "numbers": list(t.numbers),
            }
            for t in replay.turns
        ],
        "log": _log(replay, lang),
        "others": list(replay.header.players),
    }


def kept_of(typed: dict[str, Any] | None) -> Any:
    """What the referee typed in a field, kept when the move was refused (its form is filled
    again): ``kept(kind, by, name, die)`` for the table's template (a call of Python, not of a
    template's macro: #27, a page has dozens of fields)."""

    def kept(kind: str, by: str, name: str, die: str = "") -> str:
        if typed and (typed.get("kind"), typed.get("by"), typed.get("die")) == (kind, by, die):
            return str(typed.get("fields", {}).get(name, ""))
        return ""

    return kept
