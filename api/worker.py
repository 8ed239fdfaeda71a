"""Kibic's gunicorn worker: gunicorn's gevent worker, with what keeps one client from taking the room.

- **Connections per client address.** Each worker holds at most `KIBIC_MAX_CONNECTIONS_PER_CLIENT`
  connections (default 100) from one client, whatever they do: streams, requests still arriving,
  kept-alive connections waiting for their next request. A client is an IPv4 address, or an IPv6 /64 (the
  least a home or a club is given, all of which one client may use). One more connection from it is
  answered at once with a `429 too_many_connections` written straight to its socket (no request read, no
  app run) and closed. The count is per worker (the workers share the listening socket and do not tell
  each other what they hold; the kernel gives each new connection to either), so with two workers one
  client holds at most twice the setting. `0` means no limit. Behind a proxy every connection comes from
  the proxy's address: the addresses in `KIBIC_TRUSTED_PROXIES` are not counted (the proxy limits its own
  clients); without it the whole room shares one count.
- **A body arrives in time.** A request's body must arrive whole within `BODY_SECONDS` of its head
  (`environ["wsgi.input"]` reads under that deadline, however slowly the bytes come); a late body is
  answered `408 body_too_slow` by the app (`api/bodies.py`) and its connection closed. The head itself must
  arrive within gunicorn's keep-alive time (`keepalive` in `api/gunicorn_conf.py`, 5 s, counted from the end of
  the previous request or from the connection's start): a whole request takes at most 15 s.
- **File descriptors.** The soft limit on open files is raised towards the hard one, so that a worker
  can hold the connections `worker_connections` lets it.
- **A reload keeps nobody waiting.** On SIGHUP gunicorn's master starts new workers and tells the old ones to
  stop (SIGTERM) at once; a gevent worker then stops taking connections within a second, while the new ones are
  still loading the app (seconds: the app's imports take 0.6 to 3 s, more on a busy machine), so every request of
  those seconds waited in the listening socket's queue, and a client bounded to a second gave up. A worker told
  to stop while younger workers are still loading (a reload) keeps serving until they are ready, answering each
  request with `Connection: close` meanwhile (the phones' next requests come on new connections, which the new
  workers take once ready), and only then stops taking connections and finishes what it serves. The workers tell
  each other where they are on a board of shared memory the master makes before it forks them (`Board`). Told
  to stop with no younger worker loading (a stop, fewer workers), it stops at once, as before; it waits at most
  gunicorn's `timeout` for its replacements.
- **A stop ends the streams whole.** Once a worker stops (a stop, a reload's old workers once the new ones are
  ready, the end of its requests), `environ["kibic.stopping"]` (an event) is set: the streams it serves end at
  once, whole (`api/stream.py`), and the phones' pages reconnect to the workers that go on, while the requests on
  their way are finished within gunicorn's `graceful_timeout`.

The streams of clients that left are the stream's own business (`api/stream.py` watches their sockets).

`api/gunicorn_conf.py` loads this file by its path, not as `api.worker`: gunicorn loads the worker's class in
its master process, before it forks the workers and before gevent patches them, and importing the `api`
package there would import the whole app unpatched. So this module imports nothing of the app: its settings
(`api/settings.py`, read by the configuration) are given to the class (`configured`).
"""

from __future__ import annotations

import errno
import ipaddress
import mmap
import os
import resource
import struct
import time

import gevent
from gevent import socket
from gunicorn import util
from gunicorn.config import Config
from gunicorn.workers.ggevent import GeventWorker

MAX_CONNECTIONS_PER_CLIENT = 100  # per worker, from one address: a big screen and a club's phones behind one NAT
# (api/settings.py's default of KIBIC_MAX_CONNECTIONS_PER_CLIENT is the same)
BODY_SECONDS = 10.0  # a request's body arrives whole within this of its head
RETRY_AFTER_SECONDS = 5
REFUSED_LOG_SECONDS = 60.0  # refusals are logged at most this often (with how many there were)


def refusal(limit: int) -> bytes:
    """The whole answer to a connection over the limit: a 429 in the one error shape, with the headers every
    JSON answer of the app carries."""
    body = ('{"error": {"code": "too_many_connections", "message": "Your address holds too many connections to '
            "this server already; close some (other tabs, or other devices behind the same router) and try again "
            f'in a few seconds.", "details": {{"limit": {limit}}}}}}}').encode()
    head = ("HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\nRetry-After: {RETRY_AFTER_SECONDS}\r\nConnection: close\r\n"
            "Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n"
            "Content-Security-Policy: default-src 'none'; frame-ancestors 'none'\r\nX-Frame-Options: DENY\r\n"
            "Referrer-Policy: no-referrer\r\n\r\n")
    return head.encode() + body


