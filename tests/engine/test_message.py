"""Messages (engine/message.py): the English text, the id and parameters a translation reads, and
the same Msg after pickling or copying (a match's notes are cached and copied as they are)."""

from __future__ import annotations

import copy
import pickle

import pytest

from engine.message import Msg, msg, nmsg


def test_the_text_joins_tuples_but_the_parameters_keep_them() -> None:
    inner = msg("%(player)s none", player="blu")
    m = msg("totals %(totals)s; round %(round)s", totals=(inner, "giallo 3"), round=2)
    assert m == "totals blu none, giallo 3; round 2"
    assert m.id == "totals %(totals)s; round %(round)s"
    assert m.params == {"totals": (inner, "giallo 3"), "round": 2}
    assert m.params["totals"][0].id == "%(player)s none"
    assert (m.plural, m.n) == (None, None)


def test_a_message_without_parameters_is_still_formatted() -> None:
    assert msg("100%% of the dice") == "100% of the dice"
    with pytest.raises(ValueError):
        msg("50%")


@pytest.mark.parametrize(
    "n, text", [(0, "chain of 0 words"), (1, "chain of 1 word"), (2, "chain of 2 words")]
)
def test_plural_forms(n: int, text: str) -> None:
    m = nmsg("chain of %(n)s word", "chain of %(n)s words", n, by="blu")
    assert m == text
    assert (m.id, m.plural, m.n, m.params) == (
        "chain of %(n)s word",
        "chain of %(n)s words",
        n,
        {"n": n, "by": "blu"},
    )


def test_a_msg_keeps_its_own_parameters() -> None:
    params = {"round": 2}
    m = Msg("round %(round)s", params)
    params["round"] = 3
    assert m.params == {"round": 2}
    assert m == "round 2"


@pytest.mark.parametrize(
    "again",
    [
        lambda m: pickle.loads(pickle.dumps(m)),
        lambda m: pickle.loads(pickle.dumps(m, 0)),
        copy.copy,
        copy.deepcopy,
    ],
)
def test_pickled_and_copied_as_a_msg(again) -> None:
    nested = msg("totals %(totals)s", totals=(msg("%(player)s none", player="blu"), "giallo 3"))
    for m in (
        nested,
        nmsg("chain of %(n)s word", "chain of %(n)s words", 2),
        msg("no shot"),
    ):
        copied = again(m)
        assert type(copied) is Msg
        assert copied == m
        assert (copied.id, copied.params, copied.plural, copied.n) == (
            m.id,
            m.params,
            m.plural,
            m.n,
        )
        # A nested message stays a Msg, with its id (a str would compare equal above).
        assert [(type(p), getattr(p, "id", None)) for p in _parts(copied)] == [
            (type(p), getattr(p, "id", None)) for p in _parts(m)
        ]
    first, second = _parts(again(nested))
    assert type(first) is Msg and first.id == "%(player)s none" and type(second) is str


def _parts(m: Msg) -> list[object]:
    """The parameters of a message, a tuple's items one by one."""
    return [p for v in m.params.values() for p in (v if isinstance(v, tuple) else (v,))]
