"""A game's blank sheet, filled in from its match: the same tables, with what was played.

Each game has one function that reads the replay (the events and the state after each) and
returns the sections of its sheet: a title, the column heads of the blank sheet, and rows.
A rejected word or expression is marked (struck through, with the engine's note); a referee's
ruling and a voided event are marked too. Every text is already in the sheet's language.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from engine import arithmetic
from engine.events import (
    JUDGED,
    Answer,
    Chain,
    Choose,
    Doubt,
    Event,
    Expression,
    Guess,
    Pass,
    Roll,
    Timeout,
    Word,
)
from engine.match import Replay
from engine.message import msg
from engine.text import fold
from exports.i18n import say, translator


@dataclass
class Row:
    """One row of a sheet's table: its cells and the marks a referee reads."""

    cells: list[str]
    rejected: bool = False  # the word, chain or expression did not stand: struck through
    mark: str = ""  # the engine's note, a ruling or a void, in words


@dataclass
class Section:
    title: str
    head: list[str] = field(default_factory=list)
    rows: list[Row] = field(default_factory=list)
    boxes: list[str] = field(default_factory=list)  # single values in boxes (a target, a base)
    span_first: bool = False  # the first column is one cell for every row (Texas's letters)
    played: int | None = None  # the column of what was played (struck through when rejected)
    even: bool = False  # columns as wide as the blank sheet's (tables that repeat line up)


class Sheet:
    """What a game function needs: the replay, the language, and each position's marks."""

    def __init__(self, replay: Replay, lang: str) -> None:
        self.replay, self.lang = replay, lang
        self._ = translator(lang).gettext
        self.notes: dict[int, list[Any]] = {}
        for n in replay.notes:
            self.notes.setdefault(n.position, []).append(n)

    def say(self, text: Any) -> str:
        return say(text, self.lang)

    def moves(self) -> Iterator[tuple[int, Event, Any, Any]]:
        """Each event that stands, with its position, the state before it and after it."""
        h = self.replay.history
        for position, event in enumerate(self.replay.events, 1):
            if position not in self.replay.voided:
                yield position, event, h[position - 1], h[position]

    def row(self, position: int, cells: list[Any]) -> Row:
        """A row for the event at ``position``, marked by its notes and any ruling."""
        notes = self.notes.get(position, [])
        event = self.replay.events[position - 1] if position else None
        rejected = isinstance(event, JUDGED) and any(not n.ok for n in notes)
        said = [self.say(c) for c in cells]
        gone = self.gone(position)
        reasons = {self.say(o.reason) for o in gone}
        marks = [
            m for n in notes if not n.ok and (m := self.say(n.text)) not in said + list(reasons)
        ]
        marks += [
            self.say(msg("%(player)s is out: %(reason)s", player=o.player, reason=o.reason))
            for o in gone
        ]
        ruling = self.replay.rulings.get(position)
        if ruling is not None:
            marks.append(
                self.say(msg("referee's ruling: accepted"))
                if ruling
                else self.say(msg("referee's ruling: rejected"))
            )
        return Row(said, rejected, "; ".join(marks))

    def gone(self, position: int) -> list[Any]:
        """Who went out with the event at ``position`` (the engine's out records)."""
        if not position:
            return []
        h = self.replay.history
        before = {o.player for o in h[position - 1].out}
        return [o for o in h[position].out if o.player not in before]


Fill = Callable[[Sheet], list[Section]]
FILLS: dict[str, Fill] = {}  # game -> its tables filled in (a function named as its game)


def fills(fill: Fill) -> Fill:
    FILLS[fill.__name__] = fill
    return fill


def _dash(value: Any) -> Any:
    return "—" if value in (None, "", ()) else value


def _letters(values: Any) -> str:
    return " ".join(str(v).upper() for v in values)


def _value(v: Fraction | None) -> str:
    if v is None:
        return "—"
    return str(v.numerator) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"


