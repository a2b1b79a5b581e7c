"""Files a command writes for the user, whole or not at all (#29).

A file is written beside its target under a hidden name and moved into place once complete
(``os.replace``); a folder of files is made beside the folder asked for and moved into it at the
end. A refusal (a full disk above all) leaves no empty or half-written file, and no half-made
folder, behind; a file that was there stays as it was.
"""

from __future__ import annotations

import errno
import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from engine.message import msg
from tournament.errors import Refused

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
