"""A page afresh after a move (#27): a page stands on what it shows, not on the store's position,
so the standings stay kept across the moves inside a match and are drawn again once a match
ends, whichever process stored it; the home page of a big round shows the round in play
summarised, the first tables and the visitor's own, with the whole round a link away."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tournament.readside import readmodels
from tournament.storage.store import Store
from tournament.web import trims

from .conftest import TIRO, build, make_client, paired, record
from .test_festival import start_tiro
from .test_shelf import counting

ROOT = Path(__file__).resolve().parents[2]
# The last move of M1's Tiro (which ends it), stored by another process.
LAST = (
    "import sys; from tournament.services.matches import record; "
    "from tournament.storage.store import Store; "
    "record(Store(sys.argv[1]), 'M1', {'type': 'expression', 'by': 'blu', "
    "'expr': '(5+4+2):1'})"
)


def test_the_standings_stay_kept_across_moves_inside_a_match_and_move_when_it_ends(
    any_db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = build(any_db)  # a file, or a schema of the PostgreSQL server
    with make_client(store) as client:
        table = start_tiro(client, store)
        gathered = counting(monkeypatch, "standings")
        first = client.get("/standings")
        tag, api = first.headers["etag"], client.get("/api/standings").headers["etag"]
        home = client.get("/").headers["etag"]
        for seat, kind, fields in TIRO[:-1]:  # moves inside the match: nothing it shows
            record(client, table, seat, kind, **fields)
            assert client.get("/standings", headers={"If-None-Match": tag}).status_code == 304
            assert client.get("/api/standings").headers["etag"] == api
        # (gathered twice: the page's top, and the JSON twin's whole list)
        assert client.get("/standings").content == first.content and len(gathered) == 2
        # (the home page shows who acts next: it moved with them)
        assert client.get("/", headers={"If-None-Match": home}).status_code == 200
        assert [w["match"] for w in client.get("/api").json()["tournament"]["tables"][0][
            "waiting"]] == ["M1"]  # fmt: skip
        # The match's last move, stored by another process: the match ends, the page moves.
        subprocess.run([sys.executable, "-c", LAST, any_db], check=True,
                       timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)})  # fmt: skip
        moved = client.get("/standings", headers={"If-None-Match": tag})
        assert moved.status_code == 200 and moved.headers["etag"] != tag
        assert len(gathered) == 3 and 'href="/matches/M1"' in moved.text
        latest = client.get("/api/standings").json()["latest"]
        assert [m["id"] for m in latest] == ["M1"] and latest[0]["status"] == "finished"
        assert client.get("/api").json()["tournament"]["tables"][0]["waiting"] == []


def test_a_big_rounds_home_page_shows_the_first_tables_and_the_visitors_own(
    tmp_path: Path,
) -> None:
    players = tuple(f"Giocatore {n:02}" for n in range(1, 61))  # 30 tables
    store = build(tmp_path / "t.db", players=players)
    paired(store)
    with make_client(store) as client:
        whole = client.get("/api").json()["tournament"]["tables"]
        assert len(whole) == 30  # the JSON twin is whole
        page = client.get("/").text
        shown = re.findall(r'<section class="card[^"]*" id="table-(\d+)"', page)
        assert shown == [str(tb["table"]) for tb in whole[: trims.FIRST]]
        assert "Tavoli decisi: 0 su 30; in gioco: 30" in page and "Dove gioco?" in page
        assert '<a href="/rounds/1">Tutti i tavoli del turno 1</a>' in page
        assert "Giocatore 59" not in page  # (the list of where each plays: on the round's page)
        everything = client.get("/rounds/1").text  # every table behind the link
        assert re.findall(r'<tr id="table-(\d+)">', everything) == [str(n) for n in range(1, 31)]
        # "Where do I play?" by name (whatever its case): that table first, marked.
        mine = client.get("/", params={"player": "giocatore 59"}).text
        assert '<a href="#table-30"><bdi>Giocatore 59</bdi> · <b>Tavolo 30</b></a>' in mine
        assert re.findall(r'<section class="card[^"]*" id="table-(\d+)"', mine)[0] == "30"
        assert '<section class="card own" id="table-30">' in mine
        assert "Nessuno non gioca in questo turno" in client.get("/?player=Nessuno").text
        english = client.get("/?player=Nessuno", headers={"Cookie": "lang=en"}).text
        assert "Tables decided: 0 of 30; in play: 30" in english
        assert "Nessuno does not play in this round" in english
        assert "Every table of round 1" in english and "Tavol" not in english
        # A small round stays whole, with where each player plays.
    small = build(tmp_path / "small.db")
    paired(small)
    with make_client(small) as client:
        page = client.get("/").text
        assert 'href="#table-1"><bdi>blu</bdi>' in page and "Tutti i tavoli" not in page


def test_a_tournament_started_over_by_another_store_is_shown_not_the_old_one(
    tmp_path: Path,
) -> None:
    import sqlite3

    from tournament.readside import kept, mirror, readmodels
    from tournament.services import day
    from tournament.services import tables as round_tables
    from tournament.storage.locations import close
    from tournament.storage.store import Store
    from tournament.web import views

    db = tmp_path / "t.db"

    def started(store: Store, name: str, players: list[str]) -> None:
        day.create(store, name, plays="tiro", seed="7", rounds=2)
        day.add_players(store, players)
        day.pair_next_round(store)
        round_tables.start_match(store, 1, 1, "tiro")
        readmodels.update(store, write=True)

    first = Store(db)
    started(first, "Prova", ["Anna", "Bruno", "Carla", "Dario"])
    close(first)
    server = Store(db)
    kept.keep(server)
    readmodels.update(server, write=True)
    before = views.now(server)["tournament"]["tables"][0]
    stamp = views.standings_stamp(server)
    rows = mirror.mirrored(server)
    assert mirror.decoded(rows, "M1")["players"] == ["Anna", "Bruno"]
    assert before["waiting"][0]["next"][0]["player"] == "Anna"
    with sqlite3.connect(db) as c:  # started over (as the refresh test does it)
        c.execute("delete from stored_events")
        c.execute("delete from stored_snapshots")
        for name in (*readmodels.TABLES, "_projections"):
            c.execute(f"drop table {name}")
    other = Store(db)
    started(other, "Altro", ["Elena", "Fabio", "Gina", "Ivo"])
    close(other)
    readmodels.update(server, write=True)
    after = views.now(server)["tournament"]["tables"][0]
    assert after["players"] == ["Elena", "Fabio"]
    assert after["waiting"][0]["next"][0]["player"] == "Elena"  # not the old M1's Anna
    assert views.standings_stamp(server) != stamp
    # The kept rows too: the read models stand at the same position, with other events there.
    rows = mirror.mirrored(server)
    assert mirror.decoded(rows, "M1")["players"] == ["Elena", "Fabio"], "the old M1's row"


def _festival(db: Path, tables: int) -> Store:
    """A Tiro tournament of ``tables`` tables in round one, paired."""
    from tournament.services import day

    store = Store(db)
    day.create(store, "Festa", plays="tiro", seed="7", rounds=2)
    day.add_players(store, [f"Giocatore {n:02}" for n in range(1, 2 * tables + 1)])
    day.pair_next_round(store)
    return store


def _tiro(first: str, second: str) -> list[dict[str, object]]:
    """TIRO's moves, by the table's two players (the last one ends the match)."""
    seats = {"giallo": first, "blu": second}
    moves = []
    for seat, kind, fields in TIRO:
        move: dict[str, object] = {"type": kind, "by": seats[seat], **fields}
        if kind == "roll":
            move["values"] = [int(v) for v in str(fields["values"]).split()]
        moves.append(move)
    return moves


def test_a_big_rounds_home_page_stays_kept_across_the_moves_of_tables_it_does_not_show(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tournament.services import tables as round_tables
    from tournament.services.matches import record as record_event

    db = tmp_path / "t.db"
    store = _festival(db, trims.FIRST + 3)  # a table past the first ones, shown on a phone
    near = round_tables.start_match(store, 1, 1, "tiro").number
    far = round_tables.start_match(store, 1, trims.FIRST + 2, "tiro").number
    with make_client(store) as client:
        whole = client.get("/api").json()["tournament"]["tables"]
        far_moves = _tiro(*whole[trims.FIRST + 1]["players"])
        near_moves = _tiro(*whole[0]["players"])
        gathered = counting(monkeypatch, "now")
        home = client.get("/")
        tag, api = home.headers["etag"], client.get("/api").headers["etag"]
        assert "Tavoli decisi: 0 su 15; in gioco: 15" in home.text, home.text[:3000]
        assert len(gathered) == 1  # (the JSON twin gathered already)
        for move in far_moves[:-1]:  # moves at a table the page does not show
            record_event(store, far, move)
            assert client.get("/", headers={"If-None-Match": tag}).status_code == 304
            # (its JSON twin is whole: it shows them)
            moved = client.get("/api", headers={"If-None-Match": api})
            assert moved.status_code == 200, "the JSON twin kept across a move it shows"
            api = moved.headers["etag"]
            waits = moved.json()["tournament"]["tables"][trims.FIRST + 1]["waiting"]
            assert [w["events"] for w in waits] == [far_moves.index(move) + 1]
        # (the page gathered once, its JSON twin once a move)
        assert client.get("/").content == home.content and len(gathered) == 1 + 4
        # A move at a table it shows: drawn again, who acts next there is the next player.
        record_event(store, near, near_moves[0])
        again = client.get("/", headers={"If-None-Match": tag})
        assert again.status_code == 200 and again.headers["etag"] != tag
        assert f"<b><bdi>{near_moves[1]['by']}</bdi></b>" in again.text
        # The far match's last move, stored by another process: a table decided, counted.
        move = far_moves[-1]
        script = (
            "import sys; from tournament.services.matches import record; "
            "from tournament.storage.store import Store; "
            f"record(Store(sys.argv[1]), {far!r}, {move!r})"
        )
        subprocess.run([sys.executable, "-c", script, str(db)], check=True,
                       timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)})  # fmt: skip
        ended = client.get("/", headers={"If-None-Match": again.headers["etag"]})
        assert ended.status_code == 200
        assert "Tavoli decisi: 1 su 15; in gioco: 14" in ended.text
        far_table = client.get("/api").json()["tournament"]["tables"][trims.FIRST + 1]
        assert far_table["decided"] and far_table["waiting"] == []
        # "Where do I play?" for the far table's player: its state as the store has it.
        mine = client.get("/", params={"player": far_moves[0]["by"]}).text
        assert f'<section class="card done own" id="table-{trims.FIRST + 2}">' in mine


def test_a_kept_rows_key_holds_a_message_whole_not_its_english_alone() -> None:
    """Two rows whose messages read the same in English but are different messages (another id,
    other params) are drawn apart: the Italian page says each its own (review of #27)."""
    from engine.message import Msg
    from tournament.web.trims import row_key

    one = Msg("you must roll %(n)s dice", {"n": 2})
    other = Msg("%(what)s", {"what": str(one)})
    assert str(one) == str(other)
    assert row_key({"expects": one}) != row_key({"expects": other})
    assert row_key({"expects": one}) == row_key(
        {"expects": Msg("you must roll %(n)s dice", {"n": 2})}
    )


def test_a_kept_rows_key_is_a_digest_of_all_it_shows() -> None:
    """A round's table card is kilobytes of JSON: its key is 32 bytes, whatever its size, and
    two rows that differ anywhere (the last of a thousand names) have different keys (#27)."""
    import jinja2

    from tournament.web import trims

    big = {"tb": {"players": [f"Giocatore {i}" for i in range(1000)], "table": 7}, "own": False}
    other = {**big, "tb": {**big["tb"], "players": [*big["tb"]["players"][:-1], "Giocatore X"]}}
    assert len(trims.row_key(big)) == 32 and trims.row_key(big) != trims.row_key(other)
    env = jinja2.Environment()
    env.globals["drawn"] = trims.drawn
    page = env.from_string(
        "{% macro card(r) %}{{ r.tb.players[-1] }}{% endmacro %}{{ drawn(card, row) }}"
    )
    assert page.render(row=big) == "Giocatore 999"
    assert page.render(row=other) == "Giocatore X"  # never the first one's, kept
    assert page.render(row=big) == "Giocatore 999"


def afresh(db: str) -> list[dict[str, object]]:
    """The standings as the read side computes them from the table, in a process of its own
    (a store nothing keeps: the table read by SQL)."""
    from tournament.readside import queries

    return queries.standings(Store(db))


def test_the_standings_json_is_the_tables_after_a_match_this_server_ended(tmp_path: Path) -> None:
    """The API's rows come from what the server's refresh wrote (#27): as the table gives them
    back, to the type of each number (points held as ints read back as floats)."""
    db = str(tmp_path / "t.db")
    store = build(db)
    with make_client(store) as client:
        table = start_tiro(client, store)
        before = client.get("/api/standings").json()
        assert before["rows"] == afresh(db)
        for seat, kind, fields in TIRO:  # the match ends here: the refresh rewrites the rows
            record(client, table, seat, kind, **fields)
        client.app.state.live.refresh()  # type: ignore[attr-defined]
        held = readmodels.held(store)
        at = readmodels.position(readmodels.database(store))
        assert held is not None and held.position == at  # what the refresh wrote...
        assert held.rows["standings"]["giallo"][2] == 0  # ...as it worked them out (an int)
        body = client.get("/api/standings")
        assert body.json()["rows"] == afresh(db) and b'"points":0.0' in body.content


def test_the_standings_json_gives_names_beyond_ascii_as_the_table_does(tmp_path: Path) -> None:
    """Names beyond ASCII, in the order the table gives them."""
    db = str(tmp_path / "t.db")
    names = ("Zoe", "alba", "Élia", "Ábel", "bruno", "Carla", "éva")
    store = build(db, players=names)
    with make_client(store) as client:
        rows = client.get("/api/standings").json()["rows"]
        assert rows == afresh(db)
        page = client.get("/standings?all=1").text
        assert all(name in page for name in names)
