"""The endpoint a referee's phone sends its kept moves to (``POST /table/TOKEN/move``, JSON in and
out, docs/offline.md): a move is stored only at the position it was made at (a fast-forward);
a refusal, a conflict, a forged or malformed request store nothing. And ``serve``'s certificate
options, under which the phones also keep the page itself (a service worker)."""

from __future__ import annotations

import datetime
import re
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from tournament.services import day
from tournament.storage.store import Store

from .conftest import GAMES, build, csrf, issue, log_in, paired, refresh, serve


def started(client: TestClient, store: Store) -> tuple[str, str]:
    """A table's link with its Tiro started, and the page's CSRF token."""
    paired(store, client)
    table = issue(client, log_in(client))
    page = client.get(table).text
    client.post(f"{table}/partita", data={"csrf": csrf(page), "games": GAMES})
    client.post(f"{table}/start", data={"csrf": csrf(page), "game": "tiro"})
    return table, csrf(client.get(table).text)


def send(client: TestClient, table: str, token: str, at: Any, **fields: str) -> Any:
    body = {"csrf": token, "match": "M1", "at": at, "fields": fields}
    return client.post(f"{table}/move", json=body)


def test_a_move_is_stored_at_its_position_and_a_moved_on_match_is_a_conflict(
    client: TestClient, store: Store
) -> None:
    table, token = started(client, store)
    r = send(client, table, token, 0, kind="text", text="roll giallo d6 6 6 5 1")
    assert r.status_code == 200 and r.json()["status"] == "stored"
    assert r.json()["position"] == 1 and "giallo" in r.json()["reason"]
    assert r.headers["cache-control"] == "no-store"
    # The same move again at the same position (a phone that did not hear the answer): the
    # store holds it already, nothing added, and the queue goes on after it.
    r = send(client, table, token, 0, kind="text", text="roll giallo d6 6 6 5 1")
    assert r.status_code == 200 and r.json()["status"] == "stored"
    assert r.json()["position"] == 1 and "già registrata" in r.json()["reason"]
    assert len(store.get_match("M1").lines) == 1
    r = send(client, table, token, 0, kind="text", text="roll giallo d6 6 6 5 2")  # another
    assert r.status_code == 409 and len(store.get_match("M1").lines) == 1
    # The next at the position the answer gave; the same form fields as the page's buttons.
    r = send(client, table, token, 1, kind="roll", by="blu", die="d6", values="5 4 2 1")
    assert r.json() == {**r.json(), "status": "stored", "position": 2}
    # A phone that made its move at 1 (the match moved on since): a conflict, nothing stored.
    r = send(client, table, token, 1, kind="text", text="roll giallo d20 11")
    assert r.status_code == 409 and r.json()["status"] == "conflict"
    assert r.json()["position"] == 2
    assert "la partita è andata avanti: è alla posizione 2" in r.json()["reason"]
    assert len(store.get_match("M1").lines) == 2
    # A move the rules refuse, at the right position: refused with the reason and the rule.
    r = send(client, table, token, 2, kind="text", text="roll blu d20 11")
    assert r.status_code == 422 and r.json()["status"] == "refused"
    assert "(TIR-" in r.json()["reason"] and len(store.get_match("M1").lines) == 2
    # In English for a phone that chose English.
    client.cookies.set("lang", "en")
    r = send(client, table, token, 0, kind="text", text="roll giallo d20 11")
    assert r.json()["reason"].startswith("the match moved on: it is at position 2")


def test_a_forged_or_malformed_move_or_a_wrong_link_stores_nothing(
    client: TestClient, store: Store
) -> None:
    table, token = started(client, store)
    move = {"match": "M1", "at": 0, "fields": {"kind": "text", "text": "roll giallo d6 6 6 5 1"}}
    for body in (move, {**move, "csrf": "forged"}, "not an object"):  # no token, a forged one
        r = client.post(f"{table}/move", json=body)
        assert r.status_code == 403 and r.json()["status"] == "refused"
        assert "CSRF" in r.json()["reason"] and store.get_match("M1").lines == []
        assert r.json()["stale"] is True  # the phone asks the page for the session's new token
    for at, fields in ((True, {"kind": "pass"}), ("0", {"kind": "pass"}), (-1, {"kind": "pass"}),
                       (0, {"kind": 3}), (0, ["pass"]), (10**30, {"kind": "pass"})):  # fmt: skip
        body = {"csrf": token, "match": "M1", "at": at, "fields": fields}
        r = client.post(f"{table}/move", json=body)
        assert r.status_code == 400, (at, fields)
        assert r.json()["reason"] == "questa non è una mossa inviata dalla pagina di un tavolo"
    json_ = {"content-type": "application/json"}
    r = client.post(f"{table}/move", content=b"{not json", headers=json_)
    assert r.status_code == 403  # not a body of the page's: its token cannot be read either
    r = client.post(f"{table}/move", json={"csrf": token, "match": "M2", "at": 0, "fields": {}})
    assert r.status_code == 422 and "M2 non è una partita di questo tavolo" in r.json()["reason"]
    body = {"csrf": token, "match": "M1", "at": 0, "fields": {}}
    r = client.post("/table/unknown/move", json=body)
    assert r.status_code == 404 and r.json()["status"] == "refused"
    assert r.json()["reason"] == "questo link di tavolo non è conosciuto"
    assert store.get_match("M1").lines == []


