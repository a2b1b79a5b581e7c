"""Events and stored sentences in the words of a sheet's language.

An event is a value (:mod:`engine.events`); here it becomes a :class:`~engine.message.Msg` that
:func:`exports.i18n.say` translates, so a sheet never shows a field name, a Python boolean or a
repr. The pairing's reasons are stored as English sentences in the tournament's history (they
predate the catalogue), so they are read back into messages by their known shapes.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from engine.events import (
    Answer,
    Bet,
    Card,
    Chain,
    Choose,
    DiceCommit,
    DiceReveal,
    Doubt,
    End,
    Event,
    Expression,
    Guess,
    Hint,
    Out,
    Pass,
    Reroll,
    Reveal,
    Roll,
    Ruling,
    Seal,
    Stand,
    Start,
    Timeout,
    Void,
    Word,
)
from engine.message import Msg, msg, nmsg
from exports.i18n import N_, say

DICE_WORDS = {
    "consonant": msg("consonant die"),
    "vowel": msg("vowel die"),
    "d6": msg("d6"),
    "d10": msg("d10"),
    "d20": msg("d20"),
}


def _values(values: Any) -> str:
    return " ".join(str(v) for v in values)


def _answer(event: Answer) -> Msg:
    if event.right:
        return msg("%(player)s answers: right", player=event.by)
    return msg("%(player)s answers: wrong", player=event.by)


def _ruling(event: Ruling) -> Msg:
    verdict = msg("accepted") if event.accept else msg("rejected")
    if event.note:
        return msg(
            "ruling on #%(on)s: %(verdict)s (%(note)s)",
            on=event.on,
            verdict=verdict,
            note=event.note,
        )
    return msg("ruling on #%(on)s: %(verdict)s", on=event.on, verdict=verdict)


def _end(event: End) -> Msg:
    points = tuple(f"{p} {n}" for p, n in event.points.items())
    if event.winners:
        return nmsg(
            "end: winner %(winners)s (points %(points)s)",
            "end: winners %(winners)s (points %(points)s)",
            len(event.winners),
            winners=event.winners,
            points=points,
        )
    return msg("end: no winner (points %(points)s)", points=points)


def _roll(event: Roll) -> Msg:
    die = DICE_WORDS.get(event.die, event.die)
    if event.digital:
        return msg(
            "%(player)s rolls the %(die)s (digital dice): %(values)s",
            player=event.by,
            die=die,
            values=_values(event.values),
        )
    return msg(
        "%(player)s rolls the %(die)s: %(values)s",
        player=event.by,
        die=die,
        values=_values(event.values),
    )


def _word(event: Word) -> Msg:
    if event.jolly:
        return msg(
            "%(player)s writes %(word)s (jolly %(jolly)s)",
            player=event.by,
            word=event.word,
            jolly=event.jolly,
        )
    return msg("%(player)s writes %(word)s", player=event.by, word=event.word)


def _bet(event: Bet) -> Msg:
    call = msg("up") if event.call == "up" else msg("down")
    return msg("%(player)s calls %(call)s", player=event.by, call=call)


SAYINGS: dict[type, Callable[[Any], Msg]] = {
    Roll: _roll,
    Choose: lambda e: msg("%(player)s chooses %(value)s", player=e.by, value=e.value),
    Word: _word,
    Chain: lambda e: msg(
        "%(player)s writes the chain %(words)s", player=e.by, words="-".join(e.words)
    ),
    Expression: lambda e: msg("%(player)s writes %(expr)s", player=e.by, expr=e.expr),
    Doubt: lambda e: msg("%(player)s doubts", player=e.by),
    Bet: _bet,
    Pass: lambda e: msg("%(player)s passes", player=e.by),
    Timeout: lambda e: msg("%(player)s's time runs out", player=e.by),
    Reroll: lambda e: msg(
        "%(player)s takes back %(dice)s and rolls %(values)s",
        player=e.by,
        dice=_values(e.dice),
        values=_values(e.values),
    ),
    Stand: lambda e: msg("%(player)s stands", player=e.by),
    Card: lambda e: (
        msg("card %(card)s laid on the table", card=e.card)
        if e.to == "table"
        else msg("card %(card)s dealt to %(player)s", card=e.card, player=e.to)
    ),
    Seal: lambda e: msg("%(player)s seals a word", player=e.by),
    Start: lambda e: msg("%(player)s starts", player=e.player),
    Guess: lambda e: msg(
        "%(player)s guesses %(word)s for %(target)s", player=e.by, word=e.word, target=e.target
    ),
    Answer: _answer,
    Reveal: lambda e: msg("%(player)s reveals %(word)s", player=e.by, word=e.word),
    Hint: lambda e: msg(
        "%(player)s gives the letter %(letter)s", player=e.by, letter=e.letter.upper()
    ),
    DiceCommit: lambda e: msg("the referee seals the seed of the digital dice"),
    DiceReveal: lambda e: msg("the referee shows the seed of the digital dice"),
    Ruling: _ruling,
    Void: lambda e: msg("#%(on)s is void (%(reason)s)", on=e.on, reason=e.reason),
    End: _end,
}


def event_message(event: Event, out_reasons: Mapping[str, Any] | None = None) -> Msg:
    """What an event says, as a message. ``out_reasons`` maps a player to the engine's reason
    for putting them out (a message; the stored ``out`` event keeps only its English)."""
    if isinstance(event, Out):
        reason = (out_reasons or {}).get(event.player, event.reason)
        return msg("%(player)s is out: %(reason)s", player=event.player, reason=reason)
    return SAYINGS[type(event)](event)


# --- the pairing's reasons -----------------------------------------------------------------

_PAIRED = re.compile(
    r"^(?P<a>.+) \((?P<sa>[^()]*)\) - (?P<b>.+) \((?P<sb>[^()]*)\)"
    r"(?P<different>: different scores)?(?P<rematch>; a rematch, as no other pairing was left)?$"
)
_REASONS: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], Msg]], ...] = (
    (
        re.compile(r"^bye: (?P<p>.+), lowest ranked \(everyone has had a bye\)$"),
        lambda m: msg("bye: %(player)s, lowest ranked (everyone has had a bye)", player=m["p"]),
    ),
    (
        re.compile(r"^bye: (?P<p>.+), lowest ranked without a bye$"),
        lambda m: msg("bye: %(player)s, lowest ranked without a bye", player=m["p"]),
    ),
    (
        re.compile(r"^bye: (?P<p>.+), round robin of an odd number$"),
        lambda m: msg("bye: %(player)s, round robin of an odd number", player=m["p"]),
    ),
    (
        re.compile(r"^bye: (?P<p>.+), the opponent dropped out$"),
        lambda m: msg("bye: %(player)s, the opponent dropped out", player=m["p"]),
    ),
    (
        re.compile(r"^bye: (?P<p>.+), seed (?P<s>\d+)$"),
        lambda m: msg("bye: %(player)s, seed %(seed)s", player=m["p"], seed=m["s"]),
    ),
    (
        re.compile(r"^Berger table, round (?P<r>\d+)$"),
        lambda m: msg("Berger table, round %(round)s", round=m["r"]),
    ),
    (
        re.compile(r"^seed (?P<a>\d+) - seed (?P<b>\d+)$"),
        lambda m: msg("seed %(a)s - seed %(b)s", a=m["a"], b=m["b"]),
    ),
    (
        re.compile(r"^winners of tables (?P<a>\d+) and (?P<b>\d+)$"),
        lambda m: msg("winners of tables %(a)s and %(b)s", a=m["a"], b=m["b"]),
    ),
    (
        re.compile(r"^third place: the semi-finals' losers$"),
        lambda m: msg("third place: the semi-finals' losers"),
    ),
    (
        re.compile(r"^table of (?P<n>\d+)(; (?P<met>\d+) pairs met before)?$"),
        lambda m: (
            msg("table of %(n)s; %(met)s pairs met before", n=m["n"], met=m["met"])
            if m["met"]
            else msg("table of %(n)s", n=m["n"])
        ),
    ),
)


def _paired(m: re.Match[str]) -> Msg:
    seats = f"{m['a']} ({m['sa']}) - {m['b']} ({m['sb']})"
    if m["different"] and m["rematch"]:
        return msg("%(seats)s: different scores; a rematch, as no other was left", seats=seats)
    if m["different"]:
        return msg("%(seats)s: different scores", seats=seats)
    if m["rematch"]:
        return msg("%(seats)s; a rematch, as no other pairing was left", seats=seats)
    return msg("%(seats)s", seats=seats)


def _read_back(why: str) -> Msg | str:
    """A stored reason of the older shapes (before the reasons were stored as codes)."""
    for pattern, make in _REASONS:
        found = pattern.match(why)
        if found:
            return make(found)
    found = _PAIRED.match(why)
    return _paired(found) if found else why


# The Swiss pairing's reasons by code, as ``tournament.domain.pairing.tables.TEXTS`` says them in
# English (a test checks they are the same texts); a seat's name picks its own sentence.
REASONS: dict[str, str] = {
    "same_score": N_("same score"),
    "float_odd": N_("%(player)s floated down from %(score)s points because the group was odd"),
    "float_rules": N_(
        "%(player)s floated down from %(score)s points: the group could not be paired among "
        "themselves without a rematch or a seat past the limits"
    ),
    "float_up": N_("%(player)s floated up from %(score)s points to meet %(opponent)s"),
    "rematch": N_("a rematch, as no other pairing was left"),
    "seat_beyond_limit": N_(
        "%(player)s has %(count)s more %(seat)s seats than the other kind, as no other "
        "pairing was left"
    ),
    "seat_three_in_a_row": N_(
        "%(player)s sits %(seat)s a third time in a row, as no pairing in the group avoids it"
    ),
    "seat_limit": N_("%(player)s first: the other seat would break the seat limits"),
    "seat_balance": N_("%(player)s first: fewer first seats so far"),
    "seat_alternate": N_("%(player)s first: sat second last time"),
    "seat_balance_other": N_("%(player)s first: %(other)s has more first seats so far"),
    "seat_alternate_other": N_("%(player)s first: %(other)s sat first last time"),
    "seat_history": N_("%(player)s first: sat second when the two last sat differently"),
    "seat_rank": N_("%(player)s first: higher in the standings"),
    "bye": N_("bye: %(player)s, lowest ranked without a bye (%(score)s points)"),
    "seed_pair": N_("round one by seed: seed %(seed)s against seed %(other)s"),
    "seat_seed": N_("%(player)s first: the higher seed"),
    "bye_seed": N_("bye: %(player)s, the lowest seed (seed %(seed)s)"),
    "bye_rules": N_(
        "bye: %(player)s, lowest ranked without a bye whose bye leaves a pairing without a "
        "rematch or a seat past the limits (%(score)s points)"
    ),
    "bye_again": N_("bye: %(player)s, lowest ranked (%(score)s points; everyone has had a bye)"),
}
SEATED: dict[tuple[str, str], str] = {
    ("seat_beyond_limit", "first"): N_(
        "%(player)s has %(count)s more first seats than the other kind, as no other "
        "pairing was left"
    ),
    ("seat_beyond_limit", "second"): N_(
        "%(player)s has %(count)s more second seats than the other kind, as no other "
        "pairing was left"
    ),
    ("seat_three_in_a_row", "first"): N_(
        "%(player)s sits first a third time in a row, as no pairing in the group avoids it"
    ),
    ("seat_three_in_a_row", "second"): N_(
        "%(player)s sits second a third time in a row, as no pairing in the group avoids it"
    ),
}


def _reason(code: str, params: Mapping[str, Any]) -> Msg | None:
    text = SEATED.get((code, str(params.get("seat"))), REASONS.get(code))
    return Msg(text, params) if text else None


def pairing_reason(table: Mapping[str, Any], lang: str) -> str:
    """Why a table of a round is as it is, in ``lang``: from the reasons' codes where the
    round stored them, else read back from its English sentence."""
    why = str(table.get("why", ""))
    coded = [_reason(r["code"], r.get("params", {})) for r in table.get("reasons", ())]
    if not coded or None in coded:
        return say(_read_back(why), lang)
    said = "; ".join(say(m, lang) for m in coded)
    if table.get("bye"):
        return said
    seats = why.split(": ", 1)[0]  # "first (score) - second (score)": names and numbers
    return f"{seats}: {said}"


# --- the audit's best plays ------------------------------------------------------------------

_SINK = re.compile(r"^(?P<p>.+)'s (?P<v>\d+) with (?P<e>.+)$")


def _sinkable(text: str) -> Msg | str:
    found = _SINK.match(text)
    if not found:
        return text
    return msg(
        "%(player)s's %(value)s with %(expr)s",
        player=found["p"],
        value=found["v"],
        expr=found["e"],
    )


_BEST: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], Msg]], ...] = (
    (
        # The solver's key (TIR-3: divisions, multiplications, subtractions) in the words a
        # hit's own line uses, not as the bare triple it is compared by.
        re.compile(r"^best: (?P<e>.+) \(key \((?P<d>\d+), (?P<m>\d+), (?P<s>\d+)\)\)$"),
        lambda m: msg(
            "best: %(expr)s (%(div)s div, %(mul)s mul, %(sub)s sub)",
            expr=m["e"], div=int(m["d"]), mul=int(m["m"]), sub=int(m["s"]),
        ),  # fmt: skip
    ),
    (re.compile(r"^the target was unreachable$"), lambda m: msg("the target was unreachable")),
    (
        re.compile(r"^could sink (?P<l>.+)$"),
        lambda m: msg("could sink %(ships)s", ships=tuple(map(_sinkable, m["l"].split("; ")))),
    ),
    (re.compile(r"^no ship could be sunk$"), lambda m: msg("no ship could be sunk")),
    (re.compile(r"^no legal word existed$"), lambda m: msg("no legal word existed")),
    (
        re.compile(r"^legal words: (?P<w>.+?)(?: \((?P<n>\d+) in all\))?$"),
        lambda m: (
            msg("legal words: %(words)s (%(n)s in all)", words=m["w"], n=m["n"])
            if m["n"]
            else msg("legal words: %(words)s", words=m["w"])
        ),
    ),
    (
        re.compile(r"^best: (?P<w>\S+) \((?P<n>\d+)\)$"),
        lambda m: msg("best: %(word)s (%(points)s)", word=m["w"], points=m["n"]),
    ),
    (re.compile(r"^no word could be made$"), lambda m: msg("no word could be made")),
    (
        re.compile(r"^a word that covers them: (?P<w>.+)$"),
        lambda m: msg("a word that covers them: %(word)s", word=m["w"]),
    ),
    (re.compile(r"^no word covers them$"), lambda m: msg("no word covers them")),
    (
        re.compile(r"^shortest possible: (?P<n>\d+) words \((?P<c>.+)\)$"),
        lambda m: msg("shortest possible: %(n)s words (%(chain)s)", n=m["n"], chain=m["c"]),
    ),
    (re.compile(r"^no chain joins the anchors$"), lambda m: msg("no chain joins the anchors")),
)


def best_play(text: str) -> Msg | str:
    """The audit's best play (:func:`tournament.services.audit.best_possible`, English) as a
    message."""
    for pattern, make in _BEST:
        found = pattern.match(text)
        if found:
            return make(found)
    return text
