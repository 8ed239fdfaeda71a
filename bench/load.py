"""Parts 2 and 3: Kibic over HTTP against the floor of its stack (one client, eight at once), and a play late
in a long match.

Every loop here is bounded by a count and by a time. Latencies are measured by the client, from sending the
request (from opening the connection, on a new connection per request) to the last byte of the answer. The
headline figures are a client's connection kept alive across its requests, as a phone keeps its own; the same
measured on a new connection per request stand beside them.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import threading
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from referee import Match

from .measure import percentile, worker_cpu
from .tables import SCORED, SCORED_OPTIONS, SIMULATORS, Link, Scorer, players

PLAY_BODY = {"type": "play", "seat": 1, "card": "K", "expect_seq": 12}  # what the baseline stores: a play's size
POST = "post a play"
CHANGED = "poll, changed (200)"
UNCHANGED = "poll, unchanged (304)"
INSERT = "baseline insert"


@dataclass
class Run:
    """Latencies by kind of request, and the wall time of the run."""

    seconds: float = 0.0
    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    cpu: float = 0.0  # CPU seconds the server's workers used during the run (0 when not measured)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, kind: str, seconds: float) -> None:
        with self.lock:
            self.latencies[kind].append(seconds)

    def absorb(self, other: Run) -> None:
        """Pools `other`'s requests, time and CPU into this run."""
        self.seconds += other.seconds
        self.cpu += other.cpu
        for kind, latencies in other.latencies.items():
            self.latencies[kind].extend(latencies)

    def requests(self) -> int:
        return sum(map(len, self.latencies.values()))

    def rps(self) -> float:
        return self.requests() / self.seconds

    def p50(self, kind: str) -> float:
        return percentile(self.latencies[kind], 0.50)

    def p99(self, kind: str) -> float:
        return percentile(self.latencies[kind], 0.99)


class Follower:
    """A phone following a table: it polls the state with the ETag of the state it holds."""

    def __init__(self, base: str, match_id: str, keep_alive: bool = False):
        self.link, self.path, self.etag = Link(base, keep_alive), f"/api/matches/{match_id}", None
        self.size = 0

    def poll(self) -> tuple[str, float]:
        headers = {"If-None-Match": self.etag} if self.etag else {}
        status, sent, body, seconds = self.link.call("GET", self.path, headers=headers)
        if status == 200:
            self.etag, self.size = sent["ETag"], len(body)
            return CHANGED, seconds
        if status != 304:
            raise RuntimeError(f"polling {self.path}: {status} {body[:300]!r}")
        return UNCHANGED, seconds


class Side:
    """One client of both servers, connecting one way: its baseline inserts, its scorer and its follower."""

    def __init__(self, kibic: str, baseline: str, keep_alive: bool, seed: int):
        self.floor = Link(baseline, keep_alive)
        self.scorer = Scorer(kibic, SCORED, random.Random(seed), keep_alive)
        self.follower = Follower(kibic, self.scorer.match.id, keep_alive)
        self.run = Run()

    def insert(self) -> float:
        status, _, body, seconds = self.floor.call("POST", "/insert", PLAY_BODY)
        if status != 201:
            raise RuntimeError(f"baseline insert: {status} {body[:300]!r}")
        return seconds

    def round(self, measure: bool = True) -> None:
        """A baseline insert, a play, and a poll that finds it, then one that does not."""
        timed = [(INSERT, self.insert()), post(self.scorer), self.follower.poll(), self.follower.poll()]
        if measure:
            for kind, seconds in timed:
                self.run.add(kind, seconds)


def post(scorer: Scorer) -> tuple[str, float]:
    """The scorer logs the next event; a deal or a bid counts with the plays."""
    scorer.step()
    return POST, scorer.match.posted[-1][1]


