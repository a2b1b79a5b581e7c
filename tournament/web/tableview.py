"""A table's referee page as it is gathered: the table, its challenges, the match in play with
who acts and what is legal, its log in the page's words (drawn by :mod:`tournament.web.referee`,
after every move: #27)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from markupsafe import Markup

from engine.events import Out
from engine.notation import format as notation
from exports.i18n import say
from tournament.domain.views import paired
from tournament.readside.reading import read_match
from tournament.services import day, dice, tablefiles
from tournament.services.matches import Loaded, replayed
from tournament.services.stores import Store
from tournament.web import views

if TYPE_CHECKING:
    from tournament.domain.tournaments import Tournament


def table_view(
    store: Store,
    round_number: int,
    table_number: int,
    lexicon: str | None,
    lang: str = "it",
    moved: Loaded | None = None,
    t: Tournament | None = None,
) -> dict:
    """The table, its challenges, and the match in play with who acts and what is legal (its
    log in the words of ``lang``); ``moved``: one of its matches as a move just left it; ``t``:
    the tournament as the request read it (#27: read once a request)."""
    t = t if t is not None else views.current_tournament(store)
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
        loaded, row = (moved, None) if same else _challenge(store, n, lexicon)
        if row is None:
            assert loaded is not None
            row = _row(loaded)
        info["challenges"].append({"game": g, "match": n, **row})
        if row["status"] != "finished" and info["current"] is None:
            assert loaded is not None
            info["current"] = _match_view(loaded, lang)
    if info["current"] is not None:
        info["next_game"] = None  # one challenge at a time
    # In a table file (#26)? Not when a move of it was just stored: the store refuses the
    # moves of a table that is out (#27: a page drawn with a move's answer asks no more).
    out = None if moved is not None else tablefiles.table_out(store, round_number, table_number)
    info["out"] = say(out, lang) if out is not None else None
    return info


# A finished match's row of a table's challenges (its status and points), by what it was
# replayed from: its number, its chain's head (which seals every line), the word list and the
# rules (#27: the page is drawn after every move of the table's next challenge).
FINISHED: dict[tuple[Any, ...], dict[str, Any]] = {}
MOST_FINISHED = 10_000  # (forgotten all at once past this many)


def _challenge(
    store: Store, number: str, lexicon: str | None
) -> tuple[Loaded | None, dict[str, Any] | None]:
    """A challenge's match as stored now (one indexed read when the server read it before; none
    while the store's listener heard nobody else write since: a page's read, #27):
    its row when it is a finished match replayed before, else the match replayed."""
    match = read_match(store, number, heard_ok=True)  # (a page's: #27)
    key = (match.number, match.head or match.start, lexicon or store.lexicon, match.rules)
    row = FINISHED.get(key)
    if row is not None:
        return None, row
    loaded = replayed(match, lexicon or store.lexicon, store)
    row = _row(loaded)
    if row["status"] == "finished":
        if len(FINISHED) >= MOST_FINISHED:
            FINISHED.clear()
        FINISHED[key] = row
    return loaded, row


def _row(loaded: Loaded) -> dict[str, Any]:
    """A challenge's status and points, as :func:`tournament.services.matches.summary` says
    them."""
    outcome, players = loaded.replay.outcome, loaded.replay.header.players
    return {
        "status": "finished" if outcome else "in_progress",
        "points": dict(outcome.points) if outcome else {p: 0 for p in players},
    }


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
        key, line = (lang, e), None
        kept = not isinstance(e, Out)
        if kept:
            try:
                line = LINES.get(key)
            except TypeError:  # an event holding a dict (a match's end, its points): not kept
                kept = False
        if line is None:
            line = (say(event_message(e, reasons), lang), notation(e))
            if kept:
                if len(LINES) >= MOST_LINES:
                    LINES.clear()
                LINES[key] = line
        rows.append({"position": position, "what": line[0], "notation": line[1],
                     "void": position in replay.voided})  # fmt: skip
    return rows


HTML_LINES: dict[tuple[Any, ...], str] = {}  # a log's line drawn, by what it shows
MOST_HTML_LINES = 50_000  # (forgotten all at once past this many)


def log_html(env: Any, lang: str, words: Any, rows: list[dict[str, Any]]) -> Markup:
    """The log's lines as the table's page shows them (``web/_logline.html``), each drawn once
    a process for what it shows, in ``lang`` (#27: the page is drawn after every move, and
    every line but the last was drawn the move before)."""
    template, html = None, []
    for row in rows:
        key = (lang, row["position"], row["void"], row["what"], row["notation"])
        line = HTML_LINES.get(key)
        if line is None:
            template = template or env.get_template("web/_logline.html")
            line = template.render(e=row, lang=lang, w=words)
            if len(HTML_LINES) >= MOST_HTML_LINES:
                HTML_LINES.clear()
            HTML_LINES[key] = line
        html.append(line)
    return Markup("".join(html))


def _match_view(loaded: Any, lang: str) -> dict[str, Any]:
    """The match in play as the table's page shows it (the fields of
    :func:`tournament.services.matches.summary` it reads, and what acts next)."""
    replay, header = loaded.replay, loaded.replay.header
    return {
        "id": loaded.match.number,
        "game": header.game,
        "title": replay.rules.title,
        "players": list(header.players),
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
                "optional": t.optional,
            }
            for t in replay.turns
        ],
        "log": _log(replay, lang),
        "others": list(header.players),
    }


