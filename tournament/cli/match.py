"""Commands for match logs and words: create, import, export, list, show; the lexicon.

The recording verbs of the ``match`` group are in :mod:`tournament.cli.record`."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from tournament.cli.common import app, fail, guarded, print_json, read_text, settings, store
from tournament.cli.words import t

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
    from tournament.services.matches import open_lexicon

    path = settings().lexicon
    lexicon = open_lexicon(path)
    answers = {w: w in lexicon for w in words}
    if as_json:
        print_json(answers)
        return
    for w, ok in answers.items():
        typer.echo(f"{w}: {t('yes') if ok else t('no')}")
    if not all(answers.values()):
        raise typer.Exit(1)


# --- match: import, export, list, show ------------------------------------------------------------


LONG_LOG = 2000  # events: a log this long draws a progress bar on a terminal (#11)


@match_app.command("import")
@guarded
def match_import(
    file: Annotated[Path, typer.Argument(help="A tournament-match/1 JSON Lines file.")],
    again: Annotated[
        bool, typer.Option("--again", help="Store a log already stored once more, as a new match.")
    ] = False,
) -> None:
    """Check a whole match log and store it; print the new match's id."""
    from tournament.cli.progress import bar, wanted
    from tournament.services.matches import check_log, import_log, stored_as

    text = read_text(file)
    long = text.count("\n") > LONG_LOG  # a short log is checked before a bar could be seen
    with bar(t("checking %(file)s", file=file.name), None, long and wanted(False)) as checked:
        log = check_log(text, settings().lexicon, checked.at)  # nothing stored before this
    existed = "://" in settings().db or Path(settings().db).exists()  # a server: look
    s = store(create=True)
    if existed and not again and (same := stored_as(s, log)) is not None:
        fail(
            t(
                "%(file)s is already stored as %(same)s: nothing was imported "
                "(repeat with --again to store it once more, as a new match)",
                file=file,
                same=same,
            )
        )
    match = import_log(s, log)
    typer.echo(match.number)
    typer.echo(
        t(
            "imported %(file)s as %(match)s (%(events)s events)",
            file=file,
            match=match.number,
            events=len(match.lines),
        ),
        err=True,
    )


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
        from tournament.services.files import write_whole

        write_whole(output, text)  # whole or not at all: a full disk leaves no empty file (#29)
        typer.echo(t("wrote %(match)s to %(file)s", match=match.number, file=output), err=True)


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

    from tournament.cli.render import joined

    table = Table("id", t("game"), t("players"), t("events"))
    for r in rows:
        table.add_row(r["id"], r["game"], joined(r["players"]), str(r["events"]))
    Console().print(table)


@match_app.command("show")
@guarded
def match_show(
    match_id: Annotated[str, typer.Argument(metavar="ID")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """The state of a match: who won or who acts next, and what is legal."""
    from tournament.services.matches import load, summary

    info = summary(load(store(), match_id, settings().lexicon))
    if as_json:
        print_json(info)
        return
    from tournament.cli.render import show_match

    show_match(info)


@match_app.command("new")
@guarded
def match_new(
    game: Annotated[
        str,
        typer.Argument(help="The game: %(games)s."),
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
    referee: Annotated[
        str | None,
        typer.Option(
            "--referee",
            help="The referee's name (free text), kept by the database's tournament and "
            "printed on the score sheet.",
        ),
    ] = None,
) -> None:
    """Start a match to record by hand; print its id."""
    from tournament.domain.names import admitted
    from tournament.services.matches import check_header, import_log, read_deck

    players = [admitted(p) for p in players]  # a new name: normalised, or refused (#28)
    header: dict[str, Any] = {"format": "tournament-match/1", "game": game, "players": players}
    if outside:
        header["outside"] = [admitted(p) for p in outside]
    if start:
        header["start"] = start
    if deck:
        header["deck"] = read_deck(deck)
    log = check_header(header, settings().lexicon)
    if referee is None:
        typer.echo(import_log(store(create=True), log).number)
        return
    from tournament.services import day, referees

    named = referees.checked(referee)
    s = store()  # the name is kept by the tournament (not in the sealed header): it must exist
    day.get_tournament(s)
    match = import_log(s, log)
    referees.name_referee(s, match.number, named)
    typer.echo(match.number)
