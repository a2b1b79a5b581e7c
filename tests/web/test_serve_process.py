"""A real ``tournament serve`` process, one for the module, as an organizer runs it: its
answers when overloaded, and how it stops (#27). Live streams open when the server is told to
stop (SIGTERM, as a service manager stops it) end cleanly, each response complete and nothing
logged about them; the server says it stopped and exits with status 0."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from .conftest import PASSPHRASE, build, free_port
from .test_serve_limits import env

STREAMS = 4


class Process:
    """``tournament serve`` in a child process, its stderr in a file."""

    def __init__(self, db: Path, stderr: Path, *options: str) -> None:
        self.port, self.stderr = free_port(), stderr
        command = [sys.executable, "-m", "tournament", "--db", str(db), "serve"]
        command += ["--port", str(self.port), "--organizer-passphrase", PASSPHRASE, *options]
        self.process = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=stderr.open("wb"), env=env()
        )
        deadline = time.monotonic() + 15
        while True:
            assert self.process.poll() is None, stderr.read_text()
            assert time.monotonic() < deadline, "the server did not start"
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.05)

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

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(5)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Process]:
    folder = tmp_path_factory.mktemp("serve")
    build(folder / "t.db")
    server = Process(folder / "t.db", folder / "stderr")
    try:
        yield server
    finally:
        server.stop()


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
