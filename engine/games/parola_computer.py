"""La parola nascosta's computer player (the contract's ``computer_move``, :mod:`engine.bots`):
deal, seal a word, guess, and answer, hint and reveal truthfully."""

from __future__ import annotations

from typing import Any

from engine.games.contract import Seat
from engine.games.hidden_words import guessed, seal


def computer_move(seat: Seat) -> dict[str, Any] | None:
    """One event of ``seat.kind`` for ``seat.turn``'s player; its words kept in ``seat.secrets``."""
    state, kind, by, rng, secrets = seat.state, seat.kind, seat.turn.player, seat.rng, seat.secrets
    players = seat.header.players
    if kind == "card":
        missing = [p for p in (*players, "table") if p not in state.cards]
        free = [c for c in state.deck if c not in state.cards.values()]
        return {"type": "card", "to": rng.choice(missing), "card": rng.choice(free)}
    if kind == "start":
        return {"type": "start", "by": "referee", "player": rng.choice(players)}
    if kind == "seal":
        word, salt = rng.choice(seat.words), f"{rng.getrandbits(64):016x}"
        secrets[by] = (word, salt)
        return {"type": "seal", "by": by, "commitment": seal(word, salt)}
    if kind == "guess":
        out = {o.player for o in state.out}
        others = [p for p in players if p != by and p not in out]
        return {
            "type": "guess",
            "by": by,
            "target": rng.choice(others),
            "word": rng.choice(seat.words),
        }
    if kind not in ("answer", "hint", "reveal"):
        return None
    word, salt = secrets[by]
    if kind == "answer":
        return {"type": "answer", "by": by, "right": guessed(state.pending.word, word)}
    if kind == "hint":
        return {"type": "hint", "by": by, "letter": word[0] if state.silent == 1 else word[-1]}
    return {"type": "reveal", "by": by, "word": word, "salt": salt}
