"""Commands for disputes: verify what is stored, or an exported log on its own."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from engine.message import msg
from tournament.cli.common import app, fail, guarded, print_json, read_text, settings, store

if TYPE_CHECKING:
    from engine.solve import Shot
    from tournament.services.matches import Loaded
    from tournament.services.stores import Store


@app.command("verify")
@guarded
def verify(
    match_id: Annotated[
        str | None, typer.Argument(metavar="[MATCH]", help="One match, e.g. M7.")
    ] = None,
    file: Annotated[
        Path | None, typer.Option("--file", help="Verify an exported log instead of the store.")
    ] = None,
    head: Annotated[
        str | None, typer.Option(help="The head hash printed on the score sheet, to compare.")
    ] = None,
    jobs: Annotated[
        int | None,
        typer.Option(
            min=1, help="Processes checking matches side by side (default: one a core; 1: here)."
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Check hash chains and replays; exit 1 if anything was changed or does not replay."""
    from engine.header import Header
    from engine.lexicon import Lexicon
    from tournament.services.matches import lexicon_for
    from tournament.services.stores import locate, normalise_number
    from tournament.verify import Failure, original_of, said_formats, verify_file, verify_store

    lexicon = settings().lexicon

    def words(header: Header) -> Lexicon:
        return lexicon_for(header, lexicon)

    if file is not None:
        log = verify_file(read_text(file), words)
        found = log.file_head if log.lines else None  # the file's own chain
        if head and head != found:
            fail(f"{file}: its head hash is {found}, not the {head} given")
        if as_json:
            print_json({"ok": True, "events": len(log.lines), "head": found})
        else:
            chain = "a bound chain, match chain v2" if log.binding else "a plain chain, v1"
            typer.echo(
                f"{file}: {len(log.lines)} events, chain intact, replay agrees; head {found} "
                f"({chain})"
            )
        return
    if head and not match_id:
        fail("--head compares one match: name it (tournament verify M7 --head ...)")
    from tournament.cli.progress import bar, wanted

    with bar("verifying", None, not match_id and wanted(as_json)) as checked:
        report = verify_store(locate(settings().db), words, match_id, checked, jobs)  # (none: said)
    if match_id and not report.matches:  # nothing to verify: not a sign of tampering (#11)
        fail(f"there is no match {normalise_number(match_id)} in {settings().db}")
    moved_from = None
    if head and report.ok:
        stored = next(iter(report.heads.values()))
        if stored != head:
            moved_from = original_of(store(), normalise_number(str(match_id)), head)
        if stored != head and moved_from is None:
            report.failures.append(
                Failure(
                    normalise_number(str(match_id)),
                    report.events,
                    f"the stored head hash is {stored}, not the {head} printed",
                )
            )
    if as_json:
        print_json(report.to_json())
    elif report.ok:
        matches = f"{report.matches} match" + ("es" if report.matches != 1 else "")
        tournament = (
            f" and the tournament's {report.tournament_events} event"
            + ("s" if report.tournament_events != 1 else "")
            if report.tournament_events
            else ""
        )
        typer.echo(
            f"verified {matches}, {report.events} events{tournament}: every hash chain is intact "
            "and every replay agrees" + (f"; head {head} matches" if head else "")
        )
        if moved_from is not None:
            typer.echo(
                f"{normalise_number(str(match_id))} was imported from a log exported as "
                f"{moved_from or 'a plain log (tournament 0.1)'}: its chain there ends in {head}"
            )
        if report.formats:
            typer.echo(f"formats: {said_formats(report)}")
        if report.sealed_dice:
            typer.echo(
                f"digital dice still sealed (their rolls are proved at the reveal): "
                f"{', '.join(report.sealed_dice)}"
            )
    else:
        for failure in report.failures:
            typer.echo(f"FAILED {failure}", err=True)
        from tournament.services.stores import newer_writers

        newer = newer_writers(store())
        if newer:
            typer.echo(
                f"this database was also written by tournament {', '.join(newer)}, a newer "
                "version: what this one cannot read may be that version's (upgrade to read it)",
                err=True,
            )
    if not report.ok:
        raise typer.Exit(1)


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

    _dice(dice, 4, "d6", 6, "TIR-1")
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

    _dice(dice, 3, "d6", 6, "BAT-2")
    _dice([target], 1, "d20 (the ship)", 20, "BAT-1")
    _print_shot(best_shot(dice, target), as_json, with_key=False)


def _dice(values: list[int], count: int, die: str, faces: int, rule: str) -> None:
    """Refuse numbers no die shows (``solve tiro 6 6 5 1 99``), in one sentence (#11)."""
    if len(values) != count:
        fail(f"give {count} {die} value{'s' if count > 1 else ''}, not {len(values)} ({rule})")
    for v in values:
        if not 1 <= v <= faces:
            fail(f"{v} is not a face of a {die}: faces 1 to {faces} ({rule})")


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
        typer.echo("no expression reaches it")
    else:
        key = f" (key {answer['key']})" if with_key else ""
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
        fail("La catena has three anchor words (CAT-1)")
    path = settings().lexicon
    lexicon = open_lexicon(path)
    chain = shortest_chain(WordGraph.from_lexicon(lexicon), anchors)
    if as_json:
        print_json({"length": len(chain) if chain else None, "chain": chain or []})
    elif chain is None:
        typer.echo("no chain joins these words")
    else:
        typer.echo(f"{len(chain)} words: {'-'.join(chain)}")


