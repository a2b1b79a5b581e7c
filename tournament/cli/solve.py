"""Referee assist: the best possible play of a game's position (``tournament solve``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from exports.i18n import N_
from tournament.cli.common import app, fail, guarded, print_json, settings
from tournament.cli.words import gettext, t, tn

if TYPE_CHECKING:
    from engine.solve import Shot


solve_app = typer.Typer(help="Referee assist: the best possible play.", no_args_is_help=True)
app.add_typer(solve_app, name="solve")


@solve_app.command("tiro")
@guarded
def solve_tiro(
    dice: Annotated[list[int], typer.Argument(help="The four numbers.")],
    target: Annotated[int, typer.Option(help="The target rolled on the d20.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """The expression that hits the target with most divisions, then multiplications, then
    subtractions (TIR-3), and whether the target was reachable at all."""
    from engine.solve import best_shot

    _dice(dice, 4, N_("d6"), 6, "TIR-1")
    _dice([target], 1, "d20 (the target)", 20, "TIR-1")
    shot = best_shot(dice, target)
    _print_shot(shot, as_json, with_key=True)


@solve_app.command("battaglia")
@guarded
def solve_battaglia(
    dice: Annotated[list[int], typer.Argument(help="The three numbers.")],
    target: Annotated[int, typer.Option(help="The value of the ship aimed at.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Whether a roll can sink a ship of this value (BAT-2), and how."""
    from engine.solve import best_shot

    _dice(dice, 3, N_("d6"), 6, "BAT-2")
    _dice([target], 1, N_("d20 (the ship)"), 20, "BAT-1")
    _print_shot(best_shot(dice, target), as_json, with_key=False)


def _dice(values: list[int], count: int, die: str, faces: int, rule: str) -> None:
    """Refuse numbers no die shows (``solve tiro 6 6 5 1 99``), in one sentence (#11)."""
    if len(values) != count:
        fail(
            tn(
                "give %(count)s %(die)s value, not %(given)s (%(rule)s)",
                "give %(count)s %(die)s values, not %(given)s (%(rule)s)",
                count,
                count=count,
                die=gettext(die),
                given=len(values),
                rule=rule,
            )
        )
    for v in values:
        if not 1 <= v <= faces:
            fail(
                t(
                    "%(v)s is not a face of a %(die)s: faces 1 to %(faces)s (%(rule)s)",
                    v=v,
                    die=gettext(die),
                    faces=faces,
                    rule=rule,
                )
            )


def _print_shot(shot: Shot | None, as_json: bool, with_key: bool) -> None:
    if shot is None:
        answer: dict[str, object] = {"solvable": False}
    else:
        answer = {"solvable": True, "expression": shot.expression}
        if with_key:
            answer["key"] = list(shot.key)
    if as_json:
        print_json(answer)
    elif shot is None:
        typer.echo(t("no expression reaches it"))
    else:
        key = t(" (key %(key)s)", key=answer["key"]) if with_key else ""
        typer.echo(f"{answer['expression']}{key}")


@solve_app.command("catena")
@guarded
def solve_catena(
    anchors: Annotated[list[str], typer.Argument(help="The three anchor words.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """The shortest chain through the three anchor words (CAT-2, CAT-3), in the lexicon; of
    equal ones, the alphabetically first."""
    from engine.solve import WordGraph, shortest_chain
    from tournament.services.matches import open_lexicon

    if len(anchors) != 3:
        fail(t("La catena has three anchor words (CAT-1)"))
    path = settings().lexicon
    lexicon = open_lexicon(path)
    chain = shortest_chain(WordGraph.from_lexicon(lexicon), anchors)
    if as_json:
        print_json({"length": len(chain) if chain else None, "chain": chain or []})
    elif chain is None:
        typer.echo(t("no chain joins these words"))
    else:
        typer.echo(t("%(n)s words: %(chain)s", n=len(chain), chain="-".join(chain)))


@solve_app.command("texas")
@guarded
def solve_texas(
    letters: Annotated[str, typer.Argument(help="Personal and common letters, e.g. SNOASACI.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """The best-scoring word for a Texas Word'em pool (TEX-3)."""
    from engine.solve import texas_best
    from tournament.services.audit import texas_pool
    from tournament.services.matches import open_lexicon

    path = settings().lexicon
    best = texas_best(open_lexicon(path), texas_pool(letters))  # refused: 4, 6 or 8 letters
    answer = {"word": best[0], "score": best[1]} if best else {"word": None, "score": 0}
    if as_json:
        print_json(answer)
    elif best:
        typer.echo(f"{answer['word']}: {answer['score']}")
    else:
        typer.echo(t("no admitted word from these letters: a round without one scores 0 (TEX-3)"))


@solve_app.command("roulette_russa")
@guarded
def solve_roulette(
    consonants: Annotated[str, typer.Argument(help="The consonants in play, e.g. SSTPGNM.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """A short word whose consonants include all those listed (RR-3)."""
    from engine.solve import roulette_word
    from tournament.services.matches import open_lexicon

    path = settings().lexicon
    word = roulette_word(open_lexicon(path), list(consonants))
    if as_json:
        print_json({"word": word})
    else:
        typer.echo(word or t("no word covers them (with up to two more consonants)"))


@solve_app.command("asta")
@guarded
def solve_asta(
    previous: Annotated[str, typer.Argument(help="The previous word (or the base letters).")],
    new: Annotated[list[str], typer.Argument(help="The two faces rolled, e.g. Z A.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """The legal next words of L'asta (AST-2, AST-3; a Z stands for any letter)."""
    from engine.games.asta import slot
    from engine.solve import asta_words
    from tournament.services.matches import open_lexicon

    path = settings().lexicon
    lexicon = open_lexicon(path)
    legal = asta_words(lexicon, [c for c in previous.lower()], [slot(f.upper()) for f in new])
    if as_json:
        print_json([{"word": w, "jolly": j} for w, j in legal])
    else:
        shown = [w + (t(" (Z as %(letter)s)", letter=j) if j else "") for w, j in legal]
        typer.echo(", ".join(shown) or t("no word"))
