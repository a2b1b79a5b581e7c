"""The organizer pairs a Swiss's cut and plays a knockout's decider from the web page, and the
bracket page says both in the catalogue's words (#24)."""

from __future__ import annotations

from pathlib import Path

from tests.tournament.test_knockouts import tiro
from tests.web.conftest import build, log_in, make_client
from tournament.domain import views
from tournament.services import day


def test_the_cut_paired_and_a_decider_started_from_the_organizers_page(tmp_path: Path) -> None:
    store = build(
        tmp_path / "t.db",
        players=("Anna", "Bruno", "Carla", "Dario", "Elena", "Franco"),
        plays="tiro",
        rounds=1,
        cut=4,
    )
    day.pair_next_round(store)
    for table in (1, 2, 3):
        tiro(store, 1, table, views.paired(day.get_tournament(store), 1).table(table).players[0])
    day.close_round(store)
    swiss = [r.player for r in day.current_standings(day.get_tournament(store),
                                                     day.replayed_outcome(store))]  # fmt: skip
    with make_client(store) as client:
        token = log_in(client)
        page = client.post("/organizer/round/pair", data={"csrf": token}).text
        semis = views.paired(day.get_tournament(store), 2).tables
        assert [tb.players for tb in semis] == [(swiss[0], swiss[3]), (swiss[1], swiss[2])]
        assert "testa di serie 1 - testa di serie 4" in page  # the round's page, in Italian
        assert "Turno 2: semifinali" in page
        tiro(store, 2, 1, None)  # drawn: it waits for a decider
        tiro(store, 2, 2, swiss[1])
        r = client.post("/organizer/round/close", data={"csrf": token})
        assert "è pari" in r.text and "spareggio" in r.text
        assert not day.get_tournament(store).rounds[1]["closed"]
        home = client.get("/organizer/").text  # the drawn table offers its decider
        assert "si gioca uno spareggio" in home and 'name="game"><option value="tiro"' in home
        bracket = client.get("/bracket").text
        assert "semifinali" in bracket and "si gioca uno spareggio" in bracket
        r = client.post(
            "/organizer/table/start",
            data={"csrf": token, "round": "2", "table": "1", "game": "tiro"},
        )
        assert r.status_code == 200
        decider = views.paired(day.get_tournament(store), 2).table(1).matches["tiro #2"]
        assert decider in r.text
        standings = client.get("/standings").text  # the Swiss's table, then the final one
        assert standings.index("Lo svizzero: la classifica dopo il turno 1") < standings.index(
            "La classifica finale: il tabellone, poi lo svizzero"
        )
        client.get("/lang/en")
        assert "semi-finals" in client.get("/bracket").text
