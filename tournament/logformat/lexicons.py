"""The word list a match log names: its header carries the list's name and sha256, and a replay
must judge words against that very list (EQ-4)."""

from __future__ import annotations

from pathlib import Path

from engine.header import Header
from engine.lexicon import Lexicon, LexiconError
from engine.message import msg
from tournament.errors import Refused


def lexicon_for(header: Header, path: str | Path | None) -> Lexicon:
    """The word list a match uses: the organizer's file if given, else the default (EQ-4).

    A header that names a word list (every stored match does) must match it exactly, so that
    a replay judges words against the same lexicon as the table did.
    """
    lexicon = open_lexicon(path)
    wanted = header.lexicon
    if wanted and (wanted.get("sha256") != lexicon.sha256):
        raise Refused(
            msg(
                "this match was recorded with the word list %(wanted)r (sha256 %(sha)s…), not "
                "%(given)r: pass that list with --lexicon",
                wanted=wanted.get("name"),
                sha=str(wanted.get("sha256"))[:12],
                given=lexicon.name,
            )
        )
    return lexicon


def open_lexicon(path: str | Path | None) -> Lexicon:
    """An organizer's word list (None: the shipped one); one sentence when it cannot be read."""
    try:
        return _opened(path)
    except LexiconError as e:
        raise Refused(str(e)) from None


_OPENED: dict[tuple[str, int, int], Lexicon] = {}


def _opened(path: str | Path | None) -> Lexicon:
    """An organizer's word list read and hashed once per call, not once per match (a verify
    of 1,441 matches read it 1,441 times): kept by path, size and modification time, so a list
    changed on disk is read again."""
    if not path:
        return Lexicon.open(None)
    try:
        stat = Path(path).stat()
    except OSError:
        return Lexicon.open(path)  # its refusal, in one sentence
    key = (str(Path(path).resolve()), stat.st_size, stat.st_mtime_ns)
    if key not in _OPENED:
        _OPENED[key] = Lexicon.open(path)
    return _OPENED[key]
