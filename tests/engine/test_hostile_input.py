"""What a hostile log can put in front of the engine: each is refused with a reason (issue 10)."""

from __future__ import annotations

import pytest

from engine.arithmetic import MAX_TOKENS, judge
from engine.errors import MalformedEvent
from engine.events import Roll, parse_event
from engine.header import FORMAT, parse_header
from engine.jsontext import MAX_DEPTH, MAX_INT, JsonError, check, loads


def short(value: object) -> str:
    """A test id that a 5,000-character input does not swamp."""
    return ascii(value)[:24]


def nested(depth: int) -> str:
    return "[" * depth + "1" + "]" * depth


def deep_list(depth: int) -> list:
    value: list = [1]
    for _ in range(depth - 1):
        value = [value]
    return value


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (nested(100_000), "nests lists or objects deeper than 32 levels"),
        (nested(MAX_DEPTH + 1), "nests lists or objects deeper than 32 levels"),
        ('{"a":' * 5_000 + "1" + "}" * 5_000, "nests lists or objects deeper"),
        ("9" * 4_400, "holds the number 999999999999…(4400 characters), beyond ±"),
        (str(MAX_INT + 1), f"holds the number {MAX_INT + 1}, beyond ±{MAX_INT} (I-JSON)"),
        (str(-MAX_INT - 1), "beyond ±"),
        ("1e999", "holds the number 1e999, beyond what a double holds"),
        ("-1e999", "beyond what a double holds"),
        ("NaN", "holds NaN, which is not a JSON number"),
        ("[Infinity]", "holds Infinity, which is not a JSON number"),
        ('"\\ud800"', "holds text that is not Unicode: a lone surrogate '\\ud800'"),
        ('{"by": "gi\\udcffallo"}', "a lone surrogate '\\udcff'"),
        ('{"\\udfff": 1}', "a lone surrogate '\\udfff'"),
        ('{"by": "a", "by": "b"}', "gives the key 'by' twice in one object"),
        ('{"by": ', "is not valid JSON (Expecting value at column 8)"),
    ],
    ids=short,
)
def test_the_log_reader_refuses_what_a_log_cannot_hold(text: str, reason: str) -> None:
    with pytest.raises(JsonError) as refused:
        loads(text)
    assert reason in str(refused.value), refused.value
    assert len(str(refused.value)) < 120  # a 4,400-digit number is not echoed back whole


def test_the_log_reader_keeps_what_json_means() -> None:
    assert loads(nested(MAX_DEPTH - 1)) == loads(nested(MAX_DEPTH - 1))
    assert loads(f"[{MAX_INT}, {-MAX_INT}, 1.5, -0.0]") == [MAX_INT, -MAX_INT, 1.5, -0.0]
    assert loads('"\\ud83d\\ude00 é"') == "\U0001f600 é"  # a surrogate pair is one character
    assert loads('{"a": {"b": [null, true, "x"]}}') == {"a": {"b": [None, True, "x"]}}


def test_check_walks_values_built_in_python_too() -> None:
    check({"deck": [["a", 1], {"b": None}]})
    with pytest.raises(JsonError, match="lone surrogate"):
        check({"players": ["blu", "ca\udcffsa"]})
    with pytest.raises(JsonError, match="beyond"):
        check([10**4_000])
    with pytest.raises(JsonError, match="deeper"):  # walked without recursion: no RecursionError
        check(deep_list(100_000))


@pytest.mark.parametrize(
    ("obj", "reason"),
    [
        ({"type": "pass", "by": "gi\udcffallo"}, "a pass's 'by' is not Unicode text"),
        ({"type": "word", "by": "blu", "word": "\ud800"}, "a word's 'word' is not Unicode"),
        ({"type": "choose", "by": "blu", "value": "\udcff"}, "a choose's 'value' is not Unicode"),
        ({"type": "roll", "by": "blu", "die": "d6", "values": [10**4_000]}, "values must be"),
        ({"type": "roll", "by": "blu", "die": "d6", "values": [MAX_INT + 1]}, "values must be"),
        ({"type": "reroll", "by": "M", "dice": [2**64], "values": [1]}, "'dice' must be"),
        ({"type": "ruling", "by": "referee", "on": 10**30, "accept": True}, "'on' must be"),
        (
            {"type": "end", "winners": ["blu"], "points": {"blu": 2**60}},
            "an end's 'points' must map",
        ),
        (
            {"type": "end", "winners": ["blu"], "points": {"\ud800": 1}},
            "an end's 'points' must map",
        ),
        ({"type": "pass", "by": "blu", "note": "\ud800"}, "a pass holds text that is not Unicode"),
        ({"type": "pass", "by": "blu", "note": deep_list(MAX_DEPTH + 1)}, "a pass nests"),
    ],
    ids=short,
)
def test_an_event_that_could_not_be_stored_is_malformed(obj: dict, reason: str) -> None:
    with pytest.raises(MalformedEvent) as refused:
        parse_event(obj)
    assert reason in str(refused.value), refused.value


def test_events_within_range_still_parse() -> None:
    event = parse_event({"type": "roll", "by": "blu", "die": "d6", "values": [MAX_INT, "é"]})
    assert event == Roll("blu", "d6", (MAX_INT, "é"))


@pytest.mark.parametrize(
    ("extra", "reason"),
    [
        ({"players": ["gi\udcffallo", "blu"]}, "the header holds text that is not Unicode"),
        ({"note": "\ud800"}, "the header holds text that is not Unicode"),
        ({"deck": deep_list(MAX_DEPTH + 1)}, "the header nests"),
        ({"seed": 2**70}, "the header holds a number beyond"),
    ],
    ids=short,
)
def test_a_header_that_could_not_be_stored_is_malformed(extra: dict, reason: str) -> None:
    header = {"format": FORMAT, "game": "tiro", "players": ["giallo", "blu"], **extra}
    with pytest.raises(MalformedEvent) as refused:
        parse_header(header)
    assert reason in str(refused.value), refused.value


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("²", "'²' is not a number, an operator or a parenthesis"),
        ("3+٣", "'٣' is not a number"),
        ("(" * 5_000 + "1" + ")" * 5_000, f"the expression is longer than {MAX_TOKENS} signs"),
        ("1" + "+1" * 3_000, "the expression is longer than"),
        ("1" + "*(1" * 2_000 + ")" * 2_000, "the expression is longer than"),
        ("9" * 5_000, "999999… joins digits into one number"),
    ],
    ids=short,
)
def test_a_hostile_expression_is_judged_invalid_not_a_crash(text: str, reason: str) -> None:
    judgement = judge(text, [1, 2, 3])
    assert not judgement.valid and reason in str(judgement.error), judgement.error


def test_an_expression_of_many_dice_still_fits_the_bound() -> None:
    text = "(" + "+".join(["(1+2)"] * 12) + ")"  # far more dice than any game throws
    assert judge(text, [1, 2] * 12).valid


@pytest.mark.parametrize("key", ["\x00", "a\x00", "\x00b", "cs\x00"])
def test_a_lexicon_index_key_with_nul_finds_nothing(lexicon, key: str) -> None:
    """marisa's BytesTrie misreads a key holding NUL (a SystemError, or bytes that are not
    UTF-8); no word holds one, so nothing is found."""
    assert lexicon.anagrams(key) == [] and lexicon.by_consonants(key) == []
    assert key not in lexicon
