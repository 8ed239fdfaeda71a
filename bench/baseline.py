"""The floor of this stack: a minimal Flask view that inserts one row into SQLite, durably, and answers JSON.

Served by the same gunicorn as Kibic (same workers, same settings) with the same storage settings as
`api.store`: WAL, `synchronous=FULL`, a busy timeout, one transaction per insert, and the fast way to use
SQLite: one connection per process, opened once and held (lent to one request at a time). Whatever Kibic
does beyond this is the price of refereeing.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from datetime import UTC, datetime

from flask import Flask, request

BUSY_TIMEOUT_MS = 10_000


def connect(path: str) -> sqlite3.Connection:
    conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_MS / 1000, check_same_thread=False)
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    conn.execute("PRAGMA synchronous = FULL")
    return conn


def prepare(path: str) -> None:
    """The table and WAL mode, set up once before the server starts."""
    conn = connect(path)
    with conn:
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("CREATE TABLE IF NOT EXISTS rows (id INTEGER PRIMARY KEY, body TEXT NOT NULL, "
                     "created TEXT NOT NULL)")
    conn.close()


def create_app() -> Flask:
    app = Flask(__name__)
    conn = connect(os.environ["BASELINE_DB"])  # this process's, for as long as it serves
    lock = threading.Lock()

    @app.post("/insert")
    def insert():
        body = request.get_data(as_text=True)
        with lock, conn:
            cursor = conn.execute("INSERT INTO rows (body, created) VALUES (?, ?)",
                                  [body, datetime.now(UTC).isoformat()])
        return {"id": cursor.lastrowid}, 201

    return app
