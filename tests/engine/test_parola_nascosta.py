"""La parola nascosta (PN-1..PN-7): deal, seal, guess, answer, reveal, hints, Morra."""

from __future__ import annotations

import pytest

from engine.decks import DEFAULT_DECK, deck_from_header
from engine.errors import BadHeader, MalformedEvent, NotAllowedNow, NotYourTurn, RuleViolation
from engine.games.hidden_words import guessed, seal
from tests.support import out, play, ruling, void, winners

GBV = ["giallo", "blu", "verde"]
WORDS = {"giallo": ("cassaforte", "s1"), "blu": ("martello", "s2"), "verde": ("scala", "s3")}
# Default deck: 01 giallo (37, cw, sasso), 02 blu (74, ccw, carta), 03 verde (11, cw, forbice),
# table 04 (48, ccw, sasso, fiori, lowest-d10). 03's tie-breaker is highest-d10.
CARDS = {"giallo": "01", "blu": "02", "verde": "03", "table": "04"}


def deal(cards=CARDS, words=WORDS, starter="giallo") -> list[dict]:
    events = [{"type": "card", "to": to, "card": c} for to, c in cards.items()]
    events += [{"type": "seal", "by": p, "commitment": seal(w, s)} for p, (w, s) in words.items()]
    return events + [{"type": "start", "by": "referee", "player": starter}]


def guess(by: str, target: str, word: str) -> dict:
    return {"type": "guess", "by": by, "target": target, "word": word}


def answer(by: str, right: bool) -> dict:
    return {"type": "answer", "by": by, "right": right}


def reveal(by: str, words=WORDS) -> dict:
    word, salt = words[by]
    return {"type": "reveal", "by": by, "word": word, "salt": salt}


def hint(by: str, letter: str) -> dict:
    return {"type": "hint", "by": by, "letter": letter}


def test_pn1_the_default_deck_and_cards_by_hand() -> None:
    assert len(DEFAULT_DECK) == 40 and len({c.percentile for c in DEFAULT_DECK}) == 40
    with pytest.raises(RuleViolation, match="not in the deck") as e:
        play("parola_nascosta", GBV, [{"type": "card", "to": "giallo", "card": "99"}])
    assert e.value.rule == "PN-1"
    with pytest.raises(BadHeader, match="Morra hand"):
        deck_from_header([{**DEFAULT_DECK[0].to_json(), "morra": "pietra"}])


def test_pn2_one_card_each_and_one_on_the_table() -> None:
    with pytest.raises(RuleViolation, match="already has a card") as e:
        play("parola_nascosta", GBV, deal()[:3] + [{"type": "card", "to": "blu", "card": "05"}])
    assert e.value.rule == "PN-2"
    with pytest.raises(RuleViolation, match="already dealt"):
        play("parola_nascosta", GBV, deal()[:1] + [{"type": "card", "to": "blu", "card": "01"}])
    replay = play("parola_nascosta", GBV, deal())
    assert "words are a concept (fiori)" in replay.notes[0].text


def test_pn3_a_sealed_word_cannot_change() -> None:
    events = deal() + [guess("giallo", "blu", "martello"), answer("blu", True)]
    with pytest.raises(RuleViolation, match="do not match the seal") as e:
        play("parola_nascosta", GBV, events + [reveal("blu", {"blu": ("martelli", "s2")})])
    assert e.value.rule == "PN-3"
    with pytest.raises(MalformedEvent, match="64 lowercase hex"):
        play(
            "parola_nascosta", GBV, deal()[:4] + [{"type": "seal", "by": "blu", "commitment": "x"}]
        )


def test_pn4_turns_follow_the_table_cards_clock_and_a_right_guess_puts_out() -> None:
    replay = play("parola_nascosta", GBV, deal() + [guess("giallo", "blu", "martello")])
    assert replay.turns[0].player == "blu" and replay.turns[0].events == ("answer",)
    replay = play(
        "parola_nascosta", GBV, deal() + [guess("giallo", "blu", "martello"), answer("blu", True)]
    )
    assert out(replay) == ["blu"] and replay.turns[0].events == ("reveal",)
    events = deal() + [guess("giallo", "blu", "martello"), answer("blu", True), reveal("blu")]
    replay = play("parola_nascosta", GBV, events)
    # The table card 04 turns anticlockwise: after giallo comes verde.
    assert replay.turns[0].player == "verde" and replay.turns[0].events == ("guess",)
    with pytest.raises(NotYourTurn):
        play("parola_nascosta", GBV, events + [guess("blu", "verde", "scala")])


def test_pn4_part_of_the_word_counts_and_the_last_one_in_wins() -> None:
    assert guessed("cassa", "cassaforte") and not guessed("ca", "cassaforte")
    events = deal() + [
        guess("giallo", "blu", "martello"),
        answer("blu", True),
        reveal("blu"),
        guess("verde", "giallo", "cassa"),
        answer("giallo", True),
        reveal("giallo"),
    ]
    replay = play("parola_nascosta", GBV, events)
    assert replay.outcome is None and replay.turns[0].player == "verde"  # verde still reveals
    replay = play("parola_nascosta", GBV, events + [reveal("verde")])
    assert winners(replay) == ("verde",)