def client_of(address: str) -> str:
    """The client an address counts for: an IPv4 address itself (also written as IPv6, `::ffff:a.b.c.d`),
    an IPv6 address its /64."""
    if ":" not in address:
        return address
    try:
        ip = ipaddress.IPv6Address(address.partition("%")[0])
    except ValueError:
        return address
    if ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    return str(ipaddress.IPv6Network((ip, 64), strict=False))


def plain(address: str) -> str:
    """An address as one spelling: an IPv4 address written as IPv6 (`::ffff:a.b.c.d`) as IPv4."""
    try:
        ip = ipaddress.ip_address(address.partition("%")[0])
    except ValueError:
        return address
    mapped = getattr(ip, "ipv4_mapped", None)
    return str(mapped if mapped is not None else ip)


class BodyTooSlow(TimeoutError):
    "The request's body did not arrive whole within its deadline"


class Deadline:
    """A request's `wsgi.input` whose reads end by a deadline: one that would end later raises `BodyTooSlow`
    (and the connection is closed after the answer)."""

    def __init__(self, body, deadline: float, response):
        self.body = body
        self.deadline = deadline
        self.response = response  # gunicorn's Response: closed after its answer when the body was late

    def within(self, read, *args):
        left = self.deadline - time.monotonic()
        late = BodyTooSlow(f"the request's body did not arrive within {BODY_SECONDS:g} s")
        if left <= 0:
            self.late()
            raise late
        try:
            with gevent.Timeout(left, late):
                return read(*args)
        except BodyTooSlow:
            self.late()
            raise

    def late(self) -> None:
        close = getattr(self.response, "force_close", None)
        if close is not None:
            close()

    def read(self, size=None):
        return self.within(self.body.read, size)

    def readline(self, size=None):
        return self.within(self.body.readline, size)

    def readlines(self, size=None):
        return self.within(self.body.readlines, size)

    def __iter__(self):
        return self

    def __next__(self):
        line = self.readline()
        if not line:
            raise StopIteration
        return line


class Board:
    """Where each worker of one gunicorn master is, in shared memory made by the master before it forks them (so
    every worker, and the master, sees the same bytes): one slot per worker, by its age (gunicorn's count of the
    workers it started), holding (age, pid, state). A worker writes only its own slot."""

    SLOT = struct.Struct("qqq")
    SLOTS = 256  # far more workers than live at once: a slot is used again 256 workers later
    GONE, LOADING, READY = 0, 1, 2

    def __init__(self):
        self.memory = mmap.mmap(-1, self.SLOT.size * self.SLOTS)  # anonymous and shared with the forked workers

    def post(self, age: int, pid: int, state: int) -> None:
        at = (age % self.SLOTS) * self.SLOT.size
        self.memory[at:at + self.SLOT.size] = self.SLOT.pack(age, pid, state)

    def younger(self, age: int) -> list[tuple[int, int, int]]:
        """The (age, pid, state) of the workers started after the one of `age`, still there."""
        found = []
        for at in range(0, self.SLOT.size * self.SLOTS, self.SLOT.size):
            slot = self.SLOT.unpack_from(self.memory, at)
            if slot[0] > age and slot[2] != self.GONE and (slot[1] == 0 or alive(slot[1])):
                found.append(slot)
        return found

    def replacements_loading(self, age: int) -> bool:
        return any(state == self.LOADING for _, _, state in self.younger(age))


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


BOARD = Board()  # made once in the master, where gunicorn loads this module (once: a reload keeps it)
LEAVE_LOOK_SECONDS = 0.05  # how often a worker told to stop looks whether its replacements are ready


class SettledConfig(Config):
    """gunicorn's settings as a worker reads them: each looked up once, then kept as an attribute of its own. A
    worker's settings never change (a reload starts new workers), and gunicorn reads a dozen of them at every
    request (its parser's limits, the proxies, the hooks), each through `Config.__getattr__` and the setting's `get`,
    some 2 % of a worker's CPU at 300 tables tapping."""

    def __getattr__(self, name):
        value = super().__getattr__(name)
        object.__setattr__(self, name, value)  # `Config.__setattr__` refuses a setting's name
        return value


def settle(cfg: Config) -> None:
    """Makes the worker's `cfg` keep each setting once read (`SettledConfig`)."""
    if type(cfg) is Config:
        cfg.__class__ = SettledConfig


