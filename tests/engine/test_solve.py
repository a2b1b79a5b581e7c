"""Referee assist against the seeds: what was reachable, and the best play."""

from __future__ import annotations

import pytest

from engine.arithmetic import judge, numbers, to_text
from engine.games.catena import check_chain
from engine.solve import WordGraph, best_shot, expressions, shortest_chain
from tests.support import example, expr, play, winners


def test_tiro_seed_best_expression_and_key() -> None:
    shot = best_shot([6, 6, 5, 1], 11)
    assert shot is not None
    # Giallo's 6 x (5:6+1) has key (1, 1, 0): nothing better exists with these dice.
    assert shot.key == (1, 1, 0)
    assert judge(shot.expression, [6, 6, 5, 1]).value == 11
    blu = best_shot([5, 4, 2, 1], 11)
    assert blu is not None and blu.key >= (1, 0, 0)


@pytest.mark.parametrize(
    ("position", "dice", "ship", "sunk", "left"),
    [
        (4, [3, 5, 1], 15, "blu", (14,)),  # Giallo sinks the 15 (the seed: 3x5x1)
        (10, [4, 5, 4], 4, "giallo", (13,)),  # Blu sinks the 4 (5-(4:4))
        (12, [3, 4, 2], 14, "blu", ()),  # Giallo sinks the 14 ((3+4)x2) and wins
    ],
)
def test_battaglia_seed_what_each_roll_could_sink(
    position: int, dice: list[int], ship: int, sunk: str, left: tuple[int, ...]
) -> None:
    # The solver's shot, played in place of the seed's expression, sinks the same ship (BAT-2).
    shot = best_shot(dice, ship)
    assert shot is not None and judge(shot.expression, dice).value == ship
    header, events = example("battaglia-seed.jsonl")
    shooter = events[position - 1]["by"]
    moves = [*events[: position - 1], expr(shooter, shot.expression)]
    replay = play(header["game"], header["players"], moves)
    assert replay.state.ships[sunk] == left
    note = replay.notes[-1]
    assert note.ok and note.text == f"{shot.expression} sinks {sunk}'s {ship}"
    if not left:
        assert winners(replay) == (shooter,)


def test_battaglia_seed_what_no_roll_could_sink() -> None:
    assert best_shot([2, 5, 5], 13) is None and best_shot([2, 5, 5], 4) is None  # Blu cannot
    assert best_shot([1, 1, 1], 14) is None and best_shot([1, 1, 1], 4) is None  # "sfortunato"


def test_expressions_use_each_number_once() -> None:
    for value, (_, node) in expressions([2, 3, 4]).items():
        assert sorted(numbers(node)) == [2, 3, 4]
        assert judge(to_text(node), [2, 3, 4]).value == value


def test_catena_seed_shortest_chain_is_eight_words(lexicon) -> None:
    graph = WordGraph.from_lexicon(lexicon)
    chain = shortest_chain(graph, ["casa", "rete", "geme"])
    assert chain is not None and len(chain) == 8  # Blu's 8 anelli were the best possible
    assert check_chain(chain, ["casa", "rete", "geme"], lexicon.__contains__) is None
    assert len(graph.path("casa", "rete")) == 5 and len(graph.path("rete", "geme")) == 4


TIED = ["casa", "case", "cosa", "cose", "rose"]  # casa-case-cose and casa-cosa-cose tie


def test_catena_ties_go_to_the_alphabetically_first_chain() -> None:
    """Equal-length chains: the alphabetically first (word by word) is the one given, in
    whatever order the words and the anchors come (CAT-3: both have four anelli)."""
    from itertools import permutations

    for words in permutations(TIED):
        graph = WordGraph(words)
        assert graph.path("casa", "cose") == ["casa", "case", "cose"]
        assert graph.path("cose", "casa") == ["cose", "case", "casa"]
        for anchors in permutations(["rose", "casa", "cose"]):
            assert shortest_chain(graph, list(anchors)) == ["casa", "case", "cose", "rose"]


def test_catena_ties_do_not_depend_on_string_hashing() -> None:
    """Sets of words iterate in an order set by Python's string hashing, which changes from
    one process to the next: a few processes with different hash seeds give one chain."""
    import os
    import subprocess
    import sys

    code = (
        "from engine.solve import WordGraph, shortest_chain\n"
        f"print(shortest_chain(WordGraph({TIED!r}), ['rose', 'casa', 'cose']))"
    )
    seen = {
        subprocess.run(
            [sys.executable, "-c", code],
            env={**os.environ, "PYTHONHASHSEED": str(seed)},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in range(6)
    }
    assert seen == {"['casa', 'case', 'cose', 'rose']\n"}


def test_catena_unreachable_or_unknown() -> None:
    graph = WordGraph(["casa", "cose", "rete"])
    assert graph.path("casa", "rete") is None
    assert shortest_chain(graph, ["casa", "rete", "cose"]) is None


def test_texas_best_word_is_at_least_what_the_seed_played(lexicon) -> None:
    from engine.solve import texas_best

    # Round 3 of the seed: Giallo S N + O A S A C I wrote incasso (7); Blu T N + ... satanico (9).
    giallo = texas_best(lexicon, list("snoasaci"))
    assert giallo is not None and giallo[1] >= 7
    assert texas_best(lexicon, list("tnoasaci"))[1] == 9
    assert texas_best(lexicon, list("xq")) is None


def test_asta_legal_words_confirm_the_seed(lexicon) -> None:
    from engine.solve import asta_words

    assert ("pace", None) in asta_words(lexicon, [{"e"}, {"c"}, {"a"}], [{"p"}, {"i"}])
    assert ("pecca", "c") in asta_words(lexicon, list("pace"), [{"*"}, {"a"}])
    assert asta_words(lexicon, list("pecca"), [{"t"}, {"o"}]) == []  # Verde is out
    assert ("capace", None) in asta_words(lexicon, list("pecca"), [{"l"}, {"a"}])
    assert asta_words(lexicon, list("capace"), [{"d"}, {"o"}]) == []  # Blu is out


def test_roulette_word_covers_the_listed_consonants(lexicon) -> None:
    from engine.games.roulette_russa import covers
    from engine.solve import roulette_word

    for listed in ("sstpgnm", "sstpgnz", "rt"):
        word = roulette_word(lexicon, list(listed))
        assert word is not None and word in lexicon and covers(word, list(listed))
    assert roulette_word(lexicon, list("qqqqxxxx")) is None
