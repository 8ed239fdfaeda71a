"""Part 4: resident memory per 1,000 active matches, held in one server process's cache.

Run in a child process of its own (`python -m bench.memory GAME COUNT EVENTS`), so that nothing else
the benchmarks did sits in its memory: it stores COUNT matches of GAME, each logged up to about EVENTS
events by the tests' table simulators, then asks the app for each match's state once (which folds it
into the cache) and prints the growth of its resident set, in bytes, as JSON.
"""

from __future__ import annotations

import gc
import json
import random
import sys
import tempfile
from pathlib import Path

from referee import Match

from .tables import MATCHES


def resident_bytes() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * 4096


def logged_match(game: str, events: int, rng: random.Random) -> Match:
    """A random legal match of `game` cut at about `events` events (whole matches are logged until one is long
    enough; a shorter game is taken whole)."""
    longest = None
    for _ in range(20):
        match = MATCHES[game](rng)
        if match.seq >= events:
            return Match.replay(match.header(), match.log[:events])
        longest = match if longest is None or match.seq > longest.seq else longest
    return longest


def measure(game: str, count: int, events: int, folder: str) -> dict:
    from api import create_app, keys, matches, store
    from api.store import sqlite

    app = create_app({"DATABASE": str(Path(folder) / "referee.db"), "MATCHES_CACHED": count})
    rng = random.Random(4)
    logged = [logged_match(game, events, rng) for _ in range(min(count, 20))]
    ids = []
    with app.app_context():
        held = store.current()
        for number in range(count):
            match = logged[number % len(logged)]
            match_id = keys.new_match_id()
            held.create_match(match_id, match.header(), keys.hash_key(keys.new_key()))
            db = sqlite.get_db()  # the SQLite file's connection: the whole log in one transaction, not one per event
            with db.atomic():
                for event in match.log:
                    payload = {key: value for key, value in event.items() if key != "seq"}
                    db.execute("INSERT INTO events (match_id, seq, type, payload, created) VALUES (?, ?, ?, ?, ?)",
                               [match_id, event["seq"], event["type"], json.dumps(payload), store.now()])
            ids.append(match_id)
    del logged
    client = app.test_client()
    client.get(f"/api/matches/{ids[0]}")  # the first request imports and sets up what any request needs
    gc.collect()
    before = resident_bytes()
    for match_id in ids:
        assert client.get(f"/api/matches/{match_id}").status_code == 200
    gc.collect()
    held = app.extensions[matches.CACHE]
    return {"game": game, "matches": len(held), "events": sum(m.seq for m in held.matches.values()) / len(held),
            "bytes": resident_bytes() - before}


if __name__ == "__main__":
    with tempfile.TemporaryDirectory(prefix="kibic-memory-") as folder:
        print(json.dumps(measure(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), folder)))
