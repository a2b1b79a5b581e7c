"""The words of the web pages: the exports' words, and the few the pages add, in one place.

Italian by default, English by the switch. (Kept together so that they move into the message
catalogues with the exports' words.)
"""

from __future__ import annotations

from exports.i18n import words

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
        "acts": "Tocca a", "log": "Registro", "undo": "Annulla (void)",
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
        "digital": "Dadi digitali (li tira il programma, verificabili)",
        "roll_digital": "Tira",
        "season": "Stagione",
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
        "digital": "Digital dice (the program rolls them, verifiably)",
        "roll_digital": "Roll",
        "season": "Season",
    },
}  # fmt: skip


def page_words(lang: str) -> dict[str, str]:
    """The exports' words and the pages' own, in one language (``it`` or ``en``)."""
    return {**words(lang), **PAGE_WORDS[lang]}
