"""The organizer's pages: every action needs the session and the CSRF token; limits."""

from __future__ import annotations

import html
import re

from starlette.testclient import TestClient

from tournament.services import day
from tournament.storage.store import Store

from .conftest import (
    GAMES,
    PASSPHRASE,
    TIRO,
    csrf,
    issue,
    log_in,
    paired,
    record,
    rounds,
)

# --- the organizer -------------------------------------------------------------------------------


def test_without_credentials_the_organizer_actions_answer_401_and_store_nothing(
    client: TestClient, store: Store
) -> None:
    before = store.recorder.max_notification_id()
    for path, data in [
        ("/organizer/round/pair", {}),
        ("/organizer/round/close", {}),
        ("/organizer/players", {"names": "intruso"}),
        ("/organizer/players/withdraw", {"player": "blu"}),
        ("/organizer/partita", {"round": "1", "table": "1", "games": GAMES}),
        ("/organizer/table/start", {"round": "1", "table": "1", "game": "tiro"}),
        ("/organizer/cards", {}),
        ("/organizer/correct", {"match": "M1", "on": "1", "kind": "void", "do": "record"}),
    ]:
        assert client.post(path, data=data).status_code == 401, path
    assert client.get("/organizer/export/all.zip").status_code == 401
    assert store.recorder.max_notification_id() == before
    assert rounds(store) == 0


def test_a_forged_or_missing_csrf_token_is_refused_with_403(
    client: TestClient, store: Store
) -> None:
    log_in(client)
    assert client.post("/organizer/round/pair").status_code == 403
    forged = client.post("/organizer/round/pair", data={"csrf": "forged"})
    assert forged.status_code == 403 and forged.text.endswith("ricarica la pagina")  # Italian
    client.cookies.set("lang", "en")
    forged = client.post("/organizer/round/pair", data={"csrf": "forged"})
    assert forged.text == "the form is stale or forged (CSRF token): reload the page"
    assert rounds(store) == 0


def test_the_organizer_pairs_a_round_and_downloads_the_exports(
    client: TestClient, store: Store
) -> None:
    token = log_in(client)
    r = client.post("/organizer/round/pair", data={"csrf": token})
    assert r.status_code == 200 and "giallo" in r.text
    assert rounds(store) == 1
    r = client.post("/organizer/round/pair", data={"csrf": token})
    assert "il turno 1 non è ancora chiuso" in r.text and rounds(store) == 1
    r = client.get("/organizer/export/standings.csv")
    assert r.status_code == 200 and r.text.startswith("rank,player,points")
    assert client.get("/organizer/export/all.zip").content[:2] == b"PK"
    cookie = client.cookies.jar
    session = next(c for c in cookie if c.name == "session")
    assert (
        session.has_nonstandard_attr("HttpOnly")
        or "httponly"
        in str(
            session._rest  # type: ignore[attr-defined]
        ).lower()
    )


def test_the_session_cookie_is_httponly_and_samesite_strict(client: TestClient) -> None:
    r = client.get("/organizer/")
    cookie = r.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=strict" in cookie


def test_wrong_passphrases_are_rate_limited(client: TestClient, store: Store) -> None:
    token = csrf(client.get("/organizer/").text)
    for _ in range(5):
        r = client.post("/organizer/login", data={"csrf": token, "passphrase": "guess"})
        assert "parola d&#39;ordine sbagliata" in r.text
    r = client.post("/organizer/login", data={"csrf": token, "passphrase": PASSPHRASE})
    assert r.status_code == 429
    assert client.post("/organizer/round/pair", data={"csrf": token}).status_code == 401


def test_bodies_are_size_limited(client: TestClient, store: Store) -> None:
    token = log_in(client)
    r = client.post("/organizer/players", data={"csrf": token, "names": "x" * 100_000})
    assert r.status_code == 413
    assert len(day.get_tournament(store).players) == 2


def test_a_body_sent_in_chunks_is_counted_too(client: TestClient, store: Store) -> None:
    token = log_in(client)

    def chunks():  # no Content-Length: the limit counts what arrives
        yield f"csrf={token}&names=".encode()
        for _ in range(100):
            yield b"x" * 1000

    r = client.post(
        "/organizer/players",
        content=chunks(),
        headers={"content-type": "application/x-www-form-urlencoded"},
    )
    assert r.status_code == 413
    assert len(day.get_tournament(store).players) == 2


def test_a_correction_is_previewed_then_recorded(client: TestClient, store: Store) -> None:
    paired(store, client)
    token = log_in(client)
    table = issue(client, token)
    client.post(f"{table}/partita", data={"csrf": csrf(client.get(table).text), "games": GAMES})
    client.post(f"{table}/start", data={"csrf": csrf(client.get(table).text), "game": "tiro"})
    for by, kind, fields in TIRO:
        record(client, table, by, kind, **fields)
    form = {"csrf": token, "match": "M1", "on": "5", "kind": "void", "reason": "wrong player"}
    r = client.post("/organizer/correct", data={**form, "do": "preview"})
    assert r.status_code == 200 and "giallo 1" in r.text
    assert store.get_match("M1").lines[-1].find('"end"') > 0  # nothing stored by a preview
    r = client.post("/organizer/correct", data={**form, "do": "record"})
    assert "registrato (annullamento)" in r.text
    assert '"void"' in store.get_match("M1").lines[-1]


