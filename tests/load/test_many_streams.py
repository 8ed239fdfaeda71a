"""Thousands of open streams: the server that `make serve` starts (two gevent workers) holds 2,000 phones
following 20 tables on the stream, each of them sent the state as it stands, while a scorer's taps and
reads are answered within a second each; every follower of the tapped table gets every tap.

One client thread, non-blocking sockets read with `selectors`; bounded in count (2,000 sockets, to
127.0.0.1 only, each from a loopback address of its own in 127.2.0.0/16, as the phones of a club's Wi-Fi: the
server limits each address's connections) and in time (each phase has a deadline); every socket is closed at
the end.
"""

from __future__ import annotations

import selectors
import socket
import time
from urllib.parse import urlsplit

import pytest
from gunicorn_server import call, serve

TABLES = 20
FOLLOWERS = 100  # per table: 2,000 streams in all
TAPS = 10
PHONE_TIMEOUT = 1.0  # a scorer's request that takes longer fails the test
OPEN_SECONDS = 60.0  # for all the streams to be open and sent their first state
FOLLOW_SECONDS = 5.0  # for every follower of the tapped table to get the last tap


def phone(base: str, method: str, path: str, body=None, key: str | None = None) -> tuple[int, dict]:
    return call(base, method, path, body, key, timeout=PHONE_TIMEOUT)


class Followers:
    """Streams read without blocking: for each, the latest `id` it was sent."""

    def __init__(self, base: str):
        url = urlsplit(base)
        self.address = (url.hostname, url.port)
        self.selector = selectors.DefaultSelector()
        self.seen: dict[socket.socket, int] = {}
        self.buffers: dict[socket.socket, bytes] = {}
        self.match: dict[socket.socket, str] = {}

    def open(self, match_id: str) -> None:
        n = len(self.seen)  # each phone from a loopback address of its own (the server limits each address's)
        source = f"127.2.{n // 250}.{n % 250 + 1}"
        follower = socket.create_connection(self.address, timeout=5, source_address=(source, 0))
        follower.sendall(f"GET /api/matches/{match_id}/stream HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n".encode())
        follower.setblocking(False)
        self.selector.register(follower, selectors.EVENT_READ)
        self.seen[follower], self.buffers[follower], self.match[follower] = -1, b"", match_id

    def read(self, seconds: float) -> None:
        """Reads whatever the streams were sent, for up to `seconds`."""
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            ready = self.selector.select(timeout=min(left, 0.05))
            if not ready:
                return
            for key, _ in ready:
                follower = key.fileobj
                data = follower.recv(65536)
                assert data, f"a stream of match {self.match[follower]} was closed by the server"
                lines = (self.buffers[follower] + data).split(b"\n")
                self.buffers[follower] = lines.pop()
                for line in lines:
                    if line.startswith(b"id: "):
                        self.seen[follower] = int(line[4:])

    def wait(self, done, seconds: float, what: str) -> None:
        deadline = time.monotonic() + seconds
        while not done() and time.monotonic() < deadline:
            self.read(0.2)
        assert done(), what

    def close(self) -> None:
        for follower in self.seen:
            follower.close()
        self.selector.close()


@pytest.mark.server
@pytest.mark.timed  # a scorer answered within a second while 2,000 streams are held: alone
def test_2000_streams_are_held_while_a_scorer_is_answered_within_a_second(tmp_path):
    with serve(tmp_path / "referee.db") as base:
        matches = []
        for _ in range(TABLES):
            status, match = phone(base, "POST", "/api/matches", {"game": "ogorek", "players": ["Ala", "Ola"],
                                                                 "options": {"limit": 1000}})
            assert status == 201
            matches.append(match)
        followers = Followers(base)
        try:
            started = time.monotonic()
            for match in matches:
                for _ in range(FOLLOWERS):
                    followers.open(match["id"])
                followers.read(0)
            followers.wait(lambda: min(followers.seen.values()) == 0, OPEN_SECONDS,
                           "not every stream was sent the state it starts with")
            opened = time.monotonic() - started

            tapped, slowest = matches[0], 0.0
            for tap in range(TAPS):
                began = time.monotonic()
                status, answer = phone(base, "POST", f"/api/matches/{tapped['id']}/events",
                                       {"type": "penalty", "seat": tap % 2, "points": 1}, tapped["key"])
                assert status == 201, answer
                status, state = phone(base, "GET", f"/api/matches/{tapped['id']}")
                assert status == 200 and state["seq"] == tap + 1
                slowest = max(slowest, time.monotonic() - began)
                followers.read(0.1)
            tapped_followers = [each for each, match_id in followers.match.items() if match_id == tapped["id"]]
            followers.wait(lambda: all(followers.seen[each] == TAPS for each in tapped_followers), FOLLOW_SECONDS,
                           "a follower of the tapped table did not get its last tap")
            assert all(seq == 0 for each, seq in followers.seen.items() if followers.match[each] != tapped["id"])
            held = len(followers.seen)
        finally:
            followers.close()
    print(f"\n{held} streams open ({TABLES} tables, {FOLLOWERS} phones each), all sent their first state in "
          f"{opened:.1f} s; {TAPS} taps and reads of a scorer meanwhile, the slowest pair in {slowest * 1000:.0f} ms; "
          f"the tapped table's {FOLLOWERS} followers got every tap")
    assert held == TABLES * FOLLOWERS
