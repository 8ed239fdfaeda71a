"""On gevent's loop, as gunicorn's workers run it, writes are committed by one real thread of the process
(`api.store.sqlite_writer.Committer`): writes queued while a commit runs go in one transaction, each all or
nothing; the loop goes on serving while a commit waits; a commit that fails fails the writes in it and the next
ones commit.

gevent patches the standard library for the whole process, so each case runs in a child process of its own.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

PRELUDE = """
from gevent import monkey
monkey.patch_all()

import json, sqlite3, sys, time
import gevent
from api import loop, store
from api.store import sqlite

path = sys.argv[1]
sqlite.migrate(path)
with sqlite3.connect(path) as db:
    db.execute("INSERT INTO matches (id, game, players, options, stake, created, key_hash) "
               "VALUES ('m1', 'ogorek', '[\\\"A\\\", \\\"B\\\"]', '{}', '0', '', '')")
held = sqlite.Connections(path)
transactions = []
commit = held.writer.commit
def counted(writes):
    transactions.append(len(writes))
    commit(writes)
held.writer.commit = counted
real_sleep = loop.original("time", "sleep")

def event(*seqs, pause=0.0):
    def insert(conn):
        real_sleep(pause)  # the time of a slow sync to disk, in the writer's thread
        for seq in seqs:
            conn.execute("INSERT INTO events (match_id, seq, type, payload, created) VALUES ('m1', ?, 'end', '{}', '')",
                         [seq])
    return insert

def write(work):
    try:
        held.write(work)
        return "ok"
    except Exception as exc:
        return type(exc).__name__

def stored():
    with sqlite3.connect(path) as db:
        return [seq for (seq,) in db.execute("SELECT seq FROM events ORDER BY seq")]
"""


def run(case: str, tmp_path: Path) -> dict:
    script = PRELUDE + textwrap.dedent(case)
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path / "referee.db")], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.timed  # the first commit still waiting 0.05 s after it began: alone
def test_writes_arriving_during_a_commit_are_committed_together_each_all_or_nothing(tmp_path):
    found = run("""
        first = gevent.spawn(write, event(1, pause=0.3))
        gevent.sleep(0.05)  # the first commit is waiting for its "sync": these queue behind it
        rest = [gevent.spawn(write, event(seq)) for seq in range(2, 12)]
        refused = gevent.spawn(write, event(12, 1))  # seq 1 is taken: 12 is undone with it
        gevent.joinall([first, *rest, refused])
        print(json.dumps({"answers": [g.value for g in [first, *rest, refused]], "transactions": transactions,
                          "stored": stored()}))
    """, tmp_path)

    assert found["answers"] == ["ok"] * 11 + ["IntegrityError"]
    assert found["stored"] == list(range(1, 12))
    assert found["transactions"] == [1, 11]  # one sync to disk for the eleven that waited


@pytest.mark.timed
def test_the_loop_serves_while_a_commit_waits(tmp_path):
    found = run("""
        ticks = []
        def tick():
            while len(ticks) < 1000:
                ticks.append(time.monotonic())
                gevent.sleep(0.005)
        ticker = gevent.spawn(tick)
        began = time.monotonic()
        answer = write(event(1, pause=0.5))
        ended = time.monotonic()
        ticker.kill()
        print(json.dumps({"answer": answer, "ticks": sum(began <= t <= ended for t in ticks),
                          "seconds": ended - began}))
    """, tmp_path)

    assert found["answer"] == "ok"
    assert found["seconds"] >= 0.5
    assert found["ticks"] >= 40  # a tick every 5 ms went on through the half second the commit took


def test_a_failed_commit_fails_its_writes_and_the_next_ones_commit(tmp_path):
    found = run("""
        def broken(conn):
            raise store.Unavailable("disk_full", "the disk is full")
        first = gevent.spawn(write, event(1, pause=0.2))
        gevent.sleep(0.05)
        batch = [gevent.spawn(write, event(2)), gevent.spawn(write, broken), gevent.spawn(write, event(3))]
        gevent.joinall([first, *batch])
        after = write(event(4))
        print(json.dumps({"answers": [g.value for g in [first, *batch]], "after": after, "stored": stored()}))
    """, tmp_path)

    # a fault that is not SQLite's refusal of one write ends the whole transaction: nothing of it stays
    assert found["answers"] == ["ok", "Unavailable", "Unavailable", "Unavailable"]
    assert found["after"] == "ok"
    assert found["stored"] == [1, 4]