def test_pn4_answers_are_checked_against_the_revealed_word() -> None:
    events = deal() + [
        guess("giallo", "verde", "scal"),
        answer("verde", False),
        guess("verde", "blu", "martello"),
        answer("blu", True),
        reveal("blu"),
        guess("giallo", "verde", "pala"),
        answer("verde", False),
        {"type": "reveal", "by": "verde", "word": "scala", "salt": "s3"},
    ]
    replay = play("parola_nascosta", GBV, events)
    lies = [n for n in replay.notes if not n.ok and n.rule == "PN-4"]
    assert len(lies) == 1 and "answered wrong to 'scal'" in lies[0].text


def test_ref1_a_ruling_on_a_guess_decides_over_the_answer() -> None:
    events = deal() + [guess("giallo", "blu", "martell"), answer("blu", True), reveal("blu")]
    replay = play("parola_nascosta", GBV, events)
    assert out(replay) == ["blu"]
    replay = play("parola_nascosta", GBV, events + [ruling(9, False)])
    assert out(replay) == [] and replay.turns[0].player == "verde"


def silent_round(order=("giallo", "verde", "blu")) -> list[dict]:
    targets = {"giallo": "blu", "verde": "giallo", "blu": "verde"}
    events = []
    for p in order:
        events += [guess(p, targets[p], "nulla"), answer(targets[p], False)]
    return events


def test_pn5_silent_rounds_first_letters_then_last_then_the_final_challenge() -> None:
    replay = play("parola_nascosta", GBV, deal() + silent_round())
    assert {t.player for t in replay.turns if t.events == ("hint",)} == set(GBV)
    firsts = [hint("giallo", "c"), hint("blu", "m"), hint("verde", "s")]
    lasts = [hint("giallo", "e"), hint("blu", "o"), hint("verde", "x")]  # verde lies: scala
    events = deal() + silent_round() + firsts + silent_round() + lasts + silent_round()
    replay = play("parola_nascosta", GBV, events)
    # PN-6: verde (11) has the lowest percentile and a clockwise card: verde meets giallo,
    # forbice loses to sasso; blu sits out. Two are left: the first out's card (verde's 03,
    # highest-d10) picks giallo (37: d10 7) over blu (74: d10 4).
    assert out(replay) == ["verde"] and replay.state.winners == ("giallo",)
    assert replay.out[0].rule == "PN-6"
    replay = play("parola_nascosta", GBV, events + [reveal(p) for p in GBV])
    assert winners(replay) == ("giallo",)
    assert any("said 'x' as the last letter" in n.text for n in replay.notes)


def test_pn5_a_hint_after_a_round_with_a_right_guess_breaks_pn5() -> None:
    # blu is guessed and out; verde's wrong guess ends the round, which had a right guess: no
    # letter is owed (PN-5), whoever says one, the next guesser or another player still in.
    events = deal() + [guess("giallo", "blu", "martello"), answer("blu", True), reveal("blu")]
    events += [guess("verde", "giallo", "nulla"), answer("giallo", False)]
    assert play("parola_nascosta", GBV, events).turns[0].events == ("guess",)
    for who in ("giallo", "verde"):
        with pytest.raises(
            NotAllowedNow, match="owed only at the end of a full round with no right guess"
        ) as e:
            play("parola_nascosta", GBV, events + [hint(who, WORDS[who][0][0])])
        assert e.value.rule == "PN-5", who


def test_pn5_a_hint_said_already_breaks_pn5() -> None:
    events = deal() + silent_round() + [hint("giallo", "c")]
    with pytest.raises(NotAllowedNow, match="giallo has said the first letter already") as e:
        play("parola_nascosta", GBV, events + [hint("giallo", "c")])
    assert e.value.rule == "PN-5"


def test_pn4_pn5_answers_and_hints_are_kept_by_name() -> None:
    events = deal() + [guess("giallo", "blu", "nulla"), answer("blu", False)]
    events += silent_round(("verde", "blu")) + [hint("verde", "S")]
    state = play("parola_nascosta", GBV, events).state
    first = state.answers[0]
    assert (first.position, first.target, first.guess, first.said_right, first.ruling) == (
        9,
        "blu",
        "nulla",
        False,
        None,
    )
    (said,) = state.hints
    assert (said.player, said.which, said.letter) == ("verde", "first", "s")
    # Still tuples, in the order they always had (the filled sheet unpacks the hints so).
    assert tuple(said) == (15, "verde", "first", "s")


