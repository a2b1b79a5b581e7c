"""Commands for match logs and words: record at the table, import, export, show."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from tournament.cli.common import app, fail, guarded, print_json, read_text, settings, store

match_app = typer.Typer(
    help="Match logs: create, record, import, export, show.", no_args_is_help=True
)
words_app = typer.Typer(help="The lexicon.", no_args_is_help=True)
app.add_typer(match_app, name="match")
app.add_typer(words_app, name="words")


# --- words --------------------------------------------------------------------------------------


@words_app.command("check")
@guarded
def words_check(
    words: Annotated[list[str], typer.Argument(help="Words to look up.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Say whether each word is admitted by the lexicon (EQ-4)."""
    from engine.lexicon import Lexicon

    path = settings().lexicon
    lexicon = Lexicon.open(path)
    answers = {w: w in lexicon for w in words}
    if as_json:
        print_json(answers)
        return
    for w, ok in answers.items():
        typer.echo(f"{w}: {'yes' if ok else 'no'}")
    if not all(answers.values()):
        raise typer.Exit(1)


# --- match: import, export, list, show ------------------------------------------------------------


@match_app.command("import")
@guarded
def match_import(
    file: Annotated[Path, typer.Argument(help="A tournament-match/1 JSON Lines file.")],
) -> None:
    """Check a whole match log and store it; print the new match's id."""
    from tournament.matches import check_log, import_log

    log = check_log(
        read_text(file), settings().lexicon
    )  # nothing is opened or stored before this passes
    match = import_log(store(create=True), log)
    typer.echo(match.number)
    typer.echo(f"imported {file} as {match.number} ({len(match.lines)} events)", err=True)


@match_app.command("export")
@guarded
def match_export(
    match_id: Annotated[str, typer.Argument(metavar="ID")],
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write to this file.")
    ] = None,
) -> None:
    """Write a match log as tournament-match/1, with seq and hash on every event."""
    match = store().get_match(match_id)
    text = match.export()
    if output is None:
        sys.stdout.write(text)
    else:
        output.write_text(text, encoding="utf-8")
        typer.echo(f"wrote {match.number} to {output}", err=True)


