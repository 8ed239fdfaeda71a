"""Parts 2 and 3: Kibic over HTTP against the floor of its stack (one client, eight at once), and a play late
in a long match.

Every loop here is bounded by a count and by a time. Latencies are measured by the client, from opening
the connection to the last byte of the answer.
"""

from __future__ import annotations

import random
import threading
import time
from collections import defaultdict
from dataclasses import dataclass, field

from .tables import SCORED, Scorer, call

PLAY_BODY = {"type": "play", "seat": 1, "card": "K", "expect_seq": 12}  # what the baseline stores: a play's size
POST = "post a play"
CHANGED = "poll, changed (200)"
UNCHANGED = "poll, unchanged (304)"
INSERT = "baseline insert"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


@dataclass
class Run:
    """Latencies by kind of request, and the wall time of the run."""

    seconds: float = 0.0
    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, kind: str, seconds: float) -> None:
        with self.lock:
            self.latencies[kind].append(seconds)

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


def writes_at_once(kibic: str, baseline: str, clients: int, seconds: float, seed: int = 1) -> tuple[Run, Run]:
    """`clients` threads writing one after another for `seconds`: inserts into the baseline, then plays posted
    to Kibic (a scorer each, on a match of its own): (the baseline's run, Kibic's run)."""
    floor = inserts_at_once(baseline, clients, 10**9, seconds)
    run = Run()

    def scorer(number: int) -> None:
        table = Scorer(kibic, SCORED, random.Random(seed + number))
        while time.perf_counter() - start < seconds:
            run.add(*post(table))

    start = time.perf_counter()
    threaded(scorer, clients)
    run.seconds = time.perf_counter() - start
    return floor, run


def inserts_at_once(baseline: str, clients: int, requests: int, seconds: float) -> Run:
    """The baseline under the same load: `clients` threads, each inserting `requests` rows one after another."""
    run = Run()

    def client(_number: int) -> None:
        for _ in range(requests):
            if time.perf_counter() - start > seconds:
                return
            run.add(INSERT, insert(baseline))

    start = time.perf_counter()
    threaded(client, clients)
    run.seconds = time.perf_counter() - start
    return run


def threaded(work, count: int) -> None:
    errors: list[BaseException] = []

    def guarded(number: int) -> None:
        try:
            work(number)
        except BaseException as error:  # noqa: BLE001 - reported after the run
            errors.append(error)

    threads = [threading.Thread(target=guarded, args=(number,)) for number in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]


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
