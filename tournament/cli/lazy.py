"""Build only the command that runs (issue 15): a referee's recording call starts fast.

typer turns every registered function into a click command before it runs one, reading each
signature and its annotations: for the 26 match verbs that is most of a call's own time. So a
call imports only the module that registers its first word (:data:`MODULES`) and, while it
runs, the app keeps only the group or command it names and, in a group, only the verb. Where a
word names nothing known (``--help``, a typo, a command of a module added later) everything is
kept: help stays complete, panels and all, and a typo still gets click's suggestions.

typer reads each kept function's annotations twice over (``inspect.signature`` and
``typing.get_type_hints``), and as this program's are strings (``from __future__ import
annotations``) each reading compiles and evaluates every one anew: the functions a call builds
have their annotations read once, before typer does (:func:`resolve`), and an annotation that is
one name (an alias such as ``ID``) is only looked up (#27).

``tournament --version`` is answered before any of this (:func:`asks_version`): this module does
not import typer until a command is built.
"""

from __future__ import annotations

import builtins
import importlib
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import typer

GLOBAL_OPTIONS_WITH_VALUE = ("--db", "--lexicon", "--lang")
NOT_COMMANDS = (
    "common",
    "console",
    "lazy",
    "words",
    "helptext",
    "usage",
    "lines",
)  # register nothing

# The module of tournament.cli that registers each first word (a word not here: all of them);
# ``match`` is two: its logs (match) and its recording verbs (record).
MODULES: dict[str, str | tuple[str, ...]] = {
    "match": ("match", "record"),
    "words": "match",
    "verify": "audit",
    "audit": "audit",
    "solve": "solve",
    "create": "day",
    "players": "players",
    "round": "rounds",
    "table": "tables",
    "partita": "rounds",
    "standings": "day",
    "status": "day",
    "rebuild": "day",
    "simulate": "trial",
    "demo": "trial",
    "amend": "day",
    "export": "export",
    "db": "db",
    "play": "play",
    "season": "season",
    "serve": "serve",
}


def command_words(argv: Sequence[str]) -> list[str]:
    """The words of the command line that are not global options or their values.

    >>> command_words(["--db", "x.db", "match", "roll", "M1"])
    ['match', 'roll', 'M1']
    >>> command_words(["--db=x.db", "standings", "--json"])
    ['standings']
    """
    skip, words = False, []
    for arg in argv:
        if skip:
            skip = False
        elif arg in GLOBAL_OPTIONS_WITH_VALUE:
            skip = True
        elif not arg.startswith("-"):
            words.append(arg)
    return words


def asks_version(argv: Sequence[str]) -> bool:
    """Whether ``--version`` comes among the global options, before any command word.

    >>> asks_version(["--version"]), asks_version(["--db", "x.db", "--version"])
    (True, True)
    >>> asks_version(["--db", "--version"]), asks_version(["match", "--version"])
    (False, False)
    >>> asks_version(["--help", "--version"])  # click knows no --version: it would refuse it
    True
    """
    skip = False
    for arg in argv:
        if skip:
            skip = False
        elif arg in GLOBAL_OPTIONS_WITH_VALUE:
            skip = True
        elif arg == "--version":
            return True
        elif not arg.startswith("-"):
            return False
    return False


def command_modules() -> list[str]:
    """Every module of tournament.cli that registers commands (a new one is found by itself)."""
    import pkgutil
    from pathlib import Path

    here = [str(Path(__file__).parent)]  # this package's folder (lazy never imports the package)
    return [m.name for m in pkgutil.iter_modules(here) if m.name not in NOT_COMMANDS]


def register(words: Sequence[str]) -> None:
    """Import the command modules a call needs: the one of its first word, or else all."""
    module = MODULES.get(words[0]) if words else None
    names = (module,) if isinstance(module, str) else module or command_modules()
    for name in names:
        importlib.import_module(f"tournament.cli.{name}")


def _name(info: Any) -> str:
    """The name typer gives a registered command or group."""
    import typer

    if info.name:
        return str(info.name)
    callback = getattr(info, "callback", None)
    return typer.main.get_command_name(callback.__name__) if callback else ""


def resolve(func: Callable[..., Any] | None) -> None:
    """Put in place of each string annotation of ``func`` (and of the function it wraps: they
    share the mapping) the value it names, as ``inspect.signature(eval_str=True)`` evaluates it:
    what typer reads of them is the same, read once. One that cannot be evaluated here is left
    as it is, for typer to say what it says of it."""
    annotations = getattr(func, "__annotations__", None)
    if not annotations:
        return
    inner: Any = func
    while hasattr(inner, "__wrapped__"):
        inner = inner.__wrapped__
    where = getattr(inner, "__globals__", {})
    for name, value in annotations.items():
        if not isinstance(value, str):
            continue
        if value in where:
            annotations[name] = where[value]
        elif value == "None":
            annotations[name] = None
        elif value.isidentifier() and hasattr(builtins, value):
            annotations[name] = getattr(builtins, value)
        else:
            try:
                annotations[name] = eval(value, where)  # noqa: S307 - the program's own source
            except Exception:  # noqa: BLE001 - left for typer, which says it as ever
                pass


def _callbacks(info: Any) -> list[Any]:
    """The functions typer builds a kept command or group from."""
    found = [getattr(info, "callback", None)]
    group = getattr(info, "typer_instance", None)
    if group is not None and group.registered_callback is not None:
        found.append(group.registered_callback.callback)
    return found


@contextmanager
def only(app: Any, words: Sequence[str]) -> Iterator[None]:
    """While inside, ``app`` keeps only what ``words`` name: a command, or a group and one of
    its verbs. Anything not found is kept whole."""
    import typer

    kept: list[tuple[typer.Typer, list[Any], list[Any]]] = []

    def narrow(t: typer.Typer, word: str) -> typer.Typer | None:
        commands = [c for c in t.registered_commands if _name(c) == word]
        groups = [g for g in t.registered_groups if _name(g) == word]
        if not commands and not groups:
            return None
        kept.append((t, t.registered_commands, t.registered_groups))
        t.registered_commands, t.registered_groups = commands, groups
        for info in [*commands, *groups]:
            for func in _callbacks(info):
                resolve(func)
        return groups[0].typer_instance if groups else None

    try:
        group = narrow(app, words[0]) if words and isinstance(app, typer.Typer) else None
        if kept and app.registered_callback is not None:  # the global options
            resolve(app.registered_callback.callback)
        if group is not None and len(words) > 1:
            narrow(group, words[1])
        yield
    finally:
        for t, commands, groups in reversed(kept):
            t.registered_commands, t.registered_groups = commands, groups
