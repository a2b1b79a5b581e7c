"""``tournament play``: the referee's console at the table.

It shows the game (letters, totals, ships, damage, who is out), who must act and what is legal,
and takes one short line per move in the notation of :mod:`engine.notation` (the player may be
left out when only one acts), checked by the rules before it is stored. Turn timers follow
CH-4; when one runs out a timeout is recorded (``pause`` stops the clock). ``undo`` voids the
last move with a reason. Quit at any point: the log is the state, ``play`` again resumes.

Digital dice (``--digital``): the console seals a fresh secret seed in the log before the first
roll, derives each roll from the seed and the roll's position, and reveals the seed when the match
ends, so that ``tournament verify`` can recompute every roll. Until then nobody can predict a
roll from the log; the seed waits outside the log, in the store (:mod:`tournament.dice`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from engine.dice import seed_commitment
from engine.errors import RuleViolation
from engine.events import REFEREE, DiceCommit, DiceReveal, End, Out, Ruling, Timeout, Void, actor
from engine.notation import format as format_move
from tournament import dice
from tournament.matches import (
    Loaded,
    Refused,
    describe,
    load,
    record_move,
    sealed_word,
    summary,
)
from tournament.store import Store

# CH-4: seconds per turn (La catena 120 by agreement for beginners); ALP's six seconds are a hint.
TURN_SECONDS = {
    "catena": 60,
    "asta": 60,
    "roulette_russa": 60,
    "texas": 60,
    "tiro": 60,
    "ventuno": 15,
    "battaglia": 30,
    "updown": 15,
}
BEGINNER_CATENA = 120
MIN_SECONDS = 0.1  # a clock that has run out still gives the prompt a moment, then times out
ALPHATIANA_HINT = 6

ReadLine = Callable[[str, float | None, bool], str | None]  # prompt, seconds, hidden -> line


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
                self.say("six seconds are up (a hint of the rules, ALP-4): still your choice")
                line = self.read_line(prompt, None, False)
            if line is None:
                for late in sorted({t.player for t in replay.turns}):
                    self.try_record(format_move(Timeout(late)), f"time ran out for {late}")
                continue
            words = line.split()
            if not words:
                continue
            verb = words[0].lower()
            if verb in ("quit", "q", "exit"):
                self.say("the log is saved: `tournament play` resumes the match")
                return
            if verb == "pause":
                if not paused and deadline is not None:
                    left = max(MIN_SECONDS, deadline - self.clock())
                paused = True
                self.say("clock paused; `resume` starts it again")
            elif verb == "resume":
                if paused and left is not None:
                    deadline = self.clock() + left  # the time that was left, not a new turn
                    left = None
                paused = False
            elif verb == "help":
                self.say(HELP)
            elif verb == "undo":
                self.undo(loaded, " ".join(words[1:]) or "undone at the table")
            else:
                self.try_record(line, at=replay.position)

    def last_word(self, loaded: Loaded) -> bool:
        """The match has just ended: a typo in the move that ended it can still be undone (the
        void reopens the match, REF-2). True when it was undone."""
        line = self.read_line(
            "finished; `undo REASON` if the last move was a typo, else Enter> ", None, False
        )
        words = (line or "").split()
        if not words or words[0].lower() != "undo":
            return False
        position = loaded.replay.position
        self.undo(loaded, " ".join(words[1:]) or "undone at the table")
        return load(self.store, self.number, self.lexicon).replay.position != position

    def try_record(self, text: str, why: str = "", at: int | None = None) -> None:
        """Record one move of the notation (engine/notation/); say why when it is refused.

        ``at``: the position the referee was shown; if another terminal wrote to the match
        since, nothing is stored and the console shows the match again.
        """
        seed = self.seed() if self.digital else None
        try:
            _, stored = record_move(
                self.store, self.number, text, self.lexicon, at, seed=seed, sealer=self.seal_word
            )
        except (Refused, RuleViolation) as e:
            self.say(f"error: {e} (nothing stored)")
            return
        if why:
            self.say(why)
        for done in stored:
            self.say(f"recorded: {describe(done)}")

    # --- what is shown -----------------------------------------------------------------------

    def show(self, loaded: Loaded) -> None:
        replay = loaded.replay
        info = summary(loaded)
        lines = [f"state: {replay.rules.summary(replay.state)}"]
        if info["out"]:
            lines.append(
                "out: " + ", ".join(f"{o['player']} ({o['reason']})" for o in info["out_reasons"])
            )
        last = next((n for n in reversed(info["notes"])), None)
        if last:
            lines.append(f"last judged: {last['text']} ({last['rule']})")
        if info["status"] == "finished":
            lines.append(f"finished: winners {', '.join(info['winners']) or 'nobody'}")
        lines += [
            f"next: {t['player']}: {t['expects']} [{'/'.join(t['events'])}]" for t in info["next"]
        ]
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
        """CH-4's time for the turn now: one player's, or the shared time of a simultaneous phase
        (Tiro's expressions, Texas's words, La catena's chains) when each of them can time out."""
        game = loaded.replay.header.game
        turns = loaded.replay.turns
        if game not in TURN_SECONDS or not turns or any("timeout" not in t.events for t in turns):
            return None
        return BEGINNER_CATENA if game == "catena" and self.beginner else TURN_SECONDS[game]

    def hint_seconds(self, loaded: Loaded, who: str | None) -> float | None:
        """La Roulette Alphatiana: the defender has "only six seconds", shown but not enforced."""
        if not self.timers or who is None or loaded.replay.header.game != "alphatiana":
            return None
        turn = next(t for t in loaded.replay.turns if t.player == who)
        return ALPHATIANA_HINT if "choose" in turn.events else None

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
        self.say("error: there is nothing to undo")

    def seal_dice(self, loaded: Loaded) -> None:
        seed = dice.keep(self.store, self.number)
        self.try_record(
            format_move(DiceCommit(REFEREE, seed_commitment(seed))), "digital dice sealed"
        )

    def seed(self) -> str | None:
        return dice.seed(self.store, self.number)

    def reveal_dice(self, loaded: Loaded) -> None:
        replay = loaded.replay
        if replay.dice_commit_at is not None and replay.dice_reveal_at is None:
            seed = self.seed()
            if seed is None:
                self.say("error: the seed of the digital dice is not in this database")
                return
            self.try_record(
                format_move(DiceReveal(REFEREE, seed)),
                "digital dice revealed: tournament verify can recompute every roll",
            )

    def seal_word(self, player: str) -> str:
        """PN-3: read the player's word unseen and return its seal; the salt is shown once."""
        word = (self.read_line(f"{player}'s word (not shown): ", None, True) or "").strip()
        if not word:
            raise Refused("an empty word cannot be sealed")
        commitment, salt = sealed_word(word)
        self.say(f"{player}: keep this salt private, to reveal the word later: {salt}")
        return commitment


HELP = """moves (docs/format.md, "Moves as text"; the player may be left out when only one acts):
  roll [player] [die] [faces...] | choose [player] value | word [player] word [jolly c]
  chain [player] w1-w2-... | expr [player] expression [@target] | doubt | bet up|down | pass
  reroll [player] 2,1,3 5,2,6 | stand | seal [player] | guess [player] target word
  answer [player] right|wrong | reveal [player] word salt | hint [player] letter
referee: card player|table id | start player | rule N accept|reject [note] | void N reason
console: undo [reason] | pause | resume | help | quit     (quote "a value with spaces")"""
