"""Check-in on the web (#24): the organizer ticks who is here, the door's link lets players check
themselves in, and a round pairs only those checked in (its page lists the others)."""

from __future__ import annotations

import re
from pathlib import Path

from starlette.testclient import TestClient

from tests.web.conftest import build, csrf, log_in, make_client
from tournament.domain.tournaments import TOURNAMENT_ID
from tournament.services import day

PLAYERS = ("Anna", "Bruno", "Carla", "Dario", "Elena")


def test_the_organizer_ticks_and_the_door_checks_in_then_the_round_pairs_them(
    tmp_path: Path,
) -> None:
    store = build(tmp_path / "t.db", PLAYERS, plays="tiro", check_in=True)
    with make_client(store) as organizer, make_client(store) as door:
        token = log_in(organizer)
        page = organizer.get("/organizer/").text
        assert 'id="check-in"' in page and "Presenze per il turno 1" in page
        # Without the session nothing is stored; with it, exactly the ticked are checked in.
        assert door.post("/organizer/checkin", data={"here": "Anna"}).status_code == 401
        r = organizer.post("/organizer/checkin", data={"csrf": token, "here": ["anna", "Bruno"]})
        assert r.status_code == 200 and "2 presenti per il turno 1" in r.text
        assert re.search(r'value="Anna" checked', r.text)
        assert not re.search(r'value="Carla" checked', r.text)
        organizer.post("/organizer/checkin", data={"csrf": token, "here": ["Anna"]})
        assert day.get_tournament(store).checked_in_for(1) == ["Anna"]

        sheet = organizer.post("/organizer/checkin/door", data={"csrf": token}).text
        link = re.search(r"http://127\.0\.0\.1(/checkin/[\w-]+)", sheet)
        assert link is not None and "<svg" in sheet  # the QR code of the link
        here = door.get(link[1])
        assert here.status_code == 200 and "Trova il tuo nome" in here.text
        assert 'value="Bruno"' in here.text and 'value="Anna"' not in here.text  # Anna is in
        r = door.post(link[1], data={"csrf": csrf(here.text), "player": "carla"})
        assert r.status_code == 200 and "Carla: presente per il turno 1" in r.text
        r = door.post(link[1], data={"csrf": csrf(here.text), "player": "Nessuno"})
        assert "Nessuno non è un giocatore attivo" in r.text  # one sentence, nothing stored
        assert door.get("/checkin/" + "x" * 22).status_code == 404  # a guess
        events = [type(e).__name__ for e in store.events.get(TOURNAMENT_ID)]
        assert events.count("PlayerCheckedIn") == 3 and events.count("PlayerCheckedOut") == 1
        last = store.events.get(TOURNAMENT_ID)
        assert [e.by for e in last if type(e).__name__ == "PlayerCheckedIn"][-1] == "self check-in"

        # A new door link replaces the old one.
        organizer.post("/organizer/checkin/door", data={"csrf": token})
        assert door.get(link[1]).status_code == 404

        r = organizer.post("/organizer/round/pair", data={"csrf": token})
        paired = day.get_tournament(store).rounds[0]["tables"]
        assert [tb["players"] for tb in paired] == [["Anna", "Carla"]]
        assert "Non presenti, non abbinati" in r.text and "Dario" in r.text  # the round's page
        organizer.cookies.set("lang", "en")
        page = organizer.get("/rounds/1").text
        assert re.search(r"Not checked in, not paired: .*Bruno.*Dario.*Elena", page)
        page = organizer.get("/organizer/").text  # check-ins reset: round 2 starts with nobody
        assert "Check-in for round 2" in page and " checked>" not in page
    store.close()


def test_a_tournament_without_check_in_has_no_section_and_refuses_the_door(
    client: TestClient,
) -> None:
    token = log_in(client)
    assert 'id="check-in"' not in client.get("/organizer/").text
    r = client.post("/organizer/checkin/door", data={"csrf": token})
    assert "questo torneo non chiede la registrazione dei presenti" in r.text
