"""Long work shows a progress bar with counts on a terminal, and nothing when the output is
piped or JSON is asked (#11)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager


def wanted(as_json: bool) -> bool:
    """A bar only for a person watching: stderr is a terminal and no JSON was asked."""
    return not as_json and sys.stderr.isatty()


@contextmanager
def bar(label: str, total: int | None, shown: bool) -> Iterator[Callable[[str], None]]:
    """A rich progress bar on stderr, advanced once per call of what it yields (whose text
    becomes the bar's description); when not ``shown``, the calls do nothing."""
    if not shown:
        yield lambda _text: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        console=Console(stderr=True),
        transient=True,
    ) as progress:
        task = progress.add_task(label, total=total)

        def advance(text: str) -> None:
            progress.update(task, advance=1, description=f"{label}: {text}")

        yield advance
