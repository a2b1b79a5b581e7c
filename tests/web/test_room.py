"""#25, the web in a real room: table cards that the room's phones can open, reprinting that
asks first and leaves old links a page that says what happened, and rate limits that do not
lock a room behind one address out."""

from __future__ import annotations

import ipaddress
import re
from pathlib import Path
from urllib.parse import urlsplit

from starlette.testclient import TestClient

from tournament.services import day, tables
from tournament.storage.store import Store

from .conftest import GAMES, PASSPHRASE, build, csrf, log_in, make_client, paired, record, serve

LINK = re.compile(r"<code>(https?://[^<]+/table/[A-Za-z0-9_-]+)</code>")


def printed(client: TestClient, token: str) -> tuple[str, list[str]]:
    """The cards page (asked to confirm where it asks) and its links."""
    r = client.post("/organizer/cards", data={"csrf": token, "confirm": "yes"})
    assert r.status_code == 200, r.text
    return r.text, LINK.findall(r.text)


def loopback(url: str) -> bool:
    host = urlsplit(url).hostname or ""
    return host == "localhost" or ipaddress.ip_address(host).is_loopback


def test_a_card_printed_from_a_server_on_0_0_0_0_carries_a_network_address(
    tmp_path: Path, served: list
) -> None:
    store = build(tmp_path / "t.db")
    day.pair_next_round(store)
    r = serve(
        tmp_path / "t.db",
        "--host",
        "0.0.0.0",
        "--port",
        "8123",
        "--organizer-passphrase",
        PASSPHRASE,
    )
    assert r.exit_code == 0, r.output
    public = served[0]["app"].state.settings.public_url
    assert public and public.endswith(":8123") and not loopback(public)
    assert f"the table cards' links start with {public}" in r.output
    # The organizer's browser on the laptop itself reaches it as 127.0.0.1: the cards don't.
    with TestClient(served[0]["app"], base_url="http://127.0.0.1:8123") as client:
        page, links = printed(client, log_in(client))
    assert links and all(link.startswith(f"{public}/table/") for link in links)
    assert 'id="local-only"' not in page


def test_public_url_names_the_cards_address_and_is_checked(tmp_path: Path, served: list) -> None:
    build(tmp_path / "t.db")
    r = serve(tmp_path / "t.db", "--public-url", "https://torneo.example/")
    assert r.exit_code == 0, r.output
    assert served[0]["app"].state.settings.public_url == "https://torneo.example"
    r = serve(tmp_path / "t.db", "--public-url", "torneo.example:8000")
    assert r.exit_code == 1 and "--public-url needs an address such as" in r.output
    r = serve(tmp_path / "t.db")  # this machine only: the browser's own address, as before
    assert served[-1]["app"].state.settings.public_url is None and len(served) == 2


def test_the_cards_page_says_when_its_links_open_on_this_machine_only(
    client: TestClient, store: Store
) -> None:
    paired(store, client)
    page, links = printed(client, log_in(client))
    assert links[0].startswith("http://127.0.0.1/table/")
    warning = re.search(r'id="local-only">([^<]+)<', page)
    assert warning and "solo su questo computer (http://127.0.0.1)" in warning[1]
    assert '<meta name="viewport"' in page and "<main>" in page  # a page, not a bare sheet


