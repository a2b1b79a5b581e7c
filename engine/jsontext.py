"""JSON from outside the program, read strictly: what a match log may hold (I-JSON, RFC 7493).

A log is read by other tools too (an auditor's script, a browser), and what is stored must encode
as UTF-8 and hash the same everywhere. So a value is refused where Python's ``json`` would accept
it but the log could not be stored, printed or read alike elsewhere: a lone surrogate (``\\ud800``),
a number beyond the integers a double holds exactly or beyond any double (``1e999``), ``NaN`` and
``Infinity`` (not JSON), a key given twice in one object (which value counts depends on the
reader), and nesting deeper than any log needs (which would exhaust Python's stack).

>>> loads('{"type": "pass", "by": "blu"}')
{'type': 'pass', 'by': 'blu'}
>>> loads('{"by": "\\\\ud800"}')
Traceback (most recent call last):
...
engine.jsontext.JsonError: holds text that is not Unicode: a lone surrogate '\\ud800' (FORMAT)
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from typing import Any

from engine.errors import MalformedEvent

# The integers an IEEE double holds exactly: beyond them two readers may see different numbers.
MAX_INT = 2**53 - 1
# A log nests a header's deck or dice lists two or three levels deep; the bound leaves room for
# organizers' extra fields and stays far below Python's recursion limit.
MAX_DEPTH = 32


class JsonError(MalformedEvent):
    """Not JSON, or JSON that a match log cannot hold; the message completes "line N ..."."""


def _integer(text: str) -> int:
    # Checked before converting: Python refuses to convert more than 4,300 digits, and a long
    # conversion is slow; any digit count beyond 16 is out of range anyway.
    if len(text.lstrip("-")) > 16 or abs(value := int(text)) > MAX_INT:
        shown = text if len(text) <= 24 else f"{text[:12]}…({len(text)} characters)"
        raise JsonError(f"holds the number {shown}, beyond ±{MAX_INT} (I-JSON)")
    return value


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise JsonError(f"holds the number {text[:24]}, beyond what a double holds")
    return value


def _constant(name: str) -> Any:
    raise JsonError(f"holds {name}, which is not a JSON number")


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        twice = next(k for k, _ in pairs if k in seen or seen.add(k))  # type: ignore[func-returns-value]
        raise JsonError(f"gives the key {twice!r} twice in one object")
    return obj


_DECODER = json.JSONDecoder(
    object_pairs_hook=_object, parse_int=_integer, parse_float=_float, parse_constant=_constant
)


def loads(text: str) -> Any:
    """One JSON value, checked as :func:`check` does; raises :class:`JsonError`."""
    try:
        value = _DECODER.decode(text)
    except json.JSONDecodeError as e:
        raise JsonError(f"is not valid JSON ({e.msg} at column {e.colno})") from None
    except RecursionError:
        raise JsonError(f"nests lists or objects deeper than {MAX_DEPTH} levels") from None
    check(value)
    return value


def check(value: Any) -> None:
    """Refuse what a log cannot hold (see the module); walks the value without recursion.

    >>> check({"values": [1, "a", None, 2.5]})
    >>> check([[[1]]])
    """
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            _text(item)
        elif isinstance(item, (dict, list, tuple)):
            if depth > MAX_DEPTH:
                raise JsonError(f"nests lists or objects deeper than {MAX_DEPTH} levels")
            items: Iterable[Any] = item
            if isinstance(item, dict):
                for key in item:
                    if not isinstance(key, str):
                        raise JsonError("has an object key that is not text")
                    _text(key)
                items = item.values()
            stack.extend((v, depth + 1) for v in items if not isinstance(v, (bool, type(None))))
        elif isinstance(item, bool):
            pass
        elif isinstance(item, int):
            if abs(item) > MAX_INT:
                raise JsonError(f"holds a number beyond ±{MAX_INT} (I-JSON)")
        elif isinstance(item, float):
            if not math.isfinite(item):
                raise JsonError(f"holds the number {item}, which is not a JSON number")
        elif item is not None:
            raise JsonError(f"holds a {type(item).__name__}, which is not a JSON value")


def lone_surrogate(text: str) -> str | None:
    """The first lone surrogate in ``text`` (which UTF-8 cannot encode), or None.

    Python gives one for each byte of a command-line argument that is not UTF-8 (``\\udcff``).
    """
    if text.isascii():
        return None
    try:  # UTF-8 encodes every code point but the surrogates (no pattern to compile, #15)
        text.encode("utf-8")
    except UnicodeEncodeError as e:
        return text[e.start]
    return None


def _text(text: str) -> None:
    if bad := lone_surrogate(text):
        raise JsonError(f"holds text that is not Unicode: a lone surrogate {bad!r}")
