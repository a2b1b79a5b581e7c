"""One notation for moves (issue 12): every event as one short line, read leniently, written once.

The property: for every event of every example and of many simulated matches (bots, rulings and
voids included), ``parse(format(e), replay_before_e) == e`` exactly.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.bots import random_game
from engine.dice import DEFAULT_FACES, digital_roll, seed_commitment
from engine.events import (
    Chain,
    Choose,
    DiceCommit,
    DiceReveal,
    End,
    Event,
    Expression,
    Out,
    Roll,
    Ruling,
    Seal,
    Start,
    Timeout,
    Void,
    Word,
    parse_event,
    type_name,
)
from engine.games import GAMES, game
from engine.games.parola_nascosta import seal
from engine.header import parse_header
from engine.lexicon import default_lexicon
from engine.match import Replay
from engine.notation import (
    SHORT_FORMS,
    AmbiguousMove,
    IllegalMove,
    MalformedMove,
    NotationError,
    format,
    judged,
    parse,
    token,
    tokens,
)
from tests.support import EXAMPLES, example, header, play, roll
from tournament.services.matches import load
from tournament.services.simulate import Simulation, run
from tournament.storage.store import Store

LEXICON = default_lexicon()
GB = ["giallo", "blu"]


def round_trip(replay: Replay, events: tuple[Event, ...] | list[Event]) -> set[str]:
    """Format and re-parse each event against the replay before it; the kinds seen."""
    replay = Replay.start(replay.header, replay.lexicon)
    seen = set()
    for event in events:
        text = format(event)
        assert parse(text, replay) == event, text
        seen.add(type_name(event))
        # The match as the notation judged it, gone on from (a recording service does, #27).
        judged_as, replay = judged(text, replay)
        assert judged_as == event and replay.events[-1] == event, text
    return seen


def start(game_name: str, players: list[str], outside: Sequence[str] = ()) -> Replay:
    return Replay.start(parse_header(header(game_name, players, outside)), LEXICON)


@pytest.mark.parametrize("name", sorted(p.name for p in EXAMPLES.glob("*.jsonl")))
def test_every_event_of_every_example_round_trips(name: str) -> None:
    lines = (EXAMPLES / name).read_text().splitlines()
    replay = Replay.start(parse_header(json.loads(lines[0])), LEXICON)
    round_trip(replay, [parse_event(json.loads(line)) for line in lines[1:]])


# Player names as clubs write them: case, accents, spaces, quotes, names that are our keywords.
NAMES = st.one_of(
    st.sampled_from(["giallo", "Blu", "Giocatore 03", "Nicolò", "table", "points", "d6", 'a"b']),
    st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1, max_size=8),
).filter(lambda n: n.strip() and n != "referee")


@settings(max_examples=120, derandomize=True, deadline=None)
@given(
    name=st.sampled_from(GAMES),
    names=st.lists(NAMES, min_size=4, max_size=4, unique=True),
    seed=st.integers(0, 2**32),
    size=st.integers(2, 4),
)
def test_every_event_of_simulated_matches_round_trips(
    name: str, names: list[str], seed: int, size: int
) -> None:
    duel = name == "alphatiana"  # ALP-1: a duel
    players = names[: 2 if duel else max(size, game(name).min_players)][:3]
    outside = [names[3]] if name in ("catena", "texas", "tiro") else []
    replay = random_game(start(name, players, outside), random.Random(seed))
    round_trip(replay, replay.events)


def test_every_event_of_a_simulated_tournament_round_trips(tmp_path: Path) -> None:
    """tournament simulate's matches, as stored: every event reads back from its line."""
    store = Store(tmp_path / "s.db")
    run(store, Simulation(players=6, rounds=2, seed=7))
    stored = [load(store, m.number).replay for m in store.matches()]
    assert len(stored) >= 6 and sum(r.position for r in stored) > 100
    for replay in stored:
        round_trip(replay, replay.events)


