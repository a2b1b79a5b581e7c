"""Revisions of the rules (engine.rules, docs/rules-revisions.md): a log recorded under version
0.1's rules (revision 1) replays to 0.1's outcome under revision 1, whatever today's rules
(revision 2) say of it.

Every expected outcome "as 0.1 gave it" below was obtained by running the same log through
version 0.1's engine itself (``git worktree add --detach /tmp/rev1 f8882b8``, then
``PYTHONPATH=/tmp/rev1 python3`` applying each event with ``engine.match.Replay.apply`` and
reading ``outcome``, ``out``, ``notes`` and ``turns``, as 0.1's tests replay a log); the derived
``out`` and ``end`` events at the end of each log are the ones 0.1's ``pending_derived`` wrote.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.arithmetic import judge
from engine.decks import DEFAULT_DECK
from engine.errors import BadHeader, MalformedEvent, NotAllowedNow, RuleViolation
from engine.events import parse_event
from engine.games.base import Context
from engine.header import parse_header
from engine.lexicon import default_lexicon
from engine.match import Replay
from engine.rules import CURRENT, KNOWN
from tests.engine.test_asta import base, turn
from tests.engine.test_catena import anchors
from tests.engine.test_parola_nascosta import (
    GBV,
    answer,
    deal,
    final_challenge,
    guess,
    reveal,
)
from tests.engine.test_roulette_russa import FOUR, c, seed_until_giallo_writes
from tests.engine.test_texas import later, opening
from tests.support import chain, doubt, expr, header, out, pass_, roll, ruling, timeout, word

GB = ["giallo", "blu"]

# The two ways a replay learns that a log was recorded under revision 1: the caller says so (the
# tournament layer, for 0.1's stores and logs), or the header does.
UNDER_1 = ["argument", "header"]


def replay(
    game: str,
    players: list[str],
    events: list[dict],
    how: str | None = None,
    outside: tuple[str, ...] | list[str] = (),
    **extra: Any,
) -> Replay:
    """The log replayed event by event; ``how``: under revision 1, given as an ``argument`` or
    in the ``header``; None: neither (today's rules). The whole-log reading (``Replay.of``, the
    store's) must give the same."""
    head = header(game, players, outside, **extra)
    rules = None
    if how == "header":
        head["rules"] = 1
    elif how == "argument":
        rules = 1
    parsed, words = parse_header(head), default_lexicon()
    played = Replay.start(parsed, words, rules)
    for obj in events:
        played = played.apply(parse_event(obj))
    whole = Replay.of(parsed, words, [parse_event(e) for e in events], rules)
    assert whole.state == played.state and whole.revision == played.revision
    return played


def refused(game: str, players: list[str], events: list[dict], **kw: Any) -> RuleViolation:
    """The refusal of the log (today's rules, unless ``how`` says otherwise)."""
    with pytest.raises(RuleViolation) as e:
        replay(game, players, events, **kw)
    return e.value


def result(played: Replay) -> tuple[tuple[str, ...], dict[str, int]] | None:
    outcome = played.outcome
    return None if outcome is None else (tuple(sorted(outcome.winners)), dict(outcome.points))


def end(winners: list[str], points: dict[str, int]) -> dict:
    return {"type": "end", "winners": winners, "points": points}


def gone(player: str, reason: str) -> dict:
    return {"type": "out", "player": player, "reason": reason}


# --- the revision: in the header, from the caller, or today's --------------------------------


def test_the_known_revisions() -> None:
    assert CURRENT == 2 and KNOWN == {1, 2}


@pytest.mark.parametrize("value", [1, 2])
def test_the_header_may_say_its_revision(value: int) -> None:
    head = parse_header(header("tiro", GB, rules=value))
    assert head.rules == value and "rules" not in head.options
    assert Replay.start(head, default_lexicon()).revision == value
    assert parse_header(header("tiro", GB)).rules is None


def test_a_revision_this_version_does_not_know_is_refused() -> None:
    with pytest.raises(BadHeader) as e:
        parse_header(header("tiro", GB, rules=3))
    assert "newer" in e.value.message and "upgrade to read it" in e.value.message
    with pytest.raises(BadHeader, match="newer"):
        Replay.start(parse_header(header("tiro", GB)), default_lexicon(), rules=3)


@pytest.mark.parametrize("value", ["1", True, 1.0, 0, -1, [1], {"n": 1}])
def test_a_revision_that_is_no_whole_number_from_1_is_malformed(value: object) -> None:
    with pytest.raises(MalformedEvent, match="'rules' must be a revision of the rules"):
        parse_header(header("tiro", GB, rules=value))


def test_the_revision_in_force_header_first_then_the_caller_then_today() -> None:
    words = default_lexicon()
    plain, one, two = (
        parse_header(header("tiro", GB, **r)) for r in ({}, {"rules": 1}, {"rules": 2})
    )
    assert Replay.start(plain, words).revision == CURRENT == 2
    assert Replay.start(plain, words, rules=1).revision == 1
    assert Replay.start(two, words, rules=1).revision == 2  # the header's own holds
    assert Replay.start(one, words, rules=2).revision == 1
    # An audit: today's rules over the header's own.
    assert Replay.start(one, words, force=True).revision == 2
    assert Replay.start(two, words, rules=1, force=True).revision == 1
    assert Replay.of(one, words, [], force=True).revision == 2


def test_today_s_rules_are_the_default_everywhere() -> None:
    assert Context(default_lexicon(), 1).rules == CURRENT
    assert judge("(5+4+2):1", [5, 4, 2, 1]) == judge("(5+4+2):1", [5, 4, 2, 1], CURRENT)


# --- REF-1, EQ-4: under revision 1 a ruling holds for its own event alone ----------------------


@pytest.mark.parametrize("how", UNDER_1)
def test_ref1_asta_a_word_the_referee_rejected_counts_when_written_again(how: str) -> None:
    events = base() + turn("giallo", "P", "I") + [word("giallo", "pace"), ruling(5, False)]
    events += turn("blu", "P", "O") + [word("blu", "pace")]  # AST-5: blu's rescue from the base
    # As 0.1 gave it: the ruling decided position 5 only; blu's pace stands and wins (AST-5).
    recorded = events + [end(["blu"], {"giallo": 0, "blu": 1})]
    played = replay("asta", GB, recorded, how)
    assert result(played) == (("blu",), {"giallo": 0, "blu": 1})
    assert played.notes[-1].text == "pace stands"
    # Today the ruling holds for pace written again (EQ-4): the challenge goes on, and the log's
    # end is refused.
    assert result(replay("asta", GB, events)) is None
    assert refused("asta", GB, recorded).rule == "CH-2"


@pytest.mark.parametrize("how", UNDER_1)
def test_ref1_texas_a_word_the_referee_admitted_scores_once(how: str) -> None:
    events = opening() + [word("giallo", "snoa"), word("blu", "onta"), ruling(4, True)]
    events += later("S", "A") + [pass_("giallo"), word("blu", "snoa")]
    events += later("C", "I") + [pass_("giallo"), pass_("blu")]
    # As 0.1 gave it: snoa, not in the lexicon, was admitted at position 4 only: blu's snoa in
    # round 2 scores 0, and 5 each is a draw (TEX-4).
    recorded = events + [end(["giallo", "blu"], {"giallo": 1, "blu": 1})]
    played = replay("texas", GB, recorded, how, outside=["verde"])
    assert played.state.scores == {"giallo": (5, 0, 0), "blu": (5, 0, 0)}
    assert result(played) == (("blu", "giallo"), {"giallo": 1, "blu": 1})
    # Today the ruling admits snoa in round 2 too: blu wins 9 to 5.
    assert result(replay("texas", GB, events, outside=["verde"])) == (
        ("blu",),
        {"giallo": 0, "blu": 1},
    )
    assert refused("texas", GB, recorded, outside=["verde"]).rule == "CH-2"


@pytest.mark.parametrize("how", UNDER_1)
def test_ref1_catena_a_ruled_anchor_word_is_not_admitted_in_the_chains(how: str) -> None:
    giallo = ["zasa", "rasa", "resa", "rese", "rete", "reti", "remi", "gemi", "geme"]
    blu = ["geme", "seme", "sete", "rete", "rate", "rase", "rasa", "zasa"]
    events = anchors(("zasa", "rete", "geme")) + [ruling(7, True)]  # zasa: giallo's anchor
    events += [chain("giallo", *giallo), chain("blu", *blu)]
    # As 0.1 gave it: the ruling made zasa an anchor, but each chain through it was judged by
    # the lexicon: no valid chain, no point (CAT-4).
    recorded = events + [end([], {"giallo": 0, "blu": 0})]
    played = replay("catena", GB, recorded, how, outside=["verde"])
    assert result(played) == ((), {"giallo": 0, "blu": 0})
    assert played.notes[-1].text == "chain not valid: zasa is not admitted"
    # Today the ruling holds in the chains (EQ-4): blu's 8 beat giallo's 9.
    assert result(replay("catena", GB, events, outside=["verde"])) == (
        ("blu",),
        {"giallo": 0, "blu": 1},
    )
    assert refused("catena", GB, recorded, outside=["verde"]).rule == "CH-2"


@pytest.mark.parametrize("how", UNDER_1)
def test_ref1_roulette_russa_a_rejected_word_saves_the_next_writer(how: str) -> None:
    events = seed_until_giallo_writes() + [word("giallo", "passamontagna"), ruling(16, False)]
    events += [word("blu", "passamontagna")]  # RR-4: blu must cover S-S-T-P-G-N
    # As 0.1 gave it: rosso and giallo out, blu's passamontagna (judged by the lexicon) wins.
    recorded = events + [
        gone("rosso", "no word; Z struck (RR-4)"),
        gone("giallo", "passamontagna is not admitted; M struck (RR-4)"),
        end(["blu"], {"giallo": 0, "blu": 1, "verde": 0, "rosso": 0}),
    ]
    played = replay("roulette_russa", FOUR, recorded, how)
    assert out(played) == ["rosso", "giallo"]
    assert result(played) == (("blu",), {"giallo": 0, "blu": 1, "verde": 0, "rosso": 0})
    # Today the ruling holds for blu's passamontagna too: blu is out and verde wins.
    today = replay("roulette_russa", FOUR, events)
    assert out(today) == ["rosso", "giallo", "blu"]
    assert result(today) == (("verde",), {"giallo": 0, "blu": 0, "verde": 1, "rosso": 0})
    assert refused("roulette_russa", FOUR, recorded).rule == "CH-2"


@pytest.mark.parametrize("how", UNDER_1)
def test_ref1_parola_nascosta_a_ruling_on_a_guess_holds_for_that_guess_alone(how: str) -> None:
    events = deal() + [guess("giallo", "blu", "martell"), answer("blu", True), reveal("blu")]
    events += [ruling(9, False), guess("verde", "blu", "Martell"), answer("blu", True)]
    events += [guess("giallo", "verde", "scala"), answer("verde", True)]
    events += [reveal("verde"), reveal("giallo")]
    # As 0.1 gave it: the ruling put blu back in; verde's same guess, answered right, put blu
    # out again; then giallo guessed verde's word and won.
    recorded = events + [
        gone("blu", "verde guessed 'Martell' (PN-4)"),
        gone("verde", "giallo guessed 'scala' (PN-4)"),
        end(["giallo"], {"giallo": 1, "blu": 0, "verde": 0}),
    ]
    played = replay("parola_nascosta", GBV, recorded, how)
    assert out(played) == ["blu", "verde"]
    assert result(played) == (("giallo",), {"giallo": 1, "blu": 0, "verde": 0})
    # Today the ruling holds for the same guess at blu (PN-3: the word is sealed): blu stays in
    # and guesses next, so giallo's guess (position 15) is refused.
    e = refused("parola_nascosta", GBV, events)
    assert isinstance(e, NotAllowedNow) and "giallo may not guess now" in e.message


# --- CH-4: La roulette russa's roll and doubt turns could not time out under revision 1 --------


@pytest.mark.parametrize("how", UNDER_1)
@pytest.mark.parametrize(
    ("players", "events", "rule", "open_"),
    [
        (["giallo", "blu", "verde"], [timeout("giallo")], "RR-1", ("roll",)),  # the first roll
        (FOUR, [c("giallo", "S"), c("blu", "T"), timeout("verde")], "RR-1", ("roll", "doubt")),
        (
            FOUR,
            [c("giallo", "S"), c("blu", "S"), doubt("verde"), c("rosso", "T"), c("giallo", "G")]
            + [c("blu", "N"), timeout("verde")],
            "RR-5",
            ("doubt",),
        ),
    ],
)
def test_ch4_roulette_russa_a_timeout_on_a_roll_or_doubt_turn_is_refused(
    how: str, players: list[str], events: list[dict], rule: str, open_: tuple[str, ...]
) -> None:
    # As 0.1 gave it: the timeout refused, the turn (of ``rule``) open to these events only.
    # The refusal cites CH-4, the rule it breaks: that turn had no time limit (#23).
    before = replay("roulette_russa", players, events[:-1], how)
    assert before.turns[0].events == open_ and before.turns[0].rule == rule
    e = refused("roulette_russa", players, events, how=how)
    assert isinstance(e, NotAllowedNow) and e.rule == "CH-4"
    assert "no time limit" in e.message and before.turns[0].say in e.message
    # Today the player is out (CH-4).
    today = replay("roulette_russa", players, events)
    assert out(today) == [events[-1]["by"]] and today.out[0].rule == "CH-4"


@pytest.mark.parametrize("how", UNDER_1)
def test_ch4_roulette_russa_the_call_to_write_may_time_out_under_both(how: str) -> None:
    # RR-3: 0.1 gave the same: rosso, called to write, times out and is out (RR-4).
    events = seed_until_giallo_writes()[:12]
    assert out(replay("roulette_russa", FOUR, events, how)) == ["rosso"]
    assert out(replay("roulette_russa", FOUR, events)) == ["rosso"]


# --- PN-1: no ruling on a card under revision 1 ----------------------------------------------


@pytest.mark.parametrize("how", UNDER_1)
def test_pn1_a_ruling_on_a_card_is_refused_under_revision_1(how: str) -> None:
    events = final_challenge() + [ruling(2, True)] + [reveal(p) for p in GBV]
    at = len(final_challenge()) + 1
    # As 0.1 gave it: refused (NotAllowedNow, REF-1), the tie-break by card 03 standing.
    e = refused("parola_nascosta", GBV, events, how=how)
    assert isinstance(e, NotAllowedNow) and e.rule == "REF-1"
    assert "position 2 is a card" in e.message
    assert replay("parola_nascosta", GBV, events[: at - 1], how).state.winners == ("giallo",)
    # Today the referee's decision gives the tie-break to blu's card (PN-1).
    assert result(replay("parola_nascosta", GBV, events)) == (
        ("blu",),
        {"giallo": 0, "blu": 1, "verde": 0},
    )


# --- PN-6 and CH-2: the tie-break between players the cards cannot part ------------------------


@pytest.mark.parametrize("how", UNDER_1)
def test_pn6_a_tie_break_the_cards_cannot_part_goes_to_the_first_in_turn_order(how: str) -> None:
    deck = [card.to_json() for card in DEFAULT_DECK]
    deck[1]["percentile"] = deck[0]["percentile"]  # giallo's and blu's cards both read 37
    events = final_challenge() + [reveal(p) for p in GBV]
    # As 0.1 gave it: max() of the tie-breaker keeps the first of the equal players in turn
    # order, giallo.
    recorded = events + [
        gone("verde", "Morra: forbice loses to giallo's sasso (PN-6)"),
        end(["giallo"], {"giallo": 1, "blu": 0, "verde": 0}),
    ]
    played = replay("parola_nascosta", GBV, recorded, how, deck=deck)
    assert out(played) == ["verde"]
    assert result(played) == (("giallo",), {"giallo": 1, "blu": 0, "verde": 0})
    assert [n.player for n in played.notes if n.rule == "PN-6"] == ["giallo"]
    # Today they draw (CH-2), and the log's end is refused.
    assert result(replay("parola_nascosta", GBV, events, deck=deck)) == (
        ("blu", "giallo"),
        {"giallo": 1, "blu": 1, "verde": 0},
    )
    assert refused("parola_nascosta", GBV, recorded, deck=deck).rule == "CH-2"


# --- PN-4: the lie check of a guess the referee ruled on ----------------------------------------


@pytest.mark.parametrize("how", UNDER_1)
def test_pn4_a_guess_the_referee_ruled_on_is_still_checked_at_the_reveal(how: str) -> None:
    events = deal() + [guess("giallo", "blu", "martell"), answer("blu", False), ruling(9, True)]
    events += [reveal("blu")]
    # As 0.1 gave it: blu out by the ruling, and the reveal's check still shows the answer's
    # mismatch to the referee.
    played = replay("parola_nascosta", GBV, events, how)
    assert out(played) == ["blu"]
    lies = [n for n in played.notes if n.rule == "PN-4" and not n.ok]
    assert [(n.position, n.text) for n in lies] == [
        (9, "answered wrong to 'martell', but the guess is right: the referee decides")
    ]
    # Today a guess the referee decided shows no mismatch; the outcome is the same.
    today = replay("parola_nascosta", GBV, events)
    assert out(today) == ["blu"] and not [n for n in today.notes if n.rule == "PN-4"]


# --- TIR-2 (and BAT-2): how an expression is read ----------------------------------------------


def tiro(giallo: str) -> list[dict]:
    rolls = [roll("giallo", "d6", 6, 6, 5, 1), roll("blu", "d6", 5, 4, 2, 1)]
    return rolls + [roll("verde", "d20", 11), expr("giallo", giallo), expr("blu", "(5+4+2):1")]


@pytest.mark.parametrize("how", UNDER_1)
@pytest.mark.parametrize(
    "giallo",
    [
        "\uff16 x (5:\uff16+1)",  # fullwidth digits (and Arabic-Indic, ...): read as 6 by 0.1
        "(" * 60 + "6 x (5:6+1)" + ")" * 60,  # 131 signs: 0.1 bounded none
    ],
)
def test_tir2_an_expression_0_1_read_still_hits(how: str, giallo: str) -> None:
    events = tiro(giallo)
    # As 0.1 gave it: giallo hits 11 with a division and a multiplication and wins (TIR-3).
    recorded = events + [end(["giallo"], {"giallo": 1, "blu": 0})]
    played = replay("tiro", GB, recorded, how, outside=["verde"])
    assert result(played) == (("giallo",), {"giallo": 1, "blu": 0})
    assert played.notes[-2].text.endswith("hits 11 (1 div, 1 mul, 0 sub)")
    # Today only ASCII digits are numbers and an expression has at most 120 signs: blu wins.
    today = replay("tiro", GB, events, outside=["verde"])
    assert result(today) == (("blu",), {"giallo": 0, "blu": 1})
    assert not today.notes[-2].ok
    assert refused("tiro", GB, recorded, outside=["verde"]).rule == "CH-2"


@pytest.mark.parametrize("how", UNDER_1)
def test_bat2_an_expression_in_other_digits_sinks_a_ship(how: str) -> None:
    events = [roll("giallo", "d20", 13, 4), roll("blu", "d20", 14, 15)]
    events += [roll("giallo", "d6", 3, 5, 1), expr("giallo", "\uff13x5x1")]
    # As 0.1 gave it: 3x5x1 sinks blu's 15 (BAT-2, with TIR-2's arithmetic).
    assert replay("battaglia", GB, events, how).state.ships["blu"] == (14,)
    assert replay("battaglia", GB, events).state.ships["blu"] == (14, 15)


def test_tir2_what_revision_1_does_not_read_either() -> None:
    # A digit that is no decimal digit ("²") made 0.1's engine fail (no log held one); under
    # revision 1 it is refused as today.
    assert not judge("\u00b2+1", [2, 1], rules=1).valid
    assert not judge("\u0663\u0663+1", [3, 3, 1], rules=1).valid  # joined digits (TIR-2)
    assert judge("\u0663+\u0663+1", [3, 3, 1], rules=1).value == 7
    deep = "(" * 400 + "1+2" + ")" * 400
    assert judge(deep, [1, 2], rules=1).value == 3  # no recursion: read in one pass
    assert not judge("(" * 80 + "1/0+2" + ")" * 80, [1, 0, 2], rules=1).valid
