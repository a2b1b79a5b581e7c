"""Commands for disputes: verify what is stored, or an exported log on its own."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from engine.message import msg
from tournament.cli.common import app, fail, guarded, print_json, read_text, settings, store
from tournament.cli.words import said, t, tn

if TYPE_CHECKING:
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
            fail(
                t(
                    "%(file)s: its head hash is %(found)s, not the %(head)s given",
                    file=file,
                    found=found,
                    head=head,
                )
            )
        if as_json:
            print_json({"ok": True, "events": len(log.lines), "head": found})
        else:
            chain = t("a bound chain, match chain v2") if log.binding else t("a plain chain, v1")
            typer.echo(
                t(
                    "%(file)s: %(events)s events, chain intact, replay agrees; head %(head)s "
                    "(%(chain)s)",
                    file=file,
                    events=len(log.lines),
                    head=found,
                    chain=chain,
                )
            )
        return
    if head and not match_id:
        fail(t("--head compares one match: name it (tournament verify M7 --head ...)"))
    from tournament.cli.progress import bar, wanted

    with bar(t("verifying"), None, not match_id and wanted(as_json)) as checked:
        report = verify_store(locate(settings().db), words, match_id, checked, jobs)  # (none: said)
    if match_id and not report.matches:  # nothing to verify: not a sign of tampering (#11)
        fail(
            t(
                "there is no match %(match)s in %(db)s",
                match=normalise_number(match_id),
                db=settings().db,
            )
        )
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
                    msg(
                        "the stored head hash is %(stored)s, not the %(head)s printed",
                        stored=stored,
                        head=head,
                    ),
                )
            )
    if as_json:
        print_json(report.to_json())
    elif report.ok:
        matches = tn("%(n)s match", "%(n)s matches", report.matches, n=report.matches)
        n = report.tournament_events
        tournament = (
            tn(" and the tournament's %(n)s event", " and the tournament's %(n)s events", n, n=n)
            if n
            else ""
        )
        verified = t(
            "verified %(matches)s, %(events)s events%(tournament)s: every hash chain is intact "
            "and every replay agrees",
            matches=matches,
            events=report.events,
            tournament=tournament,
        )
        typer.echo(verified + (t("; head %(head)s matches", head=head) if head else ""))
        if moved_from is not None:
            typer.echo(
                t(
                    "%(match)s was imported from a log exported as %(format)s: its chain there "
                    "ends in %(head)s",
                    match=normalise_number(str(match_id)),
                    format=moved_from or t("a plain log (tournament 0.1)"),
                    head=head,
                )
            )
        if report.formats:
            formats = "; ".join(said(part) for part in said_formats(report))
            typer.echo(t("formats: %(formats)s", formats=formats))
        if report.sealed_dice:
            typer.echo(
                t(
                    "digital dice still sealed (their rolls are proved at the reveal): %(matches)s",
                    matches=", ".join(report.sealed_dice),
                )
            )
    else:
        for failure in report.failures:
            typer.echo(t("FAILED %(what)s", what=said(failure.message())), err=True)
        from tournament.services.stores import newer_writers

        newer = newer_writers(store())
        if newer:
            typer.echo(
                t(
                    "this database was also written by tournament %(versions)s, a newer version: "
                    "what this one cannot read may be that version's (upgrade to read it)",
                    versions=", ".join(newer),
                ),
                err=True,
            )
    if not report.ok:
        raise typer.Exit(1)


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
    from exports.wording import best_play
    from tournament.services.audit import outcome_json, state_words, timeline, under_current_rules
    from tournament.services.matches import load

    if rules not in ("recorded", "current"):
        fail(t("--rules is recorded or current, not %(rules)r", rules=rules))
    s = store()
    loaded = load(s, match_id, settings().lexicon)
    recorded = loaded.replay
    if rules == "current":
        from engine.rules import CURRENT

        today, why = under_current_rules(loaded)
        if today is None:
            fail(
                t(
                    "under today's rules (revision %(current)s) %(match)s could not have "
                    "happened: %(why)s (it was played under revision %(revision)s)",
                    current=CURRENT,
                    match=loaded.match.number,
                    why=said(why),
                    revision=recorded.revision,
                )
            )
        loaded = today
    replay = loaded.replay
    if what_if:
        _what_if(s, loaded, what_if, as_json)
        return
    if at is not None:
        if not 0 <= at <= replay.position:
            fail(
                t(
                    "%(match)s has positions 0 to %(last)s",
                    match=loaded.match.number,
                    last=replay.position,
                )
            )
        words = state_words(replay, at, states_as_they_stood(replay)[at])  # as it stood (#28)
        if as_json:
            print_json({"match": loaded.match.number, "position": at, "state": words})
        else:
            typer.echo(
                t(
                    "%(match)s after position %(at)s: %(state)s",
                    match=loaded.match.number,
                    at=at,
                    state=said(words),
                )
            )
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
        t("who"),
        t("what"),
        t("state after"),
        t("rules"),
        t("judged / referee / best"),
        title=f"{loaded.match.number}: {replay.rules.title}",
        show_lines=False,
    )
    for r in rows:
        remarks = [said(j) for j in r["judged"]]
        if r["ruling"]:
            at = r["ruling"]["at"]
            if r["ruling"]["accept"]:
                verdict = t("referee accepted it at #%(at)s", at=at)
            else:
                verdict = t("referee rejected it at #%(at)s", at=at)
            remarks.append(f"[bold]{verdict}[/bold]")
        if r["voided_by"]:
            void = t("void (#%(by)s)", by=r["voided_by"])
            remarks.append(f"[bold red]{void}[/bold red]")
        if r["best"]:
            remarks.append(f"[dim]{said(best_play(r['best']))}[/dim]")
        what = f"[strike]{r['what']}[/strike]" if r["voided_by"] else r["what"]
        state = said(r["state"])  # as it stood; a later ruling's rewriting beside it (#28)
        if r["state_later"]:
            later = rewritten(r["state_later"]["by"], r["state_later"]["state"])
            state += f"\n[italic]{said(later)}[/italic]"
        table.add_row(
            str(r["position"]), r["who"], what, state, " ".join(r["rules"]), "\n".join(remarks)
        )
    console = Console()
    console.print(table)
    outcome = outcome_json(replay.outcome)
    if outcome:
        console.print(
            t(
                "winners: %(winners)s; head hash %(head)s",
                winners=", ".join(outcome["winners"]) or t("nobody"),
                head=loaded.match.head,
            ),
            soft_wrap=True,
        )
    console.print(t("rules: revision %(revision)s", revision=replay.revision), soft_wrap=True)
    if replay.revision != recorded.revision:
        before = outcome_json(recorded.outcome)
        if before == outcome:
            same = t("the same outcome")
        else:
            same = t("recorded outcome: %(outcome)s", outcome=before)
        console.print(
            t(
                "played under revision %(revision)s: %(same)s",
                revision=recorded.revision,
                same=same,
            ),
            soft_wrap=True,
        )


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
    typer.echo(
        t("what if %(change)s in %(match)s? nothing is stored.", change=change, match=number)
    )
    if not result["possible"]:
        typer.echo("  " + t("the log could not have happened: %(why)s", why=said(why)))
        return
    for label, key in ((t("now"), "outcome_before"), (t("then"), "outcome_after")):
        o = result[key]
        if o:
            shown = t("winners %(winners)s", winners=", ".join(o["winners"]) or t("nobody"))
        else:
            shown = t("still in play")
        typer.echo(f"  {label}: {shown}")
    if "standings" in result:
        show_effect(result)