def test_reprinting_asks_first_naming_the_tables_in_play_and_old_links_say_why(
    tmp_path: Path,
) -> None:
    store = build(tmp_path / "t.db", players=("giallo", "blu", "verde", "rosso"))
    with make_client(store) as client:
        paired(store, client)
        token = log_in(client)
        _, links = printed(client, token)  # the first print asks nothing
        tables.choose_partita(store, 1, 2, GAMES)
        tables.start_match(store, 1, 2, "tiro")
        client.app.state.live.refresh()  # type: ignore[attr-defined]
        with make_client(store) as phone:  # a referee's phone opens table 1
            old = urlsplit(links[0]).path
            assert phone.get(old).status_code == 200
            asked = client.post("/organizer/cards", data={"csrf": token})
            assert asked.status_code == 200 and LINK.findall(asked.text) == []
            assert "Stampare nuovi cartellini dei tavoli?" in asked.text
            assert re.search(r"Tavoli in gioco: Tavolo 2<", asked.text)
            assert phone.get(old).status_code == 200  # nothing printed yet
            _, again = printed(client, csrf(asked.text))
            gone = phone.get(old)
            assert gone.status_code == 410
            assert "sono stati stampati nuovi cartellini" in gone.text
            assert "nuovo cartellino del tavolo 1" in gone.text and '<a href="/">' in gone.text
            assert '<link rel="stylesheet" href="/static/web.css">' in gone.text
            for _ in range(6):  # an old link's taps count as no guess
                assert phone.get(old).status_code == 410
            assert phone.get(urlsplit(again[0]).path).status_code == 200


def test_a_guesser_is_stopped_per_session_not_the_whole_room_behind_its_address(
    client: TestClient, store: Store
) -> None:
    paired(store, client)
    _, links = printed(client, log_in(client))
    link = urlsplit(links[0]).path
    with make_client(store) as guesser, make_client(store) as referee:
        for _ in range(5):
            assert guesser.get("/table/AAAAAAAAAAAAAAAAAAAAAA").status_code == 404
        assert guesser.get(link).status_code == 429  # this session guessed too often
        # Another phone from the same address (the room's Wi-Fi) is not locked out.
        assert referee.get("/table/BBBBBBBBBBBBBBBBBBBBBB").status_code == 404
        assert referee.get(link).status_code == 200
    # A guesser who drops its cookie each time is stopped by its address, with room for a hall.
    with make_client(store) as cookieless:
        limit = cookieless.app.state.guesses  # type: ignore[attr-defined]
        codes = []
        # (the six wrong links above came from the same address: the store counts them for
        # every server over it, this one too, #27)
        for _ in range(limit.limit * limit.room - 6 + 1):
            cookieless.cookies.clear()
            codes.append(cookieless.get("/table/CCCCCCCCCCCCCCCCCCCCCC").status_code)
        assert codes[-1] == 429 and set(codes[:-1]) == {404}


# --- the referee's page: what was typed, why, "6651", the example move ---------------------------


def table_in_play(client: TestClient, store: Store) -> str:
    """Round 1's table 1 playing its Tiro (giallo, blu), its link opened by ``client``."""
    paired(store, client)
    _, links = printed(client, log_in(client))
    table = urlsplit(links[0]).path
    page = client.get(table).text
    client.post(f"{table}/partita", data={"csrf": csrf(page), "games": GAMES})
    client.post(f"{table}/start", data={"csrf": csrf(page), "game": "tiro"})
    return table


def test_a_refused_move_keeps_what_was_typed_and_says_why(client: TestClient, store: Store) -> None:
    table = table_in_play(client, store)
    stale = client.get(table).text
    record(client, table, "giallo", "roll", die="d6", values="6 6 5 1")
    # The second phone's move, from the page drawn before that one: refused, and kept.
    r = client.post(
        f"{table}/record",
        data={"csrf": csrf(stale), "match": "M1", "position": "0", "kind": "roll",
              "by": "blu", "die": "d6", "values": "5 4 2 1"},
    )  # fmt: skip
    assert "la partita è cambiata da quando l&#39;hai guardata" in r.text
    assert re.search(r'name="values" value="5 4 2 1"', r.text)
    assert r.text.count('value="5 4 2 1"') == 1  # in blu's d6 field only
    assert len(store.get_match("M1").lines) == 1  # giallo's roll alone
    r = client.get(table)  # kept once: the next page is drawn empty
    assert 'value="5 4 2 1"' not in r.text
    # A move typed in the notation and refused stays in its field too.
    html = record(client, table, "", "text", text="roll blu d6 9")
    assert 'class="flash bad"' in html and 'id="move" value="roll blu d6 9"' in html
    # The page says in words when it is behind (the live script marks it stale).
    assert 'class="stale-note" role="status">La partita è cambiata nel frattempo' in html


