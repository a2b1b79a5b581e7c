"""Hostile inputs for the command line: mutated match logs and hostile arguments (issue 10).

The mutations take a seeded ``random.Random``, so the same generators serve the hypothesis tests
(which draw the generator) and a tally over many inputs:

    python -m tests.fuzzing 2000

runs that many mutated logs through ``match import`` and ``verify --file`` and that many hostile
recording commands, in process, and prints how many ended in a traceback.
"""

from __future__ import annotations

import contextlib
import functools
import json
import random
import sqlite3
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import typer.main
import typer.testing
from typer.testing import CliRunner

from engine.games import names

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
LOGS = sorted(EXAMPLES.glob("*.jsonl"))

# Values of every JSON type, and the ones that broke the reader: deep nesting, numbers beyond
# what Python converts (4,300 digits) or what a double holds, non-finite numbers, lone surrogates.
DEEP = 100_000
HOSTILE_JSON = [
    "null",
    "true",
    "0",
    "-1",
    "1.5",
    "1e999",
    "-1e999",
    "NaN",
    "Infinity",
    "9007199254740993",
    "18446744073709551616",
    "9" * 4_301,
    "-" + "9" * 5_000,
    '""',
    '" "',
    '"\\ud800"',
    '"a\\udfffb"',
    '"\\u0000"',
    '"referee"',
    "[]",
    "{}",
    "[" * DEEP + "]" * DEEP,
    '{"a":' * 5_000 + "1" + "}" * 5_000,
    '["\\ud800"]',
    '{"\\udcff": 1}',
]


def _span(rng: random.Random, size: int) -> tuple[int, int]:
    start = rng.randrange(size)
    return start, min(size, start + rng.randint(1, 24))


def _json_value(rng: random.Random) -> str:
    return rng.choice(HOSTILE_JSON)


def flip(data: bytes, rng: random.Random) -> bytes:
    i = rng.randrange(len(data))
    return data[:i] + bytes([rng.randrange(256)]) + data[i + 1 :]


def delete(data: bytes, rng: random.Random) -> bytes:
    a, b = _span(rng, len(data))
    return data[:a] + data[b:]


def duplicate(data: bytes, rng: random.Random) -> bytes:
    if rng.random() < 0.5:
        lines = data.split(b"\n")
        i = rng.randrange(len(lines))
        return b"\n".join(lines[: i + 1] + [lines[i]] + lines[i + 1 :])
    a, b = _span(rng, len(data))
    return data[:b] + data[a:b] + data[b:]


def swap_lines(data: bytes, rng: random.Random) -> bytes:
    lines = data.split(b"\n")
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]
    return b"\n".join(lines)


def _objects(data: bytes) -> list[Any] | None:
    try:
        return [json.loads(line) for line in data.decode("utf-8").splitlines() if line.strip()]
    except (ValueError, RecursionError):
        return None


def _with_value(data: bytes, rng: random.Random, raw: str) -> bytes:
    """Put a raw JSON value in place of a field of one line (or as a new field)."""
    objects = _objects(data)
    if not objects:
        return data + b"\n" + raw.encode("utf-8", "surrogatepass")
    i = rng.randrange(len(objects))
    obj = objects[i]
    marker = "\u2603marker\u2603"
    if isinstance(obj, dict):
        keys = [*obj, "note", "type", "by", "format", "players", "values", "on", "dice", "deck"]
        keys += ["start", "lexicon", "variants", "outside", "points", "winners", "seq", "hash"]
        obj[rng.choice(keys)] = marker
    else:
        obj = marker
    lines = [json.dumps(o, ensure_ascii=False) for o in objects]
    lines[i] = json.dumps(obj, ensure_ascii=False).replace(f'"{marker}"', raw, 1)
    return "\n".join(lines).encode("utf-8", "surrogatepass") + b"\n"


def wrong_value(data: bytes, rng: random.Random) -> bytes:
    return _with_value(data, rng, _json_value(rng))


