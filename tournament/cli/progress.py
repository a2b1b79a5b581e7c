"""Long work shows a progress bar with counts on a terminal, and nothing when the output is
piped or JSON is asked (#11): ``simulate``, ``match import`` of a long log, ``verify``,
``rebuild``, ``export all`` and ``demo``.

rich is imported only when a bar is drawn: a recording call never loads it (issue 15).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from exports.i18n import N_

# The steps the services tell a bar of, said in the run's language: (the step as told, the id).
STEPS = [
    (re.compile(r"round (?P<n>\d+): (?P<tables>\d+) tables played"),
     N_("round %(n)s: %(tables)s tables played")),
    (re.compile(r"pairings (?P<n>\d+)"), N_("pairings %(n)s")),
    (re.compile(r"standings"), N_("standings")),
    (re.compile(r"partite"), N_("partite")),
    (re.compile(r"bracket"), N_("bracket")),
]  # fmt: skip


def step(text: str) -> str:
    """A step a service told (its English), in the run's language; a name (a game's, a
    match's, a file's) as it is.

    >>> step("M7")
    'M7'
    """
    from tournament.cli.words import t

    for pattern, id in STEPS:
        if found := pattern.fullmatch(text):
            return t(id, **found.groupdict())
    return text


def _terminal() -> bool:
    """Whether a person watches stderr (the tests pretend one does)."""
    return sys.stderr.isatty()


def wanted(as_json: bool) -> bool:
    """A bar only for a person watching: stderr is a terminal and no JSON was asked."""
    return not as_json and _terminal()


class Bar:
    """What a command advances: by steps (``bar("round 2")``) or to a count (``bar.at``).

    A bar that is not shown does nothing, so a service takes ``bar`` or ``bar.at`` as its
    progress callback either way.
    """

    def __init__(self, label: str, progress: Any = None, task: Any = None) -> None:
        self.label, self.progress, self.task = label, progress, task

    def __call__(self, text: str = "", steps: int = 1) -> None:
        if self.progress is not None:
            described = f"{self.label}: {step(text)}" if text else self.label
            self.progress.update(self.task, advance=steps, description=described)

    def done(self, text: str, total: int) -> None:
        """One more step done (``text``), of ``total`` in all."""
        if self.progress is not None:
            self.progress.update(self.task, total=total)
            self(text)

    def at(self, done: int, total: int | None = None) -> None:
        """``done`` of ``total`` (None: not known yet, or as it was)."""
        if self.progress is not None:
            if total is not None:
                self.progress.update(self.task, total=total)
            self.progress.update(self.task, completed=done)


@contextmanager
def bar(label: str, total: int | None, shown: bool) -> Iterator[Bar]:
    """A rich progress bar on stderr, gone once the work is done, counting ``done/total``
    (or ``done`` while the total is not known); when not ``shown``, a bar that does nothing."""
    if not shown:
        yield Bar(label)
        return
    from rich.console import Console
    from rich.progress import BarColumn, Progress, ProgressColumn, Task, TextColumn
    from rich.text import Text

    class Count(ProgressColumn):
        def render(self, task: Task) -> Text:
            done = int(task.completed)
            return Text(f"{done}/{int(task.total)}" if task.total is not None else str(done))

    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        Count(),
        # shown only on a terminal (see wanted): drawn as on one, whatever rich guesses
        console=Console(stderr=True, force_terminal=True),
        transient=True,
    ) as progress:
        yield Bar(label, progress, progress.add_task(label, total=total))
