"""Commands for disputes: verify what is stored, or an exported log on its own."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from tournament.cli.common import app, fail, guarded, print_json, settings


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
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Check hash chains and replays; exit 1 if anything was changed or does not replay."""
    from engine.header import Header
    from engine.lexicon import Lexicon
    from tournament.matches import lexicon_for
    from tournament.verify import Failure, verify_file, verify_store

    lexicon = settings().lexicon

    def words(header: Header) -> Lexicon:
        return lexicon_for(header, lexicon)

    if file is not None:
        log = verify_file(file.read_text(encoding="utf-8"), words)
        found = log.hashes[-1] if log.lines else None
        if head and head != found:
            fail(f"{file}: its head hash is {found}, not the {head} given")
        if as_json:
            print_json({"ok": True, "events": len(log.lines), "head": found})
        else:
            typer.echo(
                f"{file}: {len(log.lines)} events, chain intact, replay agrees; head {found}"
            )
        return
    if head and not match_id:
        fail("--head compares one match: name it (tournament verify M7 --head ...)")
    db = settings().db
    if not db.exists():
        fail(f"there is no database at {db}")
    report = verify_store(db, words, match_id)
    if head and report.ok:
        stored = next(iter(report.heads.values()))
        if stored != head:
            report.failures.append(
                Failure(
                    str(match_id).upper(),
                    report.events,
                    f"the stored head hash is {stored}, not the {head} printed",
                )
            )
    if as_json:
        print_json(report.to_json())
    elif report.ok:
        matches = f"{report.matches} match" + ("es" if report.matches != 1 else "")
        typer.echo(
            f"verified {matches}, {report.events} events: every hash chain is intact and every "
            "replay agrees" + (f"; head {head} matches" if head else "")
        )
    else:
        for failure in report.failures:
            typer.echo(f"FAILED {failure}", err=True)
    if not report.ok:
        raise typer.Exit(1)
