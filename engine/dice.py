"""Dice and face sets (RULES EQ-1, EQ-2, EQ-3).

The engine never rolls: a roll arrives as an event and is checked here against the faces of the
die in use. Letter faces are upper case; ``U/A`` and ``U/O`` are faces that stand for either letter
where the rules let the player choose (EQ-3).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.errors import MalformedEvent, RuleViolation
from engine.message import msg
from engine.record import Record

# RULES EQ-2 (Ruling): faces by Italian letter frequency.
DEFAULT_VOWEL_FACES = tuple("AAAAAEEEEEIIIIOOOO") + ("U/A", "U/O")
DEFAULT_CONSONANT_FACES = tuple("NNLLRRTTSSCCDPMVGFBZ")

NUMERIC_DICE = {"d6": 6, "d20": 20}
LETTER_DICE = ("consonant", "vowel")
DICE = (*NUMERIC_DICE, *LETTER_DICE)


class FaceSet(Record):  # a Record: no code generated at start-up (#15, engine.games.base)
    """The faces of the two letter dice in use (EQ-2); a tournament may load its own."""

    name: str
    consonant: tuple[str, ...]
    vowel: tuple[str, ...]

    @classmethod
    def from_header(cls, value: object) -> FaceSet:
        """The face set a match header names: absent or ``"eq2"`` for the default, or inline.

        >>> FaceSet.from_header(None).name
        'eq2'
        >>> FaceSet.from_header({"consonant": ["b", "c"], "vowel": ["a", "U/O"]}).vowel
        ('A', 'U/O')
        """
        if value is None or value == DEFAULT_FACES.name:
            return DEFAULT_FACES
        if isinstance(value, Mapping):
            sides = {}
            for die in LETTER_DICE:
                faces = value.get(die)
                if (
                    not isinstance(faces, Sequence)
                    or isinstance(faces, str)
                    or not faces
                    or not all(isinstance(f, str) and f.strip() for f in faces)
                ):
                    raise MalformedEvent(
                        f"the header's dice must list the {die} die's faces as strings", "EQ-2"
                    )
                sides[die] = tuple(f.strip().upper() for f in faces)
            return cls("inline", sides["consonant"], sides["vowel"])
        raise MalformedEvent(
            f'unknown dice {value!r}: use "eq2" or an object with consonant and vowel faces',
            "EQ-2",
        )


DEFAULT_FACES = FaceSet("eq2", DEFAULT_CONSONANT_FACES, DEFAULT_VOWEL_FACES)


def check_roll(die: str, values: Sequence[object], faces: FaceSet) -> tuple[object, ...]:
    """Check that each value is a face of ``die`` and return the faces as the engine uses them.

    Numbers stay ints; letters come back upper case (``"u/a"`` -> ``"U/A"``).

    >>> check_roll("d6", [5, 4], DEFAULT_FACES)
    (5, 4)
    >>> check_roll("vowel", ["u/a"], DEFAULT_FACES)
    ('U/A',)
    >>> check_roll("d6", [7], DEFAULT_FACES)
    Traceback (most recent call last):
    ...
    engine.errors.RuleViolation: 7 is not a face of a d6 (faces 1 to 6) (EQ-1)
    """
    if die in NUMERIC_DICE:
        top = NUMERIC_DICE[die]
        for v in values:
            if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= top:
                raise RuleViolation(
                    msg(
                        "%(value)r is not a face of a %(die)s (faces 1 to %(top)s)",
                        value=v,
                        die=die,
                        top=top,
                    ),
                    "EQ-1",
                )
        return tuple(values)
    if die in LETTER_DICE:
        allowed = getattr(faces, die)
        out = []
        for v in values:
            face = v.strip().upper() if isinstance(v, str) else v
            if face not in allowed:
                shown = " ".join(sorted(set(allowed)))
                raise RuleViolation(
                    msg(
                        "%(value)r is not a face of the %(die)s die (faces: %(faces)s)",
                        value=v,
                        die=die,
                        faces=shown,
                    ),
                    "EQ-2",
                )
            out.append(face)
        return tuple(out)
    raise MalformedEvent(msg("unknown die %(die)r: use one of %(dice)s", die=die, dice=DICE))


def face_letters(face: str) -> tuple[str, ...]:
    """The letters a letter face may stand for (EQ-3), lower case.

    >>> face_letters("U/A")
    ('u', 'a')
    >>> face_letters("N")
    ('n',)
    """
    return tuple(part.lower() for part in face.split("/"))


def is_double_face(face: str) -> bool:
    """True for a face such as ``U/A`` that offers the player a choice (EQ-3)."""
    return "/" in face


def digital_roll(seed: str, position: int, die: str, count: int, faces: FaceSet) -> tuple[Any, ...]:
    """The faces the program's digital dice show for the roll at ``position`` (no randomness:
    the same seed and position always give the same faces, so a revealed seed proves every roll).

    >>> digital_roll("s3cret", 4, "d6", 2, DEFAULT_FACES) == digital_roll("s3cret", 4, "d6", 2,
    ...                                                                   DEFAULT_FACES)
    True
    >>> all(1 <= v <= 20 for v in digital_roll("s3cret", 5, "d20", 3, DEFAULT_FACES))
    True
    """
    sides: Sequence[Any] = (
        range(1, NUMERIC_DICE[die] + 1) if die in NUMERIC_DICE else getattr(faces, die)
    )
    import hashlib  # only digital dice hash (#15: a recording call's start-up)

    out = []
    for i in range(count):
        digest = hashlib.sha256(f"{seed}:{position}:{die}:{i}".encode()).digest()
        out.append(sides[int.from_bytes(digest[:8], "big") % len(sides)])
    return tuple(out)


def seed_commitment(seed: str) -> str:
    """What the log holds of the seed until it is revealed."""
    import hashlib  # see digital_roll

    return hashlib.sha256(seed.encode()).hexdigest()
