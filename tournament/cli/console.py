"""``tournament play``: the referee's console at the table.

It shows the game (letters, totals, ships, damage, who is out), who must act and what is legal,
and takes one short line per move in the notation of :mod:`engine.notation` (the player may be
left out when only one acts), checked by the rules before it is stored. What it writes back is
in the table's language (Italian unless ``--lang en``), from the one message catalogue
(:mod:`exports.i18n`); the moves stay in the notation. Turn timers follow
CH-4; when one runs out a timeout is recorded (``pause`` stops the clock). ``undo`` voids the
last move with a reason. Quit at any point: the log is the state, ``play`` again resumes.

On a match of a closed round every move is a correction (a ruling, a void, the move that
replaces a voided one): the console records it as the CLI and the organizer's page do
(:func:`tournament.services.corrections.record_correction`), shows its preview (the standings
and later pairings it changes, the move the match then waits for) and stores it only once the
referee confirms it.

Digital dice (``--digital``): the console seals a fresh secret seed in the log before the first
roll, derives each roll from the seed and the roll's position, and reveals the seed when the match
ends, so that ``tournament verify`` can recompute every roll. Until then nobody can predict a
roll from the log; the seed waits outside the log, in the store (:mod:`tournament.services.dice`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.events import (
    REFEREE,
    DiceCommit,
    DiceReveal,
    End,
    Event,
    Out,
    Ruling,
    Timeout,
    Void,
    actor,
)
from engine.message import Msg, msg
from engine.notation import format as format_move
from exports.i18n import check_lang
from exports.i18n import say as said
from exports.wording import event_message
from tournament.cli.lines import closed_round, finished, moved, next_line
from tournament.errors import Refused
from tournament.services import dice, play
from tournament.services.matches import Loaded, load, sealed_word, summary
from tournament.services.stores import Store

if TYPE_CHECKING:
    from tournament.services.corrections import Preview

MIN_SECONDS = 0.1  # a clock that has run out still gives the prompt a moment, then times out

ReadLine = Callable[[str, float | None, bool], str | None]  # prompt, seconds, hidden -> line

# The console's own words, in either language (the notation's verbs are the same in both).
COMMANDS = {
    "quit": "quit", "q": "quit", "exit": "quit", "esci": "quit",
    "pause": "pause", "pausa": "pause",
    "resume": "resume", "riprendi": "resume",
    "help": "help", "aiuto": "help", "?": "help",
    "undo": "undo", "annulla": "undo",
}  # fmt: skip


@dataclass
class Console:
    store: Store
    number: str
    read_line: ReadLine
    say: Callable[[str], None]
    lexicon: str | None = None
    digital: bool = False
    beginner: bool = False
    timers: bool = True
    panel: Callable[[str, list[str]], None] | None = None  # a boxed view (rich), else plain lines
    clock: Callable[[], float] = time.monotonic  # the turn timers' clock (tests pass their own)
    lang: str = "it"  # what the console writes: Italian at the table, or English

    def __post_init__(self) -> None:
        check_lang(self.lang)

    def tell(self, text: Msg | str) -> None:
        """Write one message in the console's language."""
        self.say(said(text, self.lang))

    def words(self, text: Msg) -> str:
        """A message in the console's language (a prompt, a reason stored in the log)."""
        return said(text, self.lang)

    # --- the loop ----------------------------------------------------------------------------

    def run(self) -> None:
        paused = False
        turn: tuple[int, str | None] | None = None  # the turn the clock runs for
        deadline: float | None = None  # when its time runs out (None: no clock)
        left: float | None = None  # the time left when the clock was paused
        while True:
            loaded = load(self.store, self.number, self.lexicon)
            self.show(loaded)
            replay = loaded.replay
            if replay.outcome is not None:
                if self.last_word(loaded):
                    continue  # undone: the match is open again
                self.reveal_dice(loaded)
                return
            if self.digital and replay.dice_commit_at is None:
                self.seal_dice(loaded)
                continue
            who = self.single_actor(loaded)
            now = self.clock()
            seconds = None
            if (replay.position, who) != turn:
                # A new turn gets its whole time; "help", a refused move or a pause do not (#11).
                turn = (replay.position, who)
                seconds = self.turn_seconds(loaded, who) if self.timers else None
                deadline = None if seconds is None else now + seconds
                left = seconds if paused else None  # moved on while paused: a whole turn waits
            elif deadline is not None:
                seconds = max(MIN_SECONDS, deadline - now)
            if paused:
                seconds = None
            hint_only = self.hint_seconds(loaded, who) if seconds is None and not paused else None
            prompt = f"{who or 'who'}> " if who else "> "
            line = self.read_line(prompt, seconds or hint_only, False)
            if line is None and hint_only:
                self.tell(msg("six seconds are up (a hint of the rules, ALP-4): still your choice"))
                line = self.read_line(prompt, None, False)
            if line is None:
                for late in sorted({t.player for t in replay.turns}):
                    self.try_record(
                        format_move(Timeout(late)), msg("time ran out for %(player)s", player=late)
                    )
                continue
            words = line.split()
            if not words:
                continue
            verb = COMMANDS.get(words[0].lower())
            if verb == "quit":
                self.tell(SAVED)
                return
            if verb == "pause":
                if not paused and deadline is not None:
                    left = max(MIN_SECONDS, deadline - self.clock())
                paused = True
                self.tell(msg("clock paused; `resume` starts it again"))
            elif verb == "resume":
                if paused and left is not None:
                    deadline = self.clock() + left  # the time that was left, not a new turn
                    left = None
                paused = False
                self.tell(msg("the clock runs again"))
            elif verb == "help":
                self.tell(HELP)
            elif verb == "undo":
                self.undo(loaded, " ".join(words[1:]) or self.words(UNDONE))
            else:
                self.try_record(line, at=replay.position)

    def last_word(self, loaded: Loaded) -> bool:
        """The match has just ended: a typo in the move that ended it can still be undone (the
        void reopens the match, REF-2). True when it was undone."""
        # The hint on its own line, the prompt short: a line editor redraws a prompt wider
        # than the terminal leaves it on every key (#28).
        self.tell(msg("finished: `undo REASON` if the last move was a typo, else Enter"))
        line = self.read_line("> ", None, False)
        words = (line or "").split()
        if not words or COMMANDS.get(words[0].lower()) != "undo":
            return False
        position = loaded.replay.position
        self.undo(loaded, " ".join(words[1:]) or self.words(UNDONE))
        return load(self.store, self.number, self.lexicon).replay.position != position

    def try_record(self, text: str, why: Msg | None = None, at: int | None = None) -> None:
        """Record one move of the notation (engine/notation/); say why when it is refused.

        ``at``: the position the referee was shown; if another terminal wrote to the match
        since, nothing is stored and the console shows the match again. The seed of a match
        that ends is revealed once the referee passed the chance to undo (:meth:`last_word`).
        """
        self.said(lambda: self.record(text, at), why)

    def record(self, text: str, at: int | None) -> tuple[Loaded | None, list[Event]]:
        """One move through the play service; on a match of a closed round, as a correction."""
        from tournament.services.day import in_closed_round  # (the tournament: only here)

        if not self.as_written(text):
            return None, []
        if in_closed_round(self.store, self.number):
            return self.correct(text, at)
        return play.record_move(
            self.store, self.number, text, self.lexicon, at, sealer=self.seal_word, reveal=False
        )

    def as_written(self, text: str) -> bool:
        """A move that looks like a typo (a malformed expression, a word not in the lexicon) is
        stored only once the referee says it is the answer as written (#28)."""
        why = play.doubtful(load(self.store, self.number, self.lexicon), text)
        if why is None:
            return True
        question = msg("%(why)s: store it as written? [y/N] ", why=why)
        if (self.read_line(self.words(question), None, False) or "").strip().lower() in YES:
            return True
        self.tell(msg("nothing stored: write the move again"))
        return False

    def correct(self, text: str, at: int | None) -> tuple[Loaded | None, list[Event]]:
        """A move on a match of a closed round: previewed, and stored once the referee confirms
        it (nothing is stored on any other answer, nor when the match changed meanwhile)."""
        from tournament.services.corrections import record_correction

        seen = at if at is not None else load(self.store, self.number, self.lexicon).replay.position
        done = record_correction(
            self.store,
            self.number,
            text,
            self.lexicon,
            confirmed=False,
            expected_position=at,
            sealer=self.seal_word,
            reveal=False,  # the seed once the referee passed the chance to undo
        )
        if done.preview is None:  # not a correction (a match the round closed unfinished): stored
            return done.loaded, done.stored
        self.show_preview(done.preview)
        question = msg("store this correction: %(move)s? (y/n) ", move=done.preview.correction)
        answer = (self.read_line(self.words(question), None, False) or "").strip().lower()
        if answer not in YES:
            self.tell(msg("nothing stored: the correction was not confirmed"))
            return None, []
        # The move as previewed, in its canonical notation (a sealed word is not asked again).
        done = record_correction(
            self.store,
            self.number,
            done.preview.correction,
            self.lexicon,
            confirmed=True,
            expected_position=seen,
            reveal=False,
        )
        return done.loaded, done.stored

    def show_preview(self, preview: Preview) -> None:
        """What a correction of a closed round changes, as the CLI shows it, before it is
        stored."""
        self.tell(closed_round(preview.match, preview.round))
        for row in preview.moved:
            self.say("  " + self.words(moved(row)))
        from tournament.services.effects import paired_otherwise

        for later in preview.later_pairings:
            self.say("  " + self.words(paired_otherwise(later)))
        if preview.awaits:
            self.say("  " + self.words(preview.awaits))

    def said(
        self, record: Callable[[], tuple[Loaded | None, list[Event]]], why: Msg | None
    ) -> None:
        """Record through a service and tell each event stored, or why nothing was."""
        try:
            loaded, stored = record()
        except Refused as e:  # the services say the engine's refusals too
            refused = e.args[0]
            if "nothing was stored" in said(refused, "en"):  # said once is enough (#28)
                self.tell(msg("error: %(why)s", why=refused))
            else:
                self.tell(msg("error: %(why)s (nothing stored)", why=refused))
            return
        if not stored:
            return
        assert loaded is not None  # (stored: the match after it)
        if why:
            self.tell(why)
        reasons = {o.player: o.reason for o in loaded.replay.out}
        first = loaded.replay.position - len(stored) + 1
        for position, done in enumerate(stored, first):
            said_move = event_message(done, reasons)
            self.tell(msg("recorded #%(on)s: %(move)s", on=position, move=said_move))

    # --- what is shown -----------------------------------------------------------------------

    def show(self, loaded: Loaded) -> None:
        info = summary(loaded)
        said_lines = [msg("state: %(state)s", state=info["state"])]
        if info["out"]:
            out = tuple(
                msg("%(player)s (%(reason)s)", player=o["player"], reason=o["reason"])
                for o in info["out_reasons"]
            )
            said_lines.append(msg("out: %(players)s", players=out))
        last = next((n for n in reversed(info["notes"])), None)
        if last:
            said_lines.append(
                msg("last judged: %(text)s (%(rule)s)", text=last["text"], rule=last["rule"])
            )
        if info["status"] == "finished":
            said_lines.append(finished(info["winners"]))
        said_lines += [next_line(t) for t in info["next"]]
        lines = [self.words(line) for line in said_lines]
        title = f"{info['id']} {info['title']}: {', '.join(info['players'])}"
        if self.panel is None:
            self.say(f"== {title} ==")
            for line in lines:
                self.say(line)
        else:
            self.panel(title, lines)

    def single_actor(self, loaded: Loaded) -> str | None:
        players = {t.player for t in loaded.replay.turns}
        return players.pop() if len(players) == 1 else None

    def turn_seconds(self, loaded: Loaded, who: str | None) -> float | None:
        """CH-4's time for the turn now (the game's clock; for beginners, its longer one where
        it has one): one player's, or the shared time of a simultaneous phase (Tiro's
        expressions, Texas's words, La catena's chains) when each of them can time out."""
        clock = loaded.replay.rules.clock
        turns = loaded.replay.turns
        if clock is None or not turns or any("timeout" not in t.events for t in turns):
            return None
        return clock.beginners if self.beginner and clock.beginners else clock.seconds

    def hint_seconds(self, loaded: Loaded, who: str | None) -> float | None:
        """A time the rules mention and do not enforce, shown (La Roulette Alphatiana's
        defender has "only six seconds")."""
        hint = loaded.replay.rules.hint
        if not self.timers or who is None or hint is None:
            return None
        turn = next(t for t in loaded.replay.turns if t.player == who)
        return hint.seconds if hint.on in turn.events else None

    # --- corrections and dice ----------------------------------------------------------------

    def undo(self, loaded: Loaded, reason: str) -> None:
        """Void the last move (not a derived event, nor one already void)."""
        replay = loaded.replay
        for position in range(replay.position, 0, -1):
            e = replay.events[position - 1]
            if position in replay.voided or isinstance(e, (Out, End, Void, DiceCommit, DiceReveal)):
                continue
            if isinstance(e, Ruling) or actor(e):
                self.try_record(format_move(Void(REFEREE, position, reason)))
                return
        self.tell(msg("error: there is nothing to undo"))

    def seal_dice(self, loaded: Loaded) -> None:
        self.said(
            lambda: dice.seal(self.store, self.number, self.lexicon), msg("digital dice sealed")
        )

    def reveal_dice(self, loaded: Loaded) -> None:
        if dice.sealed(loaded) and dice.seed(self.store, self.number) is None:  # sealed elsewhere
            self.tell(msg("error: the seed of the digital dice is not in this database"))
            return
        self.said(
            lambda: dice.reveal(self.store, self.number, self.lexicon),
            msg("digital dice revealed: tournament verify can recompute every roll"),
        )

    def seal_word(self, player: str) -> str:
        """PN-3: read the player's word unseen and return its seal; the salt is shown once."""
        prompt = msg("%(player)s's word (not shown): ", player=player)
        word = (self.read_line(self.words(prompt), None, True) or "").strip()
        if not word:
            raise Refused(msg("an empty word cannot be sealed"))
        commitment, salt = sealed_word(word)
        self.tell(
            msg(
                "%(player)s: keep this salt private, to reveal the word later: %(salt)s",
                player=player,
                salt=salt,
            )
        )
        return commitment


YES = ("y", "yes", "s", "si", "sì")  # a correction confirmed, in either language
SAVED = msg("the log is saved: `tournament play` resumes the match")
UNDONE = msg("undone at the table")  # the reason stored when the referee gives none
HELP = msg(
    """moves (docs/format.md, "Moves as text"; the player may be left out when only one acts):
  roll [player] [die] [faces...] | choose [player] value | word [player] word [jolly c]
  chain [player] w1-w2-... | expr [player] expression [@target] | doubt | bet up|down | pass
  reroll [player] 2,1,3 5,2,6 | stand | seal [player] | guess [player] target word
  answer [player] right|wrong | reveal [player] word salt | hint [player] letter
referee: card player|table id | start player | rule N accept|reject [note] | void N reason
console: undo [reason] | pause | resume | help | quit     (quote "a value with spaces")"""
)
