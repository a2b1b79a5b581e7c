"""benchmarks/festival.py (#27) cannot rot: its smallest step, one referee and three viewers for
a few seconds on a real ``tournament serve`` over SQLite, gives a row of real figures."""

from __future__ import annotations

import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def test_the_smallest_step_measures_a_real_server() -> None:
    sys.path.insert(0, str(BENCHMARKS))
    try:
        import festival  # type: ignore[import-not-found]  # (and web_load, viewers)
    finally:  # (its folder's scripts shadow no other test's imports)
        while str(BENCHMARKS) in sys.path:
            sys.path.remove(str(BENCHMARKS))
    args = festival.arguments_from(
        ["--backends", "sqlite", "--cpu-referees", "0", "--referees", "1", "--viewers", "3",
         "--crowd", "--no-pages", "--seconds", "1.5", "--pace", "0.25", "--settle", "0"]
    )  # fmt: skip
    (step,) = festival.plan(args)
    assert (step.backend, step.workers, step.referees, step.viewers) == ("SQLite", 1, 1, 3)
    assert not args.form  # the referees send their moves as a phone with scripts does
    f = festival.measure(step, args)
    assert f["errors"] == 0
    assert f["moves"] > 0 and f["moves_s"] > 0  # moves recorded through the table page
    assert f["post_p99"] >= f["post_p50"] > 0  # each POST timed
    # every viewer's raw stream brought every move: its delay read off the socket
    assert f["deliveries"] >= 3 * f["moves"] and f["stream_p99"] >= f["stream_p50"] > 0
    assert f["cpu_move_ms"] > 0  # the server process's CPU, from /proc
    cells = festival.row(step, f, 1.0).strip("|").split("|")
    assert [c.strip() for c in cells[:4]] == ["SQLite", "1", "1", "3"]


def test_the_page_rates_are_read_from_web_pages_own_lines() -> None:
    """festival.py reads web_pages.py's lines as that script prints them (the server's CPU a
    request in brackets), so its page table is never silently empty."""
    import re

    sys.path.insert(0, str(BENCHMARKS))
    try:
        import festival  # type: ignore[import-not-found]
    finally:
        while str(BENCHMARKS) in sys.path:
            sys.path.remove(str(BENCHMARKS))
    line = "   1024 players /standings         916/s ( 0.90 ms) again,  1007/s ( 0.78 ms) 304"
    assert [m.groups() for m in re.finditer(festival.PAGE_RATE, line, re.M)] == [
        ("1024", "/standings", "916")
    ]


def test_the_referees_post_json_moves_unless_asked_for_the_form() -> None:
    """A move is the JSON a phone with scripts sends (static/offline.js: its match, the position
    it was made at, its fields, and the page asked back); ``--form`` keeps the form without
    scripts, for festival.py and web_load.py alike."""
    sys.path.insert(0, str(BENCHMARKS))
    try:
        import festival  # type: ignore[import-not-found]
        import web_load  # type: ignore[import-not-found]
    finally:
        while str(BENCHMARKS) in sys.path:
            sys.path.remove(str(BENCHMARKS))
    form = {"match": "M7", "position": "12", "kind": "word", "by": "p01", "word": "sonata"}
    assert web_load.sent(form) == {
        "match": "M7", "at": 12, "fields": {"kind": "word", "by": "p01", "word": "sonata"},
        "page": True,
    }  # fmt: skip
    assert festival.arguments_from(["--form"]).form is True
    assert festival.arguments_from([]).form is False
    assert web_load.Load("http://127.0.0.1:1", 1.0).form is False
