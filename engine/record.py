"""Record: a frozen value with named fields, for the small values every command creates.

Like ``@dataclass(frozen=True)`` (type checkers treat it as one: ``dataclass_transform``), but a
class costs no generated code: the engine's events and turns are imported on every command, where
start-up time matters.

>>> class Point(Record):
...     x: int
...     y: int = 0
>>> Point(1), Point(1) == Point(1, 0), Point(1) == (1, 0)
(Point(x=1, y=0), True, False)
"""

from __future__ import annotations

from collections import namedtuple
from dataclasses import FrozenInstanceError
from typing import TYPE_CHECKING, Any, ClassVar, dataclass_transform


@dataclass_transform(frozen_default=True)
class Record:
    """A frozen value with named fields, like a frozen dataclass, but built without generating code
    for each class: the events are imported on every command, and start-up time matters there."""

    _fields: ClassVar[tuple[str, ...]] = ()
    _defaults: ClassVar[dict[str, Any]] = {}
    _names: ClassVar[frozenset[str]] = frozenset()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._fields = tuple(cls.__dict__.get("__annotations__", {}))
        cls._defaults = {n: cls.__dict__[n] for n in cls._fields if n in cls.__dict__}
        cls._names = frozenset(cls._fields)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        fields = self._fields
        if not kwargs and len(args) == len(fields):  # every field given in order: no copies
            self.__dict__.update(zip(fields, args, strict=True))
            return
        if len(args) > len(fields):
            raise TypeError(f"{type(self).__name__}() takes {len(fields)} fields")
        values = self.__dict__  # filled in place: a refused value is never seen
        values.update(self._defaults)
        values.update(zip(fields, args, strict=False))
        if kwargs:
            given = fields[: len(args)]
            # Two set operations in C where all is well (a replay builds many turns, #15).
            if not (kwargs.keys() <= self._names and kwargs.keys().isdisjoint(given)):
                wrong = next(k for k in kwargs if k not in self._names or k in given)
                raise TypeError(f"{type(self).__name__}() got an unexpected field {wrong!r}")
            values.update(kwargs)
        if len(values) != len(fields):
            missing = next(f for f in fields if f not in values)
            raise TypeError(f"{type(self).__name__}() is missing the field {missing!r}")
        # frozen from here on: __setattr__ refuses

    @classmethod
    def _make(cls, values: dict[str, Any]) -> Any:
        """A record of ``values``, already known to name only its fields and every field without
        a default (the parser of events checks that): built without :meth:`__init__`'s checks."""
        self = object.__new__(cls)
        fields = self.__dict__
        fields.update(cls._defaults)
        fields.update(values)
        return self

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, n) for n in self._fields)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self._values() == other._values()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((type(self), self._values()))

    def __repr__(self) -> str:
        shown = ", ".join(f"{n}={getattr(self, n)!r}" for n in self._fields)
        return f"{type(self).__name__}({shown})"


class _EmptyMap(dict[Any, Any]):
    """An empty dict that refuses to be filled: the shared default of a Record's mapping field,
    where a dataclass would have ``field(default_factory=dict)`` (a Record has no factories).
    It reads, compares, prints and writes as JSON as ``{}``; the engine never fills a value's
    mapping in place (it makes a new one), and were anything to try, this says so."""

    __slots__ = ()

    def _refuse(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("a Record's default mapping is shared and cannot be changed")

    __setitem__ = __delitem__ = __ior__ = _refuse
    update = setdefault = pop = popitem = clear = _refuse


EMPTY: Any = _EmptyMap()  # a Mapping default shared by every Record that leaves it out


_namedtuple: Any = namedtuple  # (called with names known only at run time)

# What typing.NamedTuple's class statement neither copies from the class body nor lets it set.
_SPECIAL = frozenset({"__module__", "__name__", "__annotations__"})
_PROHIBITED = frozenset(
    {"__new__", "__init__", "__slots__", "__getnewargs__", "_fields", "_field_defaults"}
    | {"_make", "_replace", "_asdict", "_source"}
)


class _TupleMeta(type):
    """``class X(NamedTuple)`` as typing makes it (a ``collections.namedtuple`` with the class
    body's defaults, methods and docstring), without typing's work for each class: a
    ``ForwardRef`` compiled for every field's annotation (the engine's annotations are strings)
    and the class's bases assigned again, which makes the interpreter rebuild every slot of
    the class. A ninth of the engine's import on a recording call (#27).

    >>> class Point(NamedTuple):
    ...     x: int
    ...     y: int = 0
    ...     def far(self) -> bool:
    ...         return abs(self.x) > 9
    >>> Point(1), Point(1) == (1, 0), Point(10).far(), Point._field_defaults, type(Point).__name__
    (Point(x=1, y=0), True, True, {'y': 0}, 'type')
    """

    def __new__(mcs, typename: str, bases: tuple[type, ...], ns: dict[str, Any]) -> Any:
        if not bases:  # the base itself (below)
            return super().__new__(mcs, typename, bases, ns)
        if bases != (_Tuple,):
            raise TypeError("can only inherit from a NamedTuple type")
        types = ns.get("__annotations__", {})
        default_names = [name for name in types if name in ns]
        if default_names != list(types)[len(types) - len(default_names) :]:
            raise TypeError(f"{typename}: a field without a default follows one with a default")
        made = _namedtuple(
            typename, list(types), defaults=[ns[n] for n in default_names], module=ns["__module__"]
        )
        made.__annotations__ = made.__new__.__annotations__ = dict(types)  # as written
        for key, value in ns.items():
            if key in _PROHIBITED:
                raise AttributeError("Cannot overwrite NamedTuple attribute " + key)
            if key not in _SPECIAL and key not in made._fields:
                setattr(made, key, value)
        return made


class _Tuple(metaclass=_TupleMeta):
    pass


if TYPE_CHECKING:
    from typing import NamedTuple as NamedTuple
else:
    # typing.NamedTuple for the engine's classes (type checkers see typing's own): the same
    # tuples, each class made in a third of the work.
    NamedTuple = _Tuple