def test_the_simulations_reach_every_kind_and_the_rest_is_covered_here() -> None:
    """The bots play every kind that has a short form but the console's digital dice."""
    seen: set[str] = set()
    for i, name in enumerate(GAMES * 3):
        size = 2 if name == "alphatiana" else 2 + i % 2  # ALP-1: a duel
        replay = start(name, ["giallo", "blu", "rosso"][:size], ["verde"])
        seen |= round_trip(replay, random_game(replay, random.Random(i)).events)
    seen |= {"dice-commit", "dice-reveal"}  # test_digital_dice_and_referee_notes below
    assert set(SHORT_FORMS) <= seen


def test_digital_dice_and_referee_notes() -> None:
    seed = "s3cret"
    faces = digital_roll(seed, 2, "d6", 2, DEFAULT_FACES)
    events = [
        DiceCommit("referee", seed_commitment(seed)),
        Roll("giallo", "d6", faces, digital=True),
        Void("referee", 2, 'typed twice:  the "same" roll'),
        Roll("giallo", "d6", faces, digital=False),
        Choose("giallo", faces[0]),
        DiceReveal("referee", seed),
    ]
    replay = start("ventuno", ["giallo", "blu"])
    assert {"dice-commit", "dice-reveal", "void", "roll"} <= round_trip(replay, events)
    assert format(events[1]).endswith(" digital") and format(events[3]).endswith(" not-digital")
    assert format(events[2]) == 'void 2 "typed twice:  the \\"same\\" roll"'
    # The console's digital dice: a roll written without faces takes them from the seed.
    sealed = replay.apply(events[0])
    assert parse("roll", sealed, seed=seed) == events[1]
    _, logged = example("tiro-seed.jsonl")
    tiro = play("tiro", ["giallo", "blu"], logged[:4], ["verde"])  # 4: giallo's expression
    noted = Ruling("referee", 4, True, 'see "#4" @once')
    assert format(noted) == 'rule 4 accept "see \\"#4\\" @once"'
    assert parse(format(noted), tiro) == noted


# --- the canonical forms, kind by kind ----------------------------------------------------------

CANONICAL = [
    (Roll("blu", "d6", (5, 4)), "roll blu d6 5 4"),
    (Roll("blu", "vowel", ("E", "U/A")), "roll blu vowel E U/A"),
    (Roll("blu", "vowel", ("e",)), 'roll blu vowel "e"'),  # not the canonical face: kept exact
    (Choose("blu", "a"), "choose blu a"),
    (Choose("blu", "5"), 'choose blu "5"'),
    (Word("blu", "pecca", "c"), "word blu pecca jolly c"),
    (Word("Giocatore 03", "due parole"), 'word "Giocatore 03" "due parole"'),
    (Chain("blu", ("casa", "cane")), "chain blu casa-cane"),
    (Expression("blu", "3x5x1", "Giocatore 03"), 'expr blu 3x5x1 @"Giocatore 03"'),
    (Seal("blu", "ab" * 32), f"seal blu {'ab' * 32}"),
    (Start("referee", "table"), 'start "table"'),
    (Ruling("referee", 4, False, "after time"), "rule 4 reject after time"),
    (Out("blu", "timed out (CH-4)"), "out blu timed out (CH-4)"),
    (End((), {"giallo": 0, "blu": 0}), "end winners nobody points blu 0 giallo 0"),
]


@pytest.mark.parametrize(("event", "text"), CANONICAL)
def test_canonical_forms(event: Event, text: str) -> None:
    assert format(event) == text


@given(st.text())
@settings(max_examples=300, derandomize=True)
def test_any_value_reads_back_as_one_token(value: str) -> None:
    (read,) = tokens(token(value))
    assert read.text == value


# --- lenient input, strict output --------------------------------------------------------------


