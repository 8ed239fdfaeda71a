"""Parts 2 and 3: Kibic over HTTP against the floor of its stack (one client, eight at once), and a play late
in a long match.

Every loop here is bounded by a count and by a time. Latencies are measured by the client, from opening
the connection to the last byte of the answer.
"""

from __future__ import annotations

import asyncio
import json
import random
import threading
import time
from collections import defaultdict
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from referee import Match

from .measure import percentile, worker_cpu
from .tables import SCORED, SCORED_OPTIONS, SIMULATORS, Scorer, call, players

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

    def __init__(self, base: str, match_id: str):
        self.base, self.path, self.etag = base, f"/api/matches/{match_id}", None
        self.size = 0

    def poll(self) -> tuple[str, float]:
        headers = {"If-None-Match": self.etag} if self.etag else {}
        status, sent, body, seconds = call(self.base, "GET", self.path, headers=headers)
        if status == 200:
            self.etag, self.size = sent["ETag"], len(body)
            return CHANGED, seconds
        if status != 304:
            raise RuntimeError(f"polling {self.path}: {status} {body[:300]!r}")
        return UNCHANGED, seconds


def insert(base: str) -> float:
    status, _, body, seconds = call(base, "POST", "/insert", PLAY_BODY)
    if status != 201:
        raise RuntimeError(f"baseline insert: {status} {body[:300]!r}")
    return seconds


def post(scorer: Scorer) -> tuple[str, float]:
    """The scorer logs the next event; a deal or a bid counts with the plays."""
    scorer.step()
    return POST, scorer.match.posted[-1][1]


def service_times(kibic: str, baseline: str, rounds: int, seconds: float, seed: int = 1) -> Run:
    """One client, no queue: each round a baseline insert, a play, and a poll that finds it, then one that does not.

    Interleaved, so both servers see the same machine at the same moment.
    """
    run = Run()
    scorer = Scorer(kibic, SCORED, random.Random(seed))
    follower = Follower(kibic, scorer.match.id)
    for _ in range(20):  # warm up: imports, caches, the first deal
        insert(baseline), post(scorer), follower.poll(), follower.poll()
    start = time.perf_counter()
    for _ in range(rounds):
        if time.perf_counter() - start > seconds:
            break
        run.add(INSERT, insert(baseline))
        run.add(*post(scorer))
        for _ in range(2):
            run.add(*follower.poll())
    run.seconds = time.perf_counter() - start
    return run


def endless_match(rng: random.Random, events: int) -> list[dict]:
    """The commands of a random legal match of the `SCORED` game with `SCORED_OPTIONS` (it never ends), `events`
    of them at least, played on the engine before the clock starts: the client only sends them."""
    match = Match.create(SCORED, players(SCORED), SCORED_OPTIONS, "1")
    table = SIMULATORS[SCORED](match, rng)
    while match.seq < events and table.step() is not None:
        pass
    return [{key: value for key, value in event.items() if key not in ("seq", "format")} for event in match.log]


async def exchange(host: str, port: int, method: str, path: str, data: bytes,
                   key: str | None = None) -> tuple[int, bytes]:
    """One request on a new connection, read to its last byte, then closed: (status, body)."""
    reader, writer = await asyncio.open_connection(host, port)
    try:
        head = f"{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\nContent-Length: {len(data)}\r\n"
        head += "Content-Type: application/json\r\n"
        if key:
            head += f"Authorization: Bearer {key}\r\n"
        writer.write(head.encode() + b"\r\n" + data)
        status_line, length = await reader.readline(), 0
        while (line := await reader.readline()) not in (b"\r\n", b""):
            if line[:15].lower() == b"content-length:":
                length = int(line[15:])
        return int(status_line.split()[1]), await reader.readexactly(length)
    finally:
        writer.close()


TURNS = 10  # each side's turns in `writes_at_once`: short and many, so that the machine's swings fall on both alike


