"""The referee's console corrects a match of a closed round as the command line does: through the
corrections service, its preview shown (the standings it changes, the move the match then waits
for), stored only once the referee confirms it, and the same events stored as
``tournament match void M1 5 --reason ... --yes`` and ``match move M1 pass b --yes``. Elsewhere
the console records at once, as it always did."""

from __future__ import annotations

import json
from pathlib import Path

from tests.tournament.test_console import Script
from tests.tournament.test_flow_corrections import events, played, points
from tests.tournament.test_match_cli import ok
from tournament.cli.console import Console
from tournament.storage.store import Store


class Table(Script):
    """A script that also keeps what the console asked."""

    def __init__(self, lines: list[str]) -> None:
        super().__init__(lines)
        self.prompts: list[str] = []

    def read(self, prompt: str, seconds: float | None, hidden: bool) -> str | None:
        self.prompts.append(prompt)
        return super().read(prompt, seconds, hidden)


def at_the_table(db: Path, lines: list[str], lang: str = "en") -> Table:
    table = Table(lines)
    store = Store(db)
    Console(store, "M1", table.read, table.said.append, timers=False, lang=lang).run()
    store.close()
    return table


def test_an_undo_in_a_closed_round_is_previewed_and_stored_only_once_confirmed(
    tmp_path: Path,
) -> None:
    cli, console = played(tmp_path / "cli.db"), played(tmp_path / "console.db")
    ok(cli, "match", "void", "M1", "5", "--reason", "wrong player", "--yes")
    before = events(console)

    # M1 is finished: the console offers to undo its last move (5, b's pass); "n" stores nothing.
    table = at_the_table(console, ["undo wrong player", "n"])
    said = "\n".join(table.said)
    assert "M1 is in round 1, already closed" in said
    # The standings the void leaves, as the CLI's preview shows them (the rows it changes).
    assert "  c: #1 with 3 (was #2 with 3)\n  a: #2 with 0 (was #1 with 3)\n" in said
    assert (
        "M1 then waits for the move that replaces it (REF-2): b: write an expression for 11 "
        "with 1 1 1 1 [expression/pass/timeout]; until then its table is not decided"
    ) in said
    assert "store this correction: void 5 wrong player? (y/n) " in table.prompts
    assert "nothing stored: the correction was not confirmed" in said
    assert events(console) == before

    # Confirmed, in Italian (the table's language): stored as the CLI's void --yes stores it.
    table = at_the_table(console, ["undo wrong player", "s", "quit"], lang="it")
    assert any(p.startswith("registrare questa correzione: void 5") for p in table.prompts)
    assert "M1 è nel turno 1, già chiuso" in "\n".join(table.said)
    assert events(console) == events(cli)
    assert points(console) == points(cli)


def test_the_replacement_of_the_voided_move_is_previewed_and_confirmed_too(
    tmp_path: Path,
) -> None:
    cli, console = played(tmp_path / "cli.db"), played(tmp_path / "console.db")
    for db in (cli, console):
        ok(db, "match", "void", "M1", "5", "--reason", "wrong player", "--yes")
    ok(cli, "match", "move", "M1", "pass", "b", "--yes")
    before = events(console)

    table = at_the_table(console, ["pass", "no", "pass", "y", ""])
    said = "\n".join(table.said)
    assert "  a: #1 with 3 (was #2 with 0)" in said  # the move as it will stand
    assert table.prompts.count("store this correction: pass b? (y/n) ") == 2
    assert said.count("nothing stored: the correction was not confirmed") == 1
    assert "recorded #8: b passes\nrecorded #9: end: winner a" in said
    assert events(console) != before
    assert events(console) == events(cli)
    assert points(console)["a"] == 3


def test_in_an_open_round_the_console_records_at_once(tmp_path: Path) -> None:
    db = played(tmp_path / "t.db")
    match = ok(db, "table", "start", "2", "1", "tiro").strip()
    table = Table(["roll a d6 6 6 5 1", "undo typo", "quit"])
    store = Store(db)
    Console(store, match, table.read, table.said.append, timers=False, lang="en").run()
    store.close()
    assert not any("(y/n)" in p for p in table.prompts)
    assert not any("already closed" in line for line in table.said)
    log = [json.loads(line) for line in Store(db).get_match(match).lines]
    assert [e["type"] for e in log] == ["roll", "void"]
