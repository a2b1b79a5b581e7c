"""The recording verbs of ``match`` (one event a command, at the table) and the preview of a
correction's effect on a closed round, which the disputes' commands show too."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from engine.message import msg
from tournament.cli.common import guarded, read_text, settings, store
from tournament.cli.match import match_app
from tournament.cli.words import said, t

if TYPE_CHECKING:
    from tournament.services.corrections import Preview

# --- match: recording, one event a command --------------------------------------------------------
#
# Each recording verb joins its arguments into one move of the notation (engine/notation/,
# docs/format.md "Moves as text") and records it: the verbs read nothing on their own.


def move(verb: str, *args: str | None) -> str:
    """A verb's arguments as one move: each quoted only where it must be (spaces, quotes).

    >>> move("word", "Giocatore 03", "casa", None)
    'word "Giocatore 03" casa'
    """
    from engine.notation import token

    return " ".join([verb, *(token(a) for a in args if a is not None)])


def _record(
    match_id: str,
    text: str,
    yes: bool | None = None,
    sealer: Callable[[str], str] | None = None,
    expected_position: int | None = None,
) -> None:
    """Record one move; in a closed round it is a correction: previewed, and stored with
    ``--yes`` (``yes`` is None for the verbs that have no ``--yes``: ``match move`` has)."""
    from tournament.cli.lines import finished, next_line
    from tournament.services.corrections import record_correction
    from tournament.services.matches import describe, summary

    done = record_correction(
        store(),
        match_id,
        text,
        settings().lexicon,
        confirmed=bool(yes),
        expected_position=expected_position,
        sealer=sealer,
    )
    if done.preview is not None:
        show_preview(done.preview)
    if done.loaded is None:
        assert done.preview is not None
        if yes is None:
            typer.echo(
                t(
                    "nothing stored: the round is closed; to record it, repeat it as "
                    "tournament match move %(match)s %(move)s --yes",
                    match=done.preview.match,
                    move=done.preview.correction,
                )
            )
        else:
            typer.echo(t("nothing stored: the round is closed; repeat with --yes to record it"))
        return
    loaded, stored = done.loaded, done.stored
    info = summary(loaded)
    first = loaded.replay.position - len(stored) + 1
    for position, e in enumerate(stored, first):
        typer.echo(f"{loaded.match.number} #{position} {describe(e)}")  # the notation, as typed
        for note in info["notes"]:
            if note["position"] == position:
                mark = t("ok") if note["ok"] else t("no")
                typer.echo(f"  {mark}: {said(note['text'])} ({note['rule']})")
    # the running totals after each move (#11)
    typer.echo(said(msg("state: %(state)s", state=info["state"])))
    if info["status"] == "finished":
        typer.echo(said(finished(info["winners"])))
    for turn in info["next"]:
        typer.echo(said(next_line(turn)))


def show_preview(preview: Preview) -> None:
    """A correction's preview in a closed round: what it changes, before anything is stored."""
    from tournament.cli.lines import closed_round

    typer.echo(said(closed_round(preview.match, preview.round)))
    show_effect(preview.to_json())
    if preview.awaits:
        typer.echo(f"  {said(preview.awaits)}")


def show_effect(effect: dict[str, Any]) -> None:
    from tournament.cli.lines import moved

    for row in effect["standings"]:
        if (row["rank"], row["points"]) != (row["rank_before"], row["points_before"]):
            typer.echo("  " + said(moved(row)))
    from tournament.services.effects import paired_otherwise

    for later in effect["later_pairings"]:
        typer.echo("  " + said(paired_otherwise(later)))


ID = Annotated[str, typer.Argument(metavar="ID", help="The match, e.g. M7.")]
BY = Annotated[str, typer.Argument(help="The player who acts.")]
# A roll's own, named as ID and BY are: the verb a referee types most is then built
# from annotations that are only looked up (tournament.cli.lazy.resolve, #27).
DIE = Annotated[str, typer.Argument(help="d6, d20, consonant or vowel")]
FACES = Annotated[
    list[str] | None,
    typer.Argument(help="The faces, as they fell (none: the sealed digital dice's)."),
]


