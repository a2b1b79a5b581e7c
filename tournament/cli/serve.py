"""``tournament serve``: the tournament on the web (public pages, referees' tables, organizer)."""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer

from exports.i18n import N_
from tournament.cli.common import app, fail, guarded, settings
from tournament.cli.serving import (
    Repeats,
    collects_less,
    overload_says_when,
    stopping,
    supervises_less,
    ticks_once_a_second,
)
from tournament.cli.words import t

LOCAL = ("127.0.0.1", "localhost", "::1")
# The open files a server keeps beside its connections' sockets: its own (the listening socket,
# the event loop's, the log), the store's (a file, its WAL and shared memory), and a margin for
# the connections accepted only to be refused.
OWN = 32
PER_THREAD = 8  # a worker thread's files: its connections to the store and the read models
MAX_THREADS = 40  # the page threads a server never goes beyond (anyio's default)
# The PostgreSQL connections a server takes at most, its processes together: PostgreSQL's
# default max_connections is 100, and the command line and other servers need some too.
CONNECTIONS = int(os.environ.get("TOURNAMENT_DB_CONNECTIONS", "80"))
REPEATING = ("asyncio", "uvicorn.error", "tournament.web")  # loggers whose repeats are counted


@app.command("serve")
@guarded
def serve(
    host: Annotated[str, typer.Option(help="Where to listen (127.0.0.1: this machine only).")] = (
        "127.0.0.1"
    ),
    port: Annotated[int, typer.Option(help="The TCP port.")] = 8000,
    organizer_passphrase: Annotated[
        str | None,
        typer.Option(
            "--organizer-passphrase",
            envvar="TOURNAMENT_ORGANIZER_PASSPHRASE",
            help="The organizer's passphrase (default: a new one, printed once).",
        ),
    ] = None,
    public_url: Annotated[
        str | None,
        typer.Option(
            "--public-url",
            help="The address the room's phones reach this server at, for the table cards' "
            "links (default: this machine's network address when --host opens it to a network).",
        ),
    ] = None,
    season: Annotated[
        Path | None,
        typer.Option(
            help="The season file (TOML) naming this tournament: each player's page shows "
            "their season chart."
        ),
    ] = None,
    ssl_certfile: Annotated[
        Path | None,
        typer.Option(
            "--ssl-certfile",
            help="Serve https with this certificate (PEM; with --ssl-keyfile): the referees' "
            "phones then also keep their table's page when the network drops (docs/offline.md).",
        ),
    ] = None,
    ssl_keyfile: Annotated[
        Path | None,
        typer.Option("--ssl-keyfile", help="The certificate's private key (PEM)."),
    ] = None,
    https: Annotated[
        bool,
        typer.Option(
            "--https",
            help="The room reaches this server over HTTPS through a proxy (nginx, Caddy: "
            "README): its cookies are then marked Secure, as with --ssl-certfile.",
        ),
    ] = False,
    workers: Annotated[
        int,
        typer.Option(
            help="Server processes on one port (PostgreSQL only): they share the sessions, "
            "the live stream and the store; about one a core."
        ),
    ] = 1,
) -> None:
    """Serve the tournament on the web: live public pages, the referees' table pages (private
    links on QR cards) and the organizer's pages behind a passphrase."""
    import secrets

    from tournament.services.stores import SqliteFile, holds_store, is_url, locate

    path = locate(settings().db)
    if isinstance(path, SqliteFile) and path.path.is_dir():
        fail(t("%(path)s is a folder, not a database file", path=path))
    if not holds_store(path):
        fail(
            t(
                "there is no database at %(path)s (create a tournament first, or pass --db)",
                path=path,
            )
        )
    if season is not None:
        season = season_of(season, path)
    if not 1 <= port <= 65535:
        fail(t("%(port)s is not a TCP port", port=port))
    if workers < 1 or workers > 64:
        fail(t("--workers is a number of processes from 1 to 64, not %(n)s", n=workers))
    if workers > 1 and not is_url(str(settings().db)):
        fail(t("--workers needs a PostgreSQL server: one SQLite file takes one writer at a time"))
    passphrase = organizer_passphrase or secrets.token_urlsafe(12)
    if len(passphrase) < 8:
        fail(t("the organizer's passphrase needs at least 8 characters"))
    tls = certificate(ssl_certfile, ssl_keyfile)
    if https and not tls:  # the room's links are the proxy's https address, never this one's
        if public_url is None and host not in LOCAL:
            fail(t("behind a TLS proxy (--https), give the address the room reaches: "
                   "--public-url https://..."))  # fmt: skip
        if public_url is not None and not public_url.strip().startswith("https://"):
            fail(t("behind a TLS proxy (--https): --public-url must start with https://"))
    public = public_base(public_url, host, port, "https" if tls else "http")
    from tournament.web.app import Settings, create_app

    plan = budget(descriptors(), open_files(), Settings.live_threads)
    threads = plan.threads if plan else None
    if is_url(str(settings().db)):  # the store's pool sized to the threads (unless given)
        threads = min(threads or MAX_THREADS, database_threads(workers, Settings.live_threads))
        pool = min(4, threads + Settings.live_threads)
        os.environ.setdefault("POSTGRES_POOL_SIZE", str(pool))
        os.environ.setdefault("POSTGRES_MAX_OVERFLOW", str(threads + Settings.live_threads - pool))
    web = create_app(
        Settings(
            db=path, passphrase=passphrase, lexicon=settings().lexicon, season=season,
            public_url=public,
            streams=plan.streams if plan else None, threads=threads,
            https=bool(tls) or https,
        )
    )  # fmt: skip
    if host not in LOCAL:
        typer.echo(
            t(
                "warning: listening on %(host)s: anyone on that network can open the public "
                "pages; put it behind HTTPS before the organizer logs in from elsewhere",
                host=host,
            ),
            err=True,
        )
    scheme = "https" if tls else "http"
    typer.echo(
        t("serving %(path)s on %(url)s (Ctrl-C stops)", path=path, url=address(scheme, host, port)),
        err=True,
    )
    if public is not None:
        typer.echo(t(N_("the table cards' links start with %(url)s"), url=public), err=True)
    if organizer_passphrase is None:
        typer.echo(t("organizer's passphrase (shown once): %(p)s", p=passphrase), err=True)
    repeats = Repeats()
    for name in REPEATING:
        logging.getLogger(name).addFilter(repeats)
    try:
        with stopping(lambda: web.state.live.closing is not None) as stopped:
            run_server(web, workers, host, port, plan, tls)
    finally:
        repeats.report()
        for name in REPEATING:
            logging.getLogger(name).removeFilter(repeats)
    if stopped or workers > 1:  # a SIGTERM (a service manager's stop), Ctrl-C: its normal end
        typer.echo(t("stopped serving %(path)s", path=path), err=True)


