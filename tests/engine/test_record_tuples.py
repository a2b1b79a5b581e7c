"""engine.record.NamedTuple: the tuples typing.NamedTuple makes, without its work a class (#27)."""

from __future__ import annotations

import pickle
import typing
from collections.abc import Mapping
from typing import Any

import pytest

from engine.games import base, contract, hidden_words
from engine.record import NamedTuple


def _pair() -> tuple[Any, Any]:
    """The same class statement made by typing and by engine.record."""
    made = []
    for maker in (typing.NamedTuple, NamedTuple):

        class Turn(maker):  # type: ignore[misc, valid-type]
            """Who may act now."""

            player: str
            events: tuple[str, ...]
            rule: str = "CH-1"
            choices: Mapping[str, int] = {}  # noqa: RUF012 - a shared default, as typing keeps it

            @property
            def first(self) -> str:
                return self.events[0]

            def __hash__(self) -> int:
                return hash((self.player, self.events))

        made.append(Turn)
    return made[0], made[1]


def test_a_class_behaves_as_typings_own() -> None:
    theirs, ours = _pair()
    for attr in ("_fields", "_field_defaults", "__doc__", "__qualname__", "__module__"):
        assert getattr(ours, attr) == getattr(theirs, attr), attr
    assert ours.__bases__ == theirs.__bases__ == (tuple,) and type(ours) is type(theirs) is type
    assert list(ours.__annotations__) == list(theirs.__annotations__)
    a, b = theirs("giallo", ("roll",)), ours("giallo", ("roll",))
    assert repr(a) == repr(b) == "Turn(player='giallo', events=('roll',), rule='CH-1', choices={})"
    assert tuple(a) == tuple(b) and a == b and hash(a) == hash(b) and b.first == "roll"
    assert b._replace(rule="CH-2") == ("giallo", ("roll",), "CH-2", {})
    assert b._asdict() == a._asdict() and ours._make(tuple(b)) == b
    assert ours(player="blu", events=()).player == "blu"
    with pytest.raises(TypeError):
        ours("giallo")  # a field without a default is missing, as in typing's
    with pytest.raises(AttributeError):
        b.player = "blu"  # type: ignore[misc]


def test_pickled_and_refused_as_typings() -> None:
    # A class at a module's top pickles by its name (the engine's do: the tests copy states).
    note = base.Note(1, "giallo", "ok", "VEN-1", True)
    assert pickle.loads(pickle.dumps(note)) == note
    with pytest.raises(TypeError):

        class Wrong(NamedTuple):
            a: int = 0
            b: int

    with pytest.raises(AttributeError):

        class Replacing(NamedTuple):
            a: int

            def _replace(self, **changes: Any) -> Any:
                return self


def test_the_engines_tuples_on_a_roll_compile_no_annotation() -> None:
    """typing compiles a ForwardRef for every field of a class whose annotations are strings
    (about half a million instructions a class on a roll): the engine's are kept as written."""
    classes = [base.Said, base.Turn, base.Note, base.Outcome, base.Context]
    classes += [contract.Clock, contract.Hint, contract.About, contract.Seat]
    classes += [hidden_words.AnswerGiven, hidden_words.HintGiven]
    for cls in classes:
        assert issubclass(cls, tuple) and cls._fields, cls
        assert all(isinstance(v, str) for v in cls.__annotations__.values()), cls
