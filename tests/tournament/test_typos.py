"""Accepted though wrong (#28): out-of-range settings, a referee's assist asked nonsense, a
malformed expression or a word the lexicon does not hold stored only when said to be meant."""

from __future__ import annotations

import json
from pathlib import Path

from tests.tournament.test_console import Script
from tests.tournament.test_match_cli import ok, refused, run
from tournament.cli.console import Console
from tournament.services import play
from tournament.storage.locations import close
from tournament.storage.store import Store


def _log(db: Path, number: str = "M1") -> list[dict]:
    return [json.loads(x) for x in ok(db, "match", "export", number).splitlines()[1:]]


def test_a_tournament_of_a_billion_billion_rounds_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    stderr = refused(db, "create", "X", "--rounds", "999999999999999999999")
    assert "at most 100 rounds, not 999999999999999999999" in stderr
    assert "created X" in ok(db, "create", "X", "--rounds", "100")  # nothing stored before


def test_a_long_name_is_refused_by_a_standalone_match_too(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    stderr = refused(db, "match", "new", "tiro", "g" * 10_000, "blu")
    assert "at most 60 characters, not 10000" in stderr
    assert "at most 60 characters" in refused(db, "match", "new", "tiro", "a", "b", "-o", "v" * 61)


def test_solve_texas_refuses_a_pool_the_dice_cannot_give_and_says_when_no_word_fits(
    tmp_path: Path,
) -> None:
    db = tmp_path / "t.db"
    assert "4, 6 or 8 letters" in refused(db, "solve", "texas", "XYZ")
    assert "made of letters, not '1'" in refused(db, "solve", "texas", "S1AB")
    result = run(db, "solve", "texas", "XYZW")
    assert result.exit_code == 0 and "no admitted word from these letters" in result.stdout
    assert ok(db, "solve", "texas", "SNOASACI").strip() == "anossica: 9"


def _tiro(db: Path) -> None:
    ok(db, "match", "new", "tiro", "giallo", "blu", "--outside", "verde")
    store = Store(db)
    for move in ("roll giallo d6 6 6 5 1", "roll blu d6 5 4 2 1", "roll verde d20 11"):
        play.record_move(store, "M1", move)
    close(store)


def test_a_malformed_expression_is_stored_only_with_as_written(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    _tiro(db)
    stderr = refused(db, "match", "expr", "M1", "giallo", "6 x (")
    assert "'6 x (' is not a well-formed expression" in stderr and "--as-written" in stderr
    assert len(_log(db)) == 3
    # A wrong use of the dice is an answer: stored as it is (a miss, TIR-2).
    assert "M1 #4 expr blu 5+5+5" in ok(db, "match", "expr", "M1", "blu", "5+5+5")
    out = ok(db, "match", "expr", "M1", "giallo", "6 x (", "--as-written")
    assert "M1 #5 expr giallo" in out


def test_the_console_asks_before_storing_a_malformed_expression_or_an_unknown_word(
    tmp_path: Path,
) -> None:
    db = tmp_path / "t.db"
    _tiro(db)
    prompts: list[str] = []
    answers = iter(["expr giallo 6 x (", "n", "expr giallo 6 x (", "s", "expr blu (5+4+2):1", ""])

    def read(prompt: str, seconds: float | None, hidden: bool) -> str | None:
        prompts.append(prompt)
        return next(answers, "quit")

    said: list[str] = []
    Console(Store(db), "M1", read, said.append, timers=False).run()
    asked = [p for p in prompts if "registrarlo così com'è? [s/N]" in p]
    assert len(asked) == 2 and "'6 x (' non è un'espressione ben formata" in asked[0]
    assert "non è stato registrato nulla: scrivi di nuovo la mossa" in said
    assert [e.get("expr") for e in _log(db)[3:5]] == ["6 x (", "(5+4+2):1"]
    # A word the lexicon does not hold: asked too (Texas Word'em), and refused on "no".
    ok(db, "match", "new", "texas", "giallo", "blu", "--outside", "verde")
    store = Store(db)
    for move in ("roll giallo consonant S N", "roll blu consonant T N", "roll verde vowel O A"):
        play.record_move(store, "M2", move)
    script = Script(["word giallo snoa", "", "word giallo sano", "quit"])
    Console(store, "M2", script.read, script.said.append, timers=False, lang="en").run()
    assert "nothing stored: write the move again" in script.said
    assert [e.get("word") for e in _log(db, "M2")[3:]] == ["sano"]


def test_a_refusal_that_says_nothing_was_stored_says_it_once(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    _tiro(db)
    store = Store(db)
    console = Console(store, "M1", Script([]).read, (said := []).append, timers=False)
    console.try_record("expr giallo 6x(5:6+1)", at=2)  # the match moved on to 3 meanwhile
    assert len(said) == 1 and said[0].count("non è stato registrato nulla") == 1, said


def test_after_a_finished_challenge_the_prompt_is_short_and_the_hint_a_line(
    tmp_path: Path,
) -> None:
    """#28: the prompt was ~85 characters (Italian), redrawn on every key in 100 columns."""
    db = tmp_path / "t.db"
    _tiro(db)
    prompts: list[str] = []
    answers = iter(["expr giallo 6x(5:6+1)", "expr blu (5+4+2):1", ""])

    def read(prompt: str, seconds: float | None, hidden: bool) -> str | None:
        prompts.append(prompt)
        return next(answers, "quit")

    said: list[str] = []
    Console(Store(db), "M1", read, said.append, timers=False).run()
    assert prompts[-1] == "> " and max(map(len, prompts)) < 20, prompts
    hint = "partita finita: `annulla MOTIVO` se l'ultima mossa era un errore, altrimenti Invio"
    assert hint in said


def test_skipped_tests_say_what_is_missing() -> None:
    """#28: a skip named the CI script that installs a tool instead of what to install."""
    tests = Path(__file__).resolve().parents[1]
    vague = [p.name for p in tests.rglob("*.py") if "installed by .ci/" + "run" in p.read_text()]
    assert vague == []