def nest(data: bytes, rng: random.Random) -> bytes:
    depth = rng.choice([40, 1_000, DEEP])
    return _with_value(data, rng, "[" * depth + "1" + "]" * depth)


def huge_number(data: bytes, rng: random.Random) -> bytes:
    digits = rng.choice([17, 20, 400, 4_301, 6_000])
    return _with_value(data, rng, "".join(rng.choice("123456789") for _ in range(digits)))


def surrogate(data: bytes, rng: random.Random) -> bytes:
    """A lone surrogate, escaped (as JSON allows) or as raw bytes (which UTF-8 does not)."""
    text = data.decode("utf-8", "replace")
    quotes = [i for i, c in enumerate(text) if c == '"']
    escape = rng.choice(["\\ud800", "\\udfff", "\\udcff", "\\ud83d"])
    if not quotes or rng.random() < 0.2:
        return data.replace(b'"', b'"\xed\xa0\x80', 1)
    i = rng.choice(quotes) + 1
    return (text[:i] + escape + text[i:]).encode("utf-8")


def raw_bytes(data: bytes, rng: random.Random) -> bytes:
    junk = rng.choice([b"\xff", b"\x00", b"\xef\xbb\xbf", b"\r", b"\r\n", b"\x80abc", b"\n\n"])
    i = rng.randrange(len(data) + 1)
    return data[:i] + junk + data[i:]


MUTATIONS: list[Callable[[bytes, random.Random], bytes]] = [
    flip,
    delete,
    duplicate,
    swap_lines,
    wrong_value,
    nest,
    huge_number,
    surrogate,
    raw_bytes,
]


def mutated_log(rng: random.Random, logs: Sequence[Path] = LOGS) -> bytes:
    """One of the example logs (exported, with seq and hash, half the time) with 1-3 mutations."""
    data = rng.choice(list(logs)).read_bytes()
    if rng.random() < 0.5:
        data = exported(data)
    for _ in range(rng.randint(1, 3)):
        if data:
            data = rng.choice(MUTATIONS)(data, rng)
    return data


@functools.cache
def exported(data: bytes) -> bytes:
    """An example log as ``match export`` writes it: every event with seq and hash."""
    from tournament.logformat.matchlog import write_log
    from tournament.services.matches import check_log

    log = check_log(data.decode("utf-8"))
    return write_log(log.header_line, log.lines, log.hashes).encode("utf-8")


# --- hostile arguments ----------------------------------------------------------------------------

HOSTILE_TEXT = [
    "",
    " ",
    "0",
    "-1",
    "M0",
    "m-1",
    "M" + "9" * 4_400,
    "9" * 4_400,
    "9" * 4_000,
    "9" * 30,
    "gi\udcffallo",
    "\ud800",
    "ca\udcffsa",
    "\x00",
    "a\nb",
    "referee",
    "table",
    "²",
    "٣",
    "3²",
    "(" * 5_000 + "1" + ")" * 5_000,
    "1" + "+1" * 3_000,
    "6 x (5:6+1)",
    "1/0",
    "up",
    "right",
    "-",
    "--",
    "-x",
    "--help-me",
    "é" * 300,
    "x" * 20_000,
    "a,b,c",
    "1,2,3",
    "9" * 5_000 + ",1",
    "1",
    "2",
    "7",
    "99999999999999999999",
]

PLAYERS = sorted(
    {
        p
        for log in LOGS
        for key in ("players", "outside")
        for p in json.loads(log.read_text().split("\n")[0]).get(key, [])
    }
)
VERBS: dict[str, int] = {  # the recording verbs and how many arguments follow the match id
    "roll": 3,
    "choose": 2,
    "word": 2,
    "chain": 2,
    "expr": 2,
    "doubt": 1,
    "bet": 2,
    "pass": 1,
    "timeout": 1,
    "reroll": 3,
    "stand": 1,
    "card": 2,
    "seal": 1,
    "start": 1,
    "guess": 3,
    "answer": 2,
    "reveal": 2,
    "hint": 2,
    "rule": 2,
    "void": 1,
}
OPTIONS = {
    "word": ["--jolly"],
    "expr": ["--target"],
    "seal": ["--commitment"],
    "reveal": ["--salt"],
    "rule": ["--note"],
    "void": ["--reason"],
}
GAMES = list(names())  # the registry's