def writes_at_once(kibic: str, baseline: str, clients: int, seconds: float, seed: int = 1,
                   masters: tuple[int, int] | None = None, rounds: int = TURNS) -> tuple[Run, Run]:
    """`clients` writing one after another for `seconds` on each server, each request on a new connection:
    inserts into the baseline, and events of the `SCORED` game posted to Kibic (a scorer each, on a match of its
    own): (the baseline's run, Kibic's run).

    The time is cut into `rounds` turns each, the two servers alternating and taking turns at going first, so
    that what else the machine does, which comes and goes, falls on both alike; each side's turns are pooled.
    One asyncio client for both, speaking HTTP itself: it runs on the server's two cores, so it does as
    little as it can. Kibic's scorers send commands played on the engine beforehand (`endless_match`)
    and read only the status of each answer.
    """
    each = seconds / rounds
    commands = [endless_match(random.Random(seed + number), max(1000, int(each * 2000 / clients)))
                for number in range(clients)]
    runs = {"floor": Run(), "kibic": Run()}
    master = {"floor": masters and masters[1], "kibic": masters and masters[0]}
    load = {"floor": lambda: floor_at_once(baseline, clients, each),
            "kibic": lambda: kibic_at_once(kibic, commands, each)}
    for number in range(rounds):
        for side in ("floor", "kibic") if number % 2 == 0 else ("kibic", "floor"):
            runs[side].absorb(measured(master[side], lambda side=side: asyncio.run(load[side]())))
    return runs["floor"], runs["kibic"]


def measured(master: int | None, work) -> Run:
    """`work`'s run, with the CPU time the workers of the server whose master is `master` used meanwhile."""
    before = worker_cpu(master) if master else 0.0
    run = work()
    run.cpu = worker_cpu(master) - before if master else 0.0
    return run


async def floor_at_once(base: str, clients: int, seconds: float) -> Run:
    url, run, data = urlsplit(base), Run(), json.dumps(PLAY_BODY).encode()

    async def client() -> None:
        while time.perf_counter() - start < seconds:
            began = time.perf_counter()
            status, body = await exchange(url.hostname, url.port, "POST", "/insert", data)
            if status != 201:
                raise RuntimeError(f"baseline insert: {status} {body[:300]!r}")
            run.add(INSERT, time.perf_counter() - began)

    start = time.perf_counter()
    await asyncio.gather(*(client() for _ in range(clients)))
    run.seconds = time.perf_counter() - start
    return run


async def kibic_at_once(base: str, commands: list[list[dict]], seconds: float) -> Run:
    return await written([base], commands, seconds)


async def written(bases: list[str], commands: list[list[dict]], seconds: float) -> Run:
    """Each scorer posts its commands, one after another, on a match of its own, to a server of its own (in
    turn over `bases`)."""
    run = Run()
    scorers = []
    for number, sent in enumerate(commands):
        url = urlsplit(bases[number % len(bases)])
        status, body = await exchange(url.hostname, url.port, "POST", "/api/matches", json.dumps(
            {"game": SCORED, "players": players(SCORED), "options": SCORED_OPTIONS, "stake": "1"}).encode())
        if status != 201:
            raise RuntimeError(f"creating a match: {status} {body[:300]!r}")
        created = json.loads(body)
        scorers.append((url, f"/api/matches/{created['id']}/events", created["key"],
                        [json.dumps(command).encode() for command in sent]))

    async def scorer(url, path: str, key: str, sent: list[bytes]) -> None:
        for data in sent:
            if time.perf_counter() - start >= seconds:
                return
            began = time.perf_counter()
            status, body = await exchange(url.hostname, url.port, "POST", path, data, key)
            if status != 201:
                raise RuntimeError(f"posting to {path}: {status} {body[:300]!r}")
            run.add(POST, time.perf_counter() - began)
        raise RuntimeError("a scorer ran out of commands before the time was up: play longer matches")

    start = time.perf_counter()
    await asyncio.gather(*(scorer(*each) for each in scorers))
    run.seconds = time.perf_counter() - start
    return run


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