def test_ref1_a_ruling_on_a_guess_holds_for_the_same_guess_later() -> None:
    events = deal() + [guess("giallo", "blu", "martell"), answer("blu", True), reveal("blu")]
    events += [ruling(9, False), guess("verde", "blu", "Martell"), answer("blu", True)]
    replay = play("parola_nascosta", GBV, events)
    # The referee ruled "martell" wrong for blu's word; blu's word is sealed, so it stays wrong.
    assert out(replay) == [] and replay.turns[0].player == "blu"
    # Another guess is judged on its own: "marte" is right.
    events[-2] = guess("verde", "blu", "marte")
    assert out(play("parola_nascosta", GBV, events)) == ["blu"]


def test_ref1_pn4_a_guess_the_referee_decided_shows_no_mismatch_at_the_reveal() -> None:
    events = deal() + [guess("giallo", "blu", "martell"), answer("blu", False)]
    replay = play("parola_nascosta", GBV, events + [reveal("blu")])
    assert any("the referee decides" in n.text for n in replay.notes)
    # The referee ruled the guess right: blu is out, and the reveal agrees with the ruling.
    replay = play("parola_nascosta", GBV, events + [ruling(9, True), reveal("blu")])
    assert out(replay) == ["blu"]
    assert not any("the referee decides" in n.text for n in replay.notes)


def final_challenge() -> list[dict]:
    """Three silent rounds: verde loses at Morra, giallo and blu go to the tie-break (PN-6)."""
    events = deal() + silent_round() + [hint(p, WORDS[p][0][0]) for p in GBV]
    return events + silent_round() + [hint(p, WORDS[p][0][-1]) for p in GBV] + silent_round()


# Positions of the cards dealt in deal(): giallo 1, blu 2, verde 3, the table 4.


def test_pn1_the_referee_may_record_the_tie_break_decision() -> None:
    events = final_challenge()
    assert play("parola_nascosta", GBV, events).state.winners == ("giallo",)  # by card 03
    replay = play("parola_nascosta", GBV, events + [ruling(2, True)])
    assert replay.state.winners == ("blu",)
    assert "tie-break by the referee's ruling" in replay.notes[-1].text
    assert replay.notes[-1].rule == "PN-1"
    # Taking giallo out of the tie-break leaves blu; the ruling may come after the reveals.
    replay = play("parola_nascosta", GBV, events + [reveal(p) for p in GBV] + [ruling(1, False)])
    assert winners(replay) == ("blu",)
    # The ruling's own void gives the tie-break back to the card.
    replay = play("parola_nascosta", GBV, events + [ruling(2, True), void(len(events) + 1)])
    assert replay.state.winners == ("giallo",)


def test_pn1_a_tie_break_ruling_needs_a_tie_break_with_that_player() -> None:
    events = final_challenge()
    with pytest.raises(NotAllowedNow, match="there has been none") as e:
        play("parola_nascosta", GBV, events[:-1] + [ruling(1, True)])
    assert e.value.rule == "PN-1"
    with pytest.raises(NotAllowedNow, match="verde is not in the tie-break"):
        play("parola_nascosta", GBV, events + [ruling(3, True)])
    with pytest.raises(NotAllowedNow, match="table is not in the tie-break"):
        play("parola_nascosta", GBV, events + [ruling(4, True)])
    with pytest.raises(RuleViolation, match="to both giallo and blu"):
        play("parola_nascosta", GBV, events + [ruling(1, True), ruling(2, True)])
    with pytest.raises(RuleViolation, match="every player out of the tie-break"):
        play("parola_nascosta", GBV, events + [ruling(1, False), ruling(2, False)])


def test_pn6_ch2_a_tie_break_the_cards_cannot_part_is_a_draw() -> None:
    deck = [c.to_json() for c in DEFAULT_DECK]
    deck[1]["percentile"] = deck[0]["percentile"]  # giallo's and blu's cards both read 37
    replay = play("parola_nascosta", GBV, final_challenge() + [reveal(p) for p in GBV], deck=deck)
    assert out(replay) == ["verde"] and winners(replay) == ("giallo", "blu")


def test_pn6_nobody_out_the_table_card_decides() -> None:
    deck = [c.to_json() for c in DEFAULT_DECK]
    for c in deck[:3]:
        c["morra"] = "carta"  # every pair draws
    events = deal() + silent_round() + [hint(p, WORDS[p][0][0]) for p in GBV]
    events += silent_round() + [hint(p, WORDS[p][0][-1]) for p in GBV] + silent_round()
    replay = play("parola_nascosta", GBV, events, deck=deck)
    # Table card 04: lowest-d10: giallo 7, blu 4, verde 1: verde wins.
    assert out(replay) == [] and replay.state.winners == ("verde",)


def test_pn7_two_players() -> None:
    cards = {"giallo": "01", "blu": "02", "table": "04"}
    words = {"giallo": WORDS["giallo"], "blu": WORDS["blu"]}
    events = deal(cards, words) + [
        guess("giallo", "blu", "martello"),
        answer("blu", True),
        reveal("blu", words),
        reveal("giallo", words),
    ]
    assert winners(play("parola_nascosta", ["giallo", "blu"], events)) == ("giallo",)
