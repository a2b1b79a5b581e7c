"""Dice and faces (EQ-1, EQ-2), headers and event parsing."""

from __future__ import annotations

import pytest

from engine.dice import DEFAULT_FACES, FaceSet, check_roll
from engine.errors import BadHeader, MalformedEvent, RuleViolation
from engine.events import event_to_json, parse_event
from engine.header import parse_header
from tests.support import header, play, roll


def test_eq1_numeric_dice() -> None:
    assert check_roll("d20", [1, 20], DEFAULT_FACES) == (1, 20)
    for bad in (0, 21, "5", True):
        with pytest.raises(RuleViolation) as e:
            check_roll("d20", [bad], DEFAULT_FACES)
        assert e.value.rule == "EQ-1"


def test_eq2_default_faces_by_letter_frequency() -> None:
    assert len(DEFAULT_FACES.vowel) == 20 and len(DEFAULT_FACES.consonant) == 20
    assert DEFAULT_FACES.vowel.count("A") == 5 and "U/A" in DEFAULT_FACES.vowel
    with pytest.raises(RuleViolation, match="faces: B C D F G L M N P R S T V Z") as e:
        check_roll("consonant", ["K"], DEFAULT_FACES)
    assert e.value.rule == "EQ-2"


def test_eq2_a_tournament_face_set() -> None:
    faces = {"consonant": ["K", "W", "J"], "vowel": ["A", "E"]}
    replay = play("roulette_russa", ["a", "b"], [roll("a", "consonant", "k")], dice=faces)
    assert replay.state.consonants == (("k", "a"),)
    with pytest.raises(MalformedEvent):
        FaceSet.from_header({"consonant": [], "vowel": ["A"]})
    with pytest.raises(MalformedEvent):
        FaceSet.from_header("casino")


def test_header_checks() -> None:
    with pytest.raises(MalformedEvent, match="format"):
        parse_header({"format": "other/1", "game": "tiro", "players": ["a", "b"]})
    with pytest.raises(BadHeader, match="twice"):
        parse_header(header("tiro", ["a", "a"]))
    with pytest.raises(BadHeader, match="reserved"):
        parse_header(header("tiro", ["a", "referee"]))
    with pytest.raises(BadHeader, match="both"):
        parse_header(header("tiro", ["a", "b"], outside=["b"]))
    with pytest.raises(MalformedEvent, match="players"):
        parse_header({"format": "tournament-match/1", "game": "tiro", "players": "a,b"})


@pytest.mark.parametrize(
    "obj, message",
    [
        ({"type": "roll", "by": "a", "die": "d6"}, "needs the field 'values'"),
        ({"type": "roll", "by": "a", "die": "d6", "values": []}, "non-empty list"),
        ({"type": "roll", "by": "a", "die": "d6", "values": [[1]]}, "numbers or letters"),
        ({"type": "word", "by": 3, "word": "casa"}, "'by' must be"),
        ({"type": "ruling", "by": "referee", "on": "3", "accept": True}, "position"),
        ({"type": "ruling", "by": "referee", "on": 3, "accept": "yes"}, "true or false"),
        ({"type": "fold", "by": "a"}, "unknown event type"),
        ({"by": "a"}, "unknown event type"),
        (["roll"], "JSON object"),
    ],
)
def test_malformed_events(obj, message: str) -> None:
    with pytest.raises(MalformedEvent, match=message):
        parse_event(obj)


def test_events_round_trip_through_json() -> None:
    for obj in (
        {"type": "roll", "by": "a", "die": "d6", "values": [1, 2]},
        {"type": "word", "by": "b", "word": "pecca", "jolly": "c"},
        {"type": "end", "winners": ["a"], "points": {"a": 1, "b": 0}},
        {"type": "void", "by": "referee", "on": 2, "reason": "typo"},
    ):
        assert event_to_json(parse_event(obj)) == obj
