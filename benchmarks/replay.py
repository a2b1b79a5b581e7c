"""(a) Replay of a 200-event match: the engine alone, and a whole log read (JSON, hashes, rules).

python benchmarks/replay.py
"""

from __future__ import annotations

import random
import statistics
import time

from engine.bots import random_game
from engine.events import event_to_json, parse_event
from engine.header import parse_header
from engine.lexicon import default_lexicon
from engine.match import Replay
from tournament.logformat.matchlog import canonical, chain, read_log, write_log

EVENTS = 200


def long_match(length: int = EVENTS, players: int = 4) -> tuple[dict, list[dict]]:
    """A legal battaglia (four players, or as many as asked), cut at ``length`` events (a prefix
    of a log is a log)."""
    lexicon = default_lexicon()
    for seed in range(1000):
        head = {
            "format": "tournament-match/1",
            "game": "battaglia",
            "players": [
                "giallo",
                "blu",
                "verde",
                "rosso",
                *(f"p{i}" for i in range(5, players + 1)),
            ],
            "lexicon": lexicon.identity,
        }
        played = random_game(
            Replay.start(parse_header(head), lexicon), random.Random(seed), limit=2 * length
        )
        if played.position >= length:
            return head, [event_to_json(e) for e in played.events[:length]]
    raise SystemExit("no match long enough")


def timed(fn, repeat: int = 30) -> float:
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        runs.append(time.perf_counter() - start)
    return statistics.median(runs)


def main() -> None:
    head, events = long_match()
    header, lexicon = parse_header(head), default_lexicon()
    parsed = [parse_event(e) for e in events]
    header_line = canonical(head)
    lines = [canonical(e) for e in events]
    text = write_log(header_line, lines, chain(header_line, lines))

    engine = timed(lambda: Replay.of(header, lexicon, parsed))
    whole = timed(lambda: read_log(text, lambda _: lexicon))
    print(
        f"replay of a {EVENTS}-event match (engine only): {engine * 1000:.2f} ms "
        f"({EVENTS / engine:,.0f} events/s)"
    )
    print(
        f"read_log of the same exported file (JSON, seq/hash check, rules): {whole * 1000:.2f} ms "
        f"({EVENTS / whole:,.0f} events/s)"
    )


if __name__ == "__main__":
    main()