def service_times(kibic: str, baseline: str, rounds: int, seconds: float, seed: int = 1) -> dict[str, Run]:
    """One client, no queue, connecting both ways in turn: {KEPT_ALIVE: run, NEW_CONNECTIONS: run}.

    Each round is a baseline insert, a play, and a poll that finds it, then one that does not, on connections
    kept alive (one to each server, held across the rounds), then the same on a new connection per request (the
    order of the two ways alternating from round to round): both servers, both ways, see the same machine at the
    same moments.
    """
    sides = {KEPT_ALIVE: Side(kibic, baseline, True, seed), NEW_CONNECTIONS: Side(kibic, baseline, False, seed + 1)}
    for _ in range(20):  # warm up: imports, caches, the first deal
        for side in sides.values():
            side.round(measure=False)
    start = time.perf_counter()
    for number in range(rounds):
        if time.perf_counter() - start > seconds:
            break
        for way in (KEPT_ALIVE, NEW_CONNECTIONS) if number % 2 == 0 else (NEW_CONNECTIONS, KEPT_ALIVE):
            sides[way].round()
    for side in sides.values():
        side.run.seconds = time.perf_counter() - start
    return {way: side.run for way, side in sides.items()}


def endless_match(rng: random.Random, events: int) -> list[dict]:
    """The commands of a random legal match of the `SCORED` game with `SCORED_OPTIONS` (it never ends), `events`
    of them at least, played on the engine before the clock starts: the client only sends them."""
    match = Match.create(SCORED, players(SCORED), SCORED_OPTIONS, "1")
    table = SIMULATORS[SCORED](match, rng)
    while match.seq < events and table.step() is not None:
        pass
    return [{key: value for key, value in event.items() if key not in ("seq", "format")} for event in match.log]


class Connection:
    """One client's HTTP/1.1 connection to a server: kept alive across its requests, as a phone keeps its own
    (`keep_alive`), or a new one opened for each request and closed after its answer."""

    def __init__(self, host: str, port: int, keep_alive: bool = True):
        self.host, self.port, self.keep_alive = host, port, keep_alive
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def open(self) -> None:
        """Opens the connection now (a kept-alive one before the clock starts; nothing to do for the other way)."""
        if self.keep_alive and self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)

    def local_port(self) -> int | None:
        """The client's port of the connection held open (None: none is)."""
        return self.writer.get_extra_info("sockname")[1] if self.writer is not None else None

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None

    async def exchange(self, method: str, path: str, data: bytes, key: str | None = None) -> tuple[int, bytes]:
        """One request, its answer read to the last byte: (status, body). A kept-alive connection the server
        closed while idle is opened again once."""
        reused = self.writer is not None
        try:
            return await self.send(method, path, data, key)
        except (ConnectionError, asyncio.IncompleteReadError):
            self.close()
            if not reused:
                raise
            return await self.send(method, path, data, key)

    async def send(self, method: str, path: str, data: bytes, key: str | None) -> tuple[int, bytes]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        head = f"{method} {path} HTTP/1.1\r\nHost: {self.host}\r\nContent-Length: {len(data)}\r\n"
        if not self.keep_alive:
            head += "Connection: close\r\n"
        head += "Content-Type: application/json\r\n"
        if key:
            head += f"Authorization: Bearer {key}\r\n"
        self.writer.write(head.encode() + b"\r\n" + data)
        status_line, length, closing = await self.reader.readline(), 0, not self.keep_alive
        if not status_line:
            raise ConnectionError("the server closed the connection")
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            if line[:15].lower() == b"content-length:":
                length = int(line[15:])
            elif line.lower().startswith(b"connection:") and b"close" in line.lower():
                closing = True
        answer = int(status_line.split()[1]), await self.reader.readexactly(length)
        if closing:
            self.close()
        return answer


TURNS = 6  # each side's turns in `writes_at_once`, each way: short and many, so that the machine's swings fall on both
KEPT_ALIVE, NEW_CONNECTIONS = "kept alive", "a new connection per request"  # the two ways a client connects