def run_server(
    web: Any, workers: int, host: str, port: int, plan: Plan | None, tls: dict[str, Any]
) -> None:
    """uvicorn, serving ``web`` (or ``workers`` processes, each building it from its settings)."""
    import uvicorn

    serving_here()
    if workers > 1:
        # Each process builds its own app from the same settings, read from a file only
        # this user may read (its name in the environment, the passphrase and the store's
        # URL not), removed when the server stops; the store holds what they share (#27).
        from tournament.services import stores
        from tournament.web.app import SETTINGS_ENV, settings_text

        # (this process serves nothing: the store it made ready is given back, its listener
        # and connections not kept idle beside the workers', #27)
        stores.close(web.state.store)
        supervises_less()
        with owner_only(settings_text(web.state.settings, str(settings().db))) as file:
            for name in SECRET_ENV:
                os.environ.pop(name, None)
            os.environ[SETTINGS_ENV] = str(file)
            uvicorn.run(
                "tournament.cli.serve:worker_app", factory=True, workers=workers,
                host=host, port=port, log_level="warning", access_log=False,
                limit_concurrency=plan.connections if plan else None, **tls,
            )  # fmt: skip
        return
    collects_less()
    uvicorn.run(
        web, host=host, port=port, log_level="warning", access_log=False,
        limit_concurrency=plan.connections if plan else None, **tls,
    )  # fmt: skip


def worker_app() -> Any:
    """The app of one of ``serve --workers``' processes (uvicorn's factory, in each): its
    overload answers say when to try again, as the serving process's do."""
    from tournament.web.app import from_environment

    serving_here()
    app = from_environment()
    collects_less()
    return app


def serving_here() -> None:
    """uvicorn as this process runs it (the serving process's, each worker's): its overload
    answers say when to try again, its main loop ticks once a second (#27)."""
    from tournament.web.app import RETRY_AFTER

    overload_says_when(RETRY_AFTER)
    ticks_once_a_second()


SECRET_ENV = ("TOURNAMENT_ORGANIZER_PASSPHRASE", "TOURNAMENT_DB")  # kept from the workers


def address(scheme: str, host: str, port: int) -> str:
    """The URL a server listening on ``host`` answers at (an IPv6 address in brackets).

    >>> address("https", "::", 8000)
    'https://[::]:8000/'
    >>> address("http", "127.0.0.1", 8000)
    'http://127.0.0.1:8000/'
    """
    shown = f"[{host}]" if ":" in host and not host.startswith("[") else host
    return f"{scheme}://{shown}:{port}/"


@contextmanager
def owner_only(text: str) -> Iterator[Path]:
    """``text`` in a new file only this user may read or write (0600), removed after the block."""
    import tempfile

    fd, name = tempfile.mkstemp(prefix="tournament-serve-", suffix=".json")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        yield Path(name)
    finally:
        Path(name).unlink(missing_ok=True)


