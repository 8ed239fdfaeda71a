"""Health and version, for the operator's checks: `GET /healthz` (the process answers), `GET /readyz` (the store
answers within about a second and its migrations are applied; else 503 with the reason, never the 5 s a request
would wait for the database), `GET /api/version`."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

from flask import Blueprint, current_app

from . import store
from .errors import error_response
from .store import sqlite
from .version import VERSION

bp = Blueprint("health", __name__)

READY_SECONDS = 1.0  # the longest /readyz waits for the store


@bp.get("/healthz")
def healthz():
    return no_store({"status": "alive", "version": VERSION})


@bp.get("/readyz")
def readyz():
    started = time.monotonic()
    reason = not_ready(current_app._get_current_object())
    took = round((time.monotonic() - started) * 1000)
    if reason is None:
        return no_store({"status": "ready", "version": VERSION, "store_ms": took})
    response = error_response(503, "not_ready", f"Not ready: {reason}.", {"reason": reason, "version": VERSION,
                                                                           "store_ms": took})
    response.headers["Cache-Control"] = "no-store"
    response.headers["Retry-After"] = "1"
    return response


@bp.get("/api/version")
def api_version():
    return no_store({"version": VERSION})


def no_store(body: dict):
    response = current_app.json.response(body)
    response.headers["Cache-Control"] = "no-store"
    return response


def not_ready(app) -> str | None:
    """Why the store cannot serve now, in a few words; None when it can."""
    held = store.current(app)
    if isinstance(held, sqlite.SQLiteStore):
        return sqlite_not_ready(held.path)
    return postgres_not_ready(held)


def sqlite_not_ready(path: str) -> str | None:
    from .admin import known_migrations

    try:
        conn = sqlite3.connect(f"{Path(path).absolute().as_uri()}?mode=ro", uri=True, timeout=READY_SECONDS)
    except sqlite3.Error:
        return "the database file or its folder is missing"
    try:
        applied = {row[0] for row in conn.execute(
            "SELECT name FROM _sqlite_migrations WHERE migration_set = 'kibic'")}
    except sqlite3.Error as exc:
        fault = sqlite.sqlite_fault(exc)
        return fault.cause if isinstance(fault, store.Unavailable) else f"the database cannot be read: {exc}"
    finally:
        conn.close()
    return pending(applied, known_migrations(path))


def postgres_not_ready(held) -> str | None:
    """Asks the PostgreSQL server on a connection of the pool's, waiting for one READY_SECONDS at most, the query
    itself cut at the same (a server down answers in a second, not after the pool's 5 s)."""
    import psycopg
    from psycopg_pool import PoolTimeout

    from .store import postgres

    try:
        conn = held.pool.getconn(timeout=READY_SECONDS)
    except PoolTimeout:
        return postgres.UNREACHABLE[1]
    try:
        with conn.transaction():
            conn.execute("SELECT set_config('statement_timeout', %s, true)", [str(int(READY_SECONDS * 1000))])
            applied = {row[0] for row in conn.execute("SELECT name FROM kibic_migrations").fetchall()}
    except psycopg.errors.UndefinedTable:
        return "the database is not migrated"
    except psycopg.Error as exc:
        fault = postgres.postgres_fault(exc, held.pool)
        return fault.cause if isinstance(fault, store.Unavailable) else "the database server is too busy"
    finally:
        held.pool.putconn(conn)
    return pending(applied, [step.__name__ for step in postgres.MIGRATIONS])


def pending(applied: set[str], known: list[str]) -> str | None:
    missing = [name for name in known if name not in applied]
    return f"{len(missing)} migration(s) not applied: run kibic migrate" if missing else None
