"""(c) The lexicon: time and memory to open it, and the cost of a lookup.

Each figure is measured in a fresh process, against the same process doing nothing, so that
the interpreter's own start-up and memory are subtracted.

    python benchmarks/lexicon.py
"""

from __future__ import annotations

import json
import subprocess
import sys

PROBE = r"""
import json, resource, sys, time
start = time.perf_counter()
if sys.argv[1] == "trie":
    from engine.lexicon import default_lexicon
    lexicon = default_lexicon()
    assert "casa" in lexicon  # the first lookup opens the file
elif sys.argv[1] == "set":
    from engine.lexicon import default_lexicon
    lexicon = set(default_lexicon()._words)
    assert "casa" in lexicon
opened = time.perf_counter() - start
lookups = 0.0
if sys.argv[1] != "none":
    words = ["casa", "passamontagna", "xyzzy", "satanico", "qqqq"] * 20000
    t = time.perf_counter()
    found = sum(w in lexicon for w in words)
    lookups = (time.perf_counter() - t) / len(words)
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
print(json.dumps({"open_s": opened, "lookup_s": lookups, "rss_kib": rss}))
"""


def probe(kind: str) -> dict:
    out = subprocess.run(
        [sys.executable, "-c", PROBE, kind], check=True, capture_output=True, text=True
    ).stdout
    return json.loads(out)


def main() -> None:
    base = probe("none")
    trie = probe("trie")
    print(
        f"open the shipped trie and look up one word: {trie['open_s'] * 1000:.1f} ms, "
        f"+{(trie['rss_kib'] - base['rss_kib']) / 1024:.1f} MiB resident"
    )
    print(f"lookup (fold + trie), Python call included: {trie['lookup_s'] * 1e6:.2f} us")
    if "--with-set" in sys.argv:
        full = probe("set")
        print(
            f"for comparison, a Python set of every word: {full['open_s'] * 1000:.0f} ms, "
            f"+{(full['rss_kib'] - base['rss_kib']) / 1024:.0f} MiB resident, "
            f"lookup {full['lookup_s'] * 1e6:.2f} us"
        )


if __name__ == "__main__":
    main()
