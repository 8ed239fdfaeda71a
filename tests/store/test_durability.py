"""Nothing lost, nothing doubled: gunicorn killed with SIGKILL in the middle of a game night.

Writers (threads) play Ogórek over HTTP against gunicorn with several workers on one database: most
have a match of their own, dealt with known hands and played card by card (with an undo now and then),
and some pairs share a match and log penalties into it at once. Every request carries an
Idempotency-Key; a writer retries whatever got no answer. Mid-load the server and its workers are
killed with SIGKILL and started again on the same file; the writers retry what was not acknowledged.
Then every acknowledged event must be in the log exactly once, at its seq, as acknowledged, and every
match's log must replay to the state the server serves.

The kill ends processes, not the machine: it proves that the acknowledged writes were committed, and
`synchronous=FULL` (checked in test_store.py) is what carries them through a power cut as well.

On PostgreSQL the same night runs on two app servers (two gunicorns on two ports) sharing one database,
as a league's would behind a proxy: every writer sends each request to either server, with `expect_seq`
and an Idempotency-Key; one server is killed and started again while the other goes on; then both must
serve the same state, which the log replays to.
"""

from __future__ import annotations

import http.client
import json
import random
import secrets
import sqlite3
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import psycopg
import pytest
from gunicorn_server import Gunicorn
from psycopg.rows import dict_row

from api import keys
from referee import Match
from referee.cards import deck

OWN_MATCH_WRITERS = 6
SHARED_MATCHES = 2  # each written by two writers at once
CREATORS = 1
LOAD_BEFORE_KILL = 2.0  # seconds
LOAD_AFTER_RESTART = 1.5
WORKERS = 3
NO_ANSWER = (urllib.error.URLError, ConnectionError, TimeoutError, http.client.HTTPException)


class Server(Gunicorn):
    """Kibic's gunicorn, with an `up` flag that the writers wait on while it is down."""

    def __init__(self, database: Path | str, workers: int = WORKERS):
        super().__init__(env={"REFEREE_DB": str(database)}, workers=workers)
        self.up = threading.Event()

    def start(self) -> str:
        base = super().start()
        self.up.set()
        return base

    def kill(self) -> None:
        self.up.clear()
        super().kill()


@dataclass
class Tally:
    """What the writers saw: every acknowledged write, and every request left without an answer."""

    acknowledged: dict = field(default_factory=dict)  # (match id, Idempotency-Key) -> the event answered
    created: dict = field(default_factory=dict)  # creation Idempotency-Key -> match id
    unanswered: set = field(default_factory=set)  # Idempotency-Keys of requests that got no answer once
    statuses: Counter = field(default_factory=Counter)
    errors: list = field(default_factory=list)  # what went wrong in a writer, which then stopped
    lock: threading.Lock = field(default_factory=threading.Lock)


