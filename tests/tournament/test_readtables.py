"""The read models' JSON columns are written as json.dumps writes them (#15: one encoder kept)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tournament.readside import readtables

VALUES: list[Any] = [
    ["Blu", "Rosso"],
    ["Niccolò", "Zoë", 'Ðan "q"', "back\\slash", "tab\there", "\u2028", "😀"],
    {"Blu": 1, "Rosso": 0, "Ärne": 2},
    [{"points": {"Zoë": 3, "Ðan": 1}, "reason": "accordo è", "by": "organizer"}],
    {"hash": "ab", "table": 2, "bye": False, "why": None, "ratio": 0.5, "big": 10**20},
    [],
    {},
    "plain text",
    1.25,
]


@pytest.mark.parametrize("value", VALUES)
def test_the_columns_text_is_json_dumps_text(value: Any) -> None:
    assert readtables.dumps(value) == json.dumps(value)
    assert readtables.dumps_unicode(value) == json.dumps(value, ensure_ascii=False)


def test_a_value_json_cannot_write_is_refused_as_json_refuses_it() -> None:
    with pytest.raises(TypeError, match="not JSON serializable"):
        readtables.dumps({"when": object()})
