"""Part 5: how many tables one server holds, each a scorer tapping an event every 2 s and three phones following
it on the stream, with a tap's p99 under 100 ms and every follower within 1 s of the tap's answer.

The client is one asyncio process on the same machine, speaking HTTP/1.1 itself (a scorer keeps its
connection alive; a follower reads its stream with HTTP/1.0, so that it comes unchunked, and reads only
each message's `id`); a table's connections come from a loopback address of its own (127.1.x.y), as the
phones of a table each have theirs, since the server limits the connections of one address. The tables
replay random legal matches of the engine (Oh Hell and Ogurets, from the tests' table simulators), each
event posted as the table would tap it. The number of tables grows in steps until a step misses a goal;
each step is bounded in time.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import subprocess
import sys
import time
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from .measure import own_cpu, percentile, worker_cpu, worker_rss
from .tables import LOGGED, MATCHES, NAMES

TAP_EVERY = 2.0  # seconds between two taps of one table's scorer
FOLLOWERS = 3
TAP_P99_GOAL = 0.100
FOLLOW_GOAL = 1.0
LOGS = 12  # distinct matches the tables replay
STEPS = (100, 250, 500, 750, 1000, 1250, 1500, 2000, 2500)


@dataclass
class Step:
    tables: int
    seconds: float = 0.0
    taps: list[float] = field(default_factory=list)  # a tap's latency, from sending to the whole answer
    follows: list[float] = field(default_factory=list)  # from a tap's answer to a follower's message of it
    missed: int = 0  # taps whose message a follower never got within the step
    errors: list[str] = field(default_factory=list)
    rss_mib: float = 0.0  # the server's workers' resident memory at the end of the step
    server_cpu: float = 0.0  # CPU seconds the server's workers used during the step
    tapping_cpu: float = 0.0  # of those, from the first tap to the last tap's messages (no tables set up)
    client_cpu: float = 0.0  # CPU seconds this client used during the step
    wall: float = 0.0  # the whole step's wall time: its tables set up, tapping, the last messages awaited
    machine: dict = field(default_factory=dict)  # `bench.probe`'s commits and wake-ups during the step
    load: float = 0.0  # the machine's load average (1 minute) at the end of the step: other work on its cores

    def tap_p99(self) -> float:
        return percentile(self.taps, 0.99) if self.taps else float("inf")

    def follow_p(self, q: float) -> float:
        return percentile(self.follows, q) if self.follows else float("inf")

    def follow_max(self) -> float:
        return max(self.follows) if self.follows else float("inf")

    def cpu_per_tap(self) -> float:
        """The server's CPU seconds per tap while the tables tapped: the tap, its three messages, the looks."""
        return self.tapping_cpu / len(self.taps) if self.taps and self.tapping_cpu else float("inf")

    def held(self) -> bool:
        return (not self.errors and self.missed == 0 and self.tap_p99() < TAP_P99_GOAL
                and self.follow_max() <= FOLLOW_GOAL)


def logs(count: int = LOGS, seed: int = 5) -> list[tuple[str, list[dict]]]:
    """Random legal matches, as the commands a scorer taps (each event without its seq)."""
    rng = random.Random(seed)
    made = []
    for number in range(count):
        game = LOGGED[number % len(LOGGED)]
        match = MATCHES[game](rng)
        made.append((game, [{key: value for key, value in event.items() if key not in ("seq", "format")}
                                for event in match.log]))
    return made


async def request(reader, writer, host: str, method: str, path: str, body: dict | None = None,
                  key: str | None = None) -> tuple[int, bytes]:
    data = json.dumps(body).encode() if body is not None else b""
    head = f"{method} {path} HTTP/1.1\r\nHost: {host}\r\nContent-Length: {len(data)}\r\n"
    if body is not None:
        head += "Content-Type: application/json\r\n"
    if key:
        head += f"Authorization: Bearer {key}\r\n"
    writer.write(head.encode() + b"\r\n" + data)
    status_line = await reader.readline()
    if not status_line:
        raise ConnectionError("the server closed the connection")
    length = 0
    while (line := await reader.readline()) not in (b"\r\n", b""):
        name, _, value = line.decode("latin-1").partition(":")
        if name.lower() == "content-length":
            length = int(value)
    return int(status_line.split()[1]), await reader.readexactly(length)