def hostile_text(rng: random.Random) -> str:
    if rng.random() < 0.6:
        return rng.choice(HOSTILE_TEXT)
    if rng.random() < 0.5:
        return rng.choice(PLAYERS + ["d6", "d20", "consonant", "vowel", "accept", "reject"])
    return "".join(_char(rng) for _ in range(rng.randint(1, 12)))


def _char(rng: random.Random) -> str:
    code = rng.choice([rng.randrange(32, 127), rng.randrange(0x80, 0x800), rng.randrange(0x110000)])
    return chr(code)


def hostile_command(rng: random.Random, matches: dict[str, list[str]]) -> list[str]:
    """A recording command (or ``match new``/``show``/``words check``) with hostile arguments."""
    kind = rng.random()
    if kind < 0.1:
        return [
            "match",
            "new",
            rng.choice(GAMES + [hostile_text(rng)]),
            *(hostile_text(rng) if rng.random() < 0.5 else p for p in rng.sample(PLAYERS, 2)),
        ]
    if kind < 0.15:
        return ["match", "show", hostile_text(rng)]
    if kind < 0.2:
        return ["words", "check", hostile_text(rng)]
    verb = rng.choice(list(VERBS))
    match = rng.choice(list(matches)) if rng.random() < 0.8 else hostile_text(rng)
    # Mostly the player who must act, so that the hostile part is what the engine judges.
    by = rng.choice(matches.get(match) or PLAYERS) if rng.random() < 0.7 else hostile_text(rng)
    args = [by] + [
        hostile_text(rng) if rng.random() < 0.7 else rng.choice(PLAYERS)
        for _ in range(VERBS[verb] - 1 + rng.choice([0, 0, 0, -1, 1]))
    ]
    for option in OPTIONS.get(verb, []):
        if rng.random() < 0.5:
            args += [option, hostile_text(rng)]
    return ["match", verb, match, *args]


# --- running them ---------------------------------------------------------------------------------


def snapshot(db: Path) -> list[str]:
    """Everything stored, as SQL: equal snapshots mean nothing was stored or changed."""
    if not db.exists():
        return []
    conn = sqlite3.connect(db)
    try:
        return list(conn.iterdump())
    finally:
        conn.close()


