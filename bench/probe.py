"""What the machine does to any program at the moment: run beside a capacity step, in a process of its own.

Every `EVERY` seconds it commits one row to a SQLite file of its own with Kibic's settings (WAL,
`synchronous=FULL`), and notes how long the commit took (the disk's sync, with whatever else the disk
is doing) and how late its sleep ended (the wait for a core, with whatever else the cores are doing).
Prints the two distributions as JSON when its time is up: the tail a tap cannot do better than.
"""

from __future__ import annotations

import json
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

EVERY = 0.02  # seconds between two commits


def probe(seconds: float) -> dict:
    commits, late = [], []
    with tempfile.TemporaryDirectory(prefix="kibic-probe-") as folder:
        db = sqlite3.connect(Path(folder) / "probe.db", isolation_level=None)
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = FULL")
        db.execute("CREATE TABLE rows (id INTEGER PRIMARY KEY, body TEXT NOT NULL)")
        end = time.perf_counter() + seconds
        due = time.perf_counter()
        while due < end:
            began = time.perf_counter()
            db.execute("BEGIN IMMEDIATE")
            db.execute("INSERT INTO rows (body) VALUES (?)", ["a play's size of text " * 4])
            db.execute("COMMIT")
            commits.append(time.perf_counter() - began)
            due += EVERY
            time.sleep(max(0.0, due - time.perf_counter()))
            late.append(max(0.0, time.perf_counter() - due))
        db.close()
    return {"commits": summary(commits), "late": summary(late)}


def summary(values: list[float]) -> dict:
    ordered = sorted(values)
    return {"count": len(ordered), **{name: ordered[min(len(ordered) - 1, int(q * len(ordered)))]
                                      for name, q in (("p50", 0.5), ("p99", 0.99))}, "max": ordered[-1]}


if __name__ == "__main__":
    print(json.dumps(probe(float(sys.argv[1]))))