@match_app.command("roll")
@guarded
def match_roll(
    match_id: ID,
    by: BY,
    die: DIE,
    values: FACES = None,
) -> None:
    """Record dice thrown together: `match roll M7 blu d6 5 4 2 1`."""
    _record(match_id, move("roll", by, die, *(values or ())))


@match_app.command("choose")
@guarded
def match_choose(match_id: ID, by: BY, value: Annotated[str, typer.Argument()]) -> None:
    """Record a choice: the letter of a U/A face, the value added in Ventuno."""
    _record(match_id, move("choose", by, value))


@match_app.command("word")
@guarded
def match_word(
    match_id: ID,
    by: BY,
    word: Annotated[str, typer.Argument()],
    jolly: Annotated[str | None, typer.Option(help="The letter a Z stands for (L'asta).")] = None,
) -> None:
    """Record a word written."""
    _record(match_id, move("word", by, word, *(("jolly", jolly) if jolly else ())))


@match_app.command("chain")
@guarded
def match_chain(match_id: ID, by: BY, words: Annotated[list[str], typer.Argument()]) -> None:
    """Record a chain of La catena (the words in order, or joined by '-')."""
    _record(match_id, move("chain", by, *words))


@match_app.command("expr")
@guarded
def match_expr(
    match_id: ID,
    by: BY,
    expr: Annotated[str, typer.Argument(help="e.g. '6 x (5:6+1)'")],
    target: Annotated[str | None, typer.Option(help="The player aimed at (Battaglia).")] = None,
    as_written: Annotated[
        bool,
        typer.Option(
            "--as-written", help="Store a malformed expression: it is the answer as written."
        ),
    ] = False,
) -> None:
    """Record an expression (Tiro di precisione, La battaglia dadale)."""
    from engine.notation import token
    from tournament.errors import Refused
    from tournament.services.play import malformed

    why = malformed(expr)
    if why is not None and not as_written:  # far more often a typo than an answer (#28)
        raise Refused(
            msg(
                "%(why)s: nothing stored; if it is the answer as written, add --as-written",
                why=why,
            )
        )

    aim = f" @{token(target)}" if target else ""
    _record(match_id, move("expr", by, expr) + aim)


@match_app.command("doubt")
@guarded
def match_doubt(match_id: ID, by: BY) -> None:
    """Record a doubt (La roulette russa)."""
    _record(match_id, move("doubt", by))


@match_app.command("bet")
@guarded
def match_bet(
    match_id: ID, by: BY, call: Annotated[str, typer.Argument(help="up or down")]
) -> None:
    """Record a call of Up or down."""
    _record(match_id, move("bet", by, call))


@match_app.command("pass")
@guarded
def match_pass(match_id: ID, by: BY) -> None:
    """Record that a player gives up this turn or answer."""
    _record(match_id, move("pass", by))


@match_app.command("timeout")
@guarded
def match_timeout(match_id: ID, by: BY) -> None:
    """Record that a player's time ran out (CH-4)."""
    _record(match_id, move("timeout", by))


@match_app.command("reroll")
@guarded
def match_reroll(
    match_id: ID,
    by: BY,
    dice: Annotated[str, typer.Argument(help="The faces taken back, e.g. 2,1,3.")],
    values: Annotated[str, typer.Argument(help="How they fell, e.g. 5,2,6.")],
) -> None:
    """Record an Alphatiana reroll (ALP-3): `match reroll M7 M 2,1,3 5,2,6`."""
    _record(match_id, move("reroll", by, dice, values))


@match_app.command("stand")
@guarded
def match_stand(match_id: ID, by: BY) -> None:
    """Record that the Alphatiana attacker stops rerolling (ALP-3)."""
    _record(match_id, move("stand", by))


@match_app.command("card")
@guarded
def match_card(
    match_id: ID,
    to: Annotated[str, typer.Argument(help="A player, or table.")],
    card: Annotated[str, typer.Argument(help="The card's id in the deck.")],
) -> None:
    """Record a card dealt in La parola nascosta (PN-2)."""
    _record(match_id, move("card", to, card))


