"""The server's CPU a recorded move (issue 27), in one process, so that a busy machine does not
blur it: the app in process (Starlette's TestClient), a tournament of ``--tables`` tables in
round 1, each table's referee recording a Tiro (a partita chosen, the challenge started, five
moves), every move a POST and the table page it redirects to, as a phone does. Prints the CPU
seconds of the whole process (its live task's refresh of the read models included) a move, and
the same for a public match page and /standings, at two sizes: a move's cost should not grow
with the tournament (goal <= 5 ms a move).

    python benchmarks/web_move.py                  # 20 and 200 tables, SQLite
    python benchmarks/web_move.py --tables 20 80 --profile /tmp/move.html
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from web_load import GAMES, PASSPHRASE, TIRO, build  # noqa: E402


def csrf(html: str) -> str:
    return re.search(r'name="csrf" value="([^"]+)"', html).group(1)  # type: ignore[union-attr]


def run(tables: int, db: str, profile: str | None) -> tuple[float, float, float, int]:
    from starlette.testclient import TestClient

    from tournament.storage.store import Store
    from tournament.web.app import Settings, create_app

    build(db, tables)
    app = create_app(Settings(db=Path(db), passphrase=PASSPHRASE, interval=0.05), Store(db))
    with TestClient(app, base_url="http://127.0.0.1") as client:
        token = csrf(client.get("/organizer/").text)
        page = client.post("/organizer/login", data={"csrf": token, "passphrase": PASSPHRASE}).text
        cards = client.post("/organizer/cards", data={"csrf": csrf(page)}).text
        links = sorted(set(re.findall(r"http://127\.0\.0\.1(/table/[A-Za-z0-9_-]+)", cards)))
        pages = {}
        for link in links:
            page = client.get(link).text
            page = client.post(f"{link}/partita", data={"csrf": csrf(page), "games": GAMES}).text
            pages[link] = client.post(
                f"{link}/start", data={"csrf": csrf(page), "game": "tiro"}
            ).text
        time.sleep(0.3)  # the live task's refresh of the starts
        if profile:  # every thread's (the app's work runs in worker threads)
            import yappi

            yappi.set_clock_type("cpu")
            yappi.start()
        moves, cpu = 0, time.process_time()
        for seat, kind, fields in TIRO:
            for link in links:
                page = pages[link]
                meta = re.search(r'<p class="meta">(.+?)</p>', page).group(1)  # type: ignore[union-attr]
                players = re.sub(r"<[^>]+>", "", meta).split(" – ")
                data = {
                    "csrf": csrf(page),
                    "match": re.search(r'name="match" value="(M\d+)"', page).group(1),  # type: ignore[union-attr]
                    "position": re.search(r'name="position" value="(\d+)"', page).group(1),  # type: ignore[union-attr]
                    "kind": kind,
                    "by": players[seat],
                    **fields,
                }
                r = client.post(f"{link}/record", data=data)
                assert r.status_code == 200 and 'class="flash bad"' not in r.text, r.text[:300]
                pages[link] = r.text
                moves += 1
        time.sleep(0.3)  # the live task's last refresh
        move_cpu = (time.process_time() - cpu) / moves
        if profile:
            yappi.stop()
            with open(profile, "w") as out:
                stats = yappi.get_func_stats()
                stats.sort("ttot").print_all(
                    out, columns={0: ("name", 90), 1: ("ncall", 10), 3: ("ttot", 8), 2: ("tsub", 8)}
                )
        match = re.search(r'name="match" value="(M\d+)"', pages[links[0]])
        number = match.group(1) if match else "M1"
        views = 30
        cpu = time.process_time()
        for _ in range(views):
            assert client.get(f"/matches/{number}").status_code == 200
        match_cpu = (time.process_time() - cpu) / views
        cpu = time.process_time()
        for _ in range(views):
            assert client.get("/standings").status_code == 200
        standings_cpu = (time.process_time() - cpu) / views
    return move_cpu, match_cpu, standings_cpu, moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[20, 200])
    parser.add_argument(
        "--profile", help="yappi's profile of the moves, every thread (pip install yappi)"
    )
    args = parser.parse_args()
    print("CPU seconds of the whole process (app, live task, client) over the work, each:")
    for n in args.tables:
        with tempfile.TemporaryDirectory() as tmp:
            move, match, standings, moves = run(n, str(Path(tmp) / "m.db"), args.profile)
        print(
            f"  {n:>4} tables ({2 * n} players): {move * 1000:.1f} ms a move ({moves} moves, "
            f"POST + its page; goal <= 5 ms), /matches/M: {match * 1000:.1f} ms, "
            f"/standings: {standings * 1000:.1f} ms"
        )


if __name__ == "__main__":
    main()
