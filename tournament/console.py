"""``tournament play``: the referee's console at the table.

It shows the game (letters, totals, ships, damage, who is out), who must act and what is legal,
and takes one short line per move, checked by the rules before it is stored. Turn timers follow
CH-4; when one runs out a timeout is recorded (``pause`` stops the clock). ``undo`` voids the
last move with a reason. Quit at any point: the log is the state, ``play`` again resumes.

Digital dice (``--digital``): the console seals a fresh secret seed in the log before the first
roll, derives each roll from the seed and the roll's position, and reveals the seed when the match
ends, so that ``tournament verify`` can recompute every roll. Until then nobody can predict a
roll from the log; the seed waits in the database's ``dice_seeds`` table, outside the log.
"""

from __future__ import annotations

import secrets
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.dice import DICE, digital_roll, seed_commitment
from engine.errors import RuleViolation
from engine.events import DiceCommit, DiceReveal, End, Out, Ruling, Void, actor
from engine.games.parola_nascosta import seal
from tournament.matches import Loaded, Refused, describe, dice_values, load, record, summary
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

    # --- the loop ----------------------------------------------------------------------------

    def run(self) -> None:
        paused = False
        while True:
            loaded = load(self.store, self.number, self.lexicon)
            self.show(loaded)
            replay = loaded.replay
            if replay.outcome is not None:
                self.reveal_dice(loaded)
                return
            if self.digital and replay.dice_commit_at is None:
                self.seal_dice(loaded)
                continue
            who = self.single_actor(loaded)
            seconds = None if paused or not self.timers else self.turn_seconds(loaded, who)
            hint_only = self.hint_seconds(loaded, who) if seconds is None and not paused else None
            prompt = f"{who or 'who'}> " if who else "> "
            line = self.read_line(prompt, seconds or hint_only, False)
            if line is None and hint_only:
                self.say("six seconds are up (a hint of the rules, ALP-4): still your choice")
                line = self.read_line(prompt, None, False)
            if line is None:
                for late in sorted({t.player for t in replay.turns}):
                    self.try_record({"type": "timeout", "by": late}, f"time ran out for {late}")
                continue
            words = line.split()
            if not words:
                continue
            verb = words[0].lower()
            if verb in ("quit", "q", "exit"):
                self.say("the log is saved: `tournament play` resumes the match")
                return
            if verb == "pause":
                paused = True
                self.say("clock paused; `resume` starts it again")
            elif verb == "resume":
                paused = False
            elif verb == "help":
                self.say(HELP)
            elif verb == "undo":
                self.undo(loaded, " ".join(words[1:]) or "undone at the table")
            else:
                try:
                    event = self.event_from(words, loaded)
                except Refused as e:
                    self.say(f"error: {e}")
                    continue
                self.try_record(event)

    def try_record(self, event: dict[str, Any], why: str = "") -> None:
        try:
            _, stored = record(self.store, self.number, event, self.lexicon)
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
                self.try_record({"type": "void", "by": "referee", "on": position, "reason": reason})
                return
        self.say("error: there is nothing to undo")

    def seeds(self) -> sqlite3.Connection:
        conn = sqlite3.connect(Path(str(self.store.env.get("SQLITE_DBNAME"))))
        conn.execute("create table if not exists dice_seeds (match text primary key, seed text)")
        return conn

    def seal_dice(self, loaded: Loaded) -> None:
        seed = secrets.token_hex(16)
        with self.seeds() as conn:
            conn.execute("insert or replace into dice_seeds values (?, ?)", [self.number, seed])
        self.try_record(
            {"type": "dice-commit", "by": "referee", "commitment": seed_commitment(seed)},
            "digital dice sealed",
        )

    def seed(self) -> str | None:
        with self.seeds() as conn:
            row = conn.execute(
                "select seed from dice_seeds where match = ?", [self.number]
            ).fetchone()
        return row[0] if row else None

    def reveal_dice(self, loaded: Loaded) -> None:
        replay = loaded.replay
        if replay.dice_commit_at is not None and replay.dice_reveal_at is None:
            seed = self.seed()
            if seed is None:
                self.say("error: the seed of the digital dice is not in this database")
                return
            self.try_record(
                {"type": "dice-reveal", "by": "referee", "seed": seed},
                "digital dice revealed: tournament verify can recompute every roll",
            )

    # --- reading a move ----------------------------------------------------------------------

    def event_from(self, words: list[str], loaded: Loaded) -> dict[str, Any]:
        replay = loaded.replay
        verb, rest = words[0].lower(), words[1:]
        names = set(replay.header.everyone)
        if verb in ("card", "start", "rule"):
            return self.referee_event(verb, rest)
        who: str | None
        if rest and rest[0] in names:
            who, rest = rest[0], rest[1:]
        else:
            who = self.single_actor(loaded)
        if who is None:
            acting = ", ".join(sorted({t.player for t in replay.turns}))
            raise Refused(f"name the player who acts ({acting})")
        event: dict[str, Any] = {"type": "expression" if verb == "expr" else verb, "by": who}
        if verb == "roll":
            return self.roll(event, rest, loaded)
        need = {
            "choose": 1,
            "word": 1,
            "bet": 1,
            "guess": 2,
            "answer": 1,
            "hint": 1,
            "reroll": 2,
            "reveal": 2,
        }
        if len(rest) < need.get(verb, 0):
            raise Refused(f"{verb} needs {need[verb]} more word(s): see help")
        if verb == "choose":
            event["value"] = int(rest[0]) if rest[0].isdigit() else rest[0]
        elif verb == "word":
            event["word"] = rest[0]
            if len(rest) > 1:
                event["jolly"] = rest[1]
        elif verb == "chain":
            event["words"] = [w for item in rest for w in item.split("-") if w]
        elif verb == "expr":
            event["expr"] = " ".join(w for w in rest if not w.startswith("@"))
            target = [w[1:] for w in rest if w.startswith("@")]
            if target:
                event["target"] = target[0]
        elif verb == "bet":
            event["call"] = rest[0]
        elif verb == "reroll":
            event["dice"] = dice_values(rest[0])
            event["values"] = dice_values(rest[1])
        elif verb == "guess":
            event["target"], event["word"] = rest[0], rest[1]
        elif verb == "answer":
            event["right"] = rest[0] == "right"
        elif verb == "hint":
            event["letter"] = rest[0]
        elif verb == "reveal":
            event["word"], event["salt"] = rest[0], rest[1]
        elif verb == "seal":
            word = (self.read_line(f"{who}'s word (not shown): ", None, True) or "").strip()
            if not word:
                raise Refused("an empty word cannot be sealed")
            salt = secrets.token_hex(8)
            event["commitment"] = seal(word, salt)
            self.say(f"{who}: keep this salt private, to reveal the word later: {salt}")
        elif verb not in ("doubt", "pass", "timeout", "stand"):
            raise Refused(f"unknown move {verb!r}: see help")
        return event

    def referee_event(self, verb: str, rest: list[str]) -> dict[str, Any]:
        if verb == "card" and len(rest) == 2:
            return {"type": "card", "to": rest[0], "card": rest[1]}
        if verb == "start" and len(rest) == 1:
            return {"type": "start", "by": "referee", "player": rest[0]}
        if (
            verb == "rule"
            and len(rest) >= 2
            and rest[0].isdigit()
            and rest[1] in ("accept", "reject")
        ):
            event: dict[str, Any] = {
                "type": "ruling",
                "by": "referee",
                "on": int(rest[0]),
                "accept": rest[1] == "accept",
            }
            if rest[2:]:
                event["note"] = " ".join(rest[2:])
            return event
        raise Refused(f"{verb}: see help for how it is written")

    def roll(self, event: dict[str, Any], rest: list[str], loaded: Loaded) -> dict[str, Any]:
        """``roll [die] [values...]``; with digital dice the values come from the sealed seed."""
        replay = loaded.replay
        turn = next((t for t in replay.turns if t.player == event["by"] and t.dice), None)
        die = rest[0] if rest and rest[0] in DICE else None  # else the faces follow at once
        values = rest[1:] if die else rest
        if die is None:
            if turn is None:
                raise Refused(f"{event['by']} has no roll to make now")
            die = turn.dice[0][0]
        event["die"] = die
        if values:
            event["values"] = [int(v) if v.isdigit() else v for v in values]
            return event
        seed = self.seed() if self.digital else None
        if seed is None:
            raise Refused("type the faces that fell (or play with --digital dice)")
        count = next((n for d, n in (turn.dice if turn else ()) if d == die), None)
        if count is None:
            raise Refused(f"{event['by']} has no {die} to roll now")
        event["values"] = list(
            digital_roll(seed, replay.position + 1, die, count, replay.header.dice)
        )
        event["digital"] = True
        return event


HELP = """moves: roll [player] [die] [faces...] | choose [player] value | word [player] word [jolly]
  chain [player] w1-w2-... | expr [player] expression [@target] | doubt | bet up|down | pass
  reroll [player] 2,1,3 5,2,6 | stand | seal [player] | guess [player] target word
  answer [player] right|wrong | reveal [player] word salt | hint [player] letter
referee: card to id | start player | rule N accept|reject [note] | undo [reason]
console: pause | resume | help | quit     (the player may be left out when only one acts)"""