@app.command("audit")
@guarded
def audit(
    match_id: Annotated[str, typer.Argument(metavar="MATCH")],
    at: Annotated[int | None, typer.Option(help="Only the state after this position.")] = None,
    what_if: Annotated[
        str | None,
        typer.Option(
            "--what-if",
            help="void:N, or replace:N=MOVE (a move, or a JSON event): replayed, not stored.",
        ),
    ] = None,
    rules: Annotated[
        str,
        typer.Option(
            "--rules",
            metavar="recorded|current",
            help="recorded: the rules the match was played under (its revision); current: "
            "what today's rules would say of the same log.",
        ),
    ] = "recorded",
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """A match's timeline: who did what, the state after it, rulings, voids, rules, best play."""
    from exports.eventlog import rewritten, states_as_they_stood
    from tournament.services.audit import outcome_json, state_words, timeline, under_current_rules
    from tournament.services.matches import load

    if rules not in ("recorded", "current"):
        fail(f"--rules is recorded or current, not {rules!r}")
    s = store()
    loaded = load(s, match_id, settings().lexicon)
    recorded = loaded.replay
    if rules == "current":
        from engine.rules import CURRENT

        today, why = under_current_rules(loaded)
        if today is None:
            fail(
                f"under today's rules (revision {CURRENT}) {loaded.match.number} could not "
                f"have happened: {why} (it was played under revision {recorded.revision})"
            )
        loaded = today
    replay = loaded.replay
    if what_if:
        _what_if(s, loaded, what_if, as_json)
        return
    if at is not None:
        if not 0 <= at <= replay.position:
            fail(f"{loaded.match.number} has positions 0 to {replay.position}")
        words = state_words(replay, at, states_as_they_stood(replay)[at])  # as it stood (#28)
        if as_json:
            print_json({"match": loaded.match.number, "position": at, "state": words})
        else:
            typer.echo(f"{loaded.match.number} after position {at}: {words}")
        return
    rows = timeline(loaded)
    if as_json:
        print_json(
            {
                "match": loaded.match.number,
                "game": replay.header.game,
                "rules": replay.revision,
                "rules_recorded": recorded.revision,
                "outcome": outcome_json(replay.outcome),
                "outcome_recorded": outcome_json(recorded.outcome),
                "timeline": rows,
            }
        )
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(
        "#",
        "who",
        "what",
        "state after",
        "rules",
        "judged / referee / best",
        title=f"{loaded.match.number}: {replay.rules.title}",
        show_lines=False,
    )
    for r in rows:
        remarks = list(r["judged"])
        if r["ruling"]:
            verdict = "accepted" if r["ruling"]["accept"] else "rejected"
            remarks.append(f"[bold]referee {verdict} it at #{r['ruling']['at']}[/bold]")
        if r["voided_by"]:
            remarks.append(f"[bold red]void (#{r['voided_by']})[/bold red]")
        if r["best"]:
            remarks.append(f"[dim]{r['best']}[/dim]")
        what = f"[strike]{r['what']}[/strike]" if r["voided_by"] else r["what"]
        state = r["state"]  # as it stood; a later ruling's rewriting beside it (#28)
        if r["state_later"]:
            later = rewritten(r["state_later"]["by"], r["state_later"]["state"])
            state += f"\n[italic]{later}[/italic]"
        table.add_row(
            str(r["position"]), r["who"], what, state, " ".join(r["rules"]), "\n".join(remarks)
        )
    console = Console()
    console.print(table)
    outcome = outcome_json(replay.outcome)
    if outcome:
        console.print(
            f"winners: {', '.join(outcome['winners']) or 'nobody'}; head hash {loaded.match.head}",
            soft_wrap=True,
        )
    console.print(f"rules: revision {replay.revision}", soft_wrap=True)
    if replay.revision != recorded.revision:
        before = outcome_json(recorded.outcome)
        same = "the same outcome" if before == outcome else f"recorded outcome: {before}"
        console.print(f"played under revision {recorded.revision}: {same}", soft_wrap=True)


def _what_if(s: Store, loaded: Loaded, change: str, as_json: bool) -> None:
    from tournament.cli.record import show_effect
    from tournament.services.audit import outcome_json, what_if
    from tournament.services.corrections import outcome_effect

    changed, why = what_if(loaded, change)
    number = loaded.match.number
    result: dict[str, Any] = {
        "match": number,
        "change": change,
        "outcome_before": outcome_json(loaded.replay.outcome),
    }
    if changed is None:
        result |= {"possible": False, "why": why}
    else:
        # The same reckoning as a correction's, on the tournament as it stands: the standings,
        # and the later rounds the change would pair otherwise.
        result |= {"possible": True, "outcome_after": outcome_json(changed.outcome)}
        result |= outcome_effect(s, number, changed.outcome)
    if as_json:
        print_json(result)
        return
    typer.echo(f"what if {change} in {number}? nothing is stored.")
    if not result["possible"]:
        typer.echo(f"  the log could not have happened: {why}")
        return
    for label, key in (("now", "outcome_before"), ("then", "outcome_after")):
        o = result[key]
        shown = f"winners {', '.join(o['winners']) or 'nobody'}" if o else "still in play"
        typer.echo(f"  {label}: {shown}")
    if "standings" in result:
        show_effect(result)


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
        typer.echo(msg("no admitted word from these letters: a round without one scores 0 (TEX-3)"))


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
        typer.echo(word or "no word covers them (with up to two more consonants)")


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
        typer.echo(", ".join(w + (f" (Z as {j})" if j else "") for w, j in legal) or "no word")
