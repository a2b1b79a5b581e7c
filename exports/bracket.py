"""The printed bracket: every round of a single elimination as columns of boxes joined to the
box they feed, the match for third place under the final, the champion marked; one SVG sized to
sit with its title on one landscape A4 page. Every word comes from the catalogue.

It draws what the tournament hands it (``tournament.domain.brackets.drawn_bracket``): rounds
with a name code, tables with players, seeds, points and who went through.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from exports.i18n import N_, translator

# A knockout round's name by its code (tournament.domain.pairing.bracket.round_code).
ROUND_NAMES: dict[str, str] = {
    "final": N_("final"),
    "semi_finals": N_("semi-finals"),
    "quarter_finals": N_("quarter-finals"),
    "round_of_16": N_("round of 16"),
    "round_of_32": N_("round of 32"),
    "round_of": N_("round of %(players)s"),
}
THIRD_PLACE = N_("third-place match")
CHAMPION = N_("Champion")
BY_SEED = N_("%(player)s goes through as the higher seed (seed %(seed)s)")
DECIDER = N_("drawn: a decider is to be played at the table")

WIDTH, HEIGHT = 265.0, 150.0  # mm: with the title, one landscape A4 page (12 mm margins)
TOP = 9.0  # the rounds' names above the columns


def round_name(code: str, players: int, lang: str) -> str:
    """A knockout round's name in ``lang`` (``final`` -> ``finale``)."""
    return translator(lang).gettext(ROUND_NAMES.get(code, ROUND_NAMES["round_of"])) % {
        "players": players
    }


def note(table: Mapping[str, Any], lang: str) -> str:
    """What a box says under it: a draw waiting for its decider, or the seeds deciding it."""
    t = translator(lang)
    if table.get("decider"):
        return t.gettext(DECIDER)
    if table.get("by_seed") and table.get("winner"):
        seeds = dict(zip(table["players"], table["seeds"], strict=True))
        return t.gettext(BY_SEED) % {"player": table["winner"], "seed": seeds[table["winner"]]}
    return ""


def _xml(text: Any) -> str:
    return (
        str(text)
        .replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
    )


class _Drawing:
    def __init__(self, font: float) -> None:
        self.parts: list[str] = []
        self.font = font

    def text(self, x: float, y: float, what: Any, **attrs: Any) -> None:
        more = "".join(f' {k.replace("_", "-")}="{v}"' for k, v in attrs.items())
        self.parts.append(f'<text x="{x:.1f}" y="{y:.1f}"{more}>{_xml(what)}</text>')

    def line(self, path: str) -> None:
        self.parts.append(f'<path d="{path}" fill="none" stroke="#333" stroke-width="0.3"/>')

    def box(
        self, x: float, y: float, w: float, h: float, table: Mapping[str, Any], lang: str
    ) -> None:
        """One table: a line a player (seed, name, points), the one who went through in bold."""
        t = translator(lang)
        self.parts.append(
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" fill="#fff" '
            'stroke="#333" stroke-width="0.3"/>'
        )
        lines: list[tuple[Any, Any, str | None]] = list(
            zip(table["seeds"], table["players"], [None] * len(table["players"]), strict=True)
        )
        if table["bye"]:
            lines.append(("", t.gettext("Bye"), "italic"))
        points = table.get("points") or {}
        for k, (seed, name, style) in enumerate(lines[:2]):
            ty = y + h * (k + 1) / 3 + self.font / 3
            weight = {"font_weight": "bold"} if name == table.get("winner") else {}
            if style:
                weight = {"font_style": style, "fill": "#555"}
            if seed:
                self.text(x + 1.2, ty, seed, fill="#666", font_size=f"{self.font * 0.8:.2f}")
            self.text(x + 1.2 + self.font * 1.7, ty, name, **weight)
            if name in points:
                self.text(x + w - 1.2, ty, points[name], text_anchor="end", **weight)
        said = note(table, lang)
        if said:
            self.text(x, y + h + self.font * 0.9, said, font_size=f"{self.font * 0.7:.2f}")


def bracket_svg(bracket: Mapping[str, Any], lang: str) -> str:
    """The bracket drawn (SVG, ``WIDTH`` x ``HEIGHT`` mm): a column a round, named, then the
    champion; the match for third place under the final."""
    rounds: Sequence[Mapping[str, Any]] = bracket["rounds"]
    columns = len(rounds) + 1
    col_w = WIDTH / columns
    box_w = col_w - 8
    first = max(1, len(rounds[0]["tables"])) if rounds else 1
    slot = (HEIGHT - TOP) / first
    box_h = min(12.0, slot - 2.5)
    font = max(2.0, min(3.2, box_h / 3.2))
    d = _Drawing(font)
    for c, r in enumerate(rounds):
        x = c * col_w + 1
        d.text(x, 5, round_name(r["name"], r["players"], lang), font_weight="bold",
               font_size="3.6")  # fmt: skip
        height = slot * 2**c
        for k, table in enumerate(r["tables"]):
            cy = TOP + (k + 0.5) * height
            d.box(x, cy - box_h / 2, box_w, box_h, table, lang)
            right, mid = x + box_w, x + col_w - 4
            if c + 1 < len(rounds):
                pair = TOP + (k // 2 * 2 + 1) * height  # where this pair's winner goes on
                d.line(f"M{right:.1f},{cy:.1f} H{mid:.1f} V{pair:.1f} H{x + col_w + 1:.1f}")
            else:
                d.line(f"M{right:.1f},{cy:.1f} H{x + col_w + 1:.1f}")
    third = bracket.get("third")
    if third and rounds:
        x = (len(rounds) - 1) * col_w + 1
        y = HEIGHT - box_h - 4
        d.text(x, y - 1.5, translator(lang).gettext(THIRD_PLACE), font_weight="bold",
               font_size="3.2")  # fmt: skip
        d.box(x, y, box_w, box_h, third, lang)
    x = (columns - 1) * col_w + 1
    d.text(x, 5, translator(lang).gettext(CHAMPION), font_weight="bold", font_size="3.6")
    cy = TOP + (HEIGHT - TOP) / 2
    d.parts.append(
        f'<rect x="{x:.1f}" y="{cy - box_h / 2:.1f}" width="{box_w:.1f}" height="{box_h:.1f}" '
        'fill="#fff4c2" stroke="#333" stroke-width="0.5"/>'
    )
    if bracket.get("champion"):
        d.text(x + 1.5, cy + font / 3, "★ " + str(bracket["champion"]), font_weight="bold",
               font_size=f"{font * 1.15:.2f}")  # fmt: skip
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}mm" height="{HEIGHT}mm" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="DejaVu Sans, sans-serif" '
        f'font-size="{font:.2f}">' + "".join(d.parts) + "</svg>"
    )
