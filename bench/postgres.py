"""Part 6: PostgreSQL, the store of a league's several app servers, against the SQLite file on one, in one run.

Three setups, measured one after the other on the same machine: SQLite with one app server (gunicorn, its
workers as `make serve` runs them), PostgreSQL with one app server, and PostgreSQL with two app servers
(two gunicorns, as two machines behind a proxy would be; here both on this machine's cores). In each:

- writes per second with `clients` scorers at once, each on a match of its own (the asyncio client of
  part 2, spread over the servers), and a play's p50 and p99;
- a follower's wait: a follower's stream opened on the last server, a play posted through the first, and
  the time until the follower's stream carries it (on PostgreSQL with two servers, the other server
  hears of it by `NOTIFY`; on one SQLite server, its watcher looks every 0.1 s).

The PostgreSQL server is a throwaway cluster (`tests/support/postgres_server.py`) with PostgreSQL's defaults,
`fsync` and `synchronous_commit` on: a commit is flushed before its answer leaves, as SQLite's is. Without
PostgreSQL installed this part is left out, saying so. `python -m bench.postgres` runs this part alone.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import platform
import random
import tempfile
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from http.client import HTTPConnection
from pathlib import Path
from urllib.parse import urlsplit

from .load import POST, endless_match, written
from .measure import percentile
from .servers import WORKERS, gunicorn
from .tables import SCORED, SCORED_OPTIONS, players

FOLLOWS = 40  # plays whose arrival at a follower on the other server is timed
RESULTS = Path(__file__).with_name("results_postgresql.md")  # `python -m bench.postgres` alone writes here


def run(clients: int = 8, seconds: float = 20.0, follows: int = FOLLOWS) -> dict | None:
    """The three setups' figures, or None when PostgreSQL is not installed."""
    from postgres_server import Cluster, binaries

    found = binaries()
    if found is None:
        print("   PostgreSQL is not installed (initdb, pg_ctl): part 6 is left out")
        return None
    commands = [endless_match(random.Random(7 + number), max(1000, int(seconds * 2000 / clients)))
                for number in range(clients)]
    results = {}
    cluster = Cluster(found).start()
    try:
        with tempfile.TemporaryDirectory(prefix="kibic-bench-") as folder:
            setups = {"SQLite, 1 app server": [str(Path(folder) / "referee.db")],
                      "PostgreSQL, 1 app server": [cluster.new_database()]}
            shared = cluster.new_database()
            setups["PostgreSQL, 2 app servers"] = [shared, shared]
            for name, databases in setups.items():
                print(f"   {name}: {clients} clients writing, then a follower ...", flush=True)
                with servers(databases) as bases:
                    writes = asyncio.run(written(bases, commands, seconds))
                    waits = follower_waits(bases, follows)
                results[name] = {"writes": writes.rps(), "p50": writes.p50(POST), "p99": writes.p99(POST),
                                 "count": writes.requests(), "follow_p50": percentile(waits, 0.5),
                                 "follow_p95": percentile(waits, 0.95), "follows": len(waits)}
    finally:
        cluster.remove()
    return {"clients": clients, "workers": WORKERS, "setups": results}


@contextlib.contextmanager
def servers(databases: list[str]) -> Iterator[list[str]]:
    """One gunicorn (with the usual workers) per database named: their base URLs."""
    with contextlib.ExitStack() as stack:
        yield [stack.enter_context(gunicorn("api:create_app()", {"REFEREE_DB": database})) for database in databases]


def follower_waits(bases: list[str], follows: int) -> list[float]:
    """Seconds from posting a play through the first server to its message on a stream of the last one."""
    commands = endless_match(random.Random(99), follows + 5)
    status, match = request(bases[0], "POST", "/api/matches",
                            {"game": SCORED, "players": players(SCORED), "options": SCORED_OPTIONS, "stake": "1"})
    assert status == 201, match
    url = urlsplit(bases[-1])
    connection = HTTPConnection(url.hostname, url.port, timeout=10)
    waits = []
    try:
        connection.request("GET", f"/api/matches/{match['id']}/stream")
        response = connection.getresponse()
        messages = Messages(response)
        messages.next_seq()  # the state it starts with
        for command in commands[:follows]:
            began = time.perf_counter()
            status, answer = request(bases[0], "POST", f"/api/matches/{match['id']}/events", command, match["key"])
            assert status == 201, answer
            while messages.next_seq() < answer["event"]["seq"]:
                pass
            waits.append(time.perf_counter() - began)
            time.sleep(0.05)
    finally:
        connection.close()
    return waits


def request(base: str, method: str, path: str, body: object = None, key: str | None = None) -> tuple[int, dict]:
    url = urlsplit(base)
    connection = HTTPConnection(url.hostname, url.port, timeout=10)
    headers = {"Content-Type": "application/json"}
    if key:
        headers["Authorization"] = f"Bearer {key}"
    try:
        connection.request(method, path, body=json.dumps(body), headers=headers)
        response = connection.getresponse()
        return response.status, json.loads(response.read())
    finally:
        connection.close()


class Messages:
    """The seqs of a stream's messages, as they come."""

    def __init__(self, response):
        self.response, self.buffer = response, b""

    def next_seq(self) -> int:
        while True:
            while b"\n\n" not in self.buffer:
                chunk = self.response.read1(65536)
                if not chunk:
                    raise RuntimeError("the stream ended")
                self.buffer += chunk
            block, self.buffer = self.buffer.split(b"\n\n", 1)
            for line in block.decode().split("\n"):
                if line.startswith("id: "):
                    return int(line[4:])


def markdown(results: dict | None) -> str:
    """Part 6 as a section of bench/results.md."""
    if results is None:
        return "## 6. PostgreSQL\n\nLeft out: PostgreSQL is not installed on this machine.\n"
    from .report import ms, table

    sqlite = results["setups"]["SQLite, 1 app server"]
    rows = [[name, f"{figures['writes']:,.0f}", f"{figures['writes'] / sqlite['writes']:.2f}", ms(figures["p50"]),
             ms(figures["p99"]), ms(figures["follow_p50"]), ms(figures["follow_p95"])]
            for name, figures in results["setups"].items()]
    return "\n".join([
        "## 6. PostgreSQL",
        "",
        f"{results['clients']} scorers at once, each on a match of its own, spread over the app servers (each a "
        f"gunicorn with {results['workers']} gevent workers, all on this machine's cores); then a follower's "
        "stream on the last app server while plays are posted through the first, one at a time. PostgreSQL is "
        "a throwaway cluster with its defaults (`fsync`, `synchronous_commit` on).",
        "",
        table(["setup", "writes/s", "/ SQLite", "play p50 ms", "play p99 ms", "follower p50 ms",
               "follower p95 ms"], rows),
        "",
    ])


def main() -> None:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m bench.postgres", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few seconds per setup: a smoke run")
    parser.add_argument("--clients", type=int, default=8)
    args = parser.parse_args()
    results = run(args.clients, seconds=3 if args.quick else 20, follows=10 if args.quick else FOLLOWS)
    text = markdown(results)
    print(text)
    if not args.quick and results is not None:
        load = os.getloadavg()[0]
        machine = f"{platform.python_version()}, {os.cpu_count()} CPUs, load average {load:.1f} at the end"
        RESULTS.write_text(f"# Part 6 of Kibic's benchmarks, run alone\n\n`python -m bench.postgres`, "
                           f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC: Python {machine}.\n\n{text}", encoding="utf-8")
        print(f"written to {RESULTS}")


if __name__ == "__main__":
    main()
