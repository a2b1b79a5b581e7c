"""``tournament demo``: a small club tournament, plus the worked examples of the rules.

Eight players, a Swiss of three rounds of Tetragon partite played by the computer players
(:mod:`tournament.services.simulate`), then every example match of ``examples/`` imported beside it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from engine.message import msg
from tournament.domain import views
from tournament.errors import Refused
from tournament.readside import readmodels
from tournament.services import day, simulate
from tournament.services.files import whole_database
from tournament.services.matches import check_log, import_log
from tournament.storage.backends import holds_store
from tournament.storage.locations import Location, PostgresServer, close, locate
from tournament.storage.store import Store, StoreError

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
NAME = "Torneo dimostrativo"
DATE = "2026-11-28"  # a Saturday at the club: the sheets print a date like a real day's
ROUNDS = 3
REFEREES = ("Anna", "Bruno", "Carla", "Dario")  # one a table: the sheets name their referee


def example_files() -> list[Path]:
    if not EXAMPLES.is_dir():
        raise StoreError(
            msg(
                "the examples folder is not at %(folder)s: install from a checkout (pip install "
                "-e .)",
                folder=EXAMPLES,
            )
        )
    return sorted(EXAMPLES.glob("*.jsonl"))


def is_demo(db: Location) -> bool:
    """Whether a database holds the demo and nothing else (so it may be rebuilt)."""
    store = Store(db)
    try:
        t = day.get_tournament(store)
    except Refused:
        return not any(True for _ in store.matches())
    finally:
        close(store)
    return bool(t.settings.get("demo"))


def build_demo(db: str | Path | Location, done: Callable[[str, int], None] | None = None) -> Store:
    """Build the demo into ``db``; a database with anything else in it is left alone.
    ``done(what, total)`` hears each round played and each example imported (#11)."""
    files = example_files()
    logs = [check_log(f.read_text(encoding="utf-8")) for f in files]
    db = locate(db)
    if holds_store(db):
        if not is_demo(db):
            raise StoreError(
                msg("%(db)s holds data that is not the demo's: pass another --db", db=db)
            )
        if isinstance(db, PostgresServer):
            from tournament.storage import postgres

            postgres.wipe(db, readmodels.TABLES)
        # a file: the new demo replaces it once whole (a Ctrl-C leaves the old one, #28)
    said = done or (lambda _what, _total: None)
    total = ROUNDS + len(logs)

    def build(store: Store) -> None:
        simulate.run(
            store,
            simulate.Simulation(
                players=8,
                format="swiss",
                rounds=ROUNDS,
                seed=2026,
                name=NAME,
                date=DATE,
                demo=True,
                progress=lambda what: said(what, total),
            ),
        )
        _name_referees(store)
        for f, log in zip(files, logs, strict=True):
            import_log(store, log)
            said(f.name, total)
        readmodels.update(store)

    return whole_database(db, build)


def _name_referees(store: Store) -> None:
    """Each table's referee, as an organizer names them with ``table start --referee``."""
    t = day.get_tournament(store)
    for tb in views.tables(t):
        for match in tb.matches.values():
            referee = REFEREES[(tb.number - 1) % len(REFEREES)]
            t.name_referee(match=match, referee=referee, by="organizer")
    day.save(store, t)