def writes_at_once(kibic: str, baseline: str, clients: int, seconds: float, seed: int = 1,
                   masters: tuple[int, int] | None = None, rounds: int = TURNS,
                   keep_alive: bool = True) -> tuple[Run, Run]:
    """`clients` writing one after another for `seconds` on each server, each on a connection of its own held
    open across its requests (`keep_alive`, as phones do) or on a new connection per request: inserts into the
    baseline, and events of the `SCORED` game posted to Kibic (a scorer each, on a match of its own): (the
    baseline's run, Kibic's run).

    The time is cut into `rounds` turns each, the two servers alternating and taking turns at going first, so
    that what else the machine does, which comes and goes, falls on both alike; each side's turns are pooled.
    A kept-alive connection is opened before its turn's clock starts (a turn's matches are created on it too)
    and closed at the turn's end. One asyncio client for both, speaking HTTP itself: it runs on the server's two
    cores, so it does as little as it can. Kibic's scorers send commands played on the engine beforehand
    (`endless_match`) and read only the status of each answer.
    """
    each = seconds / rounds
    commands = [endless_match(random.Random(seed + number), max(1000, int(each * 3000 / clients)))
                for number in range(clients)]
    runs = {"floor": Run(), "kibic": Run()}
    master = {"floor": masters and masters[1], "kibic": masters and masters[0]}
    load = {"floor": lambda: floor_at_once(baseline, clients, each, keep_alive, master["floor"]),
            "kibic": lambda: kibic_at_once(kibic, commands, each, keep_alive, master["kibic"])}
    for number in range(rounds):
        for side in ("floor", "kibic") if number % 2 == 0 else ("kibic", "floor"):
            runs[side].absorb(asyncio.run(load[side]()))
    return runs["floor"], runs["kibic"]


async def balanced(connections: list[Connection], master: int | None, tries: int = 40) -> None:
    """Kept-alive connections spread evenly over the server's workers (each stays with the worker that accepted
    it, and the workers take new connections as they happen to wake: eight may fall seven to one, and a turn's
    figures then say more about that than about the server). One on the busiest worker is opened again until the
    counts differ by one at most, `tries` times at most."""
    if master is None or not connections or not connections[0].keep_alive:
        return
    workers = worker_pids(master)
    for _ in range(tries):
        held = connection_workers(master)
        on: dict[int, list[Connection]] = {pid: [] for pid in workers}
        for connection in connections:
            if connection.local_port() in held:
                on.setdefault(held[connection.local_port()], []).append(connection)
        counts = sorted(on.values(), key=len)
        if sum(map(len, counts)) < len(connections):  # an accept still on its way
            await asyncio.sleep(0.01)
            continue
        if len(counts[-1]) - len(counts[0]) <= 1:
            return
        moved = counts[-1][0]
        moved.close()
        await moved.open()


def worker_pids(master: int) -> list[int]:
    return [int(pid) for pid in Path(f"/proc/{master}/task/{master}/children").read_text().split()]


def connection_workers(master: int) -> dict[int, int]:
    """{the client's port: the worker holding the connection} for the TCP connections the server's workers hold
    (from `/proc`: each worker's sockets, and the system's table of connections)."""
    sockets = {}
    for pid in worker_pids(master):
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            with contextlib.suppress(OSError):
                target = os.readlink(fd)
                if target.startswith("socket:["):
                    sockets[int(target[8:-1])] = pid
    held = {}
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if int(fields[9]) in sockets:
            held[int(fields[2].rpartition(":")[2], 16)] = sockets[int(fields[9])]
    return held


class Clock:
    """The clock of one turn, started once every client is ready (its connection open, its match made), with the
    CPU time the server's workers used from its start to its end (`master`: the server's master process; None:
    not read)."""

    def __init__(self, master: int | None):
        self.master, self.start, self.cpu = master, 0.0, 0.0

    def begin(self) -> None:
        self.cpu = worker_cpu(self.master) if self.master else 0.0
        self.start = time.perf_counter()

    def elapsed(self) -> float:
        return time.perf_counter() - self.start

    def end(self, run: Run) -> Run:
        run.seconds = self.elapsed()
        run.cpu = worker_cpu(self.master) - self.cpu if self.master else 0.0
        return run


