"""Files a command writes for the user, whole or not at all (#29).

A file is written beside its target under a hidden name and moved into place once complete
(``os.replace``); a folder of files is made beside the folder asked for and moved into it at the
end; a database built from nothing (``simulate``, ``demo``) likewise (#28). A refusal (a full
disk above all) or a Ctrl-C leaves no empty or half-written file, no half-made folder or
database, behind; a file that was there stays as it was.
"""

from __future__ import annotations

import errno
import os
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from engine.message import msg
from tournament.errors import Refused

if TYPE_CHECKING:
    from tournament.storage.locations import Location
    from tournament.storage.store import Store

FULL = (errno.ENOSPC, errno.EDQUOT)


class DiskFull(Refused):
    """The disk is full: ``path`` was not written (nothing of it is left)."""

    def __init__(self, path: Path) -> None:
        super().__init__(
            msg(
                "the disk is full: %(path)s was not written; free some space and try again",
                path=str(path),
            )
        )
        self.path = path


def _beside(path: Path, kind: str) -> Path:
    return path.with_name(f".{path.name}.{os.getpid()}.{kind}")


def write_whole(path: Path, data: str | bytes) -> Path:
    """Write ``data`` (text as UTF-8) into ``path``, complete or not at all."""
    new = _beside(path, "new")
    try:
        with open(new, "wb") as f:
            f.write(data.encode("utf-8") if isinstance(data, str) else data)
            f.flush()
            os.fsync(f.fileno())  # a full disk may say so only here
        os.replace(new, path)
    except BaseException as e:
        new.unlink(missing_ok=True)
        if isinstance(e, OSError) and e.errno in FULL:
            raise DiskFull(path) from None
        if isinstance(e, OSError) and e.filename is not None and os.fspath(e.filename) == str(new):
            raise type(e)(e.errno, e.strerror, str(path)) from None  # the name the user gave
        raise
    return path


@contextmanager
def whole_folder(out: Path) -> Iterator[Path]:
    """A folder to write into, moved into ``out`` when the block ends without an error (its
    files replace those of the same name already there); otherwise removed with all it holds."""
    if out.exists() and not out.is_dir():
        raise FileExistsError(errno.EEXIST, "not a folder", str(out))
    made = [p for p in [out.parent, *out.parent.parents] if not p.exists()]
    staging = _beside(out.absolute(), "new")
    try:
        staging.mkdir(parents=True)
        yield staging
        if not out.exists():
            os.rename(staging, out)
        else:
            for item in staging.iterdir():
                os.replace(item, out / item.name)
            staging.rmdir()
    except BaseException as e:
        shutil.rmtree(staging, ignore_errors=True)
        for folder in made:  # the folders made for it, innermost first, if still empty
            try:
                folder.rmdir()
            except OSError:
                break
        if isinstance(e, DiskFull) or isinstance(e, OSError) and e.errno in FULL:
            raise DiskFull(out) from None
        raise


def whole_database(
    db: Location, build: Callable[[Store], None], lexicon: str | None = None
) -> Store:
    """A database file built by ``build`` under a hidden name beside ``db`` and moved into
    place once complete, with its read models (what was at ``db`` is replaced only then); on
    a server, or anything that fails, built in place. Returns the store at ``db``, open."""
    from tournament.readside import readmodels
    from tournament.services.stores import open_store
    from tournament.storage.locations import SqliteFile, close
    from tournament.storage.sqlitefile import remove
    from tournament.storage.store import Store

    if not isinstance(db, SqliteFile) or db.path.is_dir():
        store = open_store(db, lexicon, create=True)  # a folder: refused
        build(store)
        return store
    new = SqliteFile(_beside(db.path, "new"))
    remove(new.path)
    building = Store(new)
    try:
        building.lexicon = lexicon
        build(building)
        readmodels.update(building)  # the file moved in holds its read models too
    except BaseException:
        close(building)
        remove(new.path)
        raise
    close(building)
    _settled(new.path)
    os.replace(new.path, db.path)
    return open_store(db, lexicon)


def _settled(path: Path) -> None:
    """Make ``path`` one plain file that may be moved: every connection to it gone (some are
    only closed when collected), its -wal folded in and SQLite's companions removed."""
    import gc
    import sqlite3

    gc.collect()
    conn = sqlite3.connect(path)
    try:
        conn.execute("pragma wal_checkpoint(truncate)")  # (the file stays in WAL mode)
    finally:
        conn.close()
    for companion in (f"{path}-wal", f"{path}-shm"):
        Path(companion).unlink(missing_ok=True)
