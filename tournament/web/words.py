"""The words of the web pages: the exports' words, and the few the pages add, in one place.

Italian by default, English by the switch. (Kept together so that they move into the message
catalogues with the exports' words.)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from engine.message import Msg
from exports.i18n import say, words

LANGS = ("it", "en")

PAGE_WORDS: dict[str, dict[str, str]] = {
    "it": {
        "now": "Adesso", "rounds": "Turni", "in_play": "in gioco", "decided": "deciso",
        "closed": "chiuso", "no_tournament": "Nessun torneo in questo database.",
        "no_round": "Nessun turno ancora abbinato.", "matches": "Partite", "waits": "Attende",
        "verifies": "verificato: la catena degli hash e la rigiocata tornano",
        "fails": "NON verificato", "finished": "finita", "in_progress": "in corso",
        "live": "in diretta", "latest": "Ultimi risultati", "organizer": "Organizzatore",
        "passphrase": "Parola d'ordine", "enter": "Entra", "leave": "Esci",
        "register": "Iscrivi", "pair": "Abbina il turno successivo",
        "close": "Chiudi il turno", "start": "Avvia", "cards": "Cartellini dei tavoli",
        "correct": "Correzioni", "preview": "Anteprima", "record": "Registra",
        "exports": "Esportazioni",
        "acts": "Tocca a", "log": "Registro", "undo": "Annulla una mossa",
        "reason": "Motivo", "position_n": "posizione", "scan": "Inquadra per arbitrare",
        "valid_until": "Valido fino alla chiusura del turno {n}", "keep_salt":
        "Tieni segreto questo sale per rivelare la parola: ", "no_bracket":
        "Il tabellone si disegna per un torneo a eliminazione diretta.", "games": "Giochi",
        "choose": "Scegli la partita", "nobody": "nessuno", "english": "English",
        "italian": "Italiano", "results": "Risultati", "table_n": "Tavolo {n}",
        "effect": "Effetto", "before": "prima", "after": "dopo", "what_if": "E se…",
        "accept": "accetta", "reject": "respingi", "void_kind": "annulla una posizione",
        "ruling_kind": "decisione su una posizione", "withdraw": "Ritira",
        "tokens_shown_once": "I link si vedono solo ora: stampa i cartellini.",
        "notation": "Una mossa per iscritto",
        "digital": "Dadi digitali",
        "roll_digital": "Tira",
        "season": "Stagione",
        "wrong_passphrase": "parola d'ordine sbagliata", "paired_n": "turno {n} abbinato",
        "closed_n": "turno {n} chiuso", "started_m": "{m} avviata", "recorded_m": "{m}: registrato",
        "out": "fuori", "salt": "sale", "to_table": "al tavolo", "state_now": "Stato",
    },
    "en": {
        "now": "Now", "rounds": "Rounds", "in_play": "in play", "decided": "decided",
        "closed": "closed", "no_tournament": "There is no tournament in this database.",
        "no_round": "No round has been paired yet.", "matches": "Matches", "waits": "Waits for",
        "verifies": "verified: the hash chain and the replay agree",
        "fails": "NOT verified", "finished": "finished", "in_progress": "in progress",
        "live": "live", "latest": "Latest results", "organizer": "Organizer",
        "passphrase": "Passphrase", "enter": "Enter", "leave": "Leave",
        "register": "Register", "pair": "Pair the next round",
        "close": "Close the round", "start": "Start", "cards": "Table cards",
        "correct": "Corrections", "preview": "Preview", "record": "Record",
        "exports": "Exports",
        "acts": "To act", "log": "Log", "undo": "Undo (void)",
        "reason": "Reason", "position_n": "position", "scan": "Scan to referee",
        "valid_until": "Valid until round {n} closes", "keep_salt":
        "Keep this salt secret, to reveal the word later: ", "no_bracket":
        "A bracket is drawn for a single-elimination tournament.", "games": "Games",
        "choose": "Choose the partita", "nobody": "nobody", "english": "English",
        "italian": "Italiano", "results": "Results", "table_n": "Table {n}",
        "effect": "Effect", "before": "before", "after": "after", "what_if": "What if…",
        "accept": "accept", "reject": "reject", "void_kind": "void a position",
        "ruling_kind": "ruling on a position", "withdraw": "Withdraw",
        "tokens_shown_once": "The links are shown only now: print the cards.",
        "notation": "A move in writing",
        "digital": "Digital dice",
        "roll_digital": "Roll",
        "season": "Season",
        "wrong_passphrase": "wrong passphrase", "paired_n": "round {n} paired",
        "closed_n": "round {n} closed", "started_m": "{m} started", "recorded_m": "{m}: recorded",
        "out": "out", "salt": "salt", "to_table": "to the table", "state_now": "State",
    },
}  # fmt: skip


def page_words(lang: str) -> dict[str, str]:
    """The exports' words and the pages' own, in one language (``it`` or ``en``)."""
    return {**words(lang), **PAGE_WORDS[lang]}


# What a referee records, by the event's kind (the buttons and the turns' descriptions).
KINDS: dict[str, dict[str, str]] = {
    "it": {
        "roll": "tira", "choose": "scegli", "bet": "punta", "word": "parola", "chain": "catena",
        "expression": "espressione", "reroll": "ritira", "card": "carta", "seal": "sigilla",
        "start": "inizia", "guess": "indovina", "answer": "risposta", "reveal": "rivela",
        "hint": "indizio", "doubt": "dubita", "pass": "passa", "timeout": "tempo scaduto",
        "stand": "si ferma", "void": "annullamento", "ruling": "decisione",
        "right": "indovinata", "wrong": "sbagliata",
        "up": "su", "down": "giù", "active": "in gara", "withdrawn": "ritirato",
        "dropped": "ritirato durante il torneo",
    },
    "en": {
        "roll": "roll", "choose": "choose", "bet": "bet", "word": "word", "chain": "chain",
        "expression": "expression", "reroll": "reroll", "card": "card", "seal": "seal",
        "start": "start", "guess": "guess", "answer": "answer", "reveal": "reveal",
        "hint": "hint", "doubt": "doubt", "pass": "pass", "timeout": "time out",
        "stand": "stand", "void": "void", "ruling": "ruling", "right": "right", "wrong": "wrong",
        "up": "up", "down": "down", "active": "active", "withdrawn": "withdrawn",
        "dropped": "dropped out",
    },
}  # fmt: skip
DICE = {
    "it": {"consonant": "dado delle consonanti", "vowel": "dado delle vocali"},
    "en": {"consonant": "consonant die", "vowel": "vowel die"},
}
_DUE = re.compile(r"\b(consonant|vowel|d\d+) x(\d+)")


def kind(name: Any, lang: str) -> str:
    """A kind of event, or a choice offered (``up``), in ``lang`` (as it is when unknown)."""
    return KINDS[lang].get(str(name), str(name))


def die(name: str, lang: str) -> str:
    return DICE[lang].get(name, name)


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
    }