async def floor_at_once(base: str, clients: int, seconds: float, keep_alive: bool = True,
                        master: int | None = None) -> Run:
    url, run, data, clock = urlsplit(base), Run(), json.dumps(PLAY_BODY).encode(), Clock(master)
    connections = [Connection(url.hostname, url.port, keep_alive) for _ in range(clients)]
    await asyncio.gather(*(connection.open() for connection in connections))
    await balanced(connections, master)

    async def client(connection: Connection) -> None:
        while clock.elapsed() < seconds:
            began = time.perf_counter()
            status, body = await connection.exchange("POST", "/insert", data)
            if status != 201:
                raise RuntimeError(f"baseline insert: {status} {body[:300]!r}")
            run.add(INSERT, time.perf_counter() - began)

    clock.begin()
    try:
        await asyncio.gather(*(client(connection) for connection in connections))
    finally:
        for connection in connections:
            connection.close()
    return clock.end(run)


async def kibic_at_once(base: str, commands: list[list[dict]], seconds: float, keep_alive: bool = True,
                        master: int | None = None) -> Run:
    return await written([base], commands, seconds, keep_alive, master)


async def written(bases: list[str], commands: list[list[dict]], seconds: float, keep_alive: bool = False,
                  master: int | None = None) -> Run:
    """Each scorer posts its commands, one after another, on a match of its own, to a server of its own (in
    turn over `bases`), on a connection kept alive or a new one per request."""
    run, clock = Run(), Clock(master)
    scorers = []
    for number, sent in enumerate(commands):
        url = urlsplit(bases[number % len(bases)])
        connection = Connection(url.hostname, url.port, keep_alive)
        status, body = await connection.exchange("POST", "/api/matches", json.dumps(
            {"game": SCORED, "players": players(SCORED), "options": SCORED_OPTIONS, "stake": "1"}).encode())
        if status != 201:
            raise RuntimeError(f"creating a match: {status} {body[:300]!r}")
        created = json.loads(body)
        scorers.append((connection, f"/api/matches/{created['id']}/events", created["key"],
                        [json.dumps(command).encode() for command in sent]))

    await balanced([each[0] for each in scorers], master)

    async def scorer(connection: Connection, path: str, key: str, sent: list[bytes]) -> None:
        for data in sent:
            if clock.elapsed() >= seconds:
                return
            began = time.perf_counter()
            status, body = await connection.exchange("POST", path, data, key)
            if status != 201:
                raise RuntimeError(f"posting to {path}: {status} {body[:300]!r}")
            run.add(POST, time.perf_counter() - began)
        raise RuntimeError("a scorer ran out of commands before the time was up: play longer matches")

    clock.begin()
    try:
        await asyncio.gather(*(scorer(*each) for each in scorers))
    finally:
        for connection, *_ in scorers:
            connection.close()
    return clock.end(run)


@dataclass
class Growth:
    early: int  # the seq around which the short match was measured
    late: int
    posts: dict[str, list[float]]  # "early"/"late" -> latencies of posting a play
    polls: dict[str, list[float]]  # "early"/"late" -> latencies of polling the changed state
    sizes: dict[str, int]  # bytes of the state

    def ratio(self, what: str = "posts") -> float:
        measured = getattr(self, what)
        return percentile(measured["late"], 0.5) / percentile(measured["early"], 0.5)


def growth(kibic: str, late: int = 5000, early: int = 10, rounds: int = 40, seconds: float = 240,
           seed: int = 2) -> Growth:
    """A match logged through HTTP up to event `late`, then plays on it interleaved with plays on a new match
    at event `early`: the latency of a play (and of the poll that finds it) at both ends."""
    start = time.perf_counter()
    long, short = Scorer(kibic, SCORED, random.Random(seed)), Scorer(kibic, SCORED, random.Random(seed + 1))
    while long.match.seq < late and time.perf_counter() - start < seconds:
        long.step()
    while short.match.seq < early:
        short.step()
    followers = {"early": Follower(kibic, short.match.id), "late": Follower(kibic, long.match.id)}
    at = {"early": short.match.seq, "late": long.match.seq}
    posts: dict[str, list[float]] = {"early": [], "late": []}
    polls: dict[str, list[float]] = {"early": [], "late": []}
    for _ in range(rounds):
        for when, scorer in (("early", short), ("late", long)):
            posts[when].append(post(scorer)[1])
            polls[when].append(followers[when].poll()[1])
    return Growth(at["early"], at["late"], posts, polls, {when: follower.size for when, follower in followers.items()})
