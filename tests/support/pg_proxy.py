"""A TCP proxy on loopback between the app and the throwaway PostgreSQL cluster, which cuts a connection at the
worst moment: right after it passed on a COMMIT, so that PostgreSQL commits and its answer is lost (`cut_after`),
or just before, so that the COMMIT never arrives (`cut_before`); and which can end every other connection and
refuse new ones, as a server gone would (`then_refuse`, until `refusing` is cleared).

A COMMIT is PostgreSQL's simple-query message `Q`, its length and `COMMIT\\0`: how psycopg ends a transaction.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from urllib.parse import urlsplit, urlunsplit

COMMIT = b"Q\x00\x00\x00\x0bCOMMIT\x00"
ANSWER_SECONDS = 0.5  # after passing a COMMIT on, the server's answer is waited for this long, then dropped


class Proxy:
    """Listens on a free loopback port and passes every connection on to `upstream` (host, port)."""

    def __init__(self, upstream: tuple[str, int]):
        self.upstream = upstream
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.refusing = threading.Event()  # new connections closed at once
        self.lock = threading.Lock()
        self.armed: tuple[str, bool, bytes] | None = None  # (how, then refuse, what the transaction sent) for a COMMIT
        self.cuts = 0
        self.sockets: list[socket.socket] = []
        self.closed = False
        threading.Thread(target=self.accept, name="pg-proxy", daemon=True).start()

    def dsn(self, dsn: str) -> str:
        """The address `dsn` (the cluster's) reached through the proxy."""
        parts = urlsplit(dsn)
        netloc = f"{parts.username}@127.0.0.1:{self.port}" if parts.username else f"127.0.0.1:{self.port}"
        return urlunsplit(parts._replace(netloc=netloc))

    def cut_after(self, then_refuse: bool = False, of: bytes = b"") -> None:
        """The next COMMIT (of a transaction that sent the bytes `of`, such as a match id among its values) is passed
        on, the server's answer dropped and the connection closed both ways."""
        with self.lock:
            self.armed = ("after", then_refuse, of)

    def cut_before(self, then_refuse: bool = False, of: bytes = b"") -> None:
        """The next COMMIT (of a transaction that sent `of`) is not passed on: the connection is closed instead."""
        with self.lock:
            self.armed = ("before", then_refuse, of)

    def accept(self) -> None:
        while not self.closed:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if self.refusing.is_set():
                client.close()
                continue
            try:
                server = socket.create_connection(self.upstream, timeout=10)
            except OSError:
                client.close()
                continue
            server.settimeout(None)
            self.sockets += [client, server]
            muted = threading.Event()
            threading.Thread(target=self.pump_out, args=(client, server, muted), daemon=True).start()
            threading.Thread(target=self.pump_back, args=(server, client, muted), daemon=True).start()

    def pump_out(self, client: socket.socket, server: socket.socket, muted: threading.Event) -> None:
        """Client to server, watching for COMMIT."""
        sent = b""  # what the client sent since its last COMMIT
        with contextlib.suppress(OSError):
            while data := client.recv(65536):
                at = data.find(COMMIT)
                sent = sent[-65536:] + (data if at < 0 else data[:at])
                with self.lock:
                    armed = self.armed if at >= 0 and self.armed and self.armed[2] in sent else None
                    if armed:
                        self.armed, self.cuts = None, self.cuts + 1
                if at >= 0:
                    sent = b""
                if armed is None:
                    server.sendall(data)
                    continue
                mode, then_refuse, _ = armed
                muted.set()
                if then_refuse:  # the server gone: every other connection ends too, and no new one is let in
                    self.refusing.set()
                    close(*[other for other in self.sockets if other not in (client, server)])
                if mode == "after":
                    server.sendall(data[:at + len(COMMIT)])
                    time.sleep(ANSWER_SECONDS)  # the server commits; its answer goes nowhere
                else:
                    server.sendall(data[:at])
                break
        close(client, server)

    @staticmethod
    def pump_back(server: socket.socket, client: socket.socket, muted: threading.Event) -> None:
        """Server to client, unless muted by a cut."""
        with contextlib.suppress(OSError):
            while data := server.recv(65536):
                if not muted.is_set():
                    client.sendall(data)
        if not muted.is_set():
            close(client, server)

    def close(self) -> None:
        self.closed = True
        self.listener.close()
        close(*self.sockets)


def close(*sockets: socket.socket) -> None:
    for sock in sockets:
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)
        with contextlib.suppress(OSError):
            sock.close()
