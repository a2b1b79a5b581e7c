"""The import graph holds the layers of docs/packages.md.

Every import counts, at the top of a module or inside a function: no cycle anywhere, the two
front ends never import each other (``tournament serve`` starting the web app excepted), the
engine imports nothing of the application, each lower layer imports only the layers below it,
and no module is over 450 lines.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "exports", "tournament")
LONGEST = 450

# From the bottom up: a module of one of these layers imports only its own layer and those
# before it. The two front ends stand above them all.
LOWER_LAYERS = (
    ("engine",),
    ("exports",),
    ("tournament.errors",),
    ("tournament.logformat",),
    ("tournament.domain",),
    ("tournament.storage",),
    ("tournament.readside",),
    ("tournament.verify",),
    ("tournament.services",),
    ("tournament.season",),
)
FRONT_ENDS = ("tournament.cli", "tournament.web")
# The package's own __init__ (its version), which imports nothing of the project.
ROOT_PACKAGE = "tournament"


@cache
def modules() -> dict[str, Path]:
    """Every module of the project by its dotted name (a package by its own name)."""
    found = {}
    for top in PACKAGES:
        for path in (ROOT / top).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def imported(name: str, path: Path) -> set[str]:
    """Every dotted name the module imports, anywhere in it (``from a import b``: ``a`` and
    ``a.b``, since ``b`` may be a module)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, base] if base else up)
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return names


def project_module(name: str) -> str | None:
    """The project's module a dotted name is in (None: a name from outside the project)."""
    while name and name not in modules():
        name = name.rpartition(".")[0]
    return name or None


@cache
def graph() -> dict[str, frozenset[str]]:
    """Module -> the project's modules it imports."""
    edges = {}
    for name, path in modules().items():
        targets = {project_module(n) for n in imported(name, path)}
        edges[name] = frozenset(t for t in targets if t is not None and t != name)
    return edges


def cycles(edges: dict[str, frozenset[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def inside(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def test_the_analysis_sees_imports_inside_functions() -> None:
    # web.app imports the organizer's routes inside routes(), cli.serve the app inside serve.
    assert "tournament.web.organizer" in graph()["tournament.web.app"]
    assert "tournament.web.app" in graph()["tournament.cli.serve"]
    assert cycles({"a": frozenset({"b"}), "b": frozenset({"a"}), "c": frozenset()}) == [["a", "b"]]


def test_no_import_cycle() -> None:
    assert cycles(graph()) == []


def test_the_front_ends_never_import_each_other() -> None:
    crossing = []
    for name, path in modules().items():
        for ours, theirs in (FRONT_ENDS, FRONT_ENDS[::-1]):
            if not inside(name, ours):
                continue
            for n in imported(name, path):
                if inside(n, theirs) and not (
                    name == "tournament.cli.serve" and inside(n, "tournament.web.app")
                ):
                    crossing.append(f"{name} -> {n}")
    assert crossing == []


# What only storage may know: the event store's library, the databases' drivers, and storage.
STORAGE = (
    "eventsourcing",
    "sqlite3",
    "psycopg",
    "psycopg_pool",
    "sqlite_utils",
    "tournament.storage",
)


def test_the_front_ends_import_no_storage() -> None:
    """The CLI and the web reach the store through the services (services.stores opens it),
    and catch the application's errors, never the store's libraries' own."""
    reaching = [
        f"{name} -> {n}"
        for name, path in modules().items()
        if any(inside(name, f) for f in FRONT_ENDS)
        for n in imported(name, path)
        if any(inside(n, s) for s in STORAGE)
    ]
    assert reaching == []


def test_the_engine_imports_nothing_of_the_application() -> None:
    outside = [
        f"{name} -> {n}"
        for name, path in modules().items()
        if inside(name, "engine")
        for n in imported(name, path)
        if n.split(".")[0] in ("tournament", "exports", "eventsourcing")
    ]
    assert outside == []


def test_each_lower_layer_imports_only_the_layers_below_it() -> None:
    def layer(name: str) -> int | None:
        for i, packages in enumerate(LOWER_LAYERS):
            if any(inside(name, p) for p in packages):
                return i
        return None

    upward = [
        f"{name} -> {target}"
        for name, targets in graph().items()
        if (mine := layer(name)) is not None
        for target in targets
        if target != ROOT_PACKAGE and ((theirs := layer(target)) is None or theirs > mine)
    ]
    assert upward == []


def test_no_module_is_over_450_lines() -> None:
    long = {
        str(path.relative_to(ROOT)): lines
        for path in modules().values()
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > LONGEST
    }
    assert long == {}
