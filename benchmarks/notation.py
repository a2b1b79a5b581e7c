"""(f) The notation of moves: reading a move against a match, against applying its event alone;
and a line ten times longer (the web's pages take text from anyone), which should cost about
ten times as much (linear), not a hundred.

    python benchmarks/notation.py
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

from engine.bots import random_game
from engine.header import parse_header
from engine.lexicon import default_lexicon
from engine.match import Replay
from engine.notation import NotationError, format, parse

ROUNDS = 5


def best(fn: Callable[[], object], runs: int = ROUNDS) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def refused(text: str, replay: Replay) -> None:
    try:
        parse(text, replay)
    except NotationError:
        pass


def main() -> None:
    players = ["giallo", "blu", "verde", "rosso"]
    header = {"format": "tournament-match/1", "game": "battaglia", "players": players}
    start = Replay.start(parse_header(header), default_lexicon())
    replay = start
    for seed in range(1000):  # a long match: the first of at least 100 events
        replay = random_game(start, random.Random(seed))
        if replay.position >= 100:
            break
    steps, before = [], start
    for event in replay.events:
        steps.append((before, event, format(event)))
        before = before.apply(event)

    def apply_all() -> None:
        for b, e, _ in steps:
            b.apply(e)

    def parse_all() -> None:
        for b, _, text in steps:
            parse(text, b)

    applied, parsed = best(apply_all), best(parse_all)
    print(
        f"{len(steps)} events of a battaglia: apply {applied * 1e3:.1f} ms, "
        f"parse (which applies too) {parsed * 1e3:.1f} ms: {parsed / applied:.2f}x"
    )
    for verb in ("end winners giallo points", "roll giallo d6", "expr giallo 1"):
        short = best(lambda: refused(f"{verb} {'giallo 1 ' * 2_000}", start))  # noqa: B023
        long = best(lambda: refused(f"{verb} {'giallo 1 ' * 20_000}", start))  # noqa: B023
        print(
            f"{verb} ...: 4,000 words {short * 1e3:.1f} ms, 40,000 words {long * 1e3:.1f} ms: "
            f"{long / short:.1f}x (linear: about 10x)"
        )


if __name__ == "__main__":
    main()