@match_app.command("seal")
@guarded
def match_seal(
    match_id: ID,
    by: BY,
    commitment: Annotated[
        str | None, typer.Option(help="A seal made elsewhere: sha256 of salt:word.")
    ] = None,
    word_file: Annotated[
        Path | None,
        typer.Option(
            "--word-file",
            help="Read the word from the first line of this file ('-': standard input) "
            "instead of typing it; from a script, standard input is read anyway.",
        ),
    ] = None,
) -> None:
    """Seal a word (PN-3): typed without echo; only its seal is stored. Keep the salt printed.

    From a script (no terminal), the word is the first line of standard input or of
    ``--word-file``: `echo casa | tournament match seal M7 giallo`.
    """
    from tournament.errors import Refused
    from tournament.services.matches import sealed_word

    salts: list[str] = []

    def sealer(player: str) -> str:
        if word_file is not None and str(word_file) != "-":
            word = next(iter(read_text(word_file).splitlines()), "").strip()
        elif word_file is not None or not sys.stdin.isatty():
            # No terminal to type unseen on: getpass would warn and echo (#11).
            word = sys.stdin.readline().strip()
        else:
            word = typer.prompt(t("%(player)s's word (not shown)", player=player), hide_input=True)
            word = word.strip()
        if not word:
            raise Refused(msg("an empty word cannot be sealed"))
        commitment, salt = sealed_word(word)
        salts.append(salt)
        return commitment

    _record(match_id, move("seal", by, commitment), sealer=sealer)
    for salt in salts:
        typer.echo(
            t(
                "%(by)s: keep this salt private, to reveal the word later: %(salt)s",
                by=by,
                salt=salt,
            )
        )


@match_app.command("start")
@guarded
def match_start(
    match_id: ID, player: Annotated[str, typer.Argument(help="The player the arrow points at.")]
) -> None:
    """Record who starts La parola nascosta (the table card's arrow, PN-4)."""
    _record(match_id, move("start", player))


@match_app.command("guess")
@guarded
def match_guess(
    match_id: ID,
    by: BY,
    target: Annotated[str, typer.Argument(help="Whose word is guessed.")],
    word: Annotated[str, typer.Argument()],
) -> None:
    """Record a guess at another player's hidden word (PN-4)."""
    _record(match_id, move("guess", by, target, word))


@match_app.command("answer")
@guarded
def match_answer(
    match_id: ID, by: BY, answer: Annotated[str, typer.Argument(help="right or wrong")]
) -> None:
    """Record the answer to a guess (PN-4); a right answer puts the player out."""
    _record(match_id, move("answer", by, answer))


@match_app.command("reveal")
@guarded
def match_reveal(
    match_id: ID,
    by: BY,
    word: Annotated[str, typer.Argument()],
    salt: Annotated[str, typer.Option(help="The salt printed when the word was sealed.")],
) -> None:
    """Reveal a sealed word; it is checked against its seal (PN-3)."""
    _record(match_id, move("reveal", by, word, salt))


@match_app.command("hint")
@guarded
def match_hint(match_id: ID, by: BY, letter: Annotated[str, typer.Argument()]) -> None:
    """Record the first or last letter said after a silent round (PN-5)."""
    _record(match_id, move("hint", by, letter))


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
    _record(match_id, move("rule", str(on), decision, note), yes)


@match_app.command("void")
@guarded
def match_void(
    match_id: ID,
    on: Annotated[int, typer.Argument(help="The position struck.")],
    reason: Annotated[str, typer.Option(help="Why it is struck.")],
    yes: Annotated[bool, typer.Option("--yes", help="Record it even in a closed round.")] = False,
) -> None:
    """Strike a wrongly entered event (REF-2); enter the right one after it."""
    _record(match_id, move("void", str(on), reason), yes)


@match_app.command("move")
@guarded
def match_move(
    match_id: ID,
    text: Annotated[list[str], typer.Argument(help="One move, e.g. roll blu d6 5 4.")],
    at: Annotated[
        int | None, typer.Option(help="Refuse unless the match is still at this position.")
    ] = None,
    yes: Annotated[bool, typer.Option("--yes", help="Record it even in a closed round.")] = False,
) -> None:
    """Record one move written in the notation (docs/format.md): `match move M7 roll blu d6 5 4`."""
    _record(match_id, " ".join(text), yes, expected_position=at)
