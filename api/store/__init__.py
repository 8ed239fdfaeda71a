"""Storage: the matches and their append-only event logs, behind one interface (`Store`) with two
implementations: one SQLite file through sqlite-utils (`api.store.sqlite`, the default) and PostgreSQL through
psycopg 3 (`api.store.postgres`, when `REFEREE_DB` is a `postgresql://` address). The views, the stream and the
engine ask `current()` and never learn which one they talk to. The store raises its own errors (`StoreError` and
its kinds), never HTTP ones: `api.errors` answers them.

The package:

- `base`: the interface, its errors, and what both databases share (the log's text of an event, the time);
  what this package exports is its;
- `sqlite`: the SQLite store, its migrations, the connections each process holds and lends to its requests;
- `sqlite_file`: the SQLite file itself: a connection to it, what tells it apart, whether it is whole;
- `sqlite_writer`: the process's one writer to the file, on a real thread of its own on gevent's loop;
- `postgres`: the PostgreSQL store, its pool, and the outcome of a commit whose answer was lost.

`install` picks one by the app's `DATABASE`. The matches each process keeps folded, and the protocol that
records an event once, are `api.matches`'s.
"""

from __future__ import annotations

from flask import Flask

from .base import (
    LAST_SEQ,
    LONG_NUMBER,
    RESTORED,
    STORE,
    Busy,
    Conflict,
    IdempotencyKeyTaken,
    OutcomeUnknown,
    Rewritten,
    Room,
    SeqTaken,
    Store,
    StoreError,
    Unavailable,
    UnknownMatch,
    current,
    described,
    header,
    is_postgresql,
    logged_event,
    now,
    on_restore,
    payload_text,
    storage_unavailable,
)

__all__ = [
    "LAST_SEQ", "LONG_NUMBER", "RESTORED", "STORE", "Busy", "Conflict", "IdempotencyKeyTaken", "OutcomeUnknown",
    "Rewritten", "Room", "SeqTaken", "Store", "StoreError", "Unavailable", "UnknownMatch", "current", "described",
    "header", "install", "is_postgresql", "logged_event", "now", "on_restore", "payload_text", "storage_unavailable",
]


def install(app: Flask) -> None:
    """The app's store, chosen by its `DATABASE` (`REFEREE_DB`): a `postgresql://` address, or a SQLite file.
    Each is imported only when chosen (a SQLite server loads no psycopg)."""
    if is_postgresql(app.config["DATABASE"]):
        from . import postgres

        postgres.install(app)
    else:
        from . import sqlite

        sqlite.install(app)