@fills
def texas(s: Sheet) -> list[Section]:
    from engine.games.texas import ROUNDS

    _ = s._
    final = s.replay.state
    players = s.replay.header.players
    letters = Section(_("Letters"), [_("Player"), _("Consonants")])
    letters.rows = [Row([p, _letters(final.personal.get(p, ()))]) for p in players]
    rounds = {
        r: Section(
            _("Game round %(n)s") % {"n": r},
            [_("Letters"), _("Player"), _("Word"), _("Score"), _("Bonus")],
            span_first=True,
            played=2,
            even=True,
        )
        for r in range(1, ROUNDS + 1)
    }
    for position, event, before, after in s.moves():
        if not isinstance(event, (Word, Pass, Timeout)):
            continue
        section = rounds[before.round]
        points = after.scores[event.by][-1]
        if isinstance(event, Word):
            length = len(fold(event.word))
            bonus = 1 if points > length else 0
            cells = [_letters(before.common), event.by, event.word, points - bonus, bonus]
        else:
            cells = [_letters(before.common), event.by, msg("no word"), 0, 0]
        section.rows.append(s.row(position, cells))
    for r, section in rounds.items():  # a round not (wholly) played keeps its blank rows
        common = _letters(final.common) if final.round == r else ""
        common = section.rows[0].cells[0] if section.rows else common
        written = {row.cells[1] for row in section.rows}
        section.rows += [Row([common, p, "", "", ""]) for p in players if p not in written]
    total = Section(_("Total"), [_("Player"), _("Total")])
    total.rows = [Row([p, str(sum(final.scores.get(p, ())))]) for p in players]
    return [letters, *rounds.values(), total]


@fills
def tiro(s: Sheet) -> list[Section]:
    _ = s._
    final = s.replay.state
    target = Section(_("Target"), boxes=[str(_dash(final.target))])
    shots = Section(
        "",
        [
            _("Player"),
            _("Dice"),
            _("Expression"),
            _("Value"),
            _("Divisions"),
            _("Multiplications"),
            _("Subtractions"),
        ],
        played=2,
    )
    played: dict[str, tuple[int, Event]] = {}
    for position, event, _before, _after in s.moves():
        if isinstance(event, (Expression, Pass, Timeout)):
            played[event.by] = (position, event)
    for p in s.replay.header.players:
        dice = final.dice.get(p, ())
        position, shot = played.get(p, (0, Pass(p)))
        if isinstance(shot, Expression):
            judged = arithmetic.judge(shot.expr, dice)
            d, m, sub = judged.key
            cells: list[Any] = [p, _letters(dice), shot.expr, _value(judged.value), d, m, sub]
        elif position:
            cells = [p, _letters(dice), msg("no expression"), "—", "", "", ""]
        else:  # not played yet: the boxes stay blank
            cells = [p, _letters(dice), "", "", "", "", ""]
        shots.rows.append(s.row(position, cells))
    return [target, shots]


@fills
def catena(s: Sheet) -> list[Section]:
    _ = s._
    final = s.replay.state
    anchors = Section(_("Anchor words"), [_("Player"), _("Letters"), _("Word")], played=2)

    def faces(a: Any) -> str:
        return " ".join(a.chosen.get(die, face).upper() for die, face in a.faces.items())

    written = set()
    chains = Section(_("Chain"), [_("Player"), _("Chain"), _("Links")], played=1)
    for position, event, before, after in s.moves():
        if isinstance(event, Word) and event.by in before.anchors:
            # CAT-1: every anchor written, a rejected one struck with why, the next below it.
            anchors.rows.append(
                s.row(position, [event.by, faces(before.anchors[event.by]), event.word])
            )
            written.add(event.by)
        elif isinstance(event, Chain):
            length = after.chains.get(event.by)
            chains.rows.append(s.row(position, [event.by, " – ".join(event.words), _dash(length)]))
        elif isinstance(event, (Pass, Timeout)) and event.by in after.chains:
            chains.rows.append(s.row(position, [event.by, msg("no chain"), "—"]))
    for p, a in final.anchors.items():  # an anchor still to write: its letters, a blank
        if p not in written:
            anchors.rows.append(Row([p, faces(a), ""]))
    return [anchors, chains]