def public_base(given: str | None, host: str, port: int, scheme: str = "http") -> str | None:
    """Where the table cards' links point: ``--public-url`` as given (checked), else, when the
    server listens beyond this machine, its address on the network; ``None``: the address the
    organizer's browser used (this machine only)."""
    from urllib.parse import urlsplit

    if given is not None:
        parts = urlsplit(given.strip())
        if parts.scheme not in ("http", "https") or not parts.hostname or parts.query:
            needs = N_(
                "--public-url needs an address such as http://192.168.1.20:8000, not %(url)r"
            )
            fail(t(needs, url=given))
        if scheme == "https" and parts.scheme == "http":
            fail(
                t("the server speaks https (--ssl-certfile): --public-url must start with https://")
            )
        return given.strip().rstrip("/")
    if host in LOCAL:
        return None
    address = network_address() if host in ANYWHERE else host
    if address is None:
        return None
    return f"{scheme}://[{address}]:{port}" if ":" in address else f"{scheme}://{address}:{port}"


ANYWHERE = ("0.0.0.0", "::", "")


def network_address() -> str | None:
    """This machine's address on its network (the one its default route leaves from; no packet
    is sent), or ``None`` when it has none but loopback."""
    import ipaddress
    import socket

    candidates = []
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))  # (TEST-NET-1: connecting a UDP socket sends nothing)
            candidates.append(s.getsockname()[0])
    except OSError:
        pass
    try:
        candidates += socket.gethostbyname_ex(socket.gethostname())[2]
    except OSError:
        pass
    for address in candidates:
        if not ipaddress.ip_address(address).is_loopback:
            return str(address)
    return None


def certificate(cert: Path | None, key: Path | None) -> dict[str, Any]:
    """uvicorn's certificate options, once the certificate and its key are known to load
    together (one sentence if not; nothing given: plain http)."""
    import ssl

    from exports.i18n import N_  # (marks the ids for the catalogue's extraction)
    from tournament.cli.words import t

    if cert is None and key is None:
        return {}
    if cert is None or key is None:
        fail(t(N_("--ssl-certfile and --ssl-keyfile go together: give both, or neither")))
    try:
        ssl.create_default_context(ssl.Purpose.CLIENT_AUTH).load_cert_chain(cert, key)
    except (OSError, ssl.SSLError, ValueError) as e:
        why = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
        fail(t(N_("the certificate %(cert)s and its key %(key)s cannot be used: %(why)s"),
               cert=cert, key=key, why=why))  # fmt: skip
    return {"ssl_certfile": str(cert), "ssl_keyfile": str(key)}


def season_of(file: Path, where: Any) -> Path:
    """The season file, once it is known to name the served tournament (one sentence if not)."""
    from tournament.season.config import load_season
    from tournament.services.stores import SqliteFile

    found = load_season(file)  # a mistake in it: its own sentence
    if not isinstance(where, SqliteFile) or where.path.resolve() not in found.sources:
        fail(
            t(
                "the season %(file)s does not name the tournament at %(where)s",
                file=file,
                where=where,
            )
        )
    return file.resolve()


def descriptors() -> int | None:
    """The open-file limit, the soft one raised to the hard one where the system lets it
    (``None``: no bound is known, or there is none)."""
    try:
        import resource
    except ImportError:  # not a POSIX system
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 16)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        except (ValueError, OSError):  # not allowed here: the soft limit it is
            pass
        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    return None if soft == resource.RLIM_INFINITY else int(soft)


def open_files() -> int:
    """How many files this process has open now (a guess where the system does not say)."""
    for folder in ("/proc/self/fd", "/dev/fd"):
        try:
            return max(len(os.listdir(folder)) - 1, 3)  # (less the listing's own)
        except OSError:
            continue
    return 16


@dataclass(frozen=True)
class Plan:
    """What a server can hold within its open-file limit: live streams, connections in all
    (streams and pages: uvicorn answers 503 past them), and threads gathering pages."""

    streams: int
    connections: int
    threads: int


def database_threads(workers: int, live_threads: int) -> int:
    """The page threads each of ``workers`` processes may run on PostgreSQL within
    :data:`CONNECTIONS`: a thread holds at most two (one of the store's pool, one to read the
    read models), as the live task's threads do, and a process two more (its LISTEN and its
    writers' lock).

    >>> database_threads(1, 4), database_threads(2, 4), database_threads(8, 4)
    (35, 15, 2)
    """
    return max(2, (CONNECTIONS // workers - 2) // 2 - live_threads)


def budget(limit: int | None, open_now: int, live_threads: int) -> Plan | None:
    """The server's plan under ``limit`` open files, ``open_now`` of them open already, the
    live task running ``live_threads`` threads: a quarter of what is left for the pages (their
    threads' connections to the store, and their sockets), the rest for the live streams
    (``None``: no limit, no plan)."""
    if limit is None:
        return None
    spare = limit - open_now - OWN - live_threads * PER_THREAD
    pages = max(spare // 4, 0)
    threads = min(max(pages // (3 * PER_THREAD), 1), MAX_THREADS)
    sockets = max(pages - threads * PER_THREAD, 4)
    streams = max(spare - pages, 1)
    return Plan(streams=streams, connections=streams + sockets, threads=threads)