def test_the_organizer_registers_withdraws_chooses_and_starts(
    client: TestClient, store: Store
) -> None:
    token = log_in(client)
    r = client.post("/organizer/players", data={"csrf": token, "names": "verde\nrosso\n"})
    assert "+ verde, rosso" in r.text
    r = client.post("/organizer/players/withdraw", data={"csrf": token, "player": "rosso"})
    assert day.get_tournament(store).players["rosso"]["status"] == "withdrawn"
    client.post("/organizer/round/pair", data={"csrf": token})
    data = {"csrf": token, "round": "1", "table": "1"}
    r = client.post("/organizer/partita", data={**data, "games": GAMES[:3]})
    assert "una partita è di quattro giochi diversi (CH-3)" in r.text
    client.post("/organizer/partita", data={**data, "games": GAMES})
    r = client.post("/organizer/table/start", data={**data, "game": "tiro"})
    assert "M1 avviata" in r.text
    assert day.get_tournament(store).table(1, 1)["matches"] == {"tiro": "M1"}


def test_a_refusal_is_said_in_the_pages_language(client: TestClient, store: Store) -> None:
    """#14: the services' refusals are catalogue messages; the CLI's English is their str."""
    token = log_in(client)
    client.post("/organizer/round/pair", data={"csrf": token})
    data = {"csrf": token, "round": "1", "table": "1"}
    refusals = [
        ("/organizer/round/pair", {"csrf": token}),
        ("/organizer/partita", {**data, "games": GAMES[:3]}),
        ("/organizer/table/start", {**data, "game": "tiro"}),
        ("/organizer/round/close", {"csrf": token}),
        ("/organizer/players/withdraw", {"csrf": token, "player": "nessuno"}),
        ("/organizer/correct", {**data, "match": "M9", "on": "1", "kind": "void", "reason": "x"}),
    ]
    italian = [
        "il turno 1 non è ancora chiuso",
        "una partita è di quattro giochi diversi (CH-3)",
        "il tavolo 1 gioca ancora niente (prima scegli la partita), non tiro",
        "il turno 1 non si può chiudere: tavolo/i 1 senza risultato",
        "nessuno non è un giocatore attivo di questo torneo",
        "non c'è una partita M9 in questo database",
    ]
    english = [
        "round 1 is not closed yet",
        "a partita is four different games (CH-3)",
        "table 1 plays nothing yet (choose the partita first), not tiro",
        "round 1 cannot close: table(s) 1 not decided",
        "nessuno is not an active player of this tournament",
        "there is no match M9 in this database",
    ]
    before = store.recorder.max_notification_id()
    assert [said(client.post(path, data=form).text) for path, form in refusals] == italian
    client.get("/lang/en")
    assert [said(client.post(path, data=form).text) for path, form in refusals] == english
    assert store.recorder.max_notification_id() == before  # a refusal stores nothing


def said(page: str) -> str:
    """The sentence an action's answer shows (its flash)."""
    found = re.search(r'<p class="flash[^"]*"[^>]*>(.*?)</p>', page, re.S)
    assert found, "the answer shows no flash"
    return html.unescape(found.group(1)).strip()


def test_the_organizer_starts_a_table_with_digital_dice(client: TestClient, store: Store) -> None:
    from tournament.services import dice
    from tournament.services.matches import load

    token = log_in(client)
    client.post("/organizer/round/pair", data={"csrf": token})
    data = {"csrf": token, "round": "1", "table": "1"}
    client.post("/organizer/partita", data={**data, "games": GAMES})
    r = client.post("/organizer/table/start", data={**data, "game": "tiro", "digital": "1"})
    assert "M1 avviata" in r.text
    loaded = load(store, "M1")
    assert dice.sealed(loaded) and dice.seed(store, "M1") is not None
    assert dice.seed(store, "M1") not in r.text


def test_a_table_card_names_the_games_by_their_titles_and_the_tables_referee(
    client: TestClient, store: Store
) -> None:
    from tournament.services import tables
    from tournament.services.referees import name_referee

    paired(store, client)
    tables.choose_partita(store, 1, 1, GAMES)
    match = tables.start_match(store, 1, 1, "tiro")
    name_referee(store, match.number, "Anna Rossi")
    token = log_in(client)
    asked = client.post("/organizer/cards", data={"csrf": token}).text  # a table is in play
    assert "Stampare nuovi cartellini dei tavoli?" in asked and "Tavolo 1" in asked
    page = client.post("/organizer/cards", data={"csrf": token, "confirm": "yes"}).text
    assert (
        "Tiro di precisione, Texas Word&#39;em" in page
        or "Tiro di precisione, Texas Word'em" in page
    )
    assert "Anna Rossi" in page
    # The QR scales to the card's 62 mm whole (a viewBox, no size of its own that CSS would crop).
    qr = re.search(r'<svg[^>]*class="segno"[^>]*>', page)
    assert qr and "viewBox" in qr.group(0) and "width=" not in qr.group(0)