class Writer:
    """One phone: sends each request until it is answered, with the same Idempotency-Key every time."""

    def __init__(self, servers: list[Server], tally: Tally, stop: threading.Event, seed: int,
                 expect_seq: bool = False):
        self.servers, self.tally, self.stop, self.random = servers, tally, stop, random.Random(seed)
        self.expect_seq = expect_seq  # each event says the seq it was decided on; a 409 sends it again, updated

    def server(self) -> Server:
        """Either server that is up (the proxy's choice), or the one to wait for when none is."""
        up = [server for server in self.servers if server.up.is_set()]
        return self.random.choice(up or self.servers)

    def thread(self, work, *args) -> threading.Thread:
        def run():
            try:
                work(self, *args)
            except BaseException as exc:  # the test fails on it
                with self.tally.lock:
                    self.tally.errors.append(repr(exc))

        return threading.Thread(target=run)

    def send(self, path: str, body: dict | None, key: str, idempotency_key: str) -> tuple[int, dict]:
        data = json.dumps(body).encode() if body is not None else None
        headers = {"Content-Type": "application/json", "Idempotency-Key": idempotency_key}
        if key:
            headers["Authorization"] = f"Bearer {key}"
        while True:
            server = self.server()
            server.up.wait(timeout=30)
            request = urllib.request.Request(server.base + path, data=data, headers=headers, method="POST")
            try:
                status, answer = exchange(request)
            except NO_ANSWER:  # a body cut by the kill too (a 409's as well as a 201's): asked again
                with self.tally.lock:
                    self.tally.unanswered.add(idempotency_key)
                time.sleep(0.01)
                continue
            with self.tally.lock:
                self.tally.statuses[status] += 1
            if status == 409 and answer["error"]["code"] == "seq_conflict" and "expect_seq" not in (body or {}):
                continue  # not recorded: another phone wrote first; the same request goes again
            return status, answer

    def create(self, players: list[str], limit: int = 40) -> dict:
        idempotency_key = secrets.token_urlsafe(32)
        body = {"game": "ogorek", "players": players, "options": {"limit": limit}}
        status, match = self.send("/api/matches", body, "", idempotency_key)
        assert status == 201, match
        with self.tally.lock:
            self.tally.created[idempotency_key] = match["id"]
        return match

    def log(self, match: dict, route: str, body: dict | None, seq: int | None = None) -> dict:
        """Logs `body`; with `expect_seq`, as decided on event `seq`, and again on the log as it stands when
        another phone wrote first (a 409 records nothing, so the new request takes a new key)."""
        while True:
            idempotency_key = secrets.token_urlsafe(12)
            if self.expect_seq and seq is not None:
                body = {**(body or {}), "expect_seq": seq}
            status, answer = self.send(f"/api/matches/{match['id']}/{route}", body, match["key"], idempotency_key)
            if status != 409 or not self.expect_seq:
                break
            assert answer["error"]["code"] == "seq_conflict", answer
            seq = answer["error"]["details"]["seq"]
        assert status == 201, answer
        with self.tally.lock:
            self.tally.acknowledged[match["id"], idempotency_key] = answer["event"]
        return answer["state"]

    def play_own_matches(self) -> None:
        """Whole deals with known hands, every card one of the legal ones, and now and then an undo."""
        match = self.create(["Ala", "Ola", "Ela", "Ula"])
        state = match
        while not self.stop.is_set():
            expected = state["expected"]
            if expected is None:
                match = state = self.create(["Ala", "Ola", "Ela", "Ula"])
            elif self.random.random() < 0.05 and state["seq"] > 0:
                state = self.log(match, "undo", None, state["seq"])
            elif expected["type"] == "deal":
                state = self.log(match, "events", {"type": "deal", **self.hands(state, expected)}, state["seq"])
            else:
                card = self.random.choice(expected["legal"])
                state = self.log(match, "events", {"type": "play", "seat": expected["seat"], "card": card},
                                 state["seq"])

    def hands(self, state: dict, expected: dict) -> dict:
        cards = [card.rank for card in deck(52)]
        self.random.shuffle(cards)
        seats = [p["seat"] for p in state["players"] if not p["out"]]
        hands = {str(seat): cards[i * expected["cards"]:(i + 1) * expected["cards"]] for i, seat in enumerate(seats)}
        return {"hands": hands} if expected["dealer"] is None else {"dealer": expected["dealer"], "hands": hands}

    def log_penalties(self, match: dict) -> None:
        seq = match["seq"]
        while not self.stop.is_set():
            seq = self.log(match, "events", {"type": "penalty", "seat": self.random.randrange(4), "points": 1},
                           seq)["seq"]

    def start_matches(self) -> None:
        """A new table every moment: each match created and its first deal drawn by lot."""
        while not self.stop.is_set():
            self.log(self.create(["Jan", "Ewa", "Piotr"]), "events", {"type": "deal"})


def exchange(request: urllib.request.Request) -> tuple[int, dict]:
    """The status and the JSON body of the answer to `request`, whatever its status."""
    try:
        with urllib.request.urlopen(request, timeout=15) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        with error:
            return error.code, json.loads(error.read())


def get(server: Server, path: str) -> dict:
    with urllib.request.urlopen(server.base + path, timeout=15) as response:
        return json.loads(response.read())


def stored(database: Path | str) -> tuple[dict, list[tuple]]:
    """The matches (by id) and the events (match id, seq, payload, Idempotency-Key, created) as stored."""
    if str(database).startswith("postgresql://"):
        with psycopg.connect(str(database)) as conn, conn.cursor(row_factory=dict_row) as cursor:
            matches = {row["id"]: row for row in cursor.execute("SELECT * FROM matches")}
            events = conn.execute("SELECT match_id, seq, payload, idempotency_key, created FROM events "
                                  "ORDER BY match_id, seq").fetchall()
            return matches, [tuple(row) for row in events]
    with sqlite3.connect(f"{database.as_uri()}?mode=ro", uri=True) as db:
        db.row_factory = sqlite3.Row
        matches = {row["id"]: dict(row) for row in db.execute("SELECT * FROM matches")}
        events = db.execute("SELECT match_id, seq, payload, idempotency_key, created FROM events "
                            "ORDER BY match_id, seq")
        return matches, [tuple(row) for row in events]


@pytest.mark.server
def test_sigkill_mid_load_loses_and_doubles_nothing(tmp_path):
    night(tmp_path / "data" / "referee.db", servers=1, workers=WORKERS, expect_seq=False)


