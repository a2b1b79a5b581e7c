"""The words of printed material: Italian by default, English on request; game names as the
rules have them, in both."""

from __future__ import annotations

WORDS: dict[str, dict[str, str]] = {
    "it": {
        "sheet": "Foglio di gioco", "match": "Partita", "players": "Giocatori", "date": "Data",
        "table": "Tavolo", "round": "Turno", "referee": "Arbitro", "signature": "Firma",
        "winners": "Vincitori", "points": "Punti", "total": "Totale", "word": "Parola",
        "score": "Punteggio", "bonus": "Bonus", "letters": "Lettere", "dice": "Dadi",
        "target": "Bersaglio", "expression": "Espressione", "divisions": "Divisioni",
        "multiplications": "Moltiplicazioni", "subtractions": "Sottrazioni",
        "anchors": "Parole di partenza", "chain": "Catena", "length": "Anelli",
        "base": "Base", "ships": "Navi", "sunk": "Affondata", "number": "Numero",
        "call": "Previsione", "consonants": "Consonanti", "doubts": "Dubbi",
        "damage": "Danni", "attack": "Attacco", "defence": "Difesa", "card": "Carta",
        "hint": "Indizio", "guess": "Tentativo", "games": "Giochi scelti",
        "head": "Segno (hash finale del registro)", "position": "N.", "who": "Chi",
        "what": "Cosa", "state": "Situazione", "pairings": "Abbinamenti", "bye": "Riposo",
        "standings": "Classifica", "rank": "Pos.", "player": "Giocatore",
        "challenge": "Punti sfida", "buchholz": "Buchholz", "buchholz_cut1": "Buchholz -1",
        "sonneborn_berger": "Sonneborn-Berger", "head_to_head": "Scontro diretto",
        "bracket": "Tabellone", "report": "Resoconto della partita", "why": "Motivo",
        "void": "annullato", "ruling": "decisione arbitrale", "turn": "Turno",
        "challenger": "Sfidante", "outside": "Estranei", "running": "Totale progressivo",
        "value": "Valore", "first": "Prima lettera", "last": "Ultima lettera",
        "percentile": "Percentile", "answer": "Risposta", "round_n": "Turno {n}",
        "silent": "Giro muto", "yes_no": "sì / no", "hit": "Colpita", "total_points": "Totale",
    },
    "en": {
        "sheet": "Score sheet", "match": "Match", "players": "Players", "date": "Date",
        "table": "Table", "round": "Round", "referee": "Referee", "signature": "Signature",
        "winners": "Winners", "points": "Points", "total": "Total", "word": "Word",
        "score": "Score", "bonus": "Bonus", "letters": "Letters", "dice": "Dice",
        "target": "Target", "expression": "Expression", "divisions": "Divisions",
        "multiplications": "Multiplications", "subtractions": "Subtractions",
        "anchors": "Anchor words", "chain": "Chain", "length": "Links",
        "base": "Base", "ships": "Ships", "sunk": "Sunk", "number": "Number",
        "call": "Call", "consonants": "Consonants", "doubts": "Doubts",
        "damage": "Damage", "attack": "Attack", "defence": "Defence", "card": "Card",
        "hint": "Hint", "guess": "Guess", "games": "Games chosen",
        "head": "Seal (the log's head hash)", "position": "No.", "who": "Who",
        "what": "What", "state": "State", "pairings": "Pairings", "bye": "Bye",
        "standings": "Standings", "rank": "Rank", "player": "Player",
        "challenge": "Challenge points", "buchholz": "Buchholz", "buchholz_cut1": "Buchholz cut-1",
        "sonneborn_berger": "Sonneborn-Berger", "head_to_head": "Head-to-head",
        "bracket": "Bracket", "report": "Match report", "why": "Why",
        "void": "void", "ruling": "referee's ruling", "turn": "Turn",
        "challenger": "Challenger", "outside": "Outside", "running": "Running total",
        "value": "Value", "first": "First letter", "last": "Last letter",
        "percentile": "Percentile", "answer": "Answer", "round_n": "Round {n}",
        "silent": "Silent round", "yes_no": "yes / no", "hit": "Hit", "total_points": "Total",
    },
}  # fmt: skip


def words(lang: str) -> dict[str, str]:
    """The words of one language (``it`` or ``en``)."""
    if lang not in WORDS:
        raise ValueError(f"printed material is in Italian (it) or English (en), not {lang!r}")
    return WORDS[lang]