@fills
def asta(s: Sheet) -> list[Section]:
    _ = s._
    base = next((st.base for st in reversed(s.replay.history) if st.base), ())
    sections = [Section(_("Base"), boxes=[str(b).upper() for b in base] or ["—"])]
    turns = Section("", [_("Turn"), _("Player"), _("Letters"), _("Word")], played=3)
    for position, event, before, _after in s.moves():
        if isinstance(event, Word):
            word = event.word + (f" (jolly {event.jolly})" if event.jolly else "")
            turns.rows.append(
                s.row(position, [len(turns.rows) + 1, before.current, _letters(before.new), word])
            )
        elif isinstance(event, (Pass, Timeout)):
            cells = [len(turns.rows) + 1, before.current, _letters(before.new), msg("no word")]
            turns.rows.append(s.row(position, cells))
    return [*sections, turns]


@fills
def roulette_russa(s: Sheet) -> list[Section]:
    from engine.games.roulette_russa import last_roller

    _ = s._
    turns = Section("", [_("Turn"), _("Player"), _("Consonants"), _("Doubts")])
    word = Section(_("Word"), [_("Player"), _("Word")], played=1)
    for position, event, before, _after in s.moves():
        if isinstance(event, Roll):
            turns.rows.append(
                s.row(position, [len(turns.rows) + 1, event.by, _letters(event.values), ""])
            )
        elif isinstance(event, Doubt):
            doubted = msg("doubts %(player)s", player=last_roller(before) or "—")
            turns.rows.append(s.row(position, [len(turns.rows) + 1, event.by, "", doubted]))
        elif isinstance(event, (Word, Pass, Timeout)):
            played = event.word if isinstance(event, Word) else msg("no word")
            word.rows.append(s.row(position, [event.by, played]))
    return [turns, word]


@fills
def battaglia(s: Sheet) -> list[Section]:
    _ = s._
    history = s.replay.history
    armed = next((st for st in history if st.ships and not any(st.owed.values())), history[-1])
    final = s.replay.state
    ships = Section(_("Ships"), [_("Player"), "1", _("Sunk"), "2", _("Sunk")])
    for p in s.replay.header.players:
        left = list(final.ships.get(p, ()))
        cells: list[Any] = [p]
        for v in armed.ships.get(p, ()):
            afloat = v in left
            if afloat:
                left.remove(v)
            cells += [v, "" if afloat else "✓"]
        ships.rows.append(Row([str(c) for c in (cells + ["", "", "", ""])[:5]]))
    turns = Section("", [_("Turn"), _("Player"), _("Dice"), _("Expression"), _("Hit")], played=3)
    for position, event, before, _after in s.moves():
        if isinstance(event, (Expression, Pass, Timeout)):
            hit = next((n.text for n in s.notes.get(position, []) if n.ok), "")
            shot = event.expr if isinstance(event, Expression) else msg("no shot")
            dice = _letters(before.rolled or ())
            turns.rows.append(s.row(position, [len(turns.rows) + 1, event.by, dice, shot, hit]))
    return [ships, turns]


@fills
def updown(s: Sheet) -> list[Section]:
    from engine.games.updown import number

    _ = s._
    turns = Section("", [_("Turn"), _("Player"), _("Call"), _("Dice"), _("Number")])
    for position, event, before, _after in s.moves():
        if isinstance(event, Roll):
            call = {"up": "↑", "down": "↓"}.get(before.call or "", "—")
            cells: list[Any] = [
                len(turns.rows) + 1,
                before.current,
                call,
                _letters(event.values),
                number([int(v) for v in event.values]),
            ]
            turns.rows.append(s.row(position, cells))
        elif isinstance(event, Timeout):
            cells = [len(turns.rows) + 1, event.by, "—", msg("time ran out"), "—"]
            turns.rows.append(s.row(position, cells))
    return [turns]


