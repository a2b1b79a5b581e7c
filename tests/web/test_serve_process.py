"""A real ``tournament serve`` process, one for the module, as an organizer runs it: its
answers when overloaded, and how it stops (#27). Live streams open when the server is told to
stop (SIGTERM, as a service manager stops it) end cleanly, each response complete and nothing
logged about them; the server says it stopped and exits with status 0. So do two workers on
PostgreSQL (a server of their own)."""

from __future__ import annotations

import resource
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.tournament.conftest import new_schema

from .conftest import PASSPHRASE, build, free_port
from .test_serve_limits import env, listening

STREAMS = 4
LIMIT = 128  # the server's open files: uvicorn holds some 40 connections within them
IDLE = 70  # connections opened and left idle, more than it holds


def limited() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (LIMIT, LIMIT))


class Process:
    """``tournament serve`` in a child process, its stderr in a file."""

    def __init__(self, db: Path, stderr: Path, *options: str) -> None:
        self.port, self.stderr = free_port(), stderr
        command = [sys.executable, "-m", "tournament", "--db", str(db), "serve"]
        command += ["--port", str(self.port), "--organizer-passphrase", PASSPHRASE, *options]
        self.process = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=stderr.open("wb"), env=env(),
            preexec_fn=limited,
        )  # fmt: skip
        listening(self.process, self.port, stderr)

    def ask(self, request: str) -> tuple[socket.socket, bytes]:
        """A request on a socket of its own: the socket and the answer's head (the body is
        left to read)."""
        s = socket.create_connection(("127.0.0.1", self.port), timeout=10)
        s.sendall(request.encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = s.recv(4096)
            assert chunk, "the server closed the connection without an answer"
            head += chunk
        return s, head

    def answering(self) -> None:
        """Wait until the server answers a page again (not 503)."""
        deadline = time.monotonic() + 10
        while True:
            s, head = self.ask("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            s.close()
            if head.startswith(b"HTTP/1.1 200"):
                return
            assert time.monotonic() < deadline, head
            time.sleep(0.05)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(5)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Process]:
    folder = tmp_path_factory.mktemp("serve")
    build(folder / "t.db")
    server = Process(folder / "t.db", folder / "stderr", "--https")  # (behind a TLS proxy)
    try:
        yield server
    finally:
        server.stop()


def test_past_its_connections_the_server_says_when_to_try_again(served: Process) -> None:
    """uvicorn's own 503 (past ``limit_concurrency``), not only the full stream's, carries
    Retry-After."""
    idle = [socket.create_connection(("127.0.0.1", served.port), timeout=10) for _ in range(IDLE)]
    try:
        s, head = served.ask("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        s.close()
    finally:
        for c in idle:
            c.close()
        served.answering()  # (once the idle ones' ends reach it)
    lines = head.decode("latin-1").split("\r\n")
    assert lines[0].startswith("HTTP/1.1 503"), head
    fields = dict(line.lower().split(":", 1) for line in lines[1:] if ":" in line)
    assert fields["retry-after"].strip().isdigit(), head


def test_behind_a_tls_proxy_the_cookies_are_marked_secure(served: Process) -> None:
    """``serve --https``: the room reaches the server over HTTPS through a proxy."""
    s, head = served.ask(
        "GET /organizer/ HTTP/1.1\r\nHost: torneo.example\r\nX-Forwarded-Proto: https\r\n"
        "Connection: close\r\n\r\n"
    )
    s.close()
    cookies = [line for line in head.decode("latin-1").split("\r\n")
               if line.lower().startswith("set-cookie:")]  # fmt: skip
    assert cookies and all("; secure" in c.lower() for c in cookies), head


def test_streams_open_at_a_sigterm_end_cleanly_and_the_server_says_it_stopped(
    served: Process,
) -> None:
    streams = []
    for _ in range(STREAMS):
        s, head = served.ask("GET /api/live HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 200"), head
        streams.append((s, head))
    served.process.send_signal(signal.SIGTERM)
    assert served.process.wait(20) == 0
    for s, head in streams:
        body = head.split(b"\r\n\r\n", 1)[1]
        while chunk := s.recv(4096):
            body += chunk
        s.close()
        assert body.endswith(b"0\r\n\r\n"), body[-200:]  # the chunked response completed
    log = served.stderr.read_text(encoding="utf-8")
    assert "ASGI callable returned without completing response" not in log, log
    assert "Traceback" not in log, log
    assert log.rstrip().endswith(f"stopped serving {served.stderr.parent / 't.db'}"), log


def test_workers_with_streams_open_stop_at_a_sigterm(postgres_server: Any, tmp_path: Path) -> None:
    """#27: ``serve --workers 2`` stops at a SIGTERM (a service manager's stop) with streams
    open on its workers: each worker ends its streams and its process, then the server."""
    db = new_schema(postgres_server, "p")
    build(db)
    server = Process(db, tmp_path / "stderr", "--workers", "2")  # type: ignore[arg-type]
    try:
        server.answering()
        streams = []
        for _ in range(STREAMS):
            s, head = server.ask("GET /api/live HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            assert head.startswith(b"HTTP/1.1 200"), head
            streams.append(s)
        server.process.send_signal(signal.SIGTERM)
        assert server.process.wait(20) == 0
        for s in streams:
            body = b""
            while chunk := s.recv(4096):
                body += chunk
            s.close()
            assert body.endswith(b"0\r\n\r\n"), body[-200:]  # each response completed
        log = server.stderr.read_text(encoding="utf-8")
        assert "Traceback" not in log, log
    finally:
        server.stop()
