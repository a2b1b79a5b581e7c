"""Digital dice: the program's auditable dice, for every front end (the recording verbs, the
console, the referee's page, all through :mod:`tournament.services.play`).

A match rolled with digital dice has a secret seed (128 random bits). Its commitment is recorded
in the log (``dice-commit``) before the first roll; each roll follows from the seed and the
roll's position (:func:`engine.dice.digital_roll`); when the match ends the seed is recorded
(``dice-reveal``) and ``tournament verify`` recomputes every roll. Until then the seed is kept
outside the log, in ``dice_seeds``, one of the store's own tables beside its events (in the
SQLite file, or in the tournament's schema on a PostgreSQL server; ``tournament db copy``
copies it), and read only here, to record a roll: never by a page, the API or the stream.
"""

from __future__ import annotations

from engine.dice import seed_commitment
from engine.events import REFEREE, DiceCommit, DiceReveal, Event
from engine.message import msg
from engine.notation import format as format_move
from tournament.errors import Refused
from tournament.services.matches import Loaded, load, record_move
from tournament.storage.sql import ReadDB, ensure, own_tables
from tournament.storage.store import Store

TABLE = "dice_seeds"
COLUMNS: dict[str, type] = {"match": str, "seed": str}


def seed(store: Store, number: str) -> str | None:
    """The match's secret seed, if its dice were sealed in this store."""
    with own_tables(store, write=False) as db:
        if TABLE not in db.tables():
            return None
        rows = db.rows(f"select seed from {TABLE} where match = ?", [number])
    return str(rows[0][0]) if rows else None


def keep(store: Store, number: str) -> str:
    """The seed kept for a match, made now if there is none (two phones sealing one match at
    once get the same seed: a seed that was never committed has never been shown)."""
    with own_tables(store) as db:
        return _kept(db, number)


def _kept(db: ReadDB, number: str) -> str:
    ensure(db, TABLE, COLUMNS, "match")
    rows = db.rows(f"select seed from {TABLE} where match = ?", [number])
    if rows:
        return str(rows[0][0])
    import secrets  # not imported by a recording call (#15)

    made = secrets.token_hex(16)
    db.insert(TABLE, list(COLUMNS), [(number, made)])
    return made


def sealed(loaded: Loaded) -> bool:
    """Whether the match rolls digital dice now (sealed, not revealed yet)."""
    replay = loaded.replay
    return replay.dice_commit_at is not None and replay.dice_reveal_at is None


def seal(
    store: Store, number: str, lexicon: str | None = None, expected: int | None = None
) -> tuple[Loaded, list[Event]]:
    """Seal the match's digital dice: keep a fresh seed, record its commitment in the log (a
    roll written without its faces then takes them from the seed, see
    :func:`tournament.services.play.record_move`)."""
    text = format_move(DiceCommit(REFEREE, seed_commitment(keep(store, number))))
    return record_move(store, number, text, lexicon, expected)


def reveal(store: Store, number: str, lexicon: str | None = None) -> tuple[Loaded, list[Event]]:
    """Record the seed of a finished match's digital dice (nothing stored when there is none
    to show). The move that ends a match reveals it already
    (:func:`tournament.services.play.record_move`); the console reveals it here, once the
    referee had the chance to undo a typo in that move.

    Raises :class:`Refused` when the seed is not in this store (sealed elsewhere).
    """
    loaded = load(store, number, lexicon)
    if loaded.replay.outcome is None or not sealed(loaded):
        return loaded, []
    kept = seed(store, number)
    if kept is None:
        raise Refused(
            msg("the seed of %(match)s's digital dice is not in this database", match=number)
        )
    return record_move(store, number, format_move(DiceReveal(REFEREE, kept)), lexicon)


def every_seed(store: Store) -> list[tuple[str, str]]:
    """Every kept seed, by match (what ``tournament db copy`` carries over)."""
    with own_tables(store, write=False) as db:
        if TABLE not in db.tables():
            return []
        return [
            (str(m), str(s)) for m, s in db.rows(f"select match, seed from {TABLE} order by match")
        ]


def keep_seeds(store: Store, seeds: list[tuple[str, str]]) -> None:
    """Keep seeds copied from another store (an empty one: see ``db copy``)."""
    if not seeds:
        return
    with own_tables(store) as db:
        ensure(db, TABLE, COLUMNS, "match")
        db.insert(TABLE, list(COLUMNS), seeds)