@match_app.command("list")
@guarded
def match_list(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """List the stored matches."""
    rows = []
    for match in store().matches():
        header = json.loads(match.header)
        rows.append(
            {
                "id": match.number,
                "game": header["game"],
                "players": header["players"],
                "events": len(match.lines),
                "head": match.head,
            }
        )
    if as_json:
        print_json(rows)
        return
    from rich.console import Console
    from rich.table import Table

    table = Table("id", "game", "players", "events")
    for r in rows:
        table.add_row(r["id"], r["game"], ", ".join(r["players"]), str(r["events"]))
    Console().print(table)


@match_app.command("show")
@guarded
def match_show(
    match_id: Annotated[str, typer.Argument(metavar="ID")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """The state of a match: who won or who acts next, and what is legal."""
    from tournament.matches import load, summary

    info = summary(load(store(), match_id, settings().lexicon))
    if as_json:
        print_json(info)
        return
    from tournament.render import show_match

    show_match(info)


# --- match: recording, one event a command --------------------------------------------------------


def _record(match_id: str, event: dict[str, Any], confirmed: bool = True) -> None:
    from tournament.matches import describe, record, summary

    if event["type"] in ("ruling", "void"):
        effect = correction_effect(match_id, event)
        if effect and not confirmed:
            typer.echo("nothing stored: the round is closed; repeat with --yes to record it")
            return
    loaded, stored = record(store(), match_id, event, settings().lexicon)
    info = summary(loaded)
    first = loaded.replay.position - len(stored) + 1
    for position, e in enumerate(stored, first):
        typer.echo(f"{loaded.match.number} #{position} {describe(e)}")
        for note in info["notes"]:
            if note["position"] == position:
                typer.echo(f"  {'ok' if note['ok'] else 'no'}: {note['text']} ({note['rule']})")
    if info["status"] == "finished":
        typer.echo(f"finished: winners {', '.join(info['winners']) or 'nobody'}")
    for t in info["next"]:
        typer.echo(f"next: {t['player']}: {t['expects']} [{'/'.join(t['events'])}]")


def correction_effect(match_id: str, event: dict[str, Any]) -> dict[str, Any] | None:
    """For a ruling or void on a match of a closed round: print what it changes in the
    standings and in the later pairings, before anything is stored; None elsewhere."""
    from engine.errors import RuleViolation
    from engine.events import parse_event
    from tournament import corrections, day, readmodels
    from tournament.matches import Refused, load

    s = store()
    try:
        t = day.get_tournament(s)
    except Refused:
        return None
    loaded = load(s, match_id, settings().lexicon)
    number = loaded.match.number
    round_number = corrections.round_of_match(t, number)
    if round_number is None or not t.rounds[round_number - 1]["closed"]:
        return None
    try:
        after = loaded.replay.apply(parse_event(event)).outcome
    except RuleViolation as v:
        raise Refused(str(v)) from None
    readmodels.update(s)
    known = readmodels.outcomes(readmodels.database(s))
    changed = {**known, number: after}
    effect = corrections.effect(t, known.get, t, changed.get, round_number)
    typer.echo(
        f"{number} is in round {round_number}, already closed: the standings are recomputed; "
        "pairings already published stay as they are."
    )
    show_effect(effect)
    return effect


def show_effect(effect: dict[str, Any]) -> None:
    for row in effect["standings"]:
        if (row["rank"], row["points"]) != (row["rank_before"], row["points_before"]):
            typer.echo(
                f"  {row['player']}: #{row['rank']} with {row['points']:g} "
                f"(was #{row['rank_before']} with {row['points_before']:g})"
            )
    for later in effect["later_pairings"]:
        published = ", ".join(" - ".join(p) for p in later["published"])
        would = ", ".join(" - ".join(p) for p in later["would_be"])
        typer.echo(f"  round {later['round']} was paired {published}; it would now be {would}")


def _value(text: str) -> int | str:
    return int(text) if text.isdigit() else text


@match_app.command("new")
@guarded
def match_new(
    game: Annotated[
        str,
        typer.Argument(
            help="catena, asta, roulette_russa, texas, tiro, ventuno, battaglia, updown, "
            "alphatiana, parola_nascosta"
        ),
    ],
    players: Annotated[
        list[str], typer.Argument(help="The players in turn order; the first is the challenger.")
    ],
    outside: Annotated[
        list[str] | None,
        typer.Option(
            "--outside", "-o", help="A player outside the challenge who rolls for it (repeatable)."
        ),
    ] = None,
    start: Annotated[
        str | None, typer.Option(help="Alphatiana: roll-off (default: the first player attacks).")
    ] = None,
    deck: Annotated[
        Path | None, typer.Option(help="La parola nascosta: a deck file (JSON list of cards).")
    ] = None,
) -> None:
    """Start a match to record by hand; print its id."""
    from tournament.matches import check_log, import_log, read_deck

    header: dict[str, Any] = {"format": "tournament-match/1", "game": game, "players": players}
    if outside:
        header["outside"] = outside
    if start:
        header["start"] = start
    if deck:
        header["deck"] = read_deck(deck)
    match = import_log(store(create=True), check_log(json.dumps(header), settings().lexicon))
    typer.echo(match.number)


ID = Annotated[str, typer.Argument(metavar="ID", help="The match, e.g. M7.")]
BY = Annotated[str, typer.Argument(help="The player who acts.")]


@match_app.command("roll")
@guarded
def match_roll(
    match_id: ID,
    by: BY,
    die: Annotated[str, typer.Argument(help="d6, d20, consonant or vowel")],
    values: Annotated[list[str], typer.Argument(help="The faces, as they fell.")],
) -> None:
    """Record dice thrown together: `match roll M7 blu d6 5 4 2 1`."""
    _record(match_id, {"type": "roll", "by": by, "die": die, "values": [_value(v) for v in values]})


@match_app.command("choose")
@guarded
def match_choose(match_id: ID, by: BY, value: Annotated[str, typer.Argument()]) -> None:
    """Record a choice: the letter of a U/A face, the value added in Ventuno."""
    _record(match_id, {"type": "choose", "by": by, "value": _value(value)})


@match_app.command("word")
@guarded
def match_word(
    match_id: ID,
    by: BY,
    word: Annotated[str, typer.Argument()],
    jolly: Annotated[str | None, typer.Option(help="The letter a Z stands for (L'asta).")] = None,
) -> None:
    """Record a word written."""
    event: dict[str, Any] = {"type": "word", "by": by, "word": word}
    if jolly:
        event["jolly"] = jolly
    _record(match_id, event)


@match_app.command("chain")
@guarded
def match_chain(match_id: ID, by: BY, words: Annotated[list[str], typer.Argument()]) -> None:
    """Record a chain of La catena (the words in order, or joined by '-')."""
    split = [w for item in words for w in item.split("-") if w]
    _record(match_id, {"type": "chain", "by": by, "words": split})


@match_app.command("expr")
@guarded
def match_expr(
    match_id: ID,
    by: BY,
    expr: Annotated[str, typer.Argument(help="e.g. '6 x (5:6+1)'")],
    target: Annotated[str | None, typer.Option(help="The player aimed at (Battaglia).")] = None,
) -> None:
    """Record an expression (Tiro di precisione, La battaglia dadale)."""
    event: dict[str, Any] = {"type": "expression", "by": by, "expr": expr}
    if target:
        event["target"] = target
    _record(match_id, event)


@match_app.command("doubt")
@guarded
def match_doubt(match_id: ID, by: BY) -> None:
    """Record a doubt (La roulette russa)."""
    _record(match_id, {"type": "doubt", "by": by})


@match_app.command("bet")
@guarded
def match_bet(
    match_id: ID, by: BY, call: Annotated[str, typer.Argument(help="up or down")]
) -> None:
    """Record a call of Up or down."""
    _record(match_id, {"type": "bet", "by": by, "call": call})


@match_app.command("pass")
@guarded
def match_pass(match_id: ID, by: BY) -> None:
    """Record that a player gives up this turn or answer."""
    _record(match_id, {"type": "pass", "by": by})


@match_app.command("timeout")
@guarded
def match_timeout(match_id: ID, by: BY) -> None:
    """Record that a player's time ran out (CH-4)."""
    _record(match_id, {"type": "timeout", "by": by})


@match_app.command("reroll")
@guarded
def match_reroll(
    match_id: ID,
    by: BY,
    dice: Annotated[str, typer.Argument(help="The faces taken back, e.g. 2,1,3.")],
    values: Annotated[str, typer.Argument(help="How they fell, e.g. 5,2,6.")],
) -> None:
    """Record an Alphatiana reroll (ALP-3): `match reroll M7 M 2,1,3 5,2,6`."""
    from tournament.matches import dice_values

    _record(
        match_id,
        {
            "type": "reroll",
            "by": by,
            "dice": dice_values(dice),
            "values": dice_values(values),
        },
    )


@match_app.command("stand")
@guarded
def match_stand(match_id: ID, by: BY) -> None:
    """Record that the Alphatiana attacker stops rerolling (ALP-3)."""
    _record(match_id, {"type": "stand", "by": by})


@match_app.command("card")
@guarded
def match_card(
    match_id: ID,
    to: Annotated[str, typer.Argument(help="A player, or table.")],
    card: Annotated[str, typer.Argument(help="The card's id in the deck.")],
) -> None:
    """Record a card dealt in La parola nascosta (PN-2)."""
    _record(match_id, {"type": "card", "to": to, "card": card})


@match_app.command("seal")
@guarded
def match_seal(
    match_id: ID,
    by: BY,
    commitment: Annotated[
        str | None, typer.Option(help="A seal made elsewhere: sha256 of salt:word.")
    ] = None,
) -> None:
    """Seal a word (PN-3): typed without echo; only its seal is stored. Keep the salt printed."""
    salt = None
    if commitment is None:
        import secrets

        from engine.games.parola_nascosta import seal

        word = typer.prompt(f"{by}'s word (not shown)", hide_input=True).strip()
        if not word:
            fail("an empty word cannot be sealed")
        salt = secrets.token_hex(8)
        commitment = seal(word, salt)
        del word
    _record(match_id, {"type": "seal", "by": by, "commitment": commitment})
    if salt:
        typer.echo(f"{by}: keep this salt private, to reveal the word later: {salt}")


@match_app.command("start")
@guarded
def match_start(
    match_id: ID, player: Annotated[str, typer.Argument(help="The player the arrow points at.")]
) -> None:
    """Record who starts La parola nascosta (the table card's arrow, PN-4)."""
    _record(match_id, {"type": "start", "by": "referee", "player": player})


@match_app.command("guess")
@guarded
def match_guess(
    match_id: ID,
    by: BY,
    target: Annotated[str, typer.Argument(help="Whose word is guessed.")],
    word: Annotated[str, typer.Argument()],
) -> None:
    """Record a guess at another player's hidden word (PN-4)."""
    _record(match_id, {"type": "guess", "by": by, "target": target, "word": word})


@match_app.command("answer")
@guarded
def match_answer(
    match_id: ID, by: BY, answer: Annotated[str, typer.Argument(help="right or wrong")]
) -> None:
    """Record the answer to a guess (PN-4); a right answer puts the player out."""
    if answer not in ("right", "wrong"):
        fail(f"the answer is right or wrong, not {answer!r}")
    _record(match_id, {"type": "answer", "by": by, "right": answer == "right"})


@match_app.command("reveal")
@guarded
def match_reveal(
    match_id: ID,
    by: BY,
    word: Annotated[str, typer.Argument()],
    salt: Annotated[str, typer.Option(help="The salt printed when the word was sealed.")],
) -> None:
    """Reveal a sealed word; it is checked against its seal (PN-3)."""
    _record(match_id, {"type": "reveal", "by": by, "word": word, "salt": salt})


@match_app.command("hint")
@guarded
def match_hint(match_id: ID, by: BY, letter: Annotated[str, typer.Argument()]) -> None:
    """Record the first or last letter said after a silent round (PN-5)."""
    _record(match_id, {"type": "hint", "by": by, "letter": letter})


@match_app.command("rule")
@guarded
def match_rule(
    match_id: ID,
    on: Annotated[int, typer.Argument(help="The position ruled on.")],
    decision: Annotated[str, typer.Argument(help="accept or reject")],
    note: Annotated[str | None, typer.Option(help="Why.")] = None,
    yes: Annotated[bool, typer.Option("--yes", help="Record it even in a closed round.")] = False,
) -> None:
    """Record the referee's ruling on a word, chain or expression (REF-1)."""
    if decision not in ("accept", "reject"):
        fail(f"the decision must be accept or reject, not {decision!r}")
    event: dict[str, Any] = {
        "type": "ruling",
        "by": "referee",
        "on": on,
        "accept": decision == "accept",
    }
    if note:
        event["note"] = note
    _record(match_id, event, confirmed=yes)


@match_app.command("void")
@guarded
def match_void(
    match_id: ID,
    on: Annotated[int, typer.Argument(help="The position struck.")],
    reason: Annotated[str, typer.Option(help="Why it is struck.")],
    yes: Annotated[bool, typer.Option("--yes", help="Record it even in a closed round.")] = False,
) -> None:
    """Strike a wrongly entered event (REF-2); enter the right one after it."""
    _record(match_id, {"type": "void", "by": "referee", "on": on, "reason": reason}, confirmed=yes)
