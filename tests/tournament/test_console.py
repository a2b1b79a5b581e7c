"""tournament play: the referee's console, driven line by line, and in a real terminal (tmux)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.dice import DEFAULT_FACES, digital_roll, seed_commitment
from engine.errors import NotAllowedNow, RuleViolation
from engine.events import parse_event
from engine.notation import format as format_move
from tests.support import EXAMPLES, play
from tests.tournament.test_match_cli import ok
from tournament.cli.console import Console
from tournament.storage.store import Store

EXAMPLE_NAMES = sorted(p.name for p in EXAMPLES.glob("*.jsonl"))


def line_for(e: dict) -> str | None:
    """What a referee types for one input event of a log: its notation (derived events the
    console writes itself; a void is the console's undo of the last move)."""
    kind = e["type"]
    if kind in ("out", "end"):
        return None
    if kind == "void":
        return f"undo {e['reason']}"
    return format_move(parse_event(e))


def comparable(events: list[dict]) -> list[dict]:
    added = ("seq", "at", "hash", "reason")
    return [{k: v for k, v in e.items() if k not in added} for e in events]


class Script:
    """Feeds the console its lines; records the seconds each prompt was given."""

    def __init__(self, lines: list[str]) -> None:
        self.lines: Iterator[str] = iter(lines)
        self.seconds: list[float | None] = []
        self.said: list[str] = []

    def read(self, prompt: str, seconds: float | None, hidden: bool) -> str | None:
        self.seconds.append(seconds)
        return next(self.lines, "quit")


def new_match(db: Path, header: dict) -> str:
    args = ["match", "new", header["game"], *header["players"]]
    for p in header.get("outside", []):
        args += ["--outside", p]
    if header.get("start"):
        args += ["--start", header["start"]]
    return ok(db, *args).strip()


@pytest.mark.parametrize("name", EXAMPLE_NAMES)
def test_every_example_played_through_the_console_gives_the_same_log(
    tmp_path: Path, name: str
) -> None:
    header, *events = [json.loads(x) for x in (EXAMPLES / name).read_text().splitlines()]
    db = tmp_path / "c.db"
    number = new_match(db, header)
    # The console's undo voids the last move, as every void of the examples does.
    lines = [line for e in events if (line := line_for(e))]
    script = Script(lines)
    Console(Store(db), number, script.read, script.said.append, timers=False).run()
    exported = [json.loads(x) for x in ok(db, "match", "export", number).splitlines()[1:]]
    if "parola" in name:
        # The example writes the final challenge's out after the reveals; recording writes
        # derived events as soon as they follow, so only the moves and the outcome compare.
        events, exported = (
            [e for e in log if e["type"] not in ("out", "end")] + [log[-1]]
            for log in (events, exported)
        )
    assert comparable(exported) == comparable(events)


def test_timers_follow_ch4_and_a_silent_clock_records_a_timeout(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    ok(db, "match", "new", "ventuno", "giallo", "blu")
    answers = iter(["roll giallo d6 4 5", None, "quit"])
    seen: list[float | None] = []

    def read(prompt: str, seconds: float | None, hidden: bool) -> str | None:
        seen.append(seconds)
        return next(answers)

    Console(Store(db), "M1", read, lambda _: None).run()
    assert seen[:2] == [15, 15]  # Il Ventuno: 15 seconds a turn
    info = json.loads(ok(db, "match", "show", "M1", "--json"))
    assert info["out"] == ["giallo"] and info["winners"] == ["blu"]  # the timeout (CH-4)


def test_beginners_catena_clock_and_pause(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    ok(db, "match", "new", "catena", "giallo", "blu", "--outside", "verde")
    seen: list[float | None] = []
    answers = iter(
        [
            "roll giallo consonant C",
            "roll giallo vowel A",
            "pause",
            "word giallo casa",
            "resume",
            "quit",
        ]
    )

    def read(prompt: str, seconds: float | None, hidden: bool) -> str | None:
        seen.append(seconds)
        return next(answers)

    Console(Store(db), "M1", read, lambda _: None, beginner=True).run()
    # Rolls cannot time out; after the pause, no clock until resume.
    assert seen == [None, None, None, None, None, None]


def test_undo_voids_the_last_move_and_errors_store_nothing(tmp_path: Path) -> None:
    db = tmp_path / "u.db"
    ok(db, "match", "new", "ventuno", "giallo", "blu")
    said: list[str] = []
    script = Script(
        [
            "roll blu d6 1 2",
            "roll giallo d6 4 5",
            "undo typed the wrong dice",
            "roll giallo d6 4 6",
            "fly giallo",
            "quit",
        ]
    )
    Console(Store(db), "M1", script.read, said.append, timers=False).run()
    # The console speaks Italian by default; the move typed stays in the notation.
    assert any("non tocca a blu" in s and "non è stato registrato nulla" in s for s in said)
    assert any("mossa sconosciuta 'fly'" in s for s in said)
    info = json.loads(ok(db, "match", "show", "M1", "--json"))
    assert info["voided"] == [1] and info["events"] == 3


def test_digital_dice_are_sealed_derived_revealed_and_verified(tmp_path: Path) -> None:
    db = tmp_path / "d.db"
    ok(db, "match", "new", "updown", "giallo", "blu")
    moves = ["roll"] + ["bet blu up", "roll", "bet giallo down", "roll"] * 20
    script = Script(moves)
    Console(Store(db), "M1", script.read, script.said.append, digital=True, timers=False).run()
    log = [json.loads(x) for x in ok(db, "match", "export", "M1").splitlines()[1:]]
    assert log[0]["type"] == "dice-commit"
    assert all(e.get("digital") for e in log if e["type"] == "roll")
    assert log[-1]["type"] == "dice-reveal"  # the match ended: the seed is shown
    assert "every hash chain is intact" in ok(db, "verify")
    # A digital roll whose faces were changed no longer follows from the seed.
    seed, commit = "s3cret", seed_commitment("s3cret")
    good = list(digital_roll(seed, 2, "d6", 2, DEFAULT_FACES))
    bad = [good[0] % 6 + 1, good[1]]
    for values, fine in ((good, True), (bad, False)):
        events = [
            {"type": "dice-commit", "by": "referee", "commitment": commit},
            {"type": "roll", "by": "giallo", "die": "d6", "values": values, "digital": True},
            {"type": "dice-reveal", "by": "referee", "seed": seed},
        ]
        if fine:
            assert play("ventuno", ["giallo", "blu"], events).dice_reveal_at == 3
        else:
            with pytest.raises(RuleViolation, match="position 2 does not follow from the seed"):
                play("ventuno", ["giallo", "blu"], events)
    with pytest.raises(RuleViolation, match="does not match its seal"):
        play("ventuno", ["giallo", "blu"], [events[0], {**events[2], "seed": "other"}])
    with pytest.raises(NotAllowedNow, match="needs the dice's seed sealed first"):
        play("ventuno", ["giallo", "blu"], [events[1]])


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is missing: apt-get install tmux")
def test_the_real_console_in_tmux(tmp_path: Path) -> None:
    db = tmp_path / "tmux.db"
    header, *events = [
        json.loads(x) for x in (EXAMPLES / "ventuno-seed.jsonl").read_text().splitlines()
    ]
    number = new_match(db, header)
    session = f"play{time.monotonic_ns()}"
    subprocess.run(
        [
            "tmux",
            "new-session",
            "-d",
            "-s",
            session,
            "-x",
            "120",
            "-y",
            "40",
            f"tournament --db {db} play {number}; sleep 60",
        ],
        check=True,
    )
    try:
        # The clock ticks down while the referee has not typed anything (Il Ventuno: 15 s).
        _wait_for_prompt(session)
        first = _clock(session)
        time.sleep(1.6)
        second = _clock(session)
        assert first is not None and second is not None and second < first, _screen(session)
        for e in events:
            line = line_for(e)
            if line is None:
                continue
            _wait_for_prompt(session)
            subprocess.run(["tmux", "send-keys", "-t", session, "-l", line], check=True)
            subprocess.run(["tmux", "send-keys", "-t", session, "Enter"], check=True)
            time.sleep(0.3)
        _wait_for(session, "partita finita: vince verde")
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], check=False)
    exported = [json.loads(x) for x in ok(db, "match", "export", number).splitlines()[1:]]
    assert comparable(exported) == comparable(events)


def _screen(session: str) -> str:
    return subprocess.run(
        ["tmux", "capture-pane", "-p", "-t", session, "-S", "-200"], capture_output=True, text=True
    ).stdout


def _clock(session: str) -> int | None:
    found = re.findall(r"\[\s*(\d+)s\]", _screen(session))
    return int(found[-1]) if found else None


def _wait_for_prompt(session: str, seconds: float = 20) -> None:
    """Until the last line of the screen is a prompt waiting for a move (it ends with '>')."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        lines = [line for line in _screen(session).splitlines() if line.strip()]
        if lines and lines[-1].rstrip().endswith(">"):
            return
        time.sleep(0.1)
    raise AssertionError(f"no prompt:\n{_screen(session)}")


def _wait_for(session: str, text: str, seconds: float = 20) -> str:
    deadline = time.monotonic() + seconds
    screen = ""
    while time.monotonic() < deadline:
        screen = subprocess.run(
            ["tmux", "capture-pane", "-p", "-t", session, "-S", "-200"],
            capture_output=True,
            text=True,
        ).stdout
        if text in screen:
            return screen
        time.sleep(0.1)
    raise AssertionError(f"{text!r} never appeared:\n{screen}")


def test_la_parola_nascosta_words_are_typed_hidden_and_only_sealed(tmp_path: Path) -> None:
    db = tmp_path / "p.db"
    ok(db, "match", "new", "parola_nascosta", "giallo", "blu")
    hidden: list[bool] = []
    lines = iter(
        [
            "card giallo 01",
            "card blu 02",
            "card table 04",
            "seal giallo",
            "cassaforte",
            "seal blu",
            "martello",
            "start giallo",
            "quit",
        ]
    )

    def read(prompt: str, seconds: float | None, hidden_input: bool) -> str | None:
        hidden.append(hidden_input)
        return next(lines)

    said: list[str] = []
    Console(Store(db), "M1", read, said.append).run()
    assert hidden.count(True) == 2  # the two words, and nothing else, were read without echo
    assert not any("cassaforte" in s or "martello" in s for s in said)
    export = ok(db, "match", "export", "M1")
    assert "cassaforte" not in export and "martello" not in export
    assert json.loads(ok(db, "match", "show", "M1", "--json"))["next"][0]["events"] == ["guess"]


def test_alphatianas_six_seconds_are_a_hint_not_a_timeout(tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    ok(db, "match", "new", "alphatiana", "M", "R")
    seen: list[float | None] = []
    answers = iter(["roll M d6 6 6 5 5 3", "stand M", None, "choose R 5", "quit"])

    def read(prompt: str, seconds: float | None, hidden: bool) -> str | None:
        seen.append(seconds)
        return next(answers)

    said: list[str] = []
    Console(Store(db), "M1", read, said.append).run()
    assert seen[:4] == [None, None, 6, None]  # the clock shows six seconds, then waits
    assert any("sei secondi passati" in s for s in said)
    info = json.loads(ok(db, "match", "show", "M1", "--json"))
    assert info["next"][0]["expects"].startswith("defend the 5s")  # no timeout was recorded


def test_a_shared_clock_times_out_everyone_still_writing(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    ok(db, "match", "new", "tiro", "giallo", "blu", "--outside", "verde")
    seen: list[float | None] = []
    answers = iter(
        [
            "roll giallo d6 6 6 5 1",
            "roll blu d6 5 4 2 1",
            "roll verde d20 11",
            "expr giallo 6 x (5:6+1)",
            None,
            "quit",
        ]
    )

    def read(prompt: str, seconds: float | None, hidden: bool) -> str | None:
        seen.append(seconds)
        return next(answers)

    Console(Store(db), "M1", read, lambda _: None).run()
    assert seen[:5] == [None, None, None, 60, 60]  # rolls have no clock; expressions have 60 s
    info = json.loads(ok(db, "match", "show", "M1", "--json"))
    assert info["winners"] == ["giallo"] and info["notes"][-1]["text"] == "no expression"


def test_rolls_may_leave_out_the_player_and_the_die(tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    ok(db, "match", "new", "asta", "giallo", "blu")
    script = Script(["roll vowel E U/A", "roll C", "quit"])
    Console(Store(db), "M1", script.read, script.said.append, timers=False).run()
    log = [json.loads(x) for x in ok(db, "match", "export", "M1").splitlines()[1:]]
    assert [(e["die"], e["values"]) for e in log] == [("vowel", ["E", "U/A"]), ("consonant", ["C"])]


def test_a_move_typed_while_another_terminal_wrote_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "two.db"
    ok(db, "match", "new", "ventuno", "giallo", "blu")
    lines = iter(["roll giallo d6 1 2", "quit"])
    other = iter([True])

    def read(prompt: str, seconds: float | None, hidden: bool) -> str | None:
        if next(other, False):  # the other terminal writes while the referee types
            ok(db, "match", "roll", "M1", "giallo", "d6", "4", "5")
        return next(lines)

    said: list[str] = []
    Console(Store(db), "M1", read, said.append, timers=False).run()
    assert any(s.startswith("errore: la partita è cambiata") for s in said), said
    assert json.loads(ok(db, "match", "show", "M1", "--json"))["events"] == 1


def test_il_ventunos_running_total_is_shown_after_each_move(tmp_path: Path) -> None:
    """#11: the shared total after every choice, in the table's language (VEN-1)."""
    db = tmp_path / "v.db"
    ok(db, "match", "new", "ventuno", "giallo", "blu")
    moves = ["roll giallo d6 4 5", "choose 5", "roll blu d6 6 6", "choose 12", "roll giallo d6 1 3"]
    for lang, state in (("it", "situazione: totale"), ("en", "state: total")):
        said: list[str] = []
        script = Script([*moves, "quit"] if lang == "it" else ["quit"])
        Console(Store(db), "M1", script.read, said.append, timers=False, lang=lang).run()
        totals = [s for s in said if s.startswith(f"{state} ")]
        if lang == "it":
            assert [t.split(";")[0] for t in totals] == [
                f"{state} {n}" for n in (0, 0, 5, 5, 17, 17)
            ]
        else:
            assert totals == [f"{state} 17; rolled 1-3"]  # resumed: the same total, in English