def worded(data: dict[str, Any], lang: str, words: dict[str, str]) -> None:
    """The words of a table's page that are said in Python, put into its ``data`` for the
    template to show as they are: the headings, the games' titles, the match's state, each
    turn's description, its dice and its buttons' kinds (#27: a template's call of a helper
    costs a few microseconds of Jinja's, some twenty a page)."""
    from tournament.web.words import buttons, die, example_move, title, turn_words

    data["said_table"] = words["table_n"].format(n=data["table"])
    data["said_round"] = words["round_n"].format(n=data["round"])
    for c in data["challenges"]:
        c["title"] = title(c["game"])
    cur = data["current"]
    if cur is None:
        return
    cur["said_state"] = say(cur["state"], lang)
    shown = buttons(lang)  # (the buttons' words: the turns say theirs in turn_words)
    cur["example"] = example_move(cur)
    for t in cur["turns"]:
        t["said"] = turn_words(t, lang)
        for d in t["dice"]:
            d["name"] = die(d["die"], lang)
        # (every kind known in one shared dict; a choice that is none said as it is)
        unknown = [k for k in (*t["events"], *t["choices"]) if k not in shown]
        t["kinds"] = {**shown, **{k: k for k in unknown}} if unknown else shown
    # One box a player (who acts is said once): La parola nascosta's player to guess may also
    # show their word, two turns of the engine's for one player (PN-3, PN-4).
    boxes: dict[str, dict[str, Any]] = {}
    for t in cur["turns"]:
        boxes.setdefault(t["player"], {"player": t["player"], "turns": []})["turns"].append(t)
    for box in boxes.values():  # (only optional moves: the game waits for nobody's, PN-3)
        box["optional"] = all(t.get("optional") for t in box["turns"])
    cur["boxes"] = list(boxes.values())


def kept_of(typed: dict[str, Any] | None) -> Any:
    """What the referee typed in a field, kept when the move was refused (its form is filled
    again): ``kept(kind, by, name, die)`` for the table's template (a call of Python, not of a
    template's macro: #27, a page has dozens of fields)."""

    def kept(kind: str, by: str, name: str, die: str = "") -> str:
        if typed and (typed.get("kind"), typed.get("by"), typed.get("die")) == (kind, by, die):
            return str(typed.get("fields", {}).get(name, ""))
        return ""

    return kept
