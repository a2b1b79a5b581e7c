"""A TCP proxy on 127.0.0.1 between the program and a PostgreSQL server, which a test cuts.

The shared server is never restarted: the proxy plays its restart. :meth:`Proxy.cut_on` ends
every connection the moment the client sends the given bytes (a statement of the command's),
after telling the client what a server shutting down tells it (FATAL 57P01,
``AdminShutdown``) or nothing at all (``server closed the connection unexpectedly``);
:attr:`Proxy.down` refuses every new connection (a server not back yet).
"""

from __future__ import annotations

import socket
import struct
import threading
from collections.abc import Iterator
from contextlib import contextmanager


def admin_shutdown() -> bytes:
    """The ErrorResponse a PostgreSQL server sends each client as it shuts down."""
    fields = b"".join(
        code + text + b"\0"
        for code, text in (
            (b"S", b"FATAL"),
            (b"V", b"FATAL"),
            (b"C", b"57P01"),
            (b"M", b"terminating connection due to administrator command"),
        )
    )
    body = fields + b"\0"
    return b"E" + struct.pack("!I", len(body) + 4) + body


class Proxy:
    def __init__(self, host: str, port: int) -> None:
        self.upstream = (host, port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.down = False
        self.trigger: bytes | None = None
        self.fatal = True
        self.stay_down = False
        self.cuts = 0
        self.after: int | None = None  # cut at the client's n-th packet (counting them all)
        self.packets = 0
        self.lock = threading.Lock()
        self.pairs: list[tuple[socket.socket, socket.socket]] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def cut_on(self, trigger: bytes, fatal: bool = True, stay_down: bool = False) -> None:
        """Cut every connection once, when a client next sends ``trigger`` (``stay_down``: and
        refuse every connection after it, a server that is not back)."""
        self.trigger, self.fatal, self.stay_down = trigger, fatal, stay_down

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if self.down:
                client.close()
                continue
            try:
                server = socket.create_connection(self.upstream)
            except OSError:
                client.close()
                continue
            with self.lock:
                self.pairs.append((client, server))
            threading.Thread(target=self._pump, args=(client, server, True), daemon=True).start()
            threading.Thread(target=self._pump, args=(server, client, False), daemon=True).start()

    def _pump(self, source: socket.socket, target: socket.socket, from_client: bool) -> None:
        try:
            while data := source.recv(65536):
                trigger = self.trigger
                if from_client:
                    self.packets += 1
                if from_client and (
                    (trigger is not None and trigger in data) or self.packets == self.after
                ):
                    self.trigger = None
                    self.down = self.stay_down
                    self.cut(self.fatal)
                    return
                target.sendall(data)
        except OSError:
            pass
        finally:
            for s in (source, target):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def cut(self, fatal: bool = True) -> None:
        """End every open connection, as a server restarting does."""
        with self.lock:
            pairs, self.pairs = self.pairs, []
            self.cuts += 1
        for client, server in pairs:
            if fatal:
                try:
                    client.sendall(admin_shutdown())
                except OSError:
                    pass
            for s in (client, server):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                s.close()

    def close(self) -> None:
        self.listener.close()
        self.cut(fatal=False)


@contextmanager
def proxy(host: str, port: int) -> Iterator[Proxy]:
    p = Proxy(host, port)
    try:
        yield p
    finally:
        p.close()