@pytest.mark.server
def test_two_app_servers_on_postgresql_one_killed_mid_load_lose_and_double_nothing(postgres_cluster):
    night(postgres_cluster.new_database(), servers=2, workers=2, expect_seq=True)


def night(database: Path | str, servers: int, workers: int, expect_seq: bool) -> None:
    """A game night on `servers` app servers over one database; the first is killed mid-load and restarted."""
    running, tally, stop = [Server(database, workers) for _ in range(servers)], Tally(), threading.Event()
    for server in running:
        server.start()
    try:
        setup = Writer(running, tally, stop, seed=0, expect_seq=expect_seq)
        shared = [setup.create(["Ada", "Ida", "Eda", "Oda"], limit=1000) for _ in range(SHARED_MATCHES)]
        writers = [Writer(running, tally, stop, seed, expect_seq).thread(Writer.play_own_matches)
                   for seed in range(1, OWN_MATCH_WRITERS + 1)]
        writers += [Writer(running, tally, stop, 100 + i, expect_seq).thread(Writer.log_penalties, match)
                    for i, match in enumerate(shared * 2)]
        writers += [Writer(running, tally, stop, 200 + i, expect_seq).thread(Writer.start_matches)
                    for i in range(CREATORS)]
        for writer in writers:
            writer.start()
        time.sleep(LOAD_BEFORE_KILL)
        acknowledged_at_kill = len(tally.acknowledged)
        running[0].kill()
        killed_at = datetime.now(UTC).isoformat(timespec="milliseconds")  # as the store writes `created`
        running[0].start()
        time.sleep(LOAD_AFTER_RESTART)
        stop.set()
        for writer in writers:
            writer.join(timeout=60)
        assert not any(writer.is_alive() for writer in writers)

        matches, rows = stored(database)
        served = [{match_id: (get(server, f"/api/matches/{match_id}"), get(server, f"/api/matches/{match_id}/events"))
                   for match_id in matches} for server in running]
    finally:
        stop.set()
        for server in running:
            server.stop()

    by_key = Counter((match_id, key) for match_id, _, _, key, _ in rows)
    creation_hashes = {keys.hash_key(key): match_id for key, match_id in tally.created.items()}
    doubles = sum(count - 1 for count in by_key.values()) + sum(1 for row in rows if row[3] is None)
    doubles += sum(1 for match in matches.values() if creation_hashes.get(match["idempotency_key_hash"]) != match["id"])
    recorded = {(match_id, key): {**json.loads(payload), "seq": seq} for match_id, seq, payload, key, _ in rows}
    lost = sum(1 for where, event in tally.acknowledged.items() if recorded.get(where) != event)
    never_acknowledged = len(recorded.keys() - tally.acknowledged.keys())
    unanswered = tally.unanswered
    recorded_by_the_killed = sum(1 for _, _, _, key, created in rows if key in unanswered and created < killed_at)
    recorded_by_the_killed += sum(1 for key in unanswered if key in tally.created
                                  and matches[tally.created[key]]["created"] < killed_at)

    store = "PostgreSQL" if str(database).startswith("postgresql://") else "SQLite"
    print(f"\ndurability ({store}): {len(writers)} writers on {len(matches)} matches, {servers} gunicorn with "
          f"{workers} workers each, one killed with SIGKILL after {acknowledged_at_kill} acknowledged events; "
          f"{len(tally.acknowledged)} events and {len(tally.created)} new matches acknowledged in all; "
          f"{len(unanswered)} requests left unanswered and retried, {recorded_by_the_killed} of them recorded "
          f"by the killed server; "
          f"lost {lost}, doubles {doubles}; answers {dict(sorted(tally.statuses.items()))}")
    assert tally.errors == []
    assert acknowledged_at_kill > 0 and len(tally.acknowledged) > acknowledged_at_kill
    assert lost == 0
    assert doubles == 0
    assert never_acknowledged == 0
    assert not any(status >= 500 for status in tally.statuses)
    assert sorted(matches) == sorted(set(tally.created.values()))
    for served_by in served[1:]:
        assert served_by == served[0]  # every server serves the same state and log
    for match_id, (state, log) in served[0].items():
        events = [{**json.loads(payload), "seq": seq} for row_id, seq, payload, _, _ in rows if row_id == match_id]
        assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
        header = {key: matches[match_id][key] for key in ("game", "stake", "currency")}
        header |= {"players": json.loads(matches[match_id]["players"]),
                   "options": json.loads(matches[match_id]["options"])}
        replayed = Match.replay(header, events)
        assert state == {"id": match_id, "evening": None, **replayed.public().view()}  # read without the key
        assert log["events"] == replayed.events_view(hidden=True)
