"""Whether a file changed since a reader opened it, seen from outside (#27): for a connection
SQLite opened ``immutable=1``, which looks at nothing (no lock, no -wal) and so would never
see another process's writes."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any


def stamp_of(path: Path) -> tuple[Any, ...]:
    """What changes when anyone writes ``path`` (its size, time and inode, and its -wal's):
    a connection opened ``immutable=1`` is opened again when it changed (#27: SQLite looks at
    nothing on such a connection, so another process's writes would never be seen)."""
    out: list[Any] = []
    for name in (str(path), f"{path}-wal"):
        try:
            st = os.stat(name)
            out.append((st.st_size, st.st_mtime_ns, st.st_ino))
        except OSError:
            out.append(None)
    return tuple(out)


def unchanged_since(path: Path, stamp: tuple[Any, ...] | None) -> bool:
    """Whether a connection opened at ``stamp`` still reads the file as it is (None: opened
    as SQLite usually reads, which sees every commit)."""
    return stamp is None or stamp_of(path) == stamp
