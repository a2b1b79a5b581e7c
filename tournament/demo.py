"""``tournament demo``: the examples of the seeds, imported into a fresh database.

It grows into the demo tournament (8 players, Swiss, Tetragon partite) with the tournaments
issue; for now it imports every example match and shows how each ended.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tournament.matches import check_log, import_log, load, summary
from tournament.matchlog import MatchLog
from tournament.store import Store, StoreError

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@dataclass(frozen=True)
class DemoMatch:
    file: str
    info: dict


def example_logs() -> list[tuple[str, MatchLog]]:
    """Every example log, checked."""
    if not EXAMPLES.is_dir():
        raise StoreError(
            f"the examples folder is not at {EXAMPLES}: install from a checkout (pip install -e .)"
        )
    return [
        (p.name, check_log(p.read_text(encoding="utf-8"))) for p in sorted(EXAMPLES.glob("*.jsonl"))
    ]


def is_demo(db: Path, logs: list[tuple[str, MatchLog]]) -> bool:
    """Whether a database holds nothing but demo matches (so it may be rebuilt)."""
    known = {(log.header_line, log.lines) for _, log in logs}
    store = Store(db)
    return all((m.header, tuple(m.lines)) in known for m in store.matches())


def build_demo(db: Path) -> list[DemoMatch]:
    """Import the examples into ``db``; a database with anything else in it is left alone."""
    logs = example_logs()
    if db.exists():
        if not is_demo(db, logs):
            raise StoreError(
                f"{db} holds matches that are not the demo's: pass another --db for the demo"
            )
        db.unlink()
    store = Store(db)
    made = []
    for name, log in logs:
        match = import_log(store, log)
        made.append(DemoMatch(name, summary(load(store, match.number))))
    return made
