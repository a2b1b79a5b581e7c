"""What every command shares: the app, the global options, errors as one sentence."""

from __future__ import annotations

import functools
import io
import json
import os
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any, NoReturn, TypeVar

import typer
from typer._click.globals import get_current_context  # typer 0.28 vendors click
from typer.core import TyperGroup

from engine.jsontext import lone_surrogate
from engine.record import Record
from tournament.cli.words import ENV, choose, from_tournament, said, t

# A value echoed back in a usage error is cut short: a 4,000-digit number is not repeated whole.
_LONG_WORD = re.compile(r"[^\s']{41,}")

# click's base of usage errors (typer 0.28 vendors click: found through a public subclass).
ClickException: Any = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException")


class OneLineErrors(TyperGroup):
    """The root command: a usage error (a missing argument, an unknown option, a value of the
    wrong type) is one sentence on stderr too, with exit 2 as click gives it, not a boxed panel.
    """

    def list_commands(self, ctx: Any) -> list[str]:
        """The commands in the order an organizer uses them, in help panels (#11)."""
        from tournament.cli.panels import arrange, ordered

        arrange(self)
        return ordered(super().list_commands(ctx))

    def main(  # type: ignore[override]
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        _negative_numbers_are_arguments(self)
        from tournament.cli.helptext import translate
        from tournament.cli.panels import arrange

        # The language first (--lang, TOURNAMENT_LANG, the locale): help is said in it too.
        choose(sys.argv[1:] if args is None else list(args))
        arrange(self)
        translate(self)
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        # A file name that is not UTF-8 arrives as surrogate escapes (PEP 383); printed back
        # ("wrote ..."), it becomes the same bytes again rather than a UnicodeEncodeError. Text
        # arguments never carry them: ``guarded`` refuses those.
        if isinstance(sys.stdout, io.TextIOWrapper):
            sys.stdout.reconfigure(errors="surrogateescape")
        try:
            code = super().main(args, prog_name, complete_var, False, **extra)
        except ClickException as e:
            # Without arguments a group prints its help (already shown by then), as before.
            if type(e).__name__ != "NoArgsIsHelpError":
                from tournament.cli.usage import sentence

                ctx = getattr(e, "ctx", None)
                where = t(" (see '%(help)s')", help=f"{ctx.command_path} --help") if ctx else ""
                message = _LONG_WORD.sub(lambda m: f"{m.group()[:20]}…", sentence(e))
                typer.echo(t("error: %(why)s", why=f"{message.rstrip('.')}{where}"), err=True)
            sys.exit(e.exit_code)
        except typer.Abort:
            typer.echo(t("error: %(why)s", why=t("stopped before anything was stored")), err=True)
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)


NEGATIVE = re.compile(r"-\d+(\.\d+)?")


def _negative_numbers_are_arguments(command: Any) -> None:
    """Let ``-1`` reach a command as an argument (``match rule M1 -3 accept``, ``round show -1``)
    so that the command refuses it in its own words, rather than click's "No such option" (#11).

    click reads every word that starts with ``-`` as an option; no option of ours is a number,
    so a negative number is an argument wherever it stands. The parser is typer's vendored
    click (``_process_opts`` is where a word becomes an option).
    """
    for sub in getattr(command, "commands", {}).values():
        _negative_numbers_are_arguments(sub)
    if getattr(command, "_negative_numbers", False):
        return
    make = command.make_parser

    def make_parser(ctx: Any) -> Any:
        parser = make(ctx)
        as_option = parser._process_opts

        def process(arg: str, state: Any) -> None:
            if NEGATIVE.fullmatch(arg):
                state.largs.append(arg)
            else:
                as_option(arg, state)

        parser._process_opts = process
        return parser

    command.make_parser = make_parser
    command._negative_numbers = True


