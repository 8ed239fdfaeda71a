"""Slow clients do not stop the table: while 200 connections to the server that `make serve` starts send
their requests a byte at a time, a phone's requests are answered within a second each.

Bounded in count (200 sockets, to 127.0.0.1 only, each from an address of its own in 127.0.3.0/24: the
server limits the connections of one address) and in time (the slow clients trickle for
`TRICKLE_SECONDS`); every socket is closed at the end.
"""

from __future__ import annotations

import socket
import threading
import time
from urllib.parse import urlsplit

import pytest
from gunicorn_server import call, serve

SLOW_CLIENTS = 200
TRICKLE_SECONDS = 4.0
BYTE_EVERY = 0.5  # seconds between two bytes of a slow client's request
PHONE_TIMEOUT = 1.0  # a phone's request that takes longer fails the test
REQUEST = b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: a phone on a very bad network\r\n"


def trickle(base: str, stop: threading.Event, opened: list[socket.socket]) -> None:
    """SLOW_CLIENTS connections, each sending its request's headers a byte at a time, never finishing them."""
    url = urlsplit(base)
    for number in range(SLOW_CLIENTS):  # each from a loopback address of its own, as phones at a club's Wi-Fi
        opened.append(socket.create_connection((url.hostname, url.port), timeout=5,
                                               source_address=(f"127.0.3.{number + 1}", 0)))
    sent = 0
    while not stop.is_set() and sent < len(REQUEST):
        for slow in opened:
            slow.sendall(REQUEST[sent:sent + 1])
        sent += 1
        stop.wait(BYTE_EVERY)


def phone(base: str, method: str, path: str, body=None, key: str | None = None) -> tuple[int, dict]:
    return call(base, method, path, body, key, timeout=PHONE_TIMEOUT)


@pytest.mark.server
@pytest.mark.timed  # a phone answered while 200 slow clients hold connections: alone
def test_a_phone_is_answered_while_200_slow_clients_hold_connections(tmp_path):
    stop, opened = threading.Event(), []
    with serve(tmp_path / "referee.db") as base:
        slow = threading.Thread(target=trickle, args=(base, stop, opened))
        slow.start()
        try:
            deadline = time.monotonic() + 5
            while len(opened) < SLOW_CLIENTS and time.monotonic() < deadline:
                time.sleep(0.05)
            assert len(opened) == SLOW_CLIENTS
            # the match is set up without the phone's 1 s bound: a worker's first request opens its connection
            status, match = call(base, "POST", "/api/matches",
                                 {"game": "ogorek", "players": ["Ala", "Ola"], "options": {"limit": 1000}})
            assert status == 201
            answered, started = 0, time.monotonic()
            seat = 1
            while time.monotonic() - started < TRICKLE_SECONDS:
                status, answer = phone(base, "POST", f"/api/matches/{match['id']}/events",
                                       {"type": "penalty", "seat": seat, "points": 1}, match["key"])
                assert status == 201, answer
                status, state = phone(base, "GET", f"/api/matches/{match['id']}")
                assert status == 200 and state["seq"] == answer["event"]["seq"]
                answered, seat = answered + 2, 1 - seat
                time.sleep(0.1)
            assert not stop.is_set() and slow.is_alive()  # the slow clients were there all along
        finally:
            stop.set()
            slow.join(timeout=10)
            for each in opened:
                each.close()
    print(f"\nslow clients: {SLOW_CLIENTS} connections trickling a byte every {BYTE_EVERY} s; "
          f"{answered} requests of a phone answered, each within {PHONE_TIMEOUT} s")
    assert answered >= 10
