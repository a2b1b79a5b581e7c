"""The cost of a move on a server (#27): what the server keeps between requests (the match as
read, its aggregate, its replay after the move, each thread's connection to the file) is checked
against the store before it is used, so another process's writes are seen and judged, a match
changed underneath is read again, and the read models kept by the live task agree with a
rebuild."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from tournament.errors import Refused
from tournament.readside import kept, readmodels
from tournament.readside.reading import read_match
from tournament.services import play, tables
from tournament.services.matches import load
from tournament.storage.sealedlog import match_uuid
from tournament.storage.store import Store

from .conftest import GAMES, build, csrf, log_in, make_client, paired
from .test_festival import start_tiro

MOVE_TABLES = ("events", "matches", "challenges", "players", "rounds", "pairings", "standings")


def form_of(page: str) -> dict[str, str]:
    match = re.search(r'name="match" value="(M\d+)"', page)
    position = re.search(r'name="position" value="(\d+)"', page)
    assert match and position, page
    return {"csrf": csrf(page), "match": match.group(1), "position": position.group(1)}


def test_a_move_the_cli_records_between_two_web_moves_is_seen_and_judged(
    client: TestClient, store: Store
) -> None:
    table = start_tiro(client, store)
    page = client.get(table).text
    data = form_of(page)
    roll = {"kind": "roll", "by": "giallo", "die": "d6", "values": "6 6 5 1"}
    page = client.post(f"{table}/record", data={**data, **roll}).text
    assert 'class="flash bad"' not in page
    number, seen = data["match"], form_of(page)["position"]
    # Another process (a CLI call) records blu's roll meanwhile.
    play.record_move(Store(store.location.path), number, "roll blu d6 5 4 2 1")
    # The form drawn before it is refused, nothing stored...
    stale = {**form_of(page), "kind": "roll", "by": "giallo", "die": "d20", "values": "11"}
    refused = client.post(f"{table}/record", data=stale).text
    assert 'class="flash bad"' in refused
    now = form_of(refused)["position"]
    assert int(now) == int(seen) + 1
    # ... and a move judged against the store's match, not the page's: blu has rolled.
    again = {**form_of(refused), "kind": "roll", "by": "blu", "die": "d6", "values": "5 4 2 1"}
    page = client.post(f"{table}/record", data=again).text
    assert 'class="flash bad"' in page and form_of(page)["position"] == now
    target = {**form_of(page), "kind": "roll", "by": "giallo", "die": "d20", "values": "11"}
    page = client.post(f"{table}/record", data=target).text
    assert 'class="flash bad"' not in page and int(form_of(page)["position"]) == int(now) + 1
    # The server's match is the store's, read afresh by another process.
    served = client.app.state.store  # type: ignore[attr-defined]
    fresh = load(Store(store.location.path), number)
    assert load(served, number).replay.state == fresh.replay.state
    assert load(served, number).match.lines == fresh.match.lines


def _rows(path: Path, table: str) -> list[tuple[object, ...]]:
    with sqlite3.connect(path) as conn:
        return sorted(conn.execute(f"select * from {table}").fetchall(), key=repr)


def test_the_read_models_agree_with_a_rebuild_after_a_burst_of_web_moves(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    store = build(db, ("giallo", "blu", "verde", "rosso"))
    moves = [
        (0, {"kind": "roll", "die": "d6", "values": "6 6 5 1"}),
        (1, {"kind": "roll", "die": "d6", "values": "5 4 2 1"}),
        (0, {"kind": "roll", "die": "d20", "values": "11"}),
        (0, {"kind": "expression", "expr": "6 x (5:6+1)"}),
        (1, {"kind": "expression", "expr": "(5+4+2):1"}),
    ]
    with make_client(store) as client:
        paired(store, client)
        token = log_in(client)
        cards = client.post("/organizer/cards", data={"csrf": token, "confirm": "yes"}).text
        links = sorted(set(re.findall(r"http://127\.0\.0\.1(/table/[A-Za-z0-9_-]+)", cards)))
        assert len(links) == 2
        pages = {}
        for link in links:
            page = client.get(link).text
            client.post(f"{link}/partita", data={"csrf": csrf(page), "games": GAMES})
            client.post(f"{link}/start", data={"csrf": csrf(page), "game": "tiro"})
            pages[link] = client.get(link).text
        for seat, fields in moves:  # the tables' moves interleaved, as a burst
            for link in links:
                meta = re.search(r'<p class="meta">(.+?)</p>', pages[link])
                assert meta
                by = re.sub(r"<[^>]+>", "", meta.group(1)).split(" – ")[seat]
                page = client.post(
                    f"{link}/record", data={**form_of(pages[link]), "by": by, **fields}
                ).text
                assert 'class="flash bad"' not in page, page
                pages[link] = page
        client.app.state.live.refresh()  # type: ignore[attr-defined]  # (its next tick's)
    copy = tmp_path / "copy.db"
    with sqlite3.connect(db) as source, sqlite3.connect(copy) as target:
        source.backup(target)
    readmodels.rebuild(Store(copy))
    for name in MOVE_TABLES:
        assert _rows(db, name) == _rows(copy, name), name
    won = [row for row in _rows(db, "challenges") if row[4]]  # match, player, game, points, won
    assert len(won) == 2 and len(_rows(db, "standings")) == 4  # each table's Tiro decided


def test_a_kept_match_whose_store_changed_underneath_is_read_again(tmp_path: Path) -> None:
    one, other = tmp_path / "one.db", tmp_path / "other.db"
    for db, values in ((one, "6 6 5 1"), (other, "3 3 2 2")):
        store = build(db)
        paired(store)
        tables.choose_partita(store, 1, 1, GAMES)
        number = tables.start_match(store, 1, 1, "tiro").number
        play.record_move(store, number, f"roll giallo d6 {values}")
    server = Store(one)
    kept.keep(server)
    assert read_match(server, number) is read_match(server, number)  # kept while unchanged
    play.record_move(server, number, "roll blu d6 5 4 2 1")  # (its aggregate kept after it)
    # The match's rows are replaced by another store's match M1 of as many events (a copy
    # restored under a running server).
    play.record_move(Store(other), number, "roll blu d6 5 4 2 1")
    uuid = match_uuid(number).hex
    columns = "originator_id, originator_version, topic, state"
    with sqlite3.connect(other) as source:
        rows = source.execute(
            f"select {columns} from stored_events where originator_id = ?", [uuid]
        ).fetchall()
    with sqlite3.connect(one) as conn:
        conn.execute("delete from stored_events where originator_id = ?", [uuid])
        conn.executemany(f"insert into stored_events ({columns}) values (?, ?, ?, ?)", rows)
    fresh = load(Store(other), number)
    shown = load(server, number)
    assert shown.match.lines == fresh.match.lines and shown.replay.state == fresh.replay.state
    assert '"values":[3,3,2,2]' in shown.match.lines[0]
    # Its aggregate too: the next move is judged and chained on the match now stored.
    play.record_move(server, number, "roll giallo d20 11")
    assert load(Store(one), number).match.lines[:-1] == load(Store(other), number).match.lines
    assert Store(one).get_match(number).intact()


def test_a_move_of_another_thread_while_one_is_kept_never_leaves_a_replay_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two referees' moves on one match at the same moment (a PostgreSQL server takes no lock):
    the second, run in the first's last step, finds the replay kept with the lines it replayed;
    the server then judges the next move as a fresh read of the store does."""
    store = build(tmp_path / "t.db")
    paired(store)
    tables.choose_partita(store, 1, 1, GAMES)
    number = tables.start_match(store, 1, 1, "tiro").number
    server = Store(tmp_path / "t.db")
    kept.keep(server)
    play.record_move(server, number, "roll giallo d6 6 6 5 1")
    handed_on = kept.written
    interleaved: list[str] = []

    def written(store: Store, match: object) -> None:
        handed_on(store, match)
        if not interleaved:  # the other thread, in this one's window
            interleaved.append("B")
            play.record_move(server, number, "roll giallo d20 11")

    monkeypatch.setattr(kept, "written", written)
    play.record_move(server, number, "roll blu d6 5 4 2 1")
    monkeypatch.setattr(kept, "written", handed_on)
    assert interleaved == ["B"]
    fresh, served = load(Store(tmp_path / "t.db"), number), load(server, number)
    assert len(served.replay.events) == len(fresh.replay.events) == 3
    assert served.replay.state == fresh.replay.state
    with pytest.raises(Refused, match="may not roll now"):
        play.record_move(server, number, "roll giallo d20 12")


def test_a_tournament_started_over_under_a_server_is_read_again(tmp_path: Path) -> None:
    """Another process replaces the tournament (its events gone, a new one created, as the
    demo's rebuild does): the server serves and writes the new one, never on top of the old."""
    from tournament.domain.tournaments import TOURNAMENT_ID
    from tournament.services import day

    db = tmp_path / "t.db"
    build(db, ("a", "b", "c", "d"))
    server = Store(db)
    kept.keep(server)
    assert kept.tournament(server).settings["name"] == "Torneo di prova"
    with sqlite3.connect(db) as c:
        c.execute("delete from stored_events where originator_id = ?", [TOURNAMENT_ID.hex])
        c.execute("delete from stored_snapshots")
    day.create(Store(db), "Altro torneo", games=GAMES, rounds=1)
    assert kept.tournament(server).settings["name"] == "Altro torneo"
    day.add_players(server, ["zeta"])
    again = day.get_tournament(Store(db))  # a fresh read: the store's chain whole
    assert (again.settings["name"], list(again.players)) == ("Altro torneo", ["zeta"])