def test_6651_is_four_faces_of_a_die_of_single_digits(client: TestClient, store: Store) -> None:
    table = table_in_play(client, store)
    html = record(client, table, "giallo", "roll", die="d6", values="6651")
    assert 'class="flash bad"' not in html
    assert '"values":[6,6,5,1]' in store.get_match("M1").lines[-1]
    record(client, table, "blu", "roll", die="d6", values="5421")
    html = record(client, table, "giallo", "roll", die="d20", values="11")  # a d20's 11 is 11
    assert 'class="flash bad"' not in html
    assert '"values":[11]' in store.get_match("M1").lines[-1]


def test_the_example_move_names_a_player_at_the_table(tmp_path: Path) -> None:
    store = build(tmp_path / "t.db", players=("Anna", "Bruno"))
    with make_client(store) as client:
        table = table_in_play(client, store)
        html = client.get(table).text
    example = re.search(r'id="move"[^>]* placeholder="([^"]+)"', html)
    acts = re.search(r'section class="acts" data-player="(\w+)"', html)
    assert example and acts and example[1] == f"roll {acts[1]} d6 1 1 1 1", example
    assert "giallo" not in html.lower()


# --- every word of an Italian page Italian ----------------------------------------------------


def test_404s_are_pages_in_the_visitors_language(client: TestClient) -> None:
    for path, italian, english in (
        ("/matches/M999", "non c&#39;è una partita M999 in questo database", "there is no match"),
        ("/players/Nessuno", "in questo torneo non c&#39;è un giocatore", "there is no player"),
        ("/rounds/9", "Pagina non trovata", "there is no round"),
    ):
        r = client.get(path)
        assert r.status_code == 404 and italian in r.text and english not in r.text, path
        assert '<a href="/">' in r.text  # a way on
    client.cookies.set("lang", "en")
    assert "there is no match M999 in this database" in client.get("/matches/M999").text


def test_a_die_in_a_refusal_is_named_in_the_pages_words() -> None:
    from engine.message import msg
    from exports.i18n import say
    from tournament.web.actions import dice_named

    refused = msg(
        "%(player)s must throw %(n)s %(die)s dice together, not %(count)s",
        player="blu", n=2, die="vowel", count=3,
    )  # fmt: skip
    assert say(dice_named(refused), "it") == "blu deve lanciare 2 dadi delle vocali insieme, non 3"
    assert say(dice_named(refused), "en") == "blu must throw 2 vowel dice together, not 3"


def test_the_brackets_reasons_and_the_export_links_are_italian(tmp_path: Path) -> None:
    store = build(tmp_path / "t.db", players=("giallo", "blu", "verde", "rosso"),
                  format="elimination")  # fmt: skip
    with make_client(store) as client:
        paired(store, client)
        bracket = client.get("/bracket").text
        assert "testa di serie 1 - testa di serie 4" in bracket and "seed 1" not in bracket
        token = log_in(client)
        organizer = client.get("/organizer/").text
    assert ">La classifica, per un foglio di calcolo</a>" in organizer
    assert '<a href="/organizer/export/standings.csv" download' in organizer
    assert token


def test_the_language_switch_of_a_correction_preview_draws_it_again(
    client: TestClient, store: Store
) -> None:
    table = table_in_play(client, store)
    record(client, table, "giallo", "roll", die="d6", values="6 6 5 1")
    token = log_in(client)
    form = {"csrf": token, "match": "M1", "on": "1", "kind": "void", "reason": "prova",
            "do": "preview"}  # fmt: skip
    preview = client.post("/organizer/correct", data=form)
    assert preview.status_code == 200 and "<h1>E se… M1" in preview.text
    switch = re.search(
        r'<form method="post" action="/organizer/correct" class="switch">', preview.text
    )
    assert switch and 'name="lang" value="en"' in preview.text
    english = client.post("/organizer/correct", data={**form, "lang": "en"})
    assert english.status_code == 200 and "<h1>What if… M1" in english.text
    assert 'name="lang" value="it"' in english.text and client.cookies.get("lang") == "en"
    assert len(store.get_match("M1").lines) == 1  # a preview stores nothing


