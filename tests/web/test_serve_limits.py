"""``tournament serve`` within its open-file limit: the real server in a process of its own on
127.0.0.1, its limit set low (soft and hard: raising it cannot help), more live-stream clients
than it can hold. The excess is refused with 503 and Retry-After, the pages keep answering, the
streams it holds keep flowing, and a failure repeated thousands of times is written once."""

from __future__ import annotations

import logging
import os
import resource
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tournament.cli.serve import Repeats, budget

from .conftest import PASSPHRASE, build, free_port

LIMIT = 128  # the server's open files, soft and hard
CLIENTS = 150  # more live streams than that
ROOT = Path(__file__).resolve().parents[2]


def env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT)}


def limited(soft: int, hard: int) -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def listening(process: subprocess.Popen[bytes], port: int, stderr: Path) -> None:
    """Wait until the server ``process`` accepts connections on ``port`` (its stderr said if
    it ends first)."""
    deadline = time.monotonic() + 15
    while True:
        assert process.poll() is None, stderr.read_text()
        assert time.monotonic() < deadline, "the server did not start"
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.05)


class Served:
    """``tournament serve`` in a child process, its stderr in a file."""

    def __init__(self, db: Path, stderr: Path) -> None:
        self.port = free_port()
        self.stderr = stderr
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tournament",
                "--db",
                str(db),
                "serve",
                "--port",
                str(self.port),
                "--organizer-passphrase",
                PASSPHRASE,
            ],
            stdout=subprocess.DEVNULL,
            stderr=stderr.open("wb"),
            env=env(),
            preexec_fn=lambda: limited(LIMIT, LIMIT),
        )
        listening(self.process, self.port, stderr)

    def get(self, path: str, close: bool = True) -> tuple[socket.socket, int, dict[str, str]]:
        """A GET on a socket of its own: the socket, the status and the headers (the body is
        left unread: a stream's socket stays open)."""
        s = socket.create_connection(("127.0.0.1", self.port), timeout=5)
        header = "Connection: close\r\n" if close else ""
        s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{header}\r\n".encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = s.recv(4096)
            assert chunk, f"{path}: the server closed the connection without an answer"
            head += chunk
        lines = head.split(b"\r\n\r\n")[0].decode("latin-1").split("\r\n")
        fields = dict(line.split(":", 1) for line in lines[1:])
        headers = {k.strip().lower(): v.strip() for k, v in fields.items()}
        return s, int(lines[0].split()[1]), headers

    def page(self, path: str) -> int:
        s, status, _ = self.get(path)
        s.close()
        return status

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    build(tmp_path / "t.db")
    server = Served(tmp_path / "t.db", tmp_path / "stderr")
    try:
        yield server
    finally:
        server.stop()


def test_more_streams_than_files_are_refused_and_the_pages_keep_answering(
    served: Served, tmp_path: Path
) -> None:
    held: list[socket.socket] = []
    refused: list[dict[str, str]] = []
    try:
        for _ in range(CLIENTS):
            s, status, headers = served.get("/api/live", close=False)
            if status == 200:
                held.append(s)
            else:
                assert status == 503, status
                refused.append(headers)
                s.close()
        # Held up to the plan's bound, well within the limit; the excess told when to retry.
        assert 0 < len(held) < LIMIT - 32
        assert len(held) + len(refused) == CLIENTS
        assert all(h["retry-after"].isdigit() for h in refused), refused[:3]
        assert len(os.listdir(f"/proc/{served.process.pid}/fd")) < LIMIT
        # The pages answer while every place is taken, again and again.
        for _ in range(10):
            assert served.page("/") == 200
            assert served.page("/standings") == 200
        # A stream held gets the next stored event, written by another process.
        subprocess.run(
            [sys.executable, "-m", "tournament", "--db", str(tmp_path / "t.db"),
             "match", "new", "tiro", "giallo", "blu"],  # fmt: skip
            check=True, capture_output=True, env=env(),
        )  # fmt: skip
        got = b""
        while b"Match.Started" not in got:
            chunk = held[0].recv(4096)
            assert chunk, "the stream closed"
            got += chunk
        # A place freed is a place taken again.
        held.pop().close()
        time.sleep(0.3)
        s, status, _ = served.get("/api/live", close=False)
        assert status == 200
        held.append(s)
    finally:
        for s in held:
            s.close()
        served.stop()
    # The refusals are said once with a count, not once each; the log stays small.
    log = served.stderr.read_text(encoding="utf-8")
    assert len(log.encode()) < 20_000, log[-2000:]
    assert "Traceback" not in log, log[-2000:]
    assert log.count("live streams refused") <= 2, log


def test_the_server_raises_its_soft_limit_to_the_hard_one() -> None:
    code = "from tournament.cli.serve import descriptors; print(descriptors())"
    r = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env(),
        preexec_fn=lambda: limited(64, 256), check=True,
    )  # fmt: skip
    assert r.stdout.strip() == "256"


def test_the_plan_keeps_a_reserve_for_pages_and_the_store() -> None:
    assert budget(None, 5, 4) is None
    for limit in (128, 1024, 4096, 1 << 20):
        plan = budget(limit, 5, 4)
        assert plan is not None
        assert 0 < plan.streams < plan.connections < limit - 5 - 32
        assert 1 <= plan.threads <= 40
    small = budget(128, 5, 4)
    assert small is not None and small.connections - small.streams >= 4
    assert budget(16, 5, 4) is not None  # below any sense: one stream, one thread, still a plan


def test_a_repeated_failure_is_written_once_then_counted() -> None:
    records: list[logging.LogRecord] = []
    logger = logging.getLogger("tests.repeats")
    logger.propagate = False
    handler = logging.Handler()
    handler.emit = records.append  # type: ignore[method-assign]
    logger.addHandler(handler)
    now = [0.0]
    repeats = Repeats(window=60, clock=lambda: now[0])
    logger.addFilter(repeats)

    def accept_fails() -> None:
        try:
            raise OSError(24, "Too many open files")
        except OSError:
            logger.exception("socket.accept() out of system resource")

    try:
        for _ in range(10_000):
            accept_fails()
        logger.error("another failure")
        logger.error("another failure")
        assert len(records) == 2 and records[0].exc_info is not None
        now[0] = 61.0
        accept_fails()
        assert len(records) == 3
        assert "9999 more times in 61 s" in records[2].getMessage() and records[2].exc_info is None
        repeats.report()  # what is counted and not yet written: written when the server stops
        assert len(records) == 4 and "another failure (the same, 1 more" in records[3].getMessage()
    finally:
        logger.removeFilter(repeats)
        logger.removeHandler(handler)
