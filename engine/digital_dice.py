"""The program's digital dice in a match log: the referee seals a seed (``dice-commit``), the
digital rolls follow from it, and its reveal (``dice-reveal``) proves every one of them.

The checks the replay (:class:`engine.match.Replay`) makes of the seal, of a digital roll and
of the reveal; the faces themselves are :func:`engine.dice.digital_roll`'s.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.dice import FaceSet, check_roll, digital_roll, seed_commitment
from engine.errors import NotAllowedNow, RuleViolation
from engine.events import REFEREE, DiceCommit, DiceReveal, Event, Roll
from engine.message import msg


def check_seal(event: DiceCommit, sealed_at: int | None) -> None:
    """Only the referee seals, and only once."""
    if event.by != REFEREE:
        raise NotAllowedNow(msg("only the referee seals the digital dice"), "FORMAT")
    if sealed_at is not None:
        raise NotAllowedNow(msg("the digital dice of this match are already sealed"), "FORMAT")


def check_digital_roll(position: int, sealed_at: int | None, revealed_at: int | None) -> None:
    """A digital roll comes after the seal and before the reveal."""
    sealed = sealed_at is not None and sealed_at < position
    if not sealed or (revealed_at is not None and revealed_at < position):
        raise NotAllowedNow(
            msg(
                "a digital roll needs the dice's seed sealed first (dice-commit) and not "
                "yet revealed"
            ),
            "FORMAT",
        )


def check_hand_roll(event: Event, sealed_at: int | None, revealed_at: int | None) -> None:
    """Between the seal and the reveal a roll is the program's: its faces follow from the seed,
    never from a hand (a match started ``play --digital`` and resumed without it, #28)."""
    if isinstance(event, Roll) and not event.digital and _sealed(sealed_at, revealed_at):
        raise NotAllowedNow(
            msg(
                "this match rolls the program's digital dice (sealed at #%(on)s): a roll is "
                "written without its faces, e.g. roll %(player)s %(die)s",
                on=sealed_at,
                player=event.by,
                die=event.die,
            ),
            "FORMAT",
        )


def hand_rolls(events: Sequence[Event]) -> list[int]:
    """The positions of rolls written by hand between a seal and its reveal (what an earlier
    version let through: ``tournament verify`` names them)."""
    sealed_at: int | None = None
    found = []
    for position, e in enumerate(events, 1):
        if isinstance(e, DiceCommit) and sealed_at is None:
            sealed_at = position
        elif isinstance(e, DiceReveal):
            break
        elif isinstance(e, Roll) and not e.digital and sealed_at is not None:
            found.append(position)
    return found


def _sealed(sealed_at: int | None, revealed_at: int | None) -> bool:
    return sealed_at is not None and revealed_at is None


def check_reveal(
    event: DiceReveal,
    events: Sequence[Event],
    sealed_at: int | None,
    revealed_at: int | None,
    faces: FaceSet,
) -> None:
    """The seed shown: it must match its seal, and every digital roll must follow from it."""
    if event.by != REFEREE:
        raise NotAllowedNow(msg("only the referee reveals the digital dice"), "FORMAT")
    if sealed_at is None or revealed_at is not None:
        raise NotAllowedNow(msg("there is no sealed seed to reveal"), "FORMAT")
    commit = events[sealed_at - 1]
    assert isinstance(commit, DiceCommit)
    if seed_commitment(event.seed) != commit.commitment:
        raise RuleViolation(msg("the revealed seed does not match its seal"), "FORMAT")
    for i, e in enumerate(events, 1):
        if isinstance(e, Roll) and e.digital:
            expected = digital_roll(event.seed, i, e.die, len(e.values), faces)
            if tuple(check_roll(e.die, e.values, faces)) != expected:
                raise RuleViolation(
                    msg("the digital roll at position %(on)s does not follow from the seed", on=i),
                    "FORMAT",
                )
