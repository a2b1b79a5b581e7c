"""Replaying a whole match log: voids and rulings (REF-1, REF-2) and derived events.

A :class:`Replay` is an immutable value: ``replay.apply(event)`` returns the replay one event
later, or raises a :class:`~engine.errors.RuleViolation` when the event cannot have happened.
Input events go to the game's rules; a ``void`` or a ``ruling`` replays the log again from the
start, so that a struck event or a reversed judgement changes everything after it; ``out`` and
``end`` are checked against what the replay derived, never trusted.

A match is replayed under one revision of the rules (:mod:`engine.rules`, ``Replay.revision``):
the header's own, else the one the caller names, else the current one; each game asks
``ctx.rules`` where its rules changed, and the replay itself where rulings are concerned
(revision 1: a ruling holds for its event alone, REF-1; no ruling on a card, PN-1).

Its checks live beside it: what a void or a ruling may name and which rulings stand
(:mod:`engine.rulings`), the digital dice's seal and reveal (:mod:`engine.digital_dice`), and a
logged ``out`` or ``end`` held against what the replay derives (:mod:`engine.derived`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engine.derived import logged_end, logged_out
from engine.digital_dice import check_digital_roll, check_reveal, check_seal
from engine.errors import GameOver, MalformedEvent, RuleViolation
from engine.events import (
    DERIVED,
    REFEREE,
    REFEREE_EVENTS,
    TYPE_NAMES,
    Card,
    DiceCommit,
    DiceReveal,
    End,
    Event,
    Out,
    Roll,
    Ruling,
    Void,
)
from engine.games import game
from engine.games.base import (
    Context,
    Note,
    Outcome,
    OutRecord,
    RuledKey,
    Turn,
    replace,
)
from engine.games.contract import Game
from engine.header import Header
from engine.lexicon import Lexicon
from engine.message import msg
from engine.record import EMPTY, Record
from engine.refusals import refused
from engine.rules import CURRENT, revision
from engine.rulings import (
    CARRIES_NOTHING,
    carried_rulings,
    check_ruling,
    check_void,
    named,
    standing_rulings,
)

# The events that :meth:`Replay.apply` does not hand to the game's rules.
_NOT_PLAYED = (Void, Ruling, Out, End, DiceCommit, DiceReveal)


class Replay(Record):
    """The state of a match after the events so far (positions count from 1)."""

    header: Header
    rules: Game  # the game's contract (engine.games.contract)
    lexicon: Lexicon
    history: tuple[Any, ...]  # the game state after each position, from 0 (before any event)
    events: tuple[Event, ...] = ()
    voided: frozenset[int] = frozenset()
    logged_outs: tuple[str, ...] = ()  # players whose ``out`` the log already carries
    logged_end: Outcome | None = None  # the outcome the log's last standing ``end`` records
    dice_commit_at: int | None = None  # position of the digital dice's sealed seed
    dice_reveal_at: int | None = None  # position of its reveal
    rulings: Mapping[int, bool] = EMPTY  # position -> accepted
    revision: int = CURRENT  # the revision of the rules the match is replayed under

    @classmethod
    def start(
        cls, header: Header, lexicon: Lexicon, rules: int | None = None, *, force: bool = False
    ) -> Replay:
        """A match with no events yet; raises :class:`BadHeader` for a header the game refuses.

        The revision of the rules in force (:mod:`engine.rules`, docs/rules-revisions.md):

        - the header's own ``rules``, when it has one;
        - else ``rules``: the revision the caller knows the match was recorded under (the
          tournament layer passes 1 for a log or store written by version 0.1);
        - else the current revision (:data:`engine.rules.CURRENT`).

        ``force=True`` puts ``rules`` (the current revision when it is None) in force even over
        the header's own: an audit replays a match under today's rules with
        ``Replay.start(header, lexicon, force=True)`` to show what they would say of it.
        A revision this version does not know is refused (:class:`BadHeader`).
        """
        if rules is not None:
            rules = revision(rules, "the replay's")
        if force or header.rules is None:
            revised = CURRENT if rules is None else rules
        else:
            revised = header.rules
        game_rules = game(header.game)
        if len(header.players) < game_rules.min_players:
            raise RuleViolation(
                f"{game_rules.title} needs at least {game_rules.min_players} players in the "
                "challenge",
                "CH-1",
            )
        state = game_rules.start(header, revised)
        return cls(header, game_rules, lexicon, (state,), revision=revised)

    @classmethod
    def of(
        cls,
        header: Header,
        lexicon: Lexicon,
        events: Iterable[Event],
        rules: int | None = None,
        *,
        force: bool = False,
    ) -> Replay:
        """Replay a whole log (``rules`` and ``force`` as for :meth:`start`)."""
        return cls.start(header, lexicon, rules, force=force).extend(events)

    def extend(self, events: Iterable[Event]) -> Replay:
        """The replay after ``events``, applied one after the other: the same as :meth:`apply`
        on each in turn, without building a new replay (and copying its growing history) for
        each event. A correction or a logged outcome goes through :meth:`apply` as it is.
        """
        replay = self
        history, done = list(self.history), list(self.events)
        # Every standing ruling is on an earlier position: what they carry stays the same
        # until the next correction.
        carried: Mapping[RuledKey, bool] | None = None
        for event in events:
            if isinstance(event, (Out, End)):
                # A logged outcome changes no game state: checked against the state now.
                replay = replace(replay, **replay._logged(event, history[-1]))
                history.append(history[-1])
                done.append(event)
                continue
            if isinstance(event, _NOT_PLAYED):
                replay = replace(replay, history=tuple(history), events=tuple(done)).apply(event)
                history, done, carried = list(replay.history), list(replay.events), None
                continue
            position = len(done) + 1
            if carried is None:
                carried = replay._carried(done, replay.rulings, position)
            ctx = Context(
                replay.lexicon, position, replay.rulings.get(position), carried, replay.revision
            )
            history.append(replay._step(history[-1], event, position, ctx))
            done.append(event)
        if len(done) == replay.position:
            return replay
        return replace(replay, history=tuple(history), events=tuple(done))

    # --- what the CLI and the audit read ------------------------------------------------------

    @property
    def state(self) -> Any:
        """The game state now."""
        return self.history[-1]

    @property
    def position(self) -> int:
        """The position of the last event (0 before any)."""
        return len(self.events)

    @property
    def outcome(self) -> Outcome | None:
        return self.rules.outcome(self.state)

    @property
    def turns(self) -> tuple[Turn, ...]:
        return () if self.outcome else self.rules.turns(self.state)

    @property
    def out(self) -> tuple[OutRecord, ...]:
        return self.state.out

    @property
    def notes(self) -> tuple[Note, ...]:
        return self.state.notes

    def pending_derived(self) -> list[Event]:
        """The ``out`` and ``end`` events that the replay derived and the log does not carry yet."""
        pending: list[Event] = [
            Out(o.player, f"{o.reason} ({o.rule})")
            for o in self.out
            if o.player not in self.logged_outs
        ]
        outcome = self.outcome
        if outcome and outcome != self.logged_end:
            pending.append(End(outcome.winners, dict(outcome.points)))
        return pending

    # --- one more event -----------------------------------------------------------------------

    def apply(self, event: Event) -> Replay:
        position = self.position + 1
        if isinstance(event, Void):
            return self._void(event, position)
        if isinstance(event, Ruling):
            return self._ruling(event, position)
        if isinstance(event, (Out, End)):
            changes = self._logged(event, self.state)
            return replace(
                self, history=(*self.history, self.state), events=(*self.events, event), **changes
            )
        if isinstance(event, DiceCommit):
            return self._dice_commit(event, position)
        if isinstance(event, DiceReveal):
            return self._dice_reveal(event, position)
        ctx = self._context(self.events, self.rulings, position)
        state = self._step(self.state, event, position, ctx)
        return replace(self, history=(*self.history, state), events=(*self.events, event))

    def _context(
        self, events: Sequence[Event], rulings: Mapping[int, bool], position: int
    ) -> Context:
        """The context of the event at ``position``: its own ruling and those on earlier events."""
        return Context(
            self.lexicon,
            position,
            rulings.get(position),
            self._carried(events, rulings, position),
            self.revision,
        )

    def _carried(
        self, events: Sequence[Event], rulings: Mapping[int, bool], before: int
    ) -> Mapping[RuledKey, bool]:
        """What the standing rulings before ``before`` carry to later events (REF-1, EQ-4):
        nothing under revision 1 of the rules, where a ruling held for its own event alone."""
        if self.revision == 1:
            return CARRIES_NOTHING
        return carried_rulings(events, rulings, before)

    def _step(self, state: Any, event: Event, position: int, ctx: Context) -> Any:
        """Check who acts and what, then let the game apply the event."""
        # actor() and type_name(), said inline: this runs for every event replayed (#15). (The
        # event types have no subclasses: ``type(event)`` is the type.)
        cls = type(event)
        by = REFEREE if cls is Card else getattr(event, "by", None)
        kind = TYPE_NAMES[cls]
        if by not in self.header.everyone and by != REFEREE:
            raise MalformedEvent(msg("%(player)r is not a player of this match", player=by))
        if cls is Roll and event.digital:  # type: ignore[union-attr]
            check_digital_roll(position, self.dice_commit_at, self.dice_reveal_at)
        if self.rules.outcome(state) is not None:
            raise GameOver(
                msg("the challenge is over: only a ruling or a void may come now"), "CH-2"
            )
        turns = self.rules.turns(state)
        mine = [t for t in turns if t.player == by]
        for t in mine:
            if kind in t.events:
                return self.rules.apply(state, event, ctx)  # the common case
        # Refused: say why, citing the rule the event breaks (engine.refusals).
        raise refused(self.rules, state, event, by, kind, turns)

    def _refold(
        self,
        events: tuple[Event, ...],
        voided: frozenset[int],
        rulings: dict[int, bool],
        start: int,
    ) -> tuple:
        """The history again from position ``start``, with every void and ruling that stands
        (``rulings``: the standing ones).

        A correction on position ``start`` changes nothing before it, so the states up to
        ``start - 1`` are kept and only the rest of the log is replayed.
        """
        history = list(self.history[:start])
        state = history[-1]
        skipped = (*REFEREE_EVENTS, *DERIVED)
        carried = self._carried(events, rulings, start)
        for i in range(start, len(events) + 1):
            if i > start and i - 1 in rulings:  # what earlier rulings carry changes past one
                carried = self._carried(events, rulings, i)
            e = events[i - 1]
            if not (i in voided or isinstance(e, skipped)):
                ctx = Context(self.lexicon, i, rulings.get(i), carried, self.revision)
                try:
                    state = self._step(state, e, i, ctx)
                except RuleViolation as v:
                    raise type(v)(
                        msg(
                            "position %(on)s would no longer be legal: %(why)s",
                            on=i,
                            why=v.message,
                        ),
                        v.rule,
                    ) from None
            history.append(state)
        return tuple(history)

    def _settle(self, event: Ruling | Void, voided: frozenset[int]) -> Replay:
        events = (*self.events, event)
        target = events[event.on - 1]
        # Voiding a ruling changes the judgement of the event that ruling was on.
        start = target.on if isinstance(target, Ruling) else event.on
        if isinstance(event, Ruling):
            # A new ruling, the last on a standing event, only adds to those standing (the last
            # wins): ``self.rulings`` is always ``standing_rulings(self.events, self.voided)``.
            rulings = {**self.rulings, event.on: event.accept}
        elif not isinstance(target, Ruling):
            # A void of anything but a ruling only strikes the rulings on the voided event.
            rulings = {on: accept for on, accept in self.rulings.items() if on != event.on}
        else:  # a ruling voided: an earlier one on the same event may stand again
            rulings = standing_rulings(events, voided)
        history = self._refold(events, voided, rulings, start)
        state = history[-1]
        out_now = {o.player for o in state.out}
        return replace(
            self,
            history=history,
            events=events,
            voided=voided,
            rulings=rulings,
            logged_outs=tuple(p for p in self.logged_outs if p in out_now),
            logged_end=self.logged_end if self.rules.outcome(state) == self.logged_end else None,
        )

    def _void(self, event: Void, position: int) -> Replay:
        """REF-2: the voided event is struck and the log replayed without it."""
        check_void(named(event, position, self.events, self.voided))
        return self._settle(event, self.voided | {event.on})

    def _ruling(self, event: Ruling, position: int) -> Replay:
        """REF-1: the referee's ruling decides a word, chain or expression over the engine."""
        target = named(event, position, self.events, self.voided)
        check_ruling(event, target, self.events, self.revision, self.rules, self.state)
        return self._settle(event, self.voided)

    def _dice_commit(self, event: DiceCommit, position: int) -> Replay:
        check_seal(event, self.dice_commit_at)
        return replace(
            self,
            history=(*self.history, self.state),
            events=(*self.events, event),
            dice_commit_at=position,
        )

    def _dice_reveal(self, event: DiceReveal, position: int) -> Replay:
        """The seed shown (:func:`engine.digital_dice.check_reveal`)."""
        check_reveal(event, self.events, self.dice_commit_at, self.dice_reveal_at, self.header.dice)
        return replace(
            self,
            history=(*self.history, self.state),
            events=(*self.events, event),
            dice_reveal_at=position,
        )

    def _logged(self, event: Out | End, state: Any) -> dict[str, Any]:
        """What a logged ``out`` or ``end`` changes in the replay, the game being at ``state``
        (it changes no game state); raises when the replay does not derive it."""
        if isinstance(event, Out):
            return {"logged_outs": logged_out(event, state, self.logged_outs)}
        return {"logged_end": logged_end(event, self.rules.outcome(state), self.logged_end)}
