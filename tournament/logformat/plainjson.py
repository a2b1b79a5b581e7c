"""Values that orjson writes byte for byte as the json module does: the fast road (#15).

The store's bytes, the tournament's seals and its snapshots' seals are written with the json
module (eventsourcing's transcoder, :func:`tournament.logformat.matchlog.canonical`). orjson writes
the same bytes, ten times faster, for *plain* values: objects with text keys, lists, texts, true,
false, null, whole numbers of 64 bits and the floats it writes as ``repr`` does (checked over every
code point for texts, and with ``sort_keys`` for the key order: code point order is UTF-8's byte
order). Anything else (a tuple, a subclass, a big number, another type) takes the json road, so
that what is written or compared never depends on the road taken.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

import orjson

TIME = "datetime_iso"  # eventsourcing's name for a time (DatetimeAsISO)
_ATOMS = frozenset({str, bool, type(None)})  # and int, within 64 bits
_LOW, _HIGH = -(2**63), 2**64  # what orjson writes of whole numbers


def _float(value: float) -> bool:
    """Whether orjson writes this float as json does (``repr``; not NaN or an infinity)."""
    return orjson.dumps(value) == repr(value).encode()


def plain(value: Any, times: bool = False) -> bool:
    """Whether ``value`` is plain (see the module); with ``times``, datetimes may be in it too.

    >>> plain({"a": [1, "b", None, 2.5]}), plain({"a": (1,)}), plain({1: "a"}), plain(2**64)
    (True, False, False, False)
    """
    try:
        return _plain(value, times)
    except RecursionError:
        return False


def _plain(value: Any, times: bool) -> bool:
    kind = type(value)
    if kind is dict:
        for key in value:
            if type(key) is not str:
                return False
        return _all_plain(value.values(), times)
    if kind is list:
        return _all_plain(value, times)
    if kind is int:
        return _LOW <= value < _HIGH
    if kind is float:
        return _float(value)
    return kind in _ATOMS or (times and kind is datetime)


def _all_plain(items: Iterable[Any], times: bool) -> bool:
    for item in items:  # the common items here, the rest one call down
        kind = type(item)
        if kind is str or kind is bool or item is None:
            continue
        if kind is int:
            if _LOW <= item < _HIGH:
                continue
            return False
        if not _plain(item, times):
            return False
    return True


def _time(value: Any) -> dict[str, str]:
    if type(value) is datetime:
        return {"_type_": TIME, "_data_": value.isoformat()}
    raise TypeError(type(value).__name__)  # never: plain(value, times=True) was asked first


def transcoded(value: Any) -> bytes:
    """What eventsourcing's JSON transcoder (as :func:`tournament.storage.store.new_mapper` sets it
    up) encodes a plain value with times to, written by orjson: the very same bytes."""
    return orjson.dumps(value, default=_time, option=orjson.OPT_PASSTHROUGH_DATETIME)


def sorted_text(value: Any) -> bytes:
    """``json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
    default=str)`` encoded as UTF-8, for a plain value with times, written by orjson."""
    return orjson.dumps(
        value, default=str, option=orjson.OPT_SORT_KEYS | orjson.OPT_PASSTHROUGH_DATETIME
    )