def seeded_db(db: Path, runner: CliRunner, app: Any) -> dict[str, list[str]]:
    """A database with every example match stopped half-way: each id and who may act next."""
    matches = {}
    for example in LOGS:
        lines = example.read_bytes().splitlines()
        half = db.parent / "half.jsonl"
        half.write_bytes(b"\n".join(lines[: 1 + (len(lines) - 1) // 2]) + b"\n")
        result = runner.invoke(app, ["--db", str(db), "match", "import", str(half)])
        assert result.exit_code == 0, result.output
        number = result.stdout.strip()
        shown = runner.invoke(app, ["--db", str(db), "match", "show", number, "--json"])
        info = json.loads(shown.stdout)
        matches[number] = [t["player"] for t in info.get("next", [])] or info["players"]
    return matches


@contextlib.contextmanager
def built_once(app: Any) -> Iterator[None]:
    """Let ``CliRunner.invoke(app, ...)`` reuse one click command, as a process does: typer
    rebuilds it from the signatures on every call (~70 ms), ten times what a fuzzed call costs."""
    command, build = typer.main.get_command(app), typer.testing._get_command
    typer.testing._get_command = lambda a: command if a is app else build(a)
    try:
        yield
    finally:
        typer.testing._get_command = build


def is_traceback(result: Any) -> bool:
    return result.exception is not None and not isinstance(result.exception, SystemExit)


HOSTILE_INTS = ["0", "-1", "1", "2", "3", "99999999999999999999", "9" * 4_400, "x", "1.5", "", "³"]
NOT_FUZZED = ("play", "demo", "serve", "simulate")  # interactive, or long by design


def any_command(rng: random.Random, root: Any, files: Sequence[str]) -> list[str]:
    """Any command but those of ``NOT_FUZZED``, each parameter given a hostile value of its kind
    (text, whole number, path), found by walking the click command tree."""
    commands = []

    def walk(command: Any, path: list[str]) -> None:
        if hasattr(command, "commands"):
            for name, sub in command.commands.items():
                walk(sub, [*path, name])
        elif path[0] not in NOT_FUZZED:
            commands.append((path, command))

    walk(root, [])
    path, command = rng.choice(commands)

    def value(param: Any) -> str:
        kind = getattr(param.type, "name", "")
        if kind == "path":
            return rng.choice(files)
        if kind == "integer":
            return rng.choice(HOSTILE_INTS)
        return hostile_text(rng) if rng.random() < 0.7 else rng.choice([*PLAYERS, "1", "M1"])

    args: list[str] = []
    for param in command.params:
        if param.name == "help":
            continue
        if param.param_type_name == "argument":
            if param.required or rng.random() < 0.5:
                args += [value(param) for _ in range(1 if param.nargs == 1 else rng.randint(1, 3))]
        elif rng.random() < (0.9 if param.required else 0.4):
            is_flag = getattr(param, "is_flag", False)
            args += [param.opts[0]] + ([] if is_flag else [value(param)])
    return [*path, *args]


def hostile_files(folder: Path) -> list[str]:
    """Paths a user might name by mistake: missing, a folder, a device, binary, deep JSON."""
    folder.mkdir(exist_ok=True)
    (folder / "deep.json").write_text("[" * 100_000)
    (folder / "binary").write_bytes(b"\xff\xfe\x00")
    return [
        str(folder / "missing"),
        str(folder),
        "/dev/null",
        str(folder / "deep.json"),
        str(folder / "binary"),
        str(folder / "out\udcff"),
        str(folder / "a" / "b"),
        "",
    ]


def tally(count: int, seed: int = 10) -> dict[str, list[int]]:
    """Run ``count`` inputs of each kind in process. For each kind: how many ended in a
    traceback, how many refusals were not one line on stderr, how many refusals stored something.
    """
    import os
    import tempfile

    from tournament.cli import full_app

    app, runner, rng = full_app(), CliRunner(), random.Random(seed)
    out = {"import": [0, 0, 0], "verify --file": [0, 0, 0], "recording": [0, 0, 0]}
    out["any command"] = [0, 0, 0]
    here = os.getcwd()
    with tempfile.TemporaryDirectory() as tmp, built_once(app):
        os.chdir(tmp)  # the demo and the exports write where they are asked, or here
        try:
            db, log, demo = Path(tmp) / "t.db", Path(tmp) / "log.jsonl", Path(tmp) / "demo.db"
            matches = seeded_db(db, runner, app)
            runner.invoke(app, ["--db", str(demo), "demo"])
            root, files = typer.main.get_command(app), hostile_files(Path(tmp) / "files")

            def run(kind: str, where: Path, args: list[str]) -> None:
                before = snapshot(where)
                result = runner.invoke(app, ["--db", str(where), *args])
                counts = out[kind]
                counts[0] += is_traceback(result)
                if result.exit_code and not is_traceback(result) and args[0] != "words":
                    counts[1] += result.stderr.count("\n") != 1
                    counts[2] += snapshot(where) != before

            for _ in range(count):
                log.write_bytes(mutated_log(rng))
                run("import", db, ["match", "import", str(log)])
                run("verify --file", db, ["verify", "--file", str(log)])
                run("recording", db, hostile_command(rng, matches))
                run("any command", demo, any_command(rng, root, files))
        finally:
            os.chdir(here)
    return out


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    for name, (bad, lines, stored) in tally(n).items():
        print(
            f"{name}: {bad} tracebacks out of {n} inputs; of the refusals, {lines} not one line "
            f"on stderr, {stored} that changed the database"
        )
