"""A season file: a small TOML document naming the tournaments and how the season scores them.

```toml
name = "Stagione 2026/27"
tournaments = ["sera-1.db", "sera-2.db"]   # SQLite files, relative to this file

[scoring]
points = [25, 18, 15, 12, 10, 8, 6, 4, 2, 1]  # season points for 1st, 2nd, ... of a tournament
participation = 1   # points for a place beyond the list
best = 0            # count each player's best N tournaments (0: all of them)
```

Every key of ``[scoring]`` may be left out: the defaults are the ones shown. The defaults
reward a win clearly over a second place (as a club's monthly ranking usually does) and give a
point to everyone who took part, so that coming counts; ``best`` is off, so every evening counts.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.message import msg
from tournament.errors import Refused

DEFAULT_POINTS = (25, 18, 15, 12, 10, 8, 6, 4, 2, 1)
DEFAULT_PARTICIPATION = 1
POSTGRES = ("postgresql://", "postgres://")


class SeasonError(Refused):
    """A season file that cannot be used; the message says why in one sentence."""


@dataclass(frozen=True)
class SeasonScoring:
    """How a tournament's final place turns into season points, and how many results count."""

    points: tuple[float, ...] = DEFAULT_POINTS
    participation: float = DEFAULT_PARTICIPATION
    best: int = 0  # 0: every tournament counts

    def for_place(self, rank: int) -> float:
        """Season points for a final place (shared places score the place they share).

        >>> SeasonScoring().for_place(1), SeasonScoring().for_place(11)
        (25, 1)
        """
        return self.points[rank - 1] if 1 <= rank <= len(self.points) else self.participation


@dataclass(frozen=True)
class Season:
    """A parsed season file: its name, its tournaments (as written and as resolved), its scoring."""

    name: str
    path: Path
    tournaments: tuple[str, ...]  # as written in the file (labels)
    sources: tuple[Path, ...]  # the SQLite files, resolved against the season file's folder
    scoring: SeasonScoring


def load_season(path: str | Path) -> Season:
    """Read and check a season file; a mistake in it raises :class:`SeasonError`."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SeasonError(msg("there is no season file at %(path)s", path=path)) from None
    except IsADirectoryError:
        raise SeasonError(msg("%(path)s is a folder, not a season file", path=path)) from None
    except UnicodeDecodeError:
        raise SeasonError(msg("the season file %(path)s is not UTF-8 text", path=path)) from None
    except OSError as e:
        raise SeasonError(
            msg(
                "cannot read the season file %(path)s: %(strerror)s", path=path, strerror=e.strerror
            )
        ) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise SeasonError(
            msg("the season file %(path)s is not valid TOML: %(e)s", path=path, e=e)
        ) from None
    return parse_season(data, path)


def parse_season(data: dict[str, Any], path: Path) -> Season:
    """Check a season's TOML table (``path`` locates the tournaments written relative to it)."""
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise SeasonError(msg('the season file %(path)s needs a name = "..."', path=path))
    listed = data.get("tournaments")
    if not isinstance(listed, list) or not listed or not all(isinstance(t, str) for t in listed):
        raise SeasonError(
            msg(
                'the season file %(path)s needs tournaments = ["file.db", ...] (at least one)',
                path=path,
            )
        )
    unknown = sorted(set(data) - {"name", "tournaments", "scoring"})
    if unknown:
        raise SeasonError(
            msg(
                "the season file %(path)s has an unknown key %(key)r",
                path=path,
                key=unknown[0],
            )
        )
    sources: list[Path] = []
    seen: dict[Path, str] = {}
    for entry in listed:
        if entry.startswith(POSTGRES):
            raise SeasonError(
                msg(
                    "%(server)s: PostgreSQL tournaments are not supported in a season yet (name "
                    "the tournament's SQLite file)",
                    server=entry.split("@")[-1],
                )
            )
        resolved = (path.parent / entry).resolve()
        if resolved in seen:
            if seen[resolved] != entry:
                raise SeasonError(
                    msg(
                        "the season names the tournament %(entry)s twice (also as %(other)s)",
                        entry=entry,
                        other=seen[resolved],
                    )
                )
            raise SeasonError(msg("the season names the tournament %(entry)s twice", entry=entry))
        seen[resolved] = entry
        sources.append(resolved)
    return Season(name.strip(), path, tuple(listed), tuple(sources), _scoring(data, path))


def _scoring(data: dict[str, Any], path: Path) -> SeasonScoring:
    table = data.get("scoring", {})
    if not isinstance(table, dict):
        raise SeasonError(msg("[scoring] of %(path)s must be a table", path=path))
    unknown = sorted(set(table) - {"points", "participation", "best"})
    if unknown:
        raise SeasonError(
            msg(
                "[scoring] of %(path)s has an unknown key %(key)r",
                path=path,
                key=unknown[0],
            )
        )
    points = table.get("points", list(DEFAULT_POINTS))
    if not isinstance(points, list) or not points or not all(_number(p) and p >= 0 for p in points):
        raise SeasonError(
            msg("scoring.points of %(path)s must be a list of numbers from 0", path=path)
        )
    participation = table.get("participation", DEFAULT_PARTICIPATION)
    if not _number(participation) or participation < 0:
        raise SeasonError(
            msg("scoring.participation of %(path)s must be a number from 0", path=path)
        )
    best = table.get("best", 0)
    if not isinstance(best, int) or isinstance(best, bool) or best < 0:
        raise SeasonError(
            msg("scoring.best of %(path)s must be a whole number from 0 (0: all count)", path=path)
        )
    return SeasonScoring(tuple(points), participation, best)


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)