class KibicWorker(GeventWorker):
    """gunicorn's gevent worker, with a limit on each client address's connections, a deadline on bodies, and a
    reload that keeps nobody waiting."""

    limit = MAX_CONNECTIONS_PER_CLIENT
    trusted: frozenset[str] = frozenset()
    board = BOARD
    leaving = False
    stopping = None  # set once the worker stops (`alive` false): `environ["kibic.stopping"]`, made in the worker

    @property
    def alive(self) -> bool:
        return self.__dict__.get("_alive", False)

    @alive.setter
    def alive(self, value: bool) -> None:
        self.__dict__["_alive"] = value
        if not value and self.stopping is not None:
            self.stopping.set()

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)  # in the master, before the fork: younger than every worker running
        self.board.post(self.age, 0, Board.LOADING)

    @classmethod
    def configured(cls, settings) -> type[KibicWorker]:
        """The worker with the settings' `max_connections_per_client` and `trusted_proxies` (`api/settings.py`)."""
        return type(cls.__name__, (cls,), {"limit": settings.max_connections_per_client,
                                           "trusted": frozenset(map(plain, settings.trusted_proxies))})

    def init_process(self):
        settle(self.cfg)  # in the worker, after the fork: the master's settings stay as they are
        self.board.post(self.age, os.getpid(), Board.LOADING)
        self.held: dict[str, int] = {}  # client (`client_of`) -> connections this worker holds from it
        self.refused, self.refused_logged = 0, time.monotonic() - REFUSED_LOG_SECONDS
        self.refusal = refusal(self.limit)
        self.raise_file_limit()
        super().init_process()

    def raise_file_limit(self) -> None:
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        wanted = self.worker_connections + 200  # the connections, the database's files and the app's own
        if soft != resource.RLIM_INFINITY and soft < wanted:
            raised = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
            resource.setrlimit(resource.RLIMIT_NOFILE, (raised, hard))
            if raised < wanted:
                self.log.warning("a worker may open only %d files (ulimit -Hn) but may hold %d connections "
                                 "(worker_connections): connections beyond the files are refused", raised,
                                 self.worker_connections)

    def load_wsgi(self):
        from gevent.event import Event  # here, in the worker, once gevent has patched it and made its loop anew

        super().load_wsgi()
        app = self.wsgi
        self.stopping = stopping = Event()
        if not self.alive:
            stopping.set()

        def within_deadlines(environ, start_response):
            environ["kibic.stopping"] = stopping
            response = getattr(start_response, "__self__", None)  # gunicorn's Response
            if self.leaving and response is not None:
                response.force_close()  # the client's next request comes on a new connection, to a new worker
            body = environ.get("wsgi.input")
            if body is not None:
                environ["wsgi.input"] = Deadline(body, time.monotonic() + BODY_SECONDS, response)
            return app(environ, start_response)

        self.wsgi = within_deadlines

    def gone(self) -> None:
        """Clears the worker's slot on the board (the master's `child_exit`, once it exited)."""
        self.board.post(self.age, 0, Board.GONE)

    def run(self):
        self.board.post(self.age, os.getpid(), Board.READY)  # the app is loaded: it takes connections from now on
        try:
            super().run()
        finally:
            self.board.post(self.age, os.getpid(), Board.GONE)

    def handle_exit(self, sig, frame):
        """SIGTERM: stop once the workers started to replace this one (by a reload) are ready, at once if none
        is loading. A second SIGTERM (gunicorn's master sends one more after a reload's first seconds) changes
        nothing."""
        if self.leaving:
            return
        self.leaving = True
        if not self.board.replacements_loading(self.age):
            self.alive = False
            return
        gevent.spawn(self.leave)

    def leave(self) -> None:
        deadline = time.monotonic() + max(self.cfg.timeout, 1)
        self.log.info("Worker %s serves until the workers replacing it are ready", self.pid)
        while self.alive and time.monotonic() < deadline and self.board.replacements_loading(self.age):
            gevent.sleep(LEAVE_LOOK_SECONDS)
        self.alive = False

    def handle(self, listener, client, addr):
        peer = addr[0] if isinstance(addr, tuple) and addr else None
        if peer is None or not self.limit or (self.trusted and plain(peer) in self.trusted):
            return super().handle(listener, client, addr)
        address = client_of(peer)
        held = self.held.get(address, 0)
        if held >= self.limit:
            self.refuse(client, address)
            return None
        self.held[address] = held + 1
        try:
            return super().handle(listener, client, addr)
        finally:
            left = self.held[address] - 1
            if left:
                self.held[address] = left
            else:
                del self.held[address]

    def refuse(self, client, address: str) -> None:
        """Answers 429 without reading the request, and closes: the answer fits an empty socket buffer, so
        nothing here waits for the client."""
        try:
            client.setblocking(False)
            client.send(self.refusal)
            try:  # what the client sent already is read, or closing the socket would reset the connection
                client.recv(65536)  # and the client could lose the answer
            except OSError as exc:
                if exc.errno not in (errno.EAGAIN, errno.EWOULDBLOCK):
                    raise
            client.shutdown(socket.SHUT_WR)
        except OSError:
            pass
        finally:
            util.close(client)
        self.refused += 1
        now = time.monotonic()
        if now - self.refused_logged >= REFUSED_LOG_SECONDS:
            self.log.warning("refused %d connections over %d per client address (the latest from %s)",
                             self.refused, self.limit, address)
            self.refused, self.refused_logged = 0, now
