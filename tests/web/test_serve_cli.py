"""``tournament serve``: its refusals, its passphrase, and the warning when it opens to a network
(uvicorn is replaced by a stand-in that records what it was asked to run)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from tournament.cli import full_app
from tournament.storage.store import Store

from .conftest import build, serve


def test_serve_refuses_a_database_that_does_not_exist(tmp_path: Path, served: list) -> None:
    r = serve(tmp_path / "none.db")
    assert r.exit_code == 1 and "there is no database at" in r.output
    assert served == [] and not (tmp_path / "none.db").exists()


def test_serve_binds_this_machine_and_prints_a_new_passphrase_once(
    tmp_path: Path, served: list
) -> None:
    build(tmp_path / "t.db")
    r = serve(tmp_path / "t.db")
    assert r.exit_code == 0, r.output
    assert served[0]["host"] == "127.0.0.1" and served[0]["port"] == 8000
    assert r.output.count("organizer's passphrase (shown once):") == 1
    passphrase = r.output.split("(shown once): ")[1].split()[0]
    assert served[0]["app"].state.settings.passphrase == passphrase
    assert "warning" not in r.output


def test_serve_warns_when_it_opens_to_a_network(tmp_path: Path, served: list) -> None:
    build(tmp_path / "t.db")
    r = serve(tmp_path / "t.db", "--host", "0.0.0.0", "--organizer-passphrase", "a long secret")
    assert r.exit_code == 0, r.output
    assert "warning: listening on 0.0.0.0" in r.output and "shown once" not in r.output
    assert served[0]["app"].state.settings.passphrase == "a long secret"
    r = serve(tmp_path / "t.db", "--organizer-passphrase", "short")
    assert r.exit_code == 1 and "at least 8 characters" in r.output


def test_the_stream_resumes_after_the_last_event_id(server: Any, store: Store) -> None:
    import json

    import httpx

    # The first event the stream sends after Last-Event-ID 2 is the third stored, with its id:
    # read up to it (a stream that sends nothing fails on the client's timeout, one that ends
    # without it fails below).
    fields: dict[str, str] = {}
    with httpx.Client(timeout=5) as http:
        headers = {"Last-Event-ID": "2"}
        with http.stream("GET", f"{server.url}/api/live", headers=headers) as stream:
            assert stream.status_code == 200
            for line in stream.iter_lines():
                name, _, value = line.partition(":")
                if name in ("id", "event", "data"):
                    fields[name] = value.strip()
                if name == "data":
                    break
    assert fields.get("data"), f"the stream sent no event after id 2: {fields}"
    assert fields["id"] == "3" and fields["event"] == "stored"
    assert json.loads(fields["data"])["id"] == 3


def test_serve_takes_a_tournament_on_a_postgresql_server(
    postgres_server: Any, served: list
) -> None:
    from dataclasses import replace

    from .conftest import url_of

    url = url_of(replace(postgres_server, schema="served"))
    build(url)
    r = CliRunner().invoke(
        full_app(), ["--db", url, "serve", "--organizer-passphrase", "a long secret"]
    )
    assert r.exit_code == 0, r.output
    assert f"serving postgresql://{postgres_server.user}@" in r.output
    assert f":{postgres_server.password}@" not in r.output
    assert str(served[0]["app"].state.settings.db) == str(replace(postgres_server, schema="served"))
    absent = url_of(replace(postgres_server, schema="nothing_here"))
    r = CliRunner().invoke(full_app(), ["--db", absent, "serve"])
    assert r.exit_code == 1 and "there is no database at" in r.output


def test_serve_takes_the_season_naming_the_tournament_only(tmp_path: Path, served: list) -> None:
    build(tmp_path / "t.db")
    build(tmp_path / "other.db")
    (tmp_path / "s.toml").write_text('name = "S"\ntournaments = ["t.db"]\n', encoding="utf-8")
    r = serve(tmp_path / "t.db", "--season", str(tmp_path / "s.toml"))
    assert r.exit_code == 0, r.output
    assert served[0]["app"].state.settings.season == (tmp_path / "s.toml").resolve()
    r = serve(tmp_path / "other.db", "--season", str(tmp_path / "s.toml"))
    assert r.exit_code == 1 and "does not name the tournament at" in r.output
    r = serve(tmp_path / "t.db", "--season", str(tmp_path / "none.toml"))
    assert r.exit_code == 1 and "there is no season file at" in r.output and len(served) == 1
