"""One client cannot take the room: while one address holds 10,000 connections (streams, or requests whose
body never comes), a phone at another address is answered within a second; a body that does not arrive in
time is cut; and the streams of phones that left are freed at once, not at their next idle comment.

Against the server `make serve` starts (`gunicorn.conf.py`: two gevent workers), over raw sockets on
loopback only: the whole of 127.0.0.0/8 is loopback, so the crowd comes from 127.0.0.1 and the phone from
127.0.0.2 (its sockets bound to that source address). Bounded in count (10,000 sockets, the file descriptor
limit raised to its hard limit for them) and in time (each phase has a deadline); every socket is closed at
the end.
"""

from __future__ import annotations

import contextlib
import json
import resource
import runpy
import selectors
import socket
import time
from urllib.parse import urlsplit

import pytest
from gunicorn_server import CONFIG, call, gunicorn, serve

from api import worker

CROWD = "127.0.0.1"  # one client (a script at the club's Wi-Fi) holding connections
PHONE = "127.0.0.2"  # another phone, which must still be answered
HELD = 10_000
OPEN_SECONDS = 20.0  # for the crowd's connections to be opened
HOLD_SECONDS = 5.0  # the phone taps and reads this long while the crowd holds its connections
PHONE_TIMEOUT = 1.0  # a phone's request that takes longer fails the test
FREED_SECONDS = 3.0  # a stream whose phone left is freed within this (the idle comment comes every 15 s)
SLACK_SECONDS = 4.0  # on top of a deadline, for a busy machine
LIMIT = worker.MAX_CONNECTIONS_PER_CLIENT  # the default, per worker
WORKERS = 2


