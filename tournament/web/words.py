"""The words of the web pages: the exports' words, and the few the pages add, in one place.

Italian by default, English by the switch. Every word is a message id of the one catalogue
(exports/locale/, English ids), marked with ``N_`` here and said in the page's language.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from markupsafe import Markup

from engine.message import Msg
from exports.i18n import N_, say, translator, words

LANGS = ("it", "en")

PAGE_WORDS: dict[str, str] = {
    "now": N_("Now"), "rounds": N_("Rounds"), "in_play": N_("in play"), "decided": N_("decided"),
    "closed": N_("closed"), "no_tournament": N_("There is no tournament in this database."),
    "no_round": N_("No round has been paired yet."), "matches": N_("Matches"),
    "waits": N_("Waits for"), "verifies": N_("verified: the hash chain and the replay agree"),
    "fails": N_("NOT verified"), "finished": N_("finished"), "in_progress": N_("in progress"),
    "live": N_("live"), "latest": N_("Latest results"), "organizer": N_("Organizer"),
    "passphrase": N_("Passphrase"), "enter": N_("Enter"), "leave": N_("Leave"),
    "register": N_("Register"), "pair": N_("Pair the next round"), "close": N_("Close the round"),
    "start": N_("Start"), "cards": N_("Print the table cards"), "correct": N_("Corrections"),
    "preview": N_("Preview the effect"), "record": N_("Record"), "exports": N_("Exports"),
    "acts": N_("To act"), "log": N_("Log"), "undo": N_("Undo (void)"), "reason": N_("Reason"),
    "may_act": N_("May reveal their word"), "position_n": N_("position"),
    "scan": N_("Scan to referee"),
    "valid_until": N_("Valid until round {n} closes"),
    "keep_salt": N_("Keep this salt secret, to reveal the word later: "),
    "no_bracket": N_("A bracket is drawn for a single-elimination tournament."),
    "games": N_("Games"), "choose": N_("Choose the partita"), "nobody": N_("nobody"),
    "english": N_("English"), "italian": N_("Italiano"), "results": N_("Results"),
    "table_n": N_("Table {n}"), "effect": N_("Effect"), "before": N_("before"),
    "after": N_("after"), "what_if": N_("What if…"), "accept": N_("accept"),
    "reject": N_("reject"), "void_kind": N_("void a position"),
    "ruling_kind": N_("ruling on a position"), "withdraw": N_("Withdraw"),
    "tokens_shown_once": N_("The links are shown only now: print the cards."),
    "notation": N_("A move in writing"), "digital": N_("Digital dice"),
    "roll_digital": N_("Roll"), "season": N_("Season"),
    "wrong_passphrase": N_("wrong passphrase"), "paired_n": N_("round {n} paired"),
    "closed_n": N_("round {n} closed"), "started_m": N_("{m} started"),
    "recorded_m": N_("{m}: recorded"), "out": N_("out"), "salt": N_("salt"),
    "to_table": N_("to the table"), "state_now": N_("State"),
    "move_kind": N_("the move that replaces a voided one"), "move": N_("Move"),
    "amend": N_("Amend a result"), "points_given": N_("Challenge points (giallo=3 blu=1)"),
    "amended_n": N_("round {round}, table {table}: result amended"),
    "check_in_n": N_("Check-in for round {n}"), "checked_in": N_("Checked in"),
    "check_in_resets": N_("Check-ins reset each round: tick who is here for round {n}."),
    "save_check_in": N_("Save who is here"), "door": N_("Door link (QR)"),
    "show_door": N_("Show the door link (QR)"),
    "checked_in_n": N_("{n} checked in for round {round}"),
    "welcome_n": N_("{name}: checked in for round {round}"),
    "find_name": N_("Find your name and tap it to check in for round {n}."),
    "all_here": N_("Everyone is checked in."), "scan_check_in": N_("Scan to check in"),
    "door_shown_once": N_("The link is shown only now: print this page."),
    "door_resets": N_("Check in before each round: check-ins reset each round."),
    "not_paired": N_("Not checked in, not paired"),
}  # fmt: skip
# The pages of a room (#25): refusals with a way on, the cards' warnings and confirmations, the
# screen for the hall, where each player plays.
PAGE_WORDS.update({
    "not_found": N_("Not found"), "way_on": N_("Where do I play? The round in play"),
    "reprinted": N_("New table cards were printed"),
    "new_card": N_("Ask the organizer for the new card of table {n} (round {round}) and scan it."),
    "unknown_link": N_("Unknown table link"),
    "scan_again": N_("Scan your table's card again, or ask the organizer for it."),
    "expired": N_("Table link expired"),
    "confirm_cards": N_("Print new table cards?"),
    "confirm_cards_why": N_("Every table's link changes: the referees' open pages stop working "
                            "and each table needs its new card."),
    "confirm_cards_do": N_("Print new cards"), "tables_in_play": N_("Tables in play"),
    "back": N_("Back"),
    "cards_local": N_("These links open on this machine only ({base}): no phone in the room can "
                      "open them. Start the server with --host 0.0.0.0, or --public-url with "
                      "the address the room reaches, and print the cards again."),
    "confirm_close": N_("Close the round?"),
    "confirm_close_why": N_("Once closed, the round's table links stop working and no move can "
                            "be recorded at its tables."),
    "confirm_close_do": N_("Close the round"), "to_whom": N_("To whom"),
    "stale_note": N_("The match changed meanwhile: this page is not up to date. Send your move "
                     "(if it is refused, what you typed is kept) or reload the page."),
    "in_notation": N_("notation"), "where_play": N_("Where do I play?"),
    "screen": N_("The room's screen"),
    "lead_pair": N_("No round is open: pair the next one."),
    "lead_play": N_("Round {n} is in play: {left} of {all} tables still to decide."),
    "lead_close": N_("Every table of round {n} is decided: close the round."),
    "close_ask": N_("Close the round…"), "referees_links": N_("The referees' links"),
    "cards_what": N_("One card per table with its private link; printing them again cuts off "
                     "the links printed before (you will be asked first)."),
})  # fmt: skip
EXPORT_NAMES: dict[str, str] = {
    "standings.html": N_("The standings, to print"),
    "standings.csv": N_("The standings, for a spreadsheet"),
    "standings.json": N_("The standings, for programs"),
    "standings.md": N_("The standings, to post"),
    "all.zip": N_("Every sheet, in one archive"),
}
# A die named in a refusal ("must throw 2 %(die)s dice"): the engine says its kind's id.
DIE_IN_SENTENCE = {"vowel": N_("vowel (dice)"), "consonant": N_("consonant (dice)")}
PAGE_WORDS.update({
})  # fmt: skip


def lang_of(request: Any) -> str:
    """The language a visitor chose (the ``lang`` cookie, or the switch a page drawn from a
    POST sends with its form), Italian by default."""
    state = getattr(request, "state", None)
    lang = getattr(state, "lang", None) or request.cookies.get("lang", "it")
    return lang if lang in LANGS else "it"


def page_words(lang: str) -> dict[str, str]:
    """The exports' words and the pages' own, in one language (``it`` or ``en``): looked up in
    the catalogue once a process and language (#27: every page asks), a copy each call."""
    made = _PAGE_WORDS.get(lang)
    if made is None or made[0] != len(PAGE_WORDS):  # (words added since: looked up again)
        t = translator(lang)
        made = (
            len(PAGE_WORDS),
            {**words(lang), **{k: t.gettext(v) for k, v in PAGE_WORDS.items()}},
        )
        _PAGE_WORDS[lang] = made
    return dict(made[1])


_PAGE_WORDS: dict[str, tuple[int, dict[str, str]]] = {}


# What a referee records, by the event's kind (the buttons and the turns' descriptions).
KINDS: dict[str, str] = {
    "roll": N_("roll"), "choose": N_("choose"), "bet": N_("bet"), "word": N_("word"),
    "chain": N_("chain"), "expression": N_("expression"), "reroll": N_("reroll"),
    "card": N_("card"), "seal": N_("seal"), "start": N_("start"), "guess": N_("guess"),
    "answer": N_("answer"), "reveal": N_("reveal"), "hint": N_("hint"), "doubt": N_("doubt"),
    "pass": N_("pass"), "timeout": N_("time out"), "stand": N_("stand"),
    "void": N_("void (undo)"), "ruling": N_("ruling"), "right": N_("right"), "wrong": N_("wrong"),
    "up": N_("up"), "down": N_("down"), "active": N_("active"), "withdrawn": N_("withdrawn"),
    "dropped": N_("dropped out"), "move": N_("move"),
}  # fmt: skip
# A kind's button on the table's page, in the imperative as every button ("Registra", "Tira";
# the kinds above are the turns' words): the choices offered (up, right...) are said as above.
BUTTONS: dict[str, str] = {**KINDS, **{
    "roll": N_("Roll"), "choose": N_("Choose"), "bet": N_("Bet"),
    "word": N_("Record the word"), "chain": N_("Record the chain"),
    "expression": N_("Record the expression"), "reroll": N_("Roll again"),
    "card": N_("Deal the card"), "seal": N_("Seal"), "start": N_("Name who starts"),
    "guess": N_("Guess the word"), "reveal": N_("Reveal"), "hint": N_("Say the letter"),
    "doubt": N_("Doubt"), "pass": N_("Pass"), "timeout": N_("Record the time out"),
    "stand": N_("Stand"),
}}  # fmt: skip
DICE = {"consonant": N_("consonant die"), "vowel": N_("vowel die")}
_DUE = re.compile(r"\b(consonant|vowel|d\d+) x(\d+)")


def kind(name: Any, lang: str) -> str:
    """A kind of event, or a choice offered (``up``), in ``lang`` (as it is when unknown)."""
    name = str(name)
    return _said(KINDS, lang).get(name, name)


def kinds(lang: str) -> dict[str, str]:
    """Every kind of :data:`KINDS` in ``lang`` (one dict a process and language: not to change)."""
    return _said(KINDS, lang)


def buttons(lang: str) -> dict[str, str]:
    """Every kind's button (:data:`BUTTONS`) in ``lang`` (one dict a process and language)."""
    return _said(BUTTONS, lang)


def die(name: str, lang: str) -> str:
    return _said(DICE, lang).get(name, name)


def _said(table: dict[str, str], lang: str) -> dict[str, str]:
    """``table``'s words in ``lang``, looked up in the catalogue once a process and language
    (#27: a table's page says a dozen)."""
    key = (id(table), lang)
    made = _SAID.get(key)
    if made is None or len(made) != len(table):
        t = translator(lang)
        made = _SAID[key] = {k: t.gettext(v) for k, v in table.items()}
    return made


_SAID: dict[tuple[int, str], dict[str, str]] = {}


def turn_words(turn: Mapping[str, Any], lang: str) -> str:
    """What a turn expects, in ``lang``: the engine's message said, else (its texts that are
    not messages yet) the dice owed and the kinds of event allowed, from the turn itself."""
    text = turn.get("say", turn.get("expects", ""))
    if isinstance(text, Msg) or lang == "en":
        return say(text, lang)
    dice = [(d["die"], d["count"]) for d in turn.get("dice", ())]
    dice = dice or [(d, int(n)) for d, n in _DUE.findall(str(text))]
    said = []
    for event in turn.get("events", ()):
        if event == "roll" and dice:
            owed = ", ".join(f"{die(d, lang)} ×{n}" for d, n in dice)
            said.append(f"{kind('roll', lang)}: {owed}")
        else:
            said.append(kind(event, lang))
    return " · ".join(said)


def title(name: str) -> str:
    """A game's title as the rules give it (the same in both languages): ``tiro`` -> ``Tiro
    di precisione``."""
    from engine.games import game

    try:
        return str(game(name).title)
    except (KeyError, ValueError):
        return name


def jinja_globals(lang: str) -> dict[str, Any]:
    """What the pages' templates call, speaking ``lang``."""
    from exports.wording import pairing_reason

    return {
        "title": title,
        "why": lambda table: pairing_reason(table, lang),
        "kind": lambda name: kind(name, lang),
        "die": lambda name: die(name, lang),
        "turn_words": lambda turn: turn_words(turn, lang),
        "example_move": example_move,
        "export_name": lambda name: translator(lang).gettext(
            EXPORT_NAMES.get(str(name), str(name))
        ),
        "queue_words": queue_words(lang),
    }


def queue_words(lang: str) -> Markup:
    """The words of a table page's offline queue (static/offline.js reads its ``data-``
    attributes), said once per language (#27: not on every page): as the template's newstyle
    ``_()``/``ngettext()`` give them (a translation is taken as markup, its ``%`` formatted)."""
    t = translator(lang)
    said = {
        "one": Markup(t.ngettext("%(num)s move waiting to be sent",
                                 "%(num)s moves waiting to be sent", 1)) % {"num": 1},
        "many": Markup(t.ngettext("%(num)s move waiting to be sent",
                                  "%(num)s moves waiting to be sent", 2)) % {"num": "{n}"},
        "stopped-one": Markup(t.ngettext("%(num)s move stopped, not sent",
                                         "%(num)s moves stopped, not sent", 1)) % {"num": 1},
        "stopped-many": Markup(t.ngettext("%(num)s move stopped, not sent",
                                          "%(num)s moves stopped, not sent", 2)) % {"num": "{n}"},
        **{
            k: Markup(t.gettext(v)) % {}
            for k, v in {
                "waiting": N_("waiting to be sent, not judged yet"),
                "refused": N_("not stored"),
                "held": N_("kept: it follows the move above once that is sent again"),
                "send": N_("Send again"),
                "discard": N_("Discard"),
                "stopped": N_("The queue stopped at a move the server did not store: look at "
                              "the match, then send that move again (the ones after it follow "
                              "it) or discard it."),
                "offline": N_("No network: the moves stay on this phone and are sent when the "
                              "server answers again."),
            }.items()
        },
    }  # fmt: skip
    return Markup("").join(Markup(' data-{}="{}"').format(k, v) for k, v in said.items())


def example_move(match: Mapping[str, Any] | None) -> str:
    """A move in the notation for the referee's field to show: the next roll of a player at
    the table (who acts first), or what the match expects of them."""
    if not match:
        return ""
    turns = match.get("turns") or []
    who = turns[0]["player"] if turns else (match.get("players") or ["giallo"])[0]
    dice = turns[0]["dice"] if turns and turns[0].get("dice") else []
    if dice and dice[0]["die"] not in DICE:
        faces = " ".join(["1"] * int(dice[0]["count"]))
        return f"roll {who} {dice[0]['die']} {faces}"
    if turns and turns[0].get("events"):
        return f"{turns[0]['events'][0]} {who}"
    return f"pass {who}"