app = typer.Typer(
    cls=OneLineErrors,
    help="Club tournaments of Tetragon, La Roulette Alphatiana and La parola nascosta.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

F = TypeVar("F", bound=Callable[..., Any])


class Settings(Record):  # a Record, not a dataclass: no code generated at start-up (#15)
    db: str  # a file path or a postgresql:// URL (tournament.services.stores.locate)
    lexicon: str | None


# The global options' annotations, made once at import: typer reads a name in a string
# annotation without compiling it (tournament.cli.lazy.resolve, #27).
DB_OPTION = Annotated[
    str,
    typer.Option(
        "--db",
        envvar="TOURNAMENT_DB",
        help="The tournament's SQLite file, or a postgresql://user:password@host/name URL.",
    ),
]
LEXICON_OPTION = Annotated[
    str | None,
    typer.Option(
        "--lexicon",
        envvar="TOURNAMENT_LEXICON",
        help="An organizer's word list (.marisa, or text with one word a line).",
    ),
]
LANG_OPTION = Annotated[
    str | None,
    typer.Option(
        "--lang",
        help="The language of the command line: it or en (else TOURNAMENT_LANG, the "
        "locale, the tournament's; see docs/cli.md).",
    ),
]
VERSION_OPTION = Annotated[
    bool,
    typer.Option(
        "--version",
        is_eager=True,
        callback=lambda given: _version(given),
        help="Print the program's version and exit.",
    ),
]


@app.callback()
def options(
    db: DB_OPTION = "tournament.db",
    lexicon: LEXICON_OPTION = None,
    lang: LANG_OPTION = None,
    version: VERSION_OPTION = False,
) -> None:
    global _settings
    _settings = Settings(db, lexicon)
    env = os.environ.get(ENV, "")
    if lang is not None and lang not in ("it", "en"):
        fail(t("the command line speaks Italian (it) or English (en), not %(lang)r", lang=lang))
    if lang is None and env and env not in ("it", "en"):
        fail(t("%(env)s names %(lang)r: the command line speaks it or en", env=ENV, lang=env))


def _version(given: bool) -> None:
    """``--version`` where ``main`` did not answer it first (the app called as a library)."""
    if given:
        from tournament import version

        typer.echo(f"tournament {version()}")
        raise typer.Exit()


def fail(message: str) -> NoReturn:
    """Refuse: ``message`` (a catalogue Msg is said in the run's language) on stderr, exit 1."""
    typer.echo(t("error: %(why)s", why=said(message)), err=True)
    raise typer.Exit(1)


# Python converts at most this many digits to an int (a guard against slow conversions); a longer
# number in an argument could only end in a ValueError deep inside a command.
_MAX_DIGITS = sys.get_int_max_str_digits() or sys.maxsize
_TOO_MANY_DIGITS = re.compile(rf"\d{{{min(_MAX_DIGITS, 10**6) + 1},}}")


def _shown(text: str) -> str:
    """An argument as the user typed it, bytes that are not UTF-8 as ``\\xff`` escapes."""
    try:
        raw = text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        raw = text.encode("utf-8", "backslashreplace")
    shown = raw.decode("utf-8", "backslashreplace")
    return f"'{shown}'" if len(shown) <= 40 else f"'{shown[:20]}…'"


def check_argument(text: str) -> None:
    """Refuse a text argument that no command can use: bytes that are not UTF-8 (which Python
    turns into lone surrogates), or a number too long to convert. Paths are not checked: a file
    name need not be UTF-8."""
    if lone_surrogate(text):
        fail(
            t(
                "the argument %(text)s is not UTF-8 text (check the terminal's encoding)",
                text=_shown(text),
            )
        )
    if len(text) > _MAX_DIGITS and (long := _TOO_MANY_DIGITS.search(text)):
        fail(
            t(
                "the argument %(text)s holds a number of %(digits)s digits: "
                "no command reads numbers that long",
                text=_shown(text),
                digits=f"{len(long.group()):,}",
            )
        )


def guarded(fn: F) -> F:
    """Turn every error a user can cause into one sentence on stderr and exit 1.

    Text arguments are checked first (:func:`check_argument`), before anything is opened.
    """

    @functools.wraps(fn)
    def run(*args: Any, **kwargs: Any) -> Any:
        from tournament.errors import UserError
        from tournament.services.stores import as_user_errors

        for value in [*args, *kwargs.values()]:
            for text in value if isinstance(value, (list, tuple)) else [value]:
                if isinstance(text, str):
                    check_argument(text)
        db = settings().db  # a file, or a server's URL (nothing to remove there)
        try:
            with as_user_errors():  # the store's libraries' errors, said as the application's
                # (a folder this user may not enter refuses even the look, #29)
                made = None if "://" in str(db) or Path(db).exists() else Path(db)
                return _refused_leaves_nothing(fn, args, kwargs, made)
        except UserError as e:
            fail(e.args[0] if len(e.args) == 1 and isinstance(e.args[0], str) else str(e))
        except KeyboardInterrupt:  # what was under way is whole or not there at all (#28)
            typer.echo(t("stopped by Ctrl-C: nothing half-made is left"), err=True)
            raise typer.Exit(130) from None  # 128 + SIGINT, as a shell reports it
        except BrokenPipeError:
            # The reader went away (``tournament match list | head``): as any Unix tool, stop
            # quietly; stdout goes to /dev/null so Python's own flush at exit says nothing.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            raise typer.Exit(141) from None  # 128 + SIGPIPE, as a shell reports it
        except OSError as e:
            fail(os_error(e))

    return run  # type: ignore[return-value]


def _refused_leaves_nothing(
    fn: Callable[..., Any], args: Any, kwargs: Any, made: Path | None
) -> Any:
    """Run a command; when it fails, remove the database file it made (#11: a refused
    ``create`` leaves no empty database). A file that was there before is never touched."""
    try:
        return fn(*args, **kwargs)
    except BaseException as e:
        failed = not isinstance(e, typer.Exit | SystemExit | KeyboardInterrupt) or bool(
            getattr(e, "exit_code", getattr(e, "code", 0))
        )
        if made is not None and failed and made.exists():
            from tournament.services.stores import discard

            # Only the file this process made, if nobody stored in it: another process making
            # the same database at the same moment may have saved its tournament there.
            discard(made)
        raise


# The operating system's refusals users meet most, in the catalogue's words.
_OS_ERRORS = {
    "ENOENT": "No such file or directory",
    "EACCES": "Permission denied",
    "EISDIR": "Is a directory",
    "ENOTDIR": "Not a directory",
    "ENOSPC": "No space left on device",
    "EEXIST": "File exists",
    "EROFS": "Read-only file system",
}


def os_error(e: OSError) -> str:
    """An OSError as one sentence: its reason (in the run's language where the catalogue has
    it) and the file it names."""
    import errno

    name = errno.errorcode.get(e.errno or 0, "")
    why = t(_OS_ERRORS[name]) if name in _OS_ERRORS else (e.strerror or str(e))
    return t("%(why)s: %(file)s", why=why, file=e.filename) if e.filename else why


_settings = Settings("tournament.db", None)


def settings() -> Settings:
    """The global options of this call (set by the callback before any command runs)."""
    return _settings


def store(create: bool = False) -> Any:
    """The event store of ``--db``; reading commands refuse a database that does not exist."""
    from tournament.services.stores import close, open_store

    s = open_store(settings().db, settings().lexicon, create)
    # typer's own click (the separate click package never sees typer's context, and costs a
    # recording call its import).
    context = get_current_context(silent=True)
    if context is not None:
        context.call_on_close(lambda: close(s))  # a server's connections, given back
    from_tournament(lambda: tournament_lang(s))
    return s


def tournament_lang(s: Any) -> str | None:
    """The tournament's own language (``create --lang``), None where the store holds none (read
    from its first event: a recording call never loads the tournament, #15)."""
    from tournament.services.language import tournament_lang as created_with

    return created_with(s)


def read_text(path: Path) -> str:
    """A file the user named, as UTF-8 text (a wrong file is one sentence, not a traceback)."""
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        fail(t("%(path)s is not UTF-8 text", path=path))


def print_json(obj: Any) -> None:
    typer.echo(json.dumps(obj, ensure_ascii=False, indent=2))