def test_a_move_stored_before_its_round_closed_is_stored_already_when_sent_again(
    client: TestClient, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tournament.web import actions, offline

    table, token = started(client, store)
    move = {"kind": "text", "text": "roll giallo d6 6 6 5 1"}
    t = day.get_tournament(store)
    t.amend_result(round=1, table=1, points={"giallo": 1, "blu": 0}, reason="test", by="organizer")
    day.save(store, t)
    refresh(store, client)

    def closing_first(*args: object, **kwargs: object) -> object:
        # the move stored, then the round closed as its answer was on its way (the writer's
        # turn of the phone's second try meets the closed round)
        monkeypatch.undo()
        day.close_round(store)
        return actions.writer(*args, **kwargs)  # type: ignore[arg-type]

    assert send(client, table, token, 0, **move).json()["position"] == 1
    monkeypatch.setattr(offline, "writer", closing_first)
    r = send(client, table, token, 0, **move)
    assert r.status_code == 200 and r.json()["status"] == "stored"
    assert r.json()["position"] == 1 and "già registrata" in r.json()["reason"]
    # And sent once more, the link expired with its round: still the move stored, nothing added.
    r = send(client, table, token, 0, **move)
    assert r.status_code == 200 and r.json()["status"] == "stored", r.text
    assert r.json()["position"] == 1 and len(store.get_match("M1").lines) == 1
    # A move the store does not hold is refused in the closed round (the link expired).
    r = send(client, table, token, 1, kind="text", text="roll blu d6 5 4 2 1")
    assert r.status_code == 403 and "il turno 1 è chiuso" in r.json()["reason"]
    r = send(client, table, token, 0, kind="text", text="roll giallo d6 6 6 5 2")
    assert r.status_code == 403 and len(store.get_match("M1").lines) == 1


def test_the_service_worker_is_served_for_the_tables_pages(client: TestClient) -> None:
    r = client.get("/table/sw.js")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/javascript")
    assert "caches" in r.text and r.headers["cache-control"] == "no-cache"


# --- serve --ssl-certfile --ssl-keyfile ---------------------------------------------------------


def self_signed(folder: Path) -> tuple[Path, Path]:
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder().subject_name(name).issuer_name(name)
        .public_key(key.public_key()).serial_number(x509.random_serial_number())
        .not_valid_before(now).not_valid_after(now + datetime.timedelta(days=1))
        .sign(key, hashes.SHA256())
    )  # fmt: skip
    cert_file, key_file = folder / "cert.pem", folder / "key.pem"
    cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_file, key_file


def test_serve_passes_a_certificate_to_uvicorn_and_refuses_a_bad_one(
    tmp_path: Path, served: list
) -> None:
    build(tmp_path / "t.db")
    cert, key = self_signed(tmp_path)
    r = serve(tmp_path / "t.db", "--ssl-certfile", str(cert), "--ssl-keyfile", str(key))
    assert r.exit_code == 0, r.output
    assert served[0]["ssl_certfile"] == str(cert) and served[0]["ssl_keyfile"] == str(key)
    assert served[0]["app"].state.settings.https  # the session's cookie marked Secure
    assert re.search(r"on https://127\.0\.0\.1:8000/", r.output)
    r = serve(tmp_path / "t.db", "--ssl-certfile", str(cert))
    assert r.exit_code == 1 and "--ssl-certfile and --ssl-keyfile go together" in r.output
    r = serve(tmp_path / "t.db", "--ssl-certfile", str(key), "--ssl-keyfile", str(key))
    assert r.exit_code == 1
    assert f"the certificate {key} and its key {key} cannot be used" in r.output
    missing = str(tmp_path / "no.pem")
    r = serve(tmp_path / "t.db", "--ssl-certfile", missing, "--ssl-keyfile", str(key))
    assert r.exit_code == 1 and "cannot be used: No such file or directory" in r.output
    assert "Traceback" not in r.output and len(served) == 1
    # The cards' links speak the server's scheme: an http:// public address is refused.
    tls = ("--ssl-certfile", str(cert), "--ssl-keyfile", str(key))
    r = serve(tmp_path / "t.db", *tls, "--public-url", "http://192.168.1.20:8000")
    assert r.exit_code == 1 and "--public-url must start with https://" in r.output
    r = serve(tmp_path / "t.db", *tls, "--host", "0.0.0.0")
    public = served[-1]["app"].state.settings.public_url  # None on a machine with no network
    assert r.exit_code == 0 and (public is None or public.startswith("https://"))
    # Behind a TLS proxy (--https) the cards' links are the proxy's https address: given, and
    # https (a Secure cookie is dropped on http, and every table's form would be refused).
    count = len(served)
    r = serve(tmp_path / "t.db", "--https", "--public-url", "http://tornei.example")
    assert r.exit_code == 1 and "(--https): --public-url must start with https://" in r.output
    r = serve(tmp_path / "t.db", "--https", "--host", "0.0.0.0")
    assert r.exit_code == 1 and "--public-url https://" in r.output and len(served) == count
    r = serve(tmp_path / "t.db", "--https", "--public-url", "https://tornei.example")
    assert r.exit_code == 0, r.output
    settings = served[-1]["app"].state.settings
    assert settings.https and settings.public_url == "https://tornei.example"
    r = serve(tmp_path / "t.db", "--https")  # on this machine, behind its own proxy
    assert r.exit_code == 0 and served[-1]["app"].state.settings.public_url is None
