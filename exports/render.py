"""One small render function per output (see the package docstring)."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import Any

import jinja2

from engine.games import game as rules_of
from engine.games import names
from engine.match import Replay
from exports import filled
from exports.bracket import bracket_svg, round_name
from exports.eventlog import event_log
from exports.i18n import check_lang, say, translator, words
from exports.wording import pairing_reason

PARTITA_SHEET = "sheet_partita.html"  # a Tetragon partita's (CH-3)
TIEBREAK_COLUMNS = ("challenge", "buchholz", "buchholz_cut1", "sonneborn_berger")


def sheets() -> tuple[str, ...]:
    """What a blank sheet is laid out for: every registered game, and a Tetragon partita."""
    return (*names(), "partita")


def _num(value: Any, lang: str = "en") -> str:
    """A number as the page's language writes it: ``11,5`` in Italian, ``11.5`` in English
    (#28); a whole one without its ``.0``. CSV and JSON keep the point.

    >>> _num(11.5, "it"), _num(11.5, "en"), _num(12.0, "it"), _num(None)
    ('11,5', '11.5', '12', '')
    """
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    text = str(value)
    return text.replace(".", ",") if lang == "it" and isinstance(value, float) else text


def environment(user_templates: str | Path | None = None, lang: str = "it") -> jinja2.Environment:
    """The Jinja environment: the organizer's templates first, then the shipped ones; with the
    i18n extension (``_()``, ``ngettext()``, ``{% trans %}``) speaking ``lang``.

    Each render function below switches the environment to the language it is asked for, so
    keep one environment per thread (the printer and the web each build their own).
    """
    loaders: list[jinja2.BaseLoader] = []
    if user_templates:
        loaders.append(jinja2.FileSystemLoader(str(user_templates)))
    loaders.append(jinja2.PackageLoader("exports", "templates"))
    env = jinja2.Environment(
        loader=jinja2.ChoiceLoader(loaders),
        autoescape=jinja2.select_autoescape(["html"]),
        trim_blocks=True,
        lstrip_blocks=True,
        extensions=["jinja2.ext.i18n"],
    )
    env.filters["num"] = _num
    return localized(env, lang)


def localized(env: jinja2.Environment, lang: str) -> jinja2.Environment:
    """``env`` speaking ``lang``: its gettext callables, ``say`` (for engine messages), ``w``."""
    if env.globals.get("lang") != check_lang(lang):
        env.install_gettext_translations(translator(lang), newstyle=True)  # type: ignore[attr-defined]
        env.globals.update(lang=lang, say=lambda text: say(text, lang), w=words(lang))
        env.filters["num"] = lambda value: _num(value, lang)
    return env


def _page(env: jinja2.Environment, lang: str, template: str, **context: Any) -> str:
    """One template rendered in ``lang``."""
    return localized(env, lang).get_template(template).render(lang=lang, **context)


def blank_seats(game: str, table: int | None = None) -> int:
    """How many players a blank sheet has slots and signatures for: the players at the
    tournament's largest table (``table``) where it seats three or more, else 2 for a duel and
    4 for a game that may be a multiple challenge (CH-1), within the game's own bounds (#28).

    >>> blank_seats("roulette_russa"), blank_seats("parola_nascosta", 12), blank_seats("tiro", 3)
    (4, 10, 3)
    >>> blank_seats("roulette_russa", 2), blank_seats("alphatiana", 4)  # a duel (ALP-1)
    (4, 2)
    """
    if game == "partita":
        return table or 2
    rules = rules_of(game)
    most = rules.max_players or 10  # a sheet has rows for 2 to 10 players
    wanted = table if table is not None and table >= 3 else (2 if most == 2 else 4)
    return max(rules.min_players, min(wanted, most))


def blank_sheet(env: jinja2.Environment, game: str, title: str, players: int, lang: str) -> str:
    """A blank score sheet laid out for one game (or a Tetragon partita), one A4 page."""
    if game not in sheets():
        raise ValueError(f"no sheet for {game!r} (sheets: {', '.join(sheets())})")
    # A game's own sheet (the organizer's templates first, then ours), else the default one.
    own = PARTITA_SHEET if game == "partita" else rules_of(game).sheet
    page = localized(env, lang).select_template([own, "sheet.html"])
    return page.render(lang=lang, title=title, players=players)


def score_sheet(
    env: jinja2.Environment,
    match: Mapping[str, Any],
    replay: Replay,
    qr_svg: str,
    lang: str,
    where: Mapping[str, Any] | None = None,
) -> str:
    """A filled score sheet: the game's blank sheet filled in from the match, then its event
    log, the outcome, the head hash as text and QR, and the signatures.

    ``where`` names the tournament, its date, the round, the table and the referee, when
    known (keys ``tournament``, ``date``, ``round``, ``table``, ``referee``).
    """
    return _page(
        env,
        lang,
        "score_sheet.html",
        match=match,
        sections=filled.sections(replay, lang),
        log=event_log(replay, lang),
        qr=qr_svg,
        where=where or {},
    )


def partita_sheet(
    env: jinja2.Environment,
    players: Sequence[str],
    games: Sequence[Mapping[str, Any]],
    lang: str,
    where: Mapping[str, Any],
    amended: Mapping[str, int] | None = None,
) -> str:
    """A table's Tetragon partita (CH-3) filled in: its four games, each with its match and
    the challenge points it gave, and the totals (``amended``: the organizer's, if any).

    ``games``: each with ``title``, ``match`` (its id, or None) and ``points`` (or None).
    """
    decided = [g["points"] for g in games if g.get("points")]
    total: Mapping[str, int] | None = amended
    if total is None and games and len(decided) == len(games):
        total = {p: sum(pts.get(p, 0) for pts in decided) for p in players}
    best = max(total.values()) if total else None
    winners = [p for p in players if total and total[p] == best and best]
    return _page(
        env,
        lang,
        "partita.html",
        players=players,
        games=games,
        where=where,
        total=total,
        winners=winners,
        amended=amended is not None,
    )


def match_report(
    env: jinja2.Environment,
    match: Mapping[str, Any],
    replay: Replay,
    best: Mapping[int, str],
    lang: str,
    where: Mapping[str, Any] | None = None,
) -> str:
    """The timeline of a match with its rulings, voids and the best possible plays
    (``best``: position -> what the best play was, in English, read back into ``lang``;
    ``where``: as for :func:`score_sheet`)."""
    from exports.wording import best_play

    said = {k: say(best_play(v), lang) for k, v in best.items() if v}
    return _page(
        env,
        lang,
        "report.html",
        match=match,
        log=event_log(replay, lang),
        best=said,
        where=where or {},
    )


def pairings_html(
    env: jinja2.Environment,
    name: str,
    round_: Mapping[str, Any],
    lang: str,
    date: str = "",
    closed: Sequence[Mapping[str, Any]] = (),
    stage: tuple[str, int] | None = None,
    missing: Sequence[str] = (),
) -> str:
    """The pairings of a round, with the results of the closed rounds before it.

    ``closed`` holds, per closed round, ``number`` and ``tables`` (each with ``table``,
    ``players`` and ``points``: player -> challenge points, or None while undecided);
    ``stage``: a round of a bracket's name code and players (#24); ``missing``: the active
    players left out, not checked in (#24).
    """
    reasons = {t["table"]: pairing_reason(t, lang) for t in round_["tables"]}
    return _page(
        env,
        lang,
        "pairings.html",
        name=name,
        round=round_,
        reasons=reasons,
        date=date,
        closed=closed,
        stage=round_name(*stage, lang) if stage else "",
        missing=missing,
    )


def standings_html(
    env: jinja2.Environment,
    name: str,
    rows: Sequence[Mapping[str, Any]],
    lang: str,
    date: str = "",
    after_round: int | None = None,
    swiss: Mapping[str, Any] | None = None,
    dropped: Collection[str] = (),
) -> str:
    """The standings with their tie-break columns, each explained in a footnote; ``swiss``
    (``round``, ``rows``): a Swiss's table before its cut's bracket, shown first (#24); the players
    who ``dropped`` out marked, and not counted among those playing (#28)."""
    return _page(
        env,
        lang,
        "standings.html",
        name=name,
        rows=rows,
        columns=TIEBREAK_COLUMNS,
        date=date,
        after_round=after_round,
        swiss=swiss,
        dropped=[r["player"] for r in rows if r["player"] in set(dropped)],
    )


def bracket_html(
    env: jinja2.Environment,
    name: str,
    bracket: Mapping[str, Any],
    lang: str,
    date: str = "",
) -> str:
    """A single-elimination bracket (``tournament.domain.brackets.drawn_bracket``) drawn as SVG
    with its title, on one landscape page (:mod:`exports.bracket`)."""
    return _page(
        env,
        lang,
        "bracket.html",
        name=name,
        date=date,
        svg=bracket_svg(bracket, lang) if bracket.get("rounds") else "",
        champion=bracket.get("champion"),
        orientation="landscape",
    )


# --- for posting online -------------------------------------------------------------------

STANDINGS_FIELDS = ("rank", "player", "points", *TIEBREAK_COLUMNS)
LOT_MARK = "†"  # (the screen's and the sheet's mark of a place the seeded lot decided)


def standings_csv(rows: Sequence[Mapping[str, Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow((*STANDINGS_FIELDS, "by_lot"))
    for r in rows:
        writer.writerow([*(_num(r.get(f)) for f in STANDINGS_FIELDS), int(bool(r.get("by_lot")))])
    return out.getvalue()


def standings_json(rows: Sequence[Mapping[str, Any]]) -> str:
    listed = [{**{f: r.get(f) for f in STANDINGS_FIELDS}, "by_lot": int(bool(r.get("by_lot")))}
              for r in rows]  # fmt: skip
    return json.dumps(listed, ensure_ascii=False, indent=2) + "\n"


def standings_markdown(rows: Sequence[Mapping[str, Any]], lang: str) -> str:
    w = words(lang)
    head = [w["rank"], w["player"], w["points"], *(w[c] for c in TIEBREAK_COLUMNS)]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        cells = [_num(r.get(f)) for f in STANDINGS_FIELDS]
        if r.get("by_lot"):
            cells[0] += f" {LOT_MARK}"
        lines.append("| " + " | ".join(cells) + " |")
    if any(r.get("by_lot") for r in rows):
        lines += ["", f"{LOT_MARK} {translator(lang).gettext('order drawn by lot')}"]
    return "\n".join(lines) + "\n"


def pairings_csv(round_: Mapping[str, Any]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["round", "table", "players", "bye", "why"])
    for t in round_["tables"]:
        writer.writerow(
            [
                round_["number"],
                t["table"],
                " - ".join(t["players"]),
                int(t["bye"]),
                t.get("why", ""),
            ]
        )
    return out.getvalue()


def pairings_json(round_: Mapping[str, Any]) -> str:
    tables = [{k: t.get(k) for k in ("table", "players", "bye", "why")} for t in round_["tables"]]
    return (
        json.dumps({"round": round_["number"], "tables": tables}, ensure_ascii=False, indent=2)
        + "\n"
    )


def pairings_markdown(round_: Mapping[str, Any], lang: str, missing: Sequence[str] = ()) -> str:
    w = words(lang)
    lines = [
        f"## {translator(lang).gettext('Round %(n)s') % {'n': round_['number']}}",
        "",
        f"| {w['table']} | {w['players']} |",
        "|---|---|",
    ]
    for t in round_["tables"]:
        bye = f" ({w['bye']})" if t["bye"] else ""
        lines.append(f"| {t['table']} | {' – '.join(t['players'])}{bye} |")
    if missing:
        said = translator(lang).gettext("Not checked in, not paired")
        lines += ["", f"{said}: {', '.join(missing)}"]
    return "\n".join(lines) + "\n"


def qr_svg(text: str) -> str:
    """The head hash as a QR code (segno), inline SVG, about 30 mm wide."""
    import segno

    return segno.make(text, error="m").svg_inline(scale=3, border=2)