@pytest.fixture(scope="module", autouse=True)
def file_descriptors():
    """Enough file descriptors for the crowd's sockets (and, inherited, the server's): the soft limit raised
    to the hard one."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = HELD + 1000
    assert hard == resource.RLIM_INFINITY or hard >= wanted, f"this test needs {wanted} file descriptors: ulimit -Hn"
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, wanted) if hard == resource.RLIM_INFINITY else hard, hard))
    yield
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """One server for the tests that hold few connections."""
    with serve(tmp_path_factory.mktemp("connections") / "referee.db") as base:
        yield base


def address(base: str) -> tuple[str, int]:
    url = urlsplit(base)
    return url.hostname, url.port


def crowd(base: str, request: bytes, count: int = HELD) -> list[socket.socket]:
    """`count` connections from CROWD, each sent `request` (which never ends, or is a stream): the open ones."""
    held, deadline = [], time.monotonic() + OPEN_SECONDS
    while len(held) < count and time.monotonic() < deadline:
        try:
            sock = socket.create_connection(address(base), timeout=2, source_address=(CROWD, 0))
        except OSError:
            continue
        try:
            sock.sendall(request)
        except OSError:
            pass  # refused at once: closed by the server, which is what it may do
        held.append(sock)
    return held


def closed_by_server(sock: socket.socket) -> bool:
    """Whether the server closed this connection (after an answer or not); reads what it was sent."""
    sock.setblocking(False)
    try:
        while True:
            if not sock.recv(65536):
                return True
    except BlockingIOError:
        return False
    except OSError:
        return True


def answered(sock: socket.socket) -> bytes:
    """What the server sent on this connection, up to now (it is read without waiting)."""
    sock.setblocking(False)
    data = b""
    with contextlib.suppress(OSError):
        while part := sock.recv(65536):
            data += part
    return data


def phone_taps(base: str, match: dict) -> int:
    """A phone at PHONE taps and reads for HOLD_SECONDS, each request answered within PHONE_TIMEOUT; opens a
    stream too, sent its first state within PHONE_TIMEOUT. Answers how many requests were answered."""
    done, seat, started = 0, 0, time.monotonic()
    while time.monotonic() - started < HOLD_SECONDS:
        try:
            status, answer = call(base, "POST", f"/api/matches/{match['id']}/events",
                                  {"type": "penalty", "seat": seat, "points": 1}, match["key"],
                                  timeout=PHONE_TIMEOUT, source=PHONE)
            assert status == 201, answer
            status, state = call(base, "GET", f"/api/matches/{match['id']}", timeout=PHONE_TIMEOUT, source=PHONE)
            assert status == 200 and state["seq"] == answer["event"]["seq"]
            status, games = call(base, "GET", "/api/games", timeout=PHONE_TIMEOUT, source=PHONE)
            assert status == 200
        except TimeoutError:
            pytest.fail(f"a phone at {PHONE} was not answered within {PHONE_TIMEOUT} s after {done} answers")
        done, seat = done + 3, 1 - seat
        time.sleep(0.05)
    began = time.monotonic()
    with socket.create_connection(address(base), timeout=PHONE_TIMEOUT, source_address=(PHONE, 0)) as follower:
        follower.sendall(f"GET /api/matches/{match['id']}/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        got = b""
        while b"\nid: " not in got and time.monotonic() - began < PHONE_TIMEOUT:
            got += follower.recv(65536)
        assert b"\nid: " in got, f"a phone's stream was not sent the state within {PHONE_TIMEOUT} s"
    return done + 1


def new_match(base: str) -> dict:
    status, match = call(base, "POST", "/api/matches", {"game": "ogorek", "players": ["Ala", "Ola"],
                                                        "options": {"limit": 1000}}, source=PHONE)
    assert status == 201, match
    return match


UNFINISHED = (b"POST /api/matches HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
              b"Content-Length: 1000\r\n\r\n{")


@pytest.mark.server
@pytest.mark.timed  # a phone answered within a second while one address holds 10,000 connections: alone
@pytest.mark.parametrize("what", ["streams", "unfinished bodies"])
def test_a_phone_is_answered_within_a_second_while_one_address_holds_10000_connections(tmp_path, what):
    with serve(tmp_path / "referee.db") as base:
        match = new_match(base)
        request = (f"GET /api/matches/{match['id']}/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()
                   if what == "streams" else UNFINISHED)
        started = time.monotonic()
        held = crowd(base, request)
        try:
            opened = time.monotonic() - started
            taps = phone_taps(base, match)
            assert len(held) == HELD, f"only {len(held)} of the crowd's connections could be opened"
            still = [sock for sock in held if not closed_by_server(sock)]
            refused = [sock for sock in held if sock not in set(still)]
            assert len(still) <= LIMIT * WORKERS, f"{len(still)} connections of one address held"
            sample = answered(refused[-1]) if refused else b""
        finally:
            for sock in held:
                sock.close()
    print(f"\n{HELD} {what} from {CROWD} opened in {opened:.1f} s: {len(still)} held (at most {LIMIT} per worker), "
          f"{len(refused)} refused; a phone at {PHONE} had {taps} answers, each within {PHONE_TIMEOUT} s")
    if sample:  # a refusal says why, in the one error shape, when the client is still there to read it
        head, _, body = sample.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 429 ") and b"Retry-After: " in head, head
        assert json.loads(body)["error"]["code"] == "too_many_connections"


@pytest.mark.server
@pytest.mark.timed  # a phone answered within a second while one address holds 10,000 connections: alone
def test_the_limit_is_the_setting(tmp_path):
    with gunicorn(env={"KIBIC_DB": str(tmp_path / "referee.db"), "KIBIC_MAX_CONNECTIONS_PER_CLIENT": "5"}) as base:
        for _ in range(4):  # both workers have loaded the app (and take connections)
            assert call(base, "GET", "/api/games", source=PHONE)[0] == 200
        held = crowd(base, b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ", 40)  # heads never finished
        try:
            deadline, still = time.monotonic() + 4, held
            while len(still) > 5 * WORKERS and time.monotonic() < deadline:
                time.sleep(0.1)
                still = [sock for sock in still if not closed_by_server(sock)]
            assert call(base, "GET", "/api/games", timeout=PHONE_TIMEOUT, source=PHONE)[0] == 200
        finally:
            for sock in held:
                sock.close()
    assert len(held) == 40 and 5 <= len(still) <= 5 * WORKERS, f"{len(still)} held"


def server_sockets(port: int, state: str) -> int:
    """How many of the server's sockets on `port` are in `state` ("08": CLOSE_WAIT, the client has closed its
    side and the server has not yet closed its own), from /proc/net/tcp."""
    count = 0
    with open("/proc/net/tcp", encoding="ascii") as table:
        next(table)
        for line in table:
            fields = line.split()
            if int(fields[1].split(":")[1], 16) == port and fields[3] == state:
                count += 1
    return count


@pytest.mark.server
@pytest.mark.timed  # a phone answered within a second while one address holds 10,000 connections: alone
def test_the_streams_of_phones_that_left_are_freed_within_seconds(server):
    phones = [f"127.0.1.{n}" for n in range(1, 11)]  # ten phones' addresses, ten streams each
    match = new_match(server)
    selector, streams = selectors.DefaultSelector(), {}
    try:
        for source in phones:
            for _ in range(10):
                follower = socket.create_connection(address(server), timeout=5, source_address=(source, 0))
                follower.sendall(f"GET /api/matches/{match['id']}/stream HTTP/1.1\r\nHost: x\r\n\r\n".encode())
                follower.setblocking(False)
                selector.register(follower, selectors.EVENT_READ)
                streams[follower] = b""
        deadline = time.monotonic() + 30
        while any(b"\nid: " not in got for got in streams.values()) and time.monotonic() < deadline:
            for key, _ in selector.select(timeout=0.2):
                streams[key.fileobj] += key.fileobj.recv(65536)
        assert all(b"\nid: " in got for got in streams.values()), "not every stream was sent its first state"
    finally:
        selector.close()
        for follower in streams:
            follower.close()  # the phones leave
    left, port = time.monotonic(), address(server)[1]
    while server_sockets(port, "08") and time.monotonic() - left < 20:
        time.sleep(0.1)
    freed, waiting = time.monotonic() - left, server_sockets(port, "08")
    print(f"\n{len(streams)} streams whose phones left freed in {freed:.1f} s")
    assert waiting == 0 and freed < FREED_SECONDS, f"{waiting} streams still held after {freed:.1f} s"


def trickle(base: str, head: bytes, byte_every: float, seconds: float) -> tuple[float, bytes]:
    """Sends `head`, then a space every `byte_every` s (a byte of a body, or of a head) until the server
    answers or closes, or `seconds` pass: (when the server answered or closed, what it sent)."""
    for _ in range(4):  # both workers have loaded the app: a worker still loading it adds its time
        assert call(base, "GET", "/api/games")[0] == 200
    with socket.create_connection(address(base), timeout=5) as sock:
        began = time.monotonic()
        sock.sendall(head)
        got = b""
        while time.monotonic() - began < seconds:
            sock.settimeout(byte_every)
            try:
                part = sock.recv(65536)
            except TimeoutError:
                try:
                    sock.sendall(b" ")
                except OSError:
                    return time.monotonic() - began, got
                continue
            except OSError:
                return time.monotonic() - began, got
            if not part:
                return time.monotonic() - began, got
            got += part
        return time.monotonic() - began, got


@pytest.mark.server
# a deadline of seconds, with SLACK_SECONDS for a busy machine: shares the cores
def test_a_body_trickled_a_byte_a_second_is_cut_at_its_deadline(server):
    deadline = worker.BODY_SECONDS
    head = (b"POST /api/matches HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Content-Length: 1000\r\n\r\n{")
    took, got = trickle(server, head, 1.0, deadline + SLACK_SECONDS + 6)
    print(f"\na body trickled a byte a second: cut after {took:.1f} s: {got[:12]!r}")
    assert took < deadline + SLACK_SECONDS, f"a trickled body held for {took:.1f} s"
    assert took > deadline - 1  # not cut before its time
    head, _, body = got.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 408 ") and json.loads(body)["error"]["code"] == "body_too_slow", got
    assert b"Connection: close" in head


@pytest.mark.server
# a deadline of seconds, with SLACK_SECONDS for a busy machine: shares the cores
def test_a_head_trickled_a_byte_a_second_is_cut_at_its_deadline(server):
    """The head has its own deadline (gunicorn's keep-alive time, 5 s): a guard that it stays."""
    keepalive = runpy.run_path(str(CONFIG))["keepalive"]
    took, got = trickle(server, b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ", 1.0, 20)
    print(f"\na head trickled a byte a second: cut after {took:.1f} s")
    assert took < keepalive + SLACK_SECONDS and not got


@pytest.mark.parametrize(("one", "other", "same"), [
    ("127.0.0.1", "127.0.0.2", False),
    ("127.0.0.1", "::ffff:127.0.0.1", True),  # an IPv4 client written as IPv6
    ("2001:db8:1:2::1", "2001:db8:1:2:ffff:ffff:ffff:ffff", True),  # one /64: one home, one club, one client
    ("2001:db8:1:2::1", "2001:db8:1:3::1", False),
    ("fe80::1%eth0", "fe80::2", True),
])
def test_addresses_count_as_their_client(one, other, same):
    assert (worker.client_of(one) == worker.client_of(other)) is same


def test_a_trusted_proxy_is_known_however_its_address_is_written():
    configured = worker.KibicWorker.configured(type("Settings", (), {"max_connections_per_client": 5,
                                                                     "trusted_proxies": ["::ffff:10.0.0.1"]}))
    assert configured.limit == 5 and worker.plain("10.0.0.1") in configured.trusted
    assert worker.plain("::ffff:10.0.0.1") == "10.0.0.1" and worker.plain("2001:DB8::1") == "2001:db8::1"