class Table:
    """One table: its scorer's connection, its match, and when each of its events was answered."""

    def __init__(self, base: str, game: str, commands: list[dict], number: int = 0):
        url = urlsplit(base)
        self.host, self.port = url.hostname, url.port
        # each table's phones from a loopback address of their own (the server limits each address's connections)
        self.source = f"127.1.{number // 250}.{number % 250 + 1}"
        self.game, self.commands = game, commands
        self.answered: dict[int, float] = {}  # seq -> when the tap's answer arrived
        self.received: list[dict[int, float]] = []  # per follower: seq -> when its message arrived

    async def connect(self):
        return await asyncio.open_connection(self.host, self.port, local_addr=(self.source, 0))

    async def start(self) -> None:
        self.reader, self.writer = await self.connect()
        status, body = await request(self.reader, self.writer, self.host, "POST", "/api/matches",
                                     {"game": self.game, "players": NAMES, "stake": "1"})
        if status != 201:
            raise RuntimeError(f"creating a match: {status} {body[:200]!r}")
        created = json.loads(body)
        self.id, self.key, self.next = created["id"], created["key"], 0

    async def tap(self, step: Step) -> None:
        if self.next == len(self.commands):  # the match is over: the table stops tapping for this step
            return
        command = self.commands[self.next]
        started = time.perf_counter()
        try:
            status, body = await request(self.reader, self.writer, self.host, "POST",
                                         f"/api/matches/{self.id}/events", command, self.key)
        except (ConnectionError, asyncio.IncompleteReadError):  # a kept-alive connection the server closed
            self.reader, self.writer = await self.connect()
            status, body = await request(self.reader, self.writer, self.host, "POST",
                                         f"/api/matches/{self.id}/events", command, self.key)
        answered = time.perf_counter()
        if status != 201:
            step.errors.append(f"tap: {status} {body[:200]!r}")
            return
        step.taps.append(answered - started)
        self.next += 1
        self.answered[self.next] = answered

    async def follow(self, step: Step, stop: asyncio.Event, ready: asyncio.Event) -> None:
        """One phone on the stream: the delay from each tap's answer to the message that carries it."""
        reader, writer = await self.connect()
        try:
            writer.write(f"GET /api/matches/{self.id}/stream HTTP/1.0\r\nHost: {self.host}\r\n\r\n".encode())
            status_line = await reader.readline()
            if b" 200 " not in status_line:
                step.errors.append(f"stream: {status_line!r}")
                return
            while await reader.readline() not in (b"\r\n", b""):
                pass
            ready.set()
            seen, received = 0, {}
            self.received.append(received)
            while not stop.is_set():
                line = await reader.readline()
                if not line:
                    step.errors.append("a stream ended")
                    return
                if line.startswith(b"id: "):
                    seq = int(line[4:])
                    now = time.perf_counter()
                    for each in range(seen + 1, seq + 1):  # events within one look come as one message
                        received[each] = now
                    seen = max(seen, seq)
        finally:
            writer.close()


async def run_step(base: str, tables: int, seconds: float, played: list[tuple[str, list[dict]]],
                   master: int | None = None) -> Step:
    step = Step(tables)
    rng = random.Random(tables)
    stop = asyncio.Event()
    everyone = [Table(base, *played[number % len(played)], number) for number in range(tables)]
    for start in range(0, tables, 50):  # the tables arrive fifty at a time
        await asyncio.gather(*(table.start() for table in everyone[start:start + 50]))
    readiness, followers = [], []
    for table in everyone:
        for _ in range(FOLLOWERS):
            ready = asyncio.Event()
            readiness.append(ready)
            followers.append(asyncio.create_task(table.follow(step, stop, ready)))
    await asyncio.wait_for(asyncio.gather(*(ready.wait() for ready in readiness)), timeout=60)

    async def scorer(table: Table) -> None:
        await asyncio.sleep(rng.uniform(0, TAP_EVERY))
        while not stop.is_set():
            due = time.perf_counter() + TAP_EVERY
            await table.tap(step)
            await asyncio.sleep(max(0.0, due - time.perf_counter()))

    started, cpu = time.perf_counter(), worker_cpu(master) if master else 0.0
    scorers = [asyncio.create_task(scorer(table)) for table in everyone]
    await asyncio.sleep(seconds)
    for task in scorers:
        task.cancel()
    await asyncio.gather(*scorers, return_exceptions=True)
    step.seconds = time.perf_counter() - started
    await asyncio.sleep(FOLLOW_GOAL + 0.5)  # the last taps' messages
    step.tapping_cpu = worker_cpu(master) - cpu if master else 0.0
    stop.set()
    for task in followers:
        task.cancel()
    await asyncio.gather(*followers, return_exceptions=True)
    for table in everyone:  # the push may come before the client has read the tap's own answer
        for seq, answered in table.answered.items():
            for received in table.received:
                if seq in received:
                    step.follows.append(max(0.0, received[seq] - answered))
                else:
                    step.missed += 1
        table.writer.close()
    return step


def run(base: str, master: int, seconds: float, steps: tuple[int, ...] = STEPS) -> list[Step]:
    """Steps of growing numbers of tables until one misses a goal (the first step that misses is the last)."""
    played = logs()
    done = []
    for tables in steps:
        print(f"   {tables} tables ...", flush=True)
        server, client, began = worker_cpu(master), own_cpu(), time.perf_counter()
        probe = subprocess.Popen([sys.executable, "-m", "bench.probe", str(seconds)], stdout=subprocess.PIPE,
                                 text=True)
        step = asyncio.run(run_step(base, tables, seconds, played, master))
        step.server_cpu, step.client_cpu = worker_cpu(master) - server, own_cpu() - client
        step.wall = time.perf_counter() - began
        step.machine = json.loads(probe.communicate(timeout=seconds + 60)[0])
        step.load = os.getloadavg()[0]
        step.rss_mib = worker_rss(master)
        done.append(step)
        if not step.held():
            break
    return done
