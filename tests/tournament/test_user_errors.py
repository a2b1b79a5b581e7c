"""One base for what a user is told (issue 22): every error the application raises for a user is
a ``UserError``, the command line says it in one sentence; anything else is a bug, and the
command line says so (exit 70), never as if it were a refusal."""

from __future__ import annotations

import ast
import importlib
import inspect
import sqlite3
import sys
from pathlib import Path

import pytest

import tournament
from engine.errors import BadHeader, RuleViolation
from tests.support import EXAMPLES
from tournament import cli
from tournament.errors import NewerVersionError, Refused, StoreError, UserError
from tournament.services import matches

# What the application defines that is not for a user, each kept where it is handled.
HANDLED_WHERE_RAISED = {
    "tournament.verify.storedrows.Unreadable",  # a stored row verify reports as a failure
    "tournament.storage.inserts.LooksMoved",  # a guarded save, made again (readside.ahead)
    "tournament.web.views.NotFound",  # the web's 404 page
    "tournament.web.security.BodyTooLarge",  # the web's 413 answer
}
# Raised for a bug or a broken invariant, never for something the user did.
BUGS = {"AssertionError", "NotImplementedError"}
# The layers whose raise statements are the application's answers to a user.
RAISING = ("services", "storage", "readside", "logformat", "season", "verify", "domain")


def modules() -> list[object]:
    """Every module of the application (the web's folder is a namespace package)."""
    root = Path(tournament.__file__).parent
    names = [
        ".".join(p.relative_to(root.parent).with_suffix("").parts).removesuffix(".__init__")
        for p in sorted(root.rglob("*.py"))
    ]
    return [importlib.import_module(n) for n in names if n != "tournament.__main__"]


def test_every_exception_the_application_defines_is_a_user_error_or_handled_where_raised() -> None:
    defined = {
        f"{c.__module__}.{c.__qualname__}": c
        for m in modules()
        for _, c in inspect.getmembers(m, inspect.isclass)
        if issubclass(c, BaseException) and c.__module__.startswith("tournament.")
    }
    assert {"tournament.errors.Refused", "tournament.storage.store.Conflict"} <= set(defined)
    outside = {n for n, c in defined.items() if not issubclass(c, UserError)}
    assert outside == HANDLED_WHERE_RAISED
    for c in (Refused, StoreError, NewerVersionError, *defined.values()):
        if issubclass(c, UserError):
            assert not issubclass(c, ValueError), f"{c} would pass for a bug's ValueError"


def raised_names(path: Path) -> list[tuple[int, str]]:
    """The class each ``raise X(...)`` / ``raise X`` of a module names (a bare re-raise and
    ``raise function(...)`` of a helper that builds one are resolved by the caller)."""
    names = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Raise) and node.exc is not None:
            exc = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
            if isinstance(exc, ast.Name):
                names.append((node.lineno, exc.id))
            elif isinstance(exc, ast.Attribute):
                names.append((node.lineno, exc.attr))
    return names


def test_every_exception_the_services_raise_derives_from_the_base() -> None:
    root = Path(tournament.__file__).parent
    checked, wrong = 0, []
    for layer in RAISING:
        for path in sorted((root / layer).rglob("*.py")):
            name = ".".join(path.relative_to(root.parent).with_suffix("").parts)
            module = importlib.import_module(name.removesuffix(".__init__"))
            for line, raised in raised_names(path):
                if raised in BUGS:
                    continue
                value = getattr(module, raised, None)
                if value is None:  # a local variable holding an exception (``raise e``)
                    continue
                if inspect.isclass(value):
                    checked += 1
                    handled = f"{value.__module__}.{value.__qualname__}" in HANDLED_WHERE_RAISED
                    if not issubclass(value, UserError) and not handled:
                        wrong.append(f"{name}:{line} raises {raised}")
                elif callable(value):  # a helper that builds the error (``raise _changed(...)``)
                    returns = inspect.signature(value).return_annotation
                    checked += 1
                    if returns not in ("Refused", "StoreError", "UserError", "Exception"):
                        wrong.append(f"{name}:{line} raises what {raised}() returns ({returns})")
    assert checked > 100  # the scan sees the services' refusals
    assert not wrong, wrong


@pytest.fixture
def with_a_match(tmp_path: Path) -> Path:
    db = tmp_path / "t.db"
    run_cli(db, "match", "import", str(EXAMPLES / "tiro-seed.jsonl"))
    return db


def run_cli(db: Path, *args: str) -> int:
    argv = sys.argv
    sys.argv = ["tournament", "--db", str(db), *args]
    try:
        cli.main()
    except SystemExit as e:
        return int(e.code or 0)
    finally:
        sys.argv = argv
    return 0


def broken_load(error: BaseException):  # noqa: ANN201 - a stand-in for matches.load
    def load(*args: object, **kwargs: object) -> None:
        raise error

    return load


def test_a_user_error_from_a_service_is_one_sentence_with_exit_1(
    with_a_match: Path, monkeypatch, capsys
) -> None:
    capsys.readouterr()
    monkeypatch.setattr(matches, "load", broken_load(Refused("the referee said no")))
    assert run_cli(with_a_match, "match", "show", "M1") == 1
    assert capsys.readouterr().err == "error: the referee said no\n"


def test_a_bug_in_a_service_is_a_bug_report_never_a_users_sentence(
    with_a_match: Path, monkeypatch, capsys
) -> None:
    monkeypatch.delenv(cli.DEBUG, raising=False)
    for bug in (ZeroDivisionError("division by zero"), ValueError("a value no one checked")):
        capsys.readouterr()
        monkeypatch.setattr(matches, "load", broken_load(bug))
        assert run_cli(with_a_match, "match", "show", "M1") == 70
        err = capsys.readouterr().err
        assert err.startswith(f"error: this is a bug in tournament ({type(bug).__name__} in ")
        assert str(bug) not in err and err.count("\n") == 1


def test_an_engine_error_a_service_let_through_is_a_bug_too(
    with_a_match: Path, monkeypatch, capsys
) -> None:
    """The services say the engine's refusals as ``Refused``; one that escapes them is a bug."""
    monkeypatch.delenv(cli.DEBUG, raising=False)
    capsys.readouterr()
    monkeypatch.setattr(matches, "load", broken_load(RuleViolation("not now", "TIR-2")))
    assert run_cli(with_a_match, "match", "show", "M1") == 70
    assert "(RuleViolation in " in capsys.readouterr().err


def test_the_databases_own_errors_are_said_by_storage_as_the_applications(
    with_a_match: Path, monkeypatch, capsys
) -> None:
    capsys.readouterr()
    locked = sqlite3.OperationalError("database is locked")
    monkeypatch.setattr(matches, "load", broken_load(locked))
    assert run_cli(with_a_match, "match", "show", "M1") == 1
    assert capsys.readouterr().err == "error: the database cannot be used: database is locked\n"


def test_a_stored_header_the_engine_refuses_is_a_refusal_of_load_not_a_bug(
    with_a_match: Path, monkeypatch, capsys
) -> None:
    """``load`` says the engine's verdict on a stored header as a refusal (it escaped raw)."""

    def refused_header(obj: object) -> None:
        raise BadHeader("an unknown game 'nope'")

    monkeypatch.setattr(matches, "parse_header", refused_header)
    capsys.readouterr()
    assert run_cli(with_a_match, "match", "show", "M1") == 1
    assert capsys.readouterr().err == "error: an unknown game 'nope' (FORMAT)\n"