# --- where do I play? the room's screen --------------------------------------------------------


def test_the_public_page_says_where_each_player_plays(tmp_path: Path) -> None:
    store = build(tmp_path / "t.db", players=("zeno", "Anna", "bruno", "Carla", "ugo"))
    with make_client(store) as client:
        paired(store, client)
        html = client.get("/").text
        api = client.get("/api").json()
    index = re.search(r'<ul class="where">(.*?)</ul>', html, re.S)
    assert index and "Dove gioco?" in html
    seats = re.findall(r'<a href="#table-(\d+)"><bdi>([^<]+)</bdi> · <b>([^<]+)</b>', index[1])
    assert [name for _, name, _ in seats] == ["Anna", "bruno", "Carla", "ugo", "zeno"]
    for table, name, said in seats:
        assert f'id="table-{table}"' in html
        seat = next(s for s in api["where"] if s["player"] == name)
        assert said == ("bye" if seat["bye"] else f"Tavolo {table}") or seat["bye"]
    assert sum(1 for s in api["where"] if s["bye"]) == 1  # five players: one bye


def test_the_rooms_screen_shows_the_round_and_the_standings(
    client: TestClient, store: Store
) -> None:
    assert "Torneo di prova" in client.get("/screen").text  # before any round: the name
    paired(store, client)
    html = client.get("/screen").text
    players = re.search(r'id="screen-table-1">Tavolo 1</h2>\s*<p class="players">(.*?)</p>', html)
    assert players and {"<bdi>giallo</bdi>", "<bdi>blu</bdi>"} == set(players[1].split(" – "))
    assert '<table class="standings">' in html and '<script src="/static/screen.js"' in html
    assert "<main data-live" in html  # it follows the live stream


# --- the organizer's day -------------------------------------------------------------------------


def test_the_organizer_page_leads_with_the_action_the_day_is_at(
    client: TestClient, store: Store
) -> None:
    token = log_in(client)
    page = client.get("/organizer/").text
    assert "Nessun turno è aperto: abbina il prossimo." in page
    assert '<button id="pair" type="submit">' in page and "/organizer/round/close" not in page
    paired(store, client)
    page = client.get("/organizer/").text
    assert "Il turno 1 è in gioco: 1 tavoli su 1 ancora da decidere." in page
    assert '<button id="pair" type="submit" class="secondary">' in page  # no longer the lead
    # Closing asks first, naming the tables still in play; the cards sit apart from it.
    ask = re.search(r'<details class="ask">(.*?)</details>', page, re.S)
    assert ask and "/organizer/round/close" in ask[1] and "Tavoli in gioco: Tavolo 1" in ask[1]
    assert "/organizer/cards" not in ask[1]
    t = day.get_tournament(store)
    t.amend_result(round=1, table=1, points={"giallo": 1, "blu": 0}, reason="test", by="organizer")
    day.save(store, t)
    client.app.state.live.refresh()  # type: ignore[attr-defined]
    page = client.get("/organizer/").text
    assert "Ogni tavolo del turno 1 è deciso: chiudi il turno." in page
    assert '<details class="ask lead">' in page and token


def test_a_partita_is_recorded_in_the_order_its_games_were_ticked(
    client: TestClient, store: Store
) -> None:
    token = log_in(client)
    paired(store, client)
    ticked = ["updown", "tiro", "ventuno", "texas"]
    form = {"csrf": token, "round": "1", "table": "1", "games": GAMES, "order": ",".join(ticked)}
    r = client.post("/organizer/partita", data=form)
    assert r.status_code == 200
    assert day.get_tournament(store).rounds[0]["tables"][0]["games"] == ticked