@fills
def ventuno(s: Sheet) -> list[Section]:
    _ = s._
    turns = Section("", [_("Turn"), _("Player"), _("Dice"), _("Value"), _("Running total")])
    for position, event, before, after in s.moves():
        if isinstance(event, Roll):
            busted = after.rolled is None
            cells: list[Any] = [
                len(turns.rows) + 1,
                before.current,
                "-".join(map(str, event.values)),
                "—" if busted else "",
                before.total,
            ]
            turns.rows.append(s.row(position, cells))
        elif isinstance(event, Choose) and turns.rows:
            last = turns.rows[-1]
            last.cells[3], last.cells[4] = str(event.value), str(after.total)
            last.mark = s.row(position, []).mark or last.mark
        elif isinstance(event, Timeout):
            cells = [len(turns.rows) + 1, event.by, msg("time ran out"), "—", before.total]
            turns.rows.append(s.row(position, cells))
    return [turns]


@fills
def alphatiana(s: Sheet) -> list[Section]:
    _ = s._
    final = s.replay.state
    from engine.games.alphatiana import DEATH as TRACK

    # The blank sheet's damage track, 0 to 10 (ALP-1): each point taken crossed off.
    damage = Section(_("Damage"), [_("Player"), *map(str, range(TRACK + 1))])
    damage.rows = [
        Row([p, *("✗" if 0 < i <= d else "" for i in range(TRACK + 1))])
        for p, d in final.damage.items()
    ]
    turns = Section("", [_("Turn"), _("Attack"), _("Defence"), _("Damage")])
    for position, event, before, _after in s.moves():
        if isinstance(event, Roll) and before.face is not None and before.attacker is not None:
            attack = f"{before.attacker}: " + " ".join(map(str, sorted(before.hand, reverse=True)))
            defence = f"{before.defender}: {before.face} → " + " ".join(map(str, event.values))
            text = next((n.text for n in s.notes.get(position, []) if n.rule == "ALP-5"), "")
            row = s.row(position, [len(turns.rows) + 1, attack, defence, text])
            row.rejected, row.mark = False, ""
            turns.rows.append(row)
    return [damage, turns]


@fills
def parola_nascosta(s: Sheet) -> list[Section]:
    _ = s._
    final = s.replay.state
    cards = Section(
        "", [_("Player"), _("Card"), _("Percentile"), _("First letter"), _("Last letter")]
    )
    hints = {(who, which): letter.upper() for _pos, who, which, letter in final.hints}
    for p in s.replay.header.players:
        card = final.deck.get(final.cards.get(p, ""))
        cards.rows.append(
            Row(
                [
                    p,
                    card.id if card else "—",
                    str(card.percentile) if card else "—",
                    hints.get((p, "first"), ""),
                    hints.get((p, "last"), ""),
                ]
            )
        )
    turns = Section("", [_("Turn"), _("Player"), _("Guess"), _("Answer")], played=2)
    for position, event, _before, _after in s.moves():
        if isinstance(event, Guess):
            guess = f"{event.word} → {event.target}"
            turns.rows.append(s.row(position, [len(turns.rows) + 1, event.by, guess, ""]))
        elif isinstance(event, Answer) and turns.rows:
            turns.rows[-1].cells[3] = s.say(msg("yes") if event.right else msg("no"))
    return [cards, turns]


def sections(replay: Replay, lang: str) -> list[Section]:
    """The filled tables of a match's sheet, in ``lang`` (none for a game without them here:
    its sheet is its event log)."""
    fill = FILLS.get(replay.header.game)
    return fill(Sheet(replay, lang)) if fill else []