def test_case_accents_spacing_and_names_regardless_of_case() -> None:
    replay = start("catena", ["Giallo", "Nicolò"], ["Verde Chiaro"])
    assert parse("  ROLL   giallo  Consonante c ", replay) == Roll("Giallo", "consonant", ("C",))
    replay = replay.apply(Roll("Giallo", "consonant", ("C",)))
    # The die left out: Giallo owes a vowel (and à is a vowel face, the accent aside).
    assert parse("roll giallo à", replay) == Roll("Giallo", "vowel", ("A",))
    replay = play("catena", ["Giallo", "Nicolò"], [roll("Giallo", "consonant", "C")], ["Verde"])
    assert parse("roll NICOLO vowel e", replay) == Roll("Nicolò", "vowel", ("E",))
    tiro = start("tiro", ["Giocatore 01", "Giocatore 02"], ["verde"])
    # A name with a space needs no quotes when it is written whole.
    assert parse("roll giocatore 02 d6 1,2,3,4", tiro) == Roll("Giocatore 02", "d6", (1, 2, 3, 4))


def test_referee_moves_and_the_console_forms() -> None:
    _, logged = example("tiro-seed.jsonl")
    replay = play("tiro", ["giallo", "blu"], logged[:4], ["verde"])
    assert parse("Ruling #4 Rejected  too late", replay) == Ruling("referee", 4, False, "too late")
    assert parse('void 4 "typo"', replay) == Void("referee", 4, "typo")
    asta = play("asta", ["giallo", "blu"], [roll("giallo", "vowel", "E", "A")])
    assert parse("roll C", asta) == Roll("giallo", "consonant", ("C",))


# --- the three errors ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("", "an empty line"),
        ("fly giallo", "unknown move 'fly'"),
        ('word giallo "casa', "quotation mark is not closed"),
        ("rule x accept", "must be a whole number"),
        ("rule 1 maybe", "rule POSITION accept|reject"),
        ("reroll giallo 2,x 5", "must be dice values"),
        ("roll giallo d7 3", "unknown die 'd7'"),
        ("roll bianco d6 5 4", "'bianco' is not a player of this match"),
        ("answer blu perhaps", "right or wrong"),
        ("roll giallo d6", "written with the faces that fell"),
    ],
)
def test_malformed_moves(text: str, says: str) -> None:
    replay = start("ventuno", ["giallo", "blu"])
    with pytest.raises(MalformedMove, match=says) as raised:
        parse(text, replay)
    assert isinstance(raised.value, NotationError) and isinstance(raised.value, ValueError)


def test_illegal_moves_cite_the_rule() -> None:
    replay = start("ventuno", ["giallo", "blu"])
    with pytest.raises(IllegalMove) as raised:
        parse("roll blu d6 5 4", replay)
    assert str(raised.value) == "it is not blu's turn; now: giallo (roll d6 x2) (VEN-1)"
    with pytest.raises(IllegalMove, match=r"7 is not a face of a d6 \(faces 1 to 6\) \(EQ-1\)"):
        parse("roll giallo d6 7 1", replay)
    _, logged = example("tiro-seed.jsonl")
    tiro = play("tiro", ["giallo", "blu"], logged[:4], ["verde"])
    with pytest.raises(IllegalMove, match=r"only the referee may record a ruling \(REF-1\)"):
        parse('ruling {"by": "blu", "on": 4, "accept": true}', tiro)


def test_ambiguous_moves_ask_which() -> None:
    tiro = start("tiro", ["giallo", "blu"], ["verde"])
    asks = "^name the player: giallo, blu or verde may record a roll now$"
    with pytest.raises(AmbiguousMove, match=asks):
        parse("roll d6 1 2 3 4", tiro)
    # A club's own dice with a face on both letter dice: the die must be said.
    dice = {"consonant": ["A", "B"], "vowel": ["A", "E"]}
    catena = Replay.start(parse_header(header("catena", GB, ["verde"], dice=dice)), LEXICON)
    with pytest.raises(AmbiguousMove, match="^say which die giallo rolls: consonant or vowel$"):
        parse("roll giallo a", catena)
    assert parse("roll giallo consonant a", catena) == Roll("giallo", "consonant", ("A",))
    # The digital dice need no faces, and so no die: the first owed.
    sealed = catena.apply(DiceCommit("referee", seed_commitment("s")))
    assert parse("roll giallo", sealed, seed="s").die == "consonant"
    twins = start("ventuno", ["Blu", "BLU"])
    assert parse("roll Blu d6 1 2", twins).by == "Blu"  # written exactly: no doubt
    with pytest.raises(AmbiguousMove, match="'blu' may be Blu or BLU"):
        parse("roll blu d6 1 2", twins)


def test_a_seal_without_its_commitment_asks_the_sealer() -> None:
    replay = play("parola_nascosta", ["giallo", "blu"], [])
    for to, card in (("giallo", "01"), ("blu", "02"), ("table", "04")):
        replay = replay.apply(parse(f"card {to} {card}", replay))
    asked: list[str] = []

    def sealer(player: str) -> str:
        asked.append(player)
        return seal("cassaforte", "s4lt")

    assert parse("seal giallo", replay, sealer=sealer) == Seal("giallo", seal("cassaforte", "s4lt"))
    assert asked == ["giallo"]
    with pytest.raises(MalformedMove, match="written with its commitment"):
        parse("seal giallo", replay)


def test_any_kind_may_be_written_as_its_json_fields() -> None:
    replay = play("ventuno", ["giallo", "blu"], [])
    assert parse('timeout {"by": "giallo"}', replay) == Timeout("giallo")
    with pytest.raises(MalformedMove, match='written: timeout {"field"'):
        parse("timeout {by}", replay)


def test_the_end_and_outs_are_checked_against_the_replay() -> None:
    _, logged = example("tiro-seed.jsonl")
    replay = play("tiro", ["giallo", "blu"], logged[:5], ["verde"])
    with pytest.raises(IllegalMove, match="replay has them still in"):
        parse("out blu gave up", replay)
    with pytest.raises(IllegalMove, match="but the replay gives winners"):
        parse("end winners nobody points giallo 0 blu 0", replay)
    won = End(("giallo",), {"giallo": 1, "blu": 0})
    assert parse("END Winners GIALLO points giallo 1  blu 0", replay) == won


def test_the_tie_break_ruling_on_a_card_reads_like_any_ruling() -> None:
    """PN-1: the referee's decision of the final tie-break is a ruling on a card's position."""
    from tests.engine.test_parola_nascosta import GBV, final_challenge, reveal

    logged = final_challenge() + [reveal(p) for p in GBV]
    replay = play("parola_nascosta", GBV, logged)
    ruled = parse("rule 1 reject", replay)
    assert ruled == Ruling("referee", 1, False) and format(ruled) == "rule 1 reject"
    events = [*replay.events, ruled, *replay.apply(ruled).pending_derived()]
    round_trip(replay, events)


WORDS_SEEN = st.sampled_from(
    ["roll", "rule", "end", "expr", "card", "seal", "giallo", "blu", "Blu", "d6", "vowel", "5",
     "1,2", "@blu", "@", '"', '"x y"', "#3", "jolly", "winners", "points", "nobody", "accept",
     "right", "digital", "{", '{"by": "blu"}', "a-b", "U/A", "é", "table", "-1", "9" * 30]
)  # fmt: skip


@settings(max_examples=400, derandomize=True, deadline=None)
@given(st.lists(WORDS_SEEN | st.text(max_size=6), max_size=7))
def test_any_line_is_an_event_or_one_notation_error(words: list[str]) -> None:
    """Lines typed by anyone (the web's pages too): an event, or a NotationError, never a crash."""
    _, logged = example("tiro-seed.jsonl")
    for replay in (start("ventuno", ["giallo", "Blu"]), play("tiro", GB, logged[:5], ["verde"])):
        try:
            parse(" ".join(words), replay)
        except NotationError as e:
            assert str(e) and "\n" not in str(e)
