"""The PostgreSQL store: the `Store` interface over one PostgreSQL database, through psycopg 3 and its pool.

Chosen when `REFEREE_DB` (the app's `DATABASE`) is a `postgresql://` address: the store for several app
servers behind a proxy, which all write one database. The same guarantees as the SQLite file's:

- the log's primary key `(match_id, seq)` is the concurrency check: of two writers appending event n to a
  match, the second gets a unique violation on `events_pkey` (`SeqTaken`) and records nothing;
- an event's Idempotency-Key is a column of its row, under a unique index: the record is written in the
  event's own transaction; a creation's key hash likewise in its match's row;
- a commit is durable when PostgreSQL answers it (its default `synchronous_commit = on`: the WAL is
  flushed first);
- a server down, unreachable or lost in the middle of a request before its COMMIT was sent is `Unavailable`
  (503), and what the transaction wrote is rolled back by PostgreSQL: nothing is recorded;
- a connection lost once COMMIT was sent leaves the outcome open (PostgreSQL may have committed and lost only
  its answer): the write asks on another connection whether its transaction (`pg_current_xact_id`, taken in
  the write itself) committed, and answers as if nothing had happened when it did, `Unavailable` when it is
  known to have been rolled back, and `OutcomeUnknown` (503 `outcome_unknown`) when the server cannot tell in
  `SETTLE_SECONDS`. An event written without an Idempotency-Key is stored marked unconfirmed (its
  `request_hash`, unused without a key, is `UNCONFIRMED`) and the mark is cleared once its commit is known:
  a mark left over names an event whose answer may have been lost, and a write without Idempotency-Key nor
  `expect_seq` to that match in the next `UNCONFIRMED_MINUTES` is refused (409 `possibly_recorded`), since it
  may be that write sent again;
- every statement is one literal string with bound values.

A request takes one connection from its process's pool at its first query (checked first: after a restart of the
server every pooled connection is dead, and one found dead has the others checked at once) and gives it back when
it ends. A write of an
event also sends `NOTIFY kibic_events` with the match id and seq in its transaction (delivered at commit):
`listen` lets each app server's streams wake as soon as any server logs an event.
"""

from __future__ import annotations

import functools
import json
import logging
import os
import secrets
import threading
import time
import weakref
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta

import psycopg
from flask import Flask, g, has_app_context
from psycopg import errors as pg_errors
from psycopg.rows import dict_row
from psycopg_pool import ConnectionPool, PoolTimeout

from .base import (
    LAST_SEQ,
    RESTORED,
    STORE,
    Busy,
    Conflict,
    IdempotencyKeyTaken,
    OutcomeUnknown,
    P,
    R,
    Rewritten,
    Room,
    SeqTaken,
    Store,
    StoreError,
    Unavailable,
    UnknownMatch,
    described,
    logged_event,
    now,
    payload_text,
)

log = logging.getLogger(__name__)

POOL_SIZE = 10  # connections per server process at most (`KIBIC_PG_POOL_SIZE`): requests wait up to POOL_TIMEOUT
POOL_MIN = 1  # kept open when idle; those above it close after POOL_IDLE_SECONDS unused, leaving the slots to others
POOL_IDLE_SECONDS = 60.0
POOL_TIMEOUT = 5.0  # seconds a request waits for a connection (the server down: then 503); `STORE_WAIT_SECONDS`
CONNECT_TIMEOUT = 3  # seconds to reach the server
RECONNECT_SECONDS = 1.0  # the pool's attempts at a new connection (1 s apart) last this long, then the next request
# that needs one starts afresh: a server back after an outage is found within a second, not after psycopg_pool's
# backoff has grown to the outage's length (16 s after an outage of 15)
ASK_SECONDS = 0.5  # a request waiting for a connection asks the pool again this often: each ask may start an attempt
SETTLE_SECONDS = 2.0  # a write whose connection was lost in its COMMIT asks this long whether it committed
SETTLE_LOOK_SECONDS = 0.1
UNCONFIRMED = "unconfirmed"  # the `request_hash` of an event written without a key until its commit is known
UNCONFIRMED_MINUTES = 10  # an event left unconfirmed refuses writes without key nor expect_seq this long
CONFIRM_WAIT_SECONDS = 1.0  # a mark found is waited for this long (another writer's, between commit and confirmation)
CONFIRM_LOOK_SECONDS = 0.02
LEFT_KEPT = 1000  # marks of this process's events whose clearing was lost, kept to clear again
CHANNEL = "kibic_events"
CONNECTION = "kibic_postgres"  # the app context's connection, in `g`
GENERATION = "kibic_postgres_generation"  # in `g`: the data's generation the request's first look read (`check`)
RELISTEN_SECONDS = 1.0  # the listening connection lost: tried again this often
MIGRATIONS_LOCK = 7_512_013  # pg_advisory_xact_lock's key: one process applies the migrations at a time
UNREACHABLE = ("unreachable", "the database server cannot be reached")


# --- migrations ----------------------------------------------------------------------------------

def create_matches_and_events(cursor: psycopg.Cursor) -> None:
    cursor.execute("CREATE TABLE matches (id text PRIMARY KEY, game text NOT NULL, players text NOT NULL, "
                   "options text NOT NULL, stake text NOT NULL, currency text, created text NOT NULL, "
                   "key_hash text NOT NULL)")
    cursor.execute("CREATE TABLE events (match_id text NOT NULL REFERENCES matches (id), seq bigint NOT NULL, "
                   "type text NOT NULL, payload text NOT NULL, created text NOT NULL, idempotency_key text, "
                   "request_hash text, PRIMARY KEY (match_id, seq))")
    cursor.execute("CREATE UNIQUE INDEX events_idempotency_key ON events (match_id, idempotency_key) "
                   "WHERE idempotency_key IS NOT NULL")


def remember_idempotent_creations(cursor: psycopg.Cursor) -> None:
    cursor.execute("ALTER TABLE matches ADD COLUMN idempotency_key_hash text, ADD COLUMN request_hash text")
    cursor.execute("CREATE UNIQUE INDEX matches_idempotency_key ON matches (idempotency_key_hash) "
                   "WHERE idempotency_key_hash IS NOT NULL")


def create_the_server_secret(cursor: psycopg.Cursor) -> None:
    cursor.execute("CREATE TABLE settings (name text PRIMARY KEY, value text NOT NULL)")
    cursor.execute("INSERT INTO settings (name, value) VALUES ('server_secret', %s)", [secrets.token_hex(32)])


def create_evenings(cursor: psycopg.Cursor) -> None:
    cursor.execute("CREATE TABLE evenings (id text PRIMARY KEY, name text NOT NULL, currency text NOT NULL, "
                   "created text NOT NULL, key_hash text NOT NULL)")
    cursor.execute("CREATE TABLE evening_matches (match_id text PRIMARY KEY REFERENCES matches (id), "
                   "evening_id text NOT NULL REFERENCES evenings (id), created text NOT NULL, "
                   "joined bigint GENERATED ALWAYS AS IDENTITY)")
    cursor.execute("CREATE INDEX evening_matches_evening ON evening_matches (evening_id)")


def remember_idempotent_evenings(cursor: psycopg.Cursor) -> None:
    cursor.execute("ALTER TABLE evenings ADD COLUMN idempotency_key_hash text, ADD COLUMN request_hash text")
    cursor.execute("CREATE UNIQUE INDEX evenings_idempotency_key ON evenings (idempotency_key_hash) "
                   "WHERE idempotency_key_hash IS NOT NULL")


def create_clubs(cursor: psycopg.Cursor) -> None:
    cursor.execute("CREATE TABLE clubs (id text PRIMARY KEY, name text NOT NULL, currency text NOT NULL, "
                   "created text NOT NULL, key_hash text NOT NULL, read_key_hash text NOT NULL, rule text, "
                   "idempotency_key_hash text, request_hash text)")
    cursor.execute("CREATE UNIQUE INDEX clubs_idempotency_key ON clubs (idempotency_key_hash) "
                   "WHERE idempotency_key_hash IS NOT NULL")
    cursor.execute("ALTER TABLE evenings ADD COLUMN club_id text")
    cursor.execute("CREATE INDEX evenings_club ON evenings (club_id) WHERE club_id IS NOT NULL")
    cursor.execute("CREATE TABLE club_members (club_id text NOT NULL, id text NOT NULL, name text NOT NULL, "
                   "created text NOT NULL, merged_into text, PRIMARY KEY (club_id, id))")
    cursor.execute("CREATE TABLE club_names (club_id text NOT NULL, name text NOT NULL, shown text NOT NULL, "
                   "member_id text NOT NULL, seated bigint GENERATED ALWAYS AS IDENTITY, "
                   "PRIMARY KEY (club_id, name))")
    cursor.execute("CREATE TABLE club_payments (club_id text NOT NULL, id text NOT NULL, at text NOT NULL, "
                   "payer text NOT NULL, payee text NOT NULL, amount text NOT NULL, by_member text NOT NULL, "
                   "idempotency_key text, request_hash text, marked bigint GENERATED ALWAYS AS IDENTITY, "
                   "PRIMARY KEY (club_id, id))")
    cursor.execute("CREATE UNIQUE INDEX club_payments_idempotency_key ON club_payments (club_id, idempotency_key) "
                   "WHERE idempotency_key IS NOT NULL")


def create_match_summaries(cursor: psycopg.Cursor) -> None:
    # IF NOT EXISTS: a restore of an older archive by an earlier version left the live table in place
    cursor.execute("CREATE TABLE IF NOT EXISTS match_summaries (match_id text PRIMARY KEY, seq bigint NOT NULL, "
                   "summary text NOT NULL)")
    # a row to lock: a summary is stored under a share lock of it, which an operator's change takes first
    # (`PostgresStore.keep_summaries`, `api.admin`); "" is as if there were none (`PostgresStore.check`)
    cursor.execute("INSERT INTO settings (name, value) VALUES ('generation', '') ON CONFLICT (name) DO NOTHING")


# The same steps, by the same names, as the SQLite file's (`api.store.sqlite.migrations`); new ones go at the end.
MIGRATIONS: list[Callable[[psycopg.Cursor], None]] = [
    create_matches_and_events, remember_idempotent_creations, create_the_server_secret, create_evenings,
    remember_idempotent_evenings, create_clubs, create_match_summaries,
]
DROPS = {
    "kibic_migrations": "DROP TABLE kibic_migrations CASCADE",
    "matches": "DROP TABLE matches CASCADE",
    "events": "DROP TABLE events CASCADE",
    "settings": "DROP TABLE settings CASCADE",
    "evenings": "DROP TABLE evenings CASCADE",
    "evening_matches": "DROP TABLE evening_matches CASCADE",
    "clubs": "DROP TABLE clubs CASCADE",
    "club_members": "DROP TABLE club_members CASCADE",
    "club_names": "DROP TABLE club_names CASCADE",
    "club_payments": "DROP TABLE club_payments CASCADE",
    "match_summaries": "DROP TABLE match_summaries CASCADE",
}
"""The tables the migrations make, each with the literal statement that drops it: a migration that makes one adds it
here (`kibic restore` drops those an older archive lacks; tests/store/test_backup_restore.py checks the list against a
migrated database)."""
TABLES = frozenset(DROPS)


def drop_tables(conn: psycopg.Connection, names: set[str]) -> None:
    """Drops these tables of Kibic's (`TABLES`), and what depends on them."""
    for name in sorted(names):
        conn.execute(DROPS[name])


def migrate(conn: psycopg.Connection) -> list[str]:
    """Applies the pending migrations in one transaction, under a lock that processes starting at once share;
    the names applied."""
    applied = []
    with conn.transaction(), conn.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [MIGRATIONS_LOCK])
        cursor.execute("CREATE TABLE IF NOT EXISTS kibic_migrations (name text PRIMARY KEY, applied text NOT NULL)")
        done = {row[0] for row in cursor.execute("SELECT name FROM kibic_migrations").fetchall()}
        for step in MIGRATIONS:
            if step.__name__ not in done:
                step(cursor)
                cursor.execute("INSERT INTO kibic_migrations (name, applied) VALUES (%s, %s)", [step.__name__, now()])
                applied.append(step.__name__)
    return applied


def pool_size(environ: dict = os.environ) -> int:
    """The pool's largest size: `KIBIC_PG_POOL_SIZE` (1 to 100), else POOL_SIZE."""
    given = environ.get("KIBIC_PG_POOL_SIZE", "").strip()
    if not given:
        return POOL_SIZE
    if not given.isdigit() or not 1 <= int(given) <= 100:
        raise ValueError(f"KIBIC_PG_POOL_SIZE must be a whole number from 1 to 100, not {given!r}")
    return int(given)


# --- errors --------------------------------------------------------------------------------------

def postgres_fault(error: psycopg.Error, pool: ConnectionPool) -> StoreError | None:
    """The store's error for a server that is out of reach or out of order; None for an error that is a bug.

    No connection came from the pool in time: with all its connections lent the server is busy; with room
    for more, the pool could not open one, and the server is out of reach."""
    if isinstance(error, PoolTimeout):
        stats = pool.get_stats()
        if stats.get("pool_size", 0) >= stats.get("pool_max", 0):
            return Busy("no connection to the database server came free in time")
        return Unavailable(*UNREACHABLE)
    if isinstance(error, pg_errors.DiskFull):
        return Unavailable("disk_full", "the database server's disk is full")
    if isinstance(error, pg_errors.ReadOnlySqlTransaction):
        return Unavailable("read_only", "the database server accepts no writes")
    if isinstance(error, (pg_errors.LockNotAvailable, pg_errors.QueryCanceled)):
        return Busy("the database server is too busy")
    if isinstance(error, pg_errors.UndefinedTable):
        return Unavailable("corrupt", "the database is not Kibic's")
    if isinstance(error, psycopg.OperationalError):
        return Unavailable(*UNREACHABLE)
    return None


def postgres_faults(method: Callable[P, R]) -> Callable[P, R]:
    """`method` with psycopg's errors of a server down, lost or out of order raised as the store's own."""

    @functools.wraps(method)
    def translated(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return method(*args, **kwargs)
        except psycopg.Error as exc:
            fault = postgres_fault(exc, args[0].pool)
            if fault is None:
                raise
            log.error("storage failure: %s", exc)
            raise fault from exc

    return translated


def plain(text: str) -> bool:
    """Whether `text` can be stored in PostgreSQL's text at all (it holds no NUL): an id with one names nothing."""
    return "\0" not in text


@contextmanager
def creation_key(constraint: str, idempotency_key_hash: str | None) -> Iterator[None]:
    """A match's or an evening's creation: `IdempotencyKeyTaken` when another creation holds the same
    Idempotency-Key (the unique index `constraint`)."""
    try:
        yield
    except pg_errors.UniqueViolation as exc:
        if exc.diag.constraint_name == constraint:
            raise IdempotencyKeyTaken(idempotency_key_hash) from exc
        raise


# --- the store -----------------------------------------------------------------------------------

def install(app: Flask) -> None:
    """The app's store: the PostgreSQL database its `DATABASE` names, its pool opened and migrated (`open`)."""
    held = PostgresStore(app.config["DATABASE"], timeout=app.config.get("STORE_WAIT_SECONDS", POOL_TIMEOUT))
    app.extensions[STORE] = held
    held.open(app)


class PostgresStore(Store):
    """The matches in one PostgreSQL database, shared by every app server that names it."""

    opened: weakref.WeakSet[PostgresStore] = weakref.WeakSet()  # this process's, for `close_all`

    def __init__(self, dsn: str, size: int | None = None, timeout: float = POOL_TIMEOUT):
        self.dsn = dsn
        self.secret: bytes | None = None
        self.migrated = False
        self.lock = threading.Lock()
        self.timeout = timeout
        size = size or pool_size()
        # no `check` of the pool's own: it waits 1 s, then 2, 4... between dead connections (`take` checks them)
        self.pool = ConnectionPool(dsn, min_size=min(POOL_MIN, size), max_size=size, timeout=timeout, open=False,
                                   max_idle=POOL_IDLE_SECONDS, reconnect_timeout=RECONNECT_SECONDS,
                                   kwargs={"connect_timeout": CONNECT_TIMEOUT, "autocommit": True}, name="kibic")
        self.listeners: list[Callable[[str, int], None]] = []
        self.left: deque[tuple[str, int]] = deque(maxlen=LEFT_KEPT)  # marks of events known committed, to clear
        self.heard = False  # the listening connection is up: every commit's notification arrives
        self.closed = False
        self.noticed: str | None = None  # the data's generation in `settings`, as this process last saw it
        self.restored: list[Callable[[], None]] = []  # what forgets what the process holds (`api.store.on_restore`)
        PostgresStore.opened.add(self)

    def open(self, app: Flask) -> None:
        """Opens the pool and migrates. A server out of reach at start is not fatal: requests answer 503 and
        the first one that reaches it migrates."""
        app.teardown_appcontext(self.give_back)
        self.restored = app.extensions.setdefault(RESTORED, [])  # the app's list, however early or late it fills
        self.pool.open(wait=False)
        try:
            self.migrate()
        except StoreError as exc:
            log.error("cannot migrate the database (requests answer 503 until it can): %s", exc)

    @contextmanager
    def connection(self) -> Iterator[psycopg.Connection]:
        """The app context's connection: taken from the pool at its first use in a request (or in a stream's
        look), given back when the context ends (`give_back`); outside an app context, one for the block.
        Connections are in autocommit: a statement alone is its own transaction, a write of several
        statements is one `conn.transaction()`."""
        if not self.migrated:
            self.migrate()
        if not has_app_context():
            with self.borrowed() as conn:
                yield conn
            return
        conn = g.get(CONNECTION)
        if conn is None:
            conn = self.take()
            setattr(g, CONNECTION, conn)
            g.setdefault(GENERATION, self.noticed)  # the first look's, kept if the connection is taken again
        yield conn

    @contextmanager
    def borrowed(self, timeout: float | None = None) -> Iterator[psycopg.Connection]:
        """A connection of the pool for the block (`take`), given back after it."""
        conn = self.take(timeout)
        try:
            yield conn
        finally:
            self.pool.putconn(conn)

    def take(self, timeout: float | None = None) -> psycopg.Connection:
        """A working connection from the pool, within `timeout` seconds (the pool's by default; else
        `PoolTimeout`). Each is checked before use (an empty query, one round trip); one found dead is dropped
        and the others waiting in the pool are checked at once, without waiting between them: after a restart of
        the server every one of them is dead, and the first request after it gets a new connection as soon as the
        server accepts one. The pool is asked again every ASK_SECONDS: each ask may start a new attempt to
        connect once the pool's attempts have given up."""
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        while True:
            left = deadline - time.monotonic()
            try:
                conn = self.pool.getconn(timeout=min(max(left, 0.0), ASK_SECONDS))
            except PoolTimeout:
                if left <= ASK_SECONDS:
                    raise
                continue
            try:
                self.check(conn)
            except psycopg.Error as exc:
                log.info("dropped a dead connection to the database (checking the others): %s", exc)
                conn.close()
                self.pool.putconn(conn)  # closed: the pool drops it and opens another
                self.pool.check()  # the others waiting in the pool, each at once: the dead ones dropped
                continue
            return conn

    def check(self, conn: psycopg.Connection) -> None:
        """Whether `conn` works, in one round trip that also reads the data's `generation` (raises `psycopg.Error`
        when it does not work). A restore (`kibic restore`: `pg_restore`), a deletion or a name forgotten write a
        new one (`api.admin`): this process then forgets what it held of the data before (its folded matches, their
        keys' hashes) before the request reads anything, as on SQLite (`api.store.sqlite.notice_restore`)."""
        if not self.migrated:
            ConnectionPool.check_connection(conn)
            return
        try:
            row = conn.execute("SELECT value FROM settings WHERE name = 'generation'").fetchone()
        except psycopg.Error:
            if conn.closed or conn.broken:
                raise
            return  # the connection works; the table is not there (being restored, or dropped): the reads will say
        found = row[0] if row else ""
        with self.lock:
            known, self.noticed = self.noticed, found
        if known is not None and known != found:
            log.info("the database %s was restored or changed by an operator: the matches held are read again",
                     described(self.dsn))
            self.secret = None
            for forget in list(self.restored):
                forget()

    def give_back(self, _error: BaseException | None = None) -> None:
        """Returns the app context's connection to the pool (which drops it when it is broken)."""
        conn = g.pop(CONNECTION, None)
        if conn is not None:
            self.pool.putconn(conn)

    def drop_connection(self) -> None:
        """Drops the app context's connection, lost in the middle of a write: the request's next query takes
        another."""
        conn = g.pop(CONNECTION, None) if has_app_context() else None
        if conn is not None:
            conn.close()
            self.pool.putconn(conn)

    def commit(self, work: Callable[[psycopg.Connection], str], recorded: Callable[[psycopg.Connection, str], bool],
               unknown: OutcomeUnknown) -> None:
        """Runs `work` (statements that end by returning their transaction's id, `pg_current_xact_id()`) in one
        transaction and commits it. A connection lost before COMMIT was sent raises its error (nothing is
        recorded); lost once it was sent, the outcome is asked of the server on another connection (`settle`):
        committed, this returns as a commit would; rolled back, the error is raised (nothing recorded); not
        known, `unknown` is raised."""
        xid = None
        try:
            with self.connection() as conn, conn.transaction():
                xid = work(conn)  # set once every statement is done: what remains is COMMIT
        except psycopg.OperationalError as exc:
            if xid is None:
                raise
            log.warning("the connection to the database was lost while committing, asking whether it did: %s", exc)
            self.drop_connection()
            outcome = self.settle(xid, recorded)
            if outcome is None:
                raise unknown from exc
            if not outcome:
                raise
            log.warning("the write whose commit lost its answer was committed (transaction %s)", xid)

    def settle(self, xid: str, recorded: Callable[[psycopg.Connection, str], bool]) -> bool | None:
        """Whether the transaction `xid`, whose connection was lost once COMMIT was sent, committed: True when what
        it wrote is there (`recorded`), False when the server says it was rolled back (or never reached the disk
        before a crash: its id is then "in the future") and it is not there, None when that cannot be known within
        SETTLE_SECONDS (the server out of reach, or the transaction still in progress)."""
        deadline = time.monotonic() + SETTLE_SECONDS
        while True:
            try:
                with self.borrowed(max(deadline - time.monotonic(), 0.05)) as conn:
                    try:
                        (status,) = conn.execute("SELECT pg_xact_status(%s::xid8)", [xid]).fetchone()
                    except pg_errors.InvalidParameterValue:  # "transaction ID ... is in the future"
                        status = "aborted"
                    if recorded(conn, xid):
                        return True
                    if status == "aborted":
                        return False
            except psycopg.OperationalError as exc:
                log.info("cannot ask the database whether transaction %s committed yet: %s", xid, exc)
            if time.monotonic() + SETTLE_LOOK_SECONDS >= deadline:
                return None
            time.sleep(SETTLE_LOOK_SECONDS)

    @postgres_faults
    def migrate(self) -> None:
        with self.lock:
            if self.migrated:
                return
            with self.pool.connection() as conn:
                applied = migrate(conn)  # in a transaction of its own
            if applied:
                log.info("migrated the database: %s", ", ".join(applied))
            self.migrated = True

    def close(self) -> None:
        self.closed = True
        self.pool.close()

    @classmethod
    def close_all(cls) -> None:
        """Closes the pools of every store this process opened (the tests' apps, after each test)."""
        for held in list(cls.opened):
            held.close()

    def listen(self, woken: Callable[[str, int], None]) -> bool:
        """Calls `woken(match_id, seq)` for each event any app server logs, from a thread of its own that
        listens on a connection of its own (and connects again when it is lost)."""
        with self.lock:
            self.listeners.append(woken)
            if len(self.listeners) == 1:
                threading.Thread(target=self.hear, name="kibic-listen", daemon=True).start()
        return True

    def hearing(self) -> bool:
        return self.heard

    def hear(self) -> None:
        """The listening connection's loop: LISTEN, then pass on every notification, until the store is closed."""
        while not self.closed:
            try:
                with psycopg.connect(self.dsn, autocommit=True, connect_timeout=CONNECT_TIMEOUT) as conn:
                    conn.execute("LISTEN kibic_events")
                    self.heard = True
                    while not self.closed:
                        for notice in conn.notifies(timeout=RELISTEN_SECONDS):
                            match_id, seq = json.loads(notice.payload)
                            for woken in list(self.listeners):
                                woken(match_id, seq)
            except Exception as exc:  # noqa: BLE001 - the server went away: the streams look by themselves meanwhile
                if self.heard:
                    log.warning("stopped hearing of new events (the streams look for them meanwhile): %r", exc)
            self.heard = False
            if not self.closed:
                time.sleep(RELISTEN_SECONDS)

    @postgres_faults
    def server_secret(self) -> bytes:
        if self.secret is None:
            with self.connection() as conn:
                row = conn.execute("SELECT value FROM settings WHERE name = 'server_secret'").fetchone()
            self.secret = bytes.fromhex(row[0])
        return self.secret

    @postgres_faults
    def secret_rows(self) -> list[tuple[str, str]]:
        with self.connection() as conn:
            rows = conn.execute("SELECT name, value FROM settings WHERE name = 'server_secret' "
                                "OR name LIKE 'server_secret:%'").fetchall()
        return [tuple(row) for row in rows]

    @postgres_faults
    def create_match(self, match_id: str, header: dict, key_hash: str, idempotency_key_hash: str | None = None,
                     request_hash: str | None = None, evening_id: str | None = None, room: Room | None = None) -> None:
        def work(conn: psycopg.Connection) -> str:
            (xid,) = conn.execute(
                "INSERT INTO matches (id, game, players, options, stake, currency, created, key_hash, "
                "idempotency_key_hash, request_hash) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s) "
                "RETURNING pg_current_xact_id()::text",
                [match_id, header["game"], json.dumps(header["players"]), json.dumps(header["options"]),
                 header["stake"], header["currency"], now(), key_hash, idempotency_key_hash, request_hash]).fetchone()
            if evening_id is not None:
                if room is not None:  # the evening's row locked until this commits: creations joining it take turns
                    conn.execute("SELECT 1 FROM evenings WHERE id = %s FOR UPDATE", [evening_id])
                    tables = conn.execute("SELECT m.players FROM evening_matches AS e JOIN matches AS m "
                                          "ON m.id = e.match_id WHERE e.evening_id = %s", [evening_id]).fetchall()
                    room([json.loads(players) for (players,) in tables])  # raising rolls the transaction back
                conn.execute("INSERT INTO evening_matches (match_id, evening_id, created) VALUES (%s, %s, %s)",
                             [match_id, evening_id, now()])
            return xid

        def recorded(conn: psycopg.Connection, _xid: str) -> bool:  # the id is new: a match by it is this one
            return conn.execute("SELECT 1 FROM matches WHERE id = %s", [match_id]).fetchone() is not None

        with creation_key("matches_idempotency_key", idempotency_key_hash):
            self.commit(work, recorded, OutcomeUnknown("match"))

    @postgres_faults
    def idempotent_match(self, idempotency_key_hash: str) -> dict | None:
        with self.connection() as conn, conn.cursor(row_factory=dict_row) as cursor:
            return cursor.execute("SELECT * FROM matches WHERE idempotency_key_hash = %s",
                                  [idempotency_key_hash]).fetchone()

    @postgres_faults
    def match_row(self, match_id: str) -> dict:
        row = None
        if plain(match_id):
            with self.connection() as conn, conn.cursor(row_factory=dict_row) as cursor:
                row = cursor.execute("SELECT * FROM matches WHERE id = %s", [match_id]).fetchone()
        if row is None:
            raise UnknownMatch(match_id)
        return row

    @postgres_faults
    def events(self, match_id: str, upto: int | None = None, after: int = 0) -> list[dict]:
        with self.connection() as conn:
            rows = conn.execute(
                "SELECT seq, payload FROM events WHERE match_id = %s AND seq > %s AND seq <= %s ORDER BY seq",
                [match_id, after, LAST_SEQ if upto is None else upto]).fetchall()
        return [logged_event(payload, seq) for seq, payload in rows]

    @postgres_faults
    def event(self, match_id: str, seq: int) -> dict:
        with self.connection() as conn:
            (payload,) = conn.execute("SELECT payload FROM events WHERE match_id = %s AND seq = %s",
                                      [match_id, seq]).fetchone()
        return logged_event(payload, seq)

    @postgres_faults
    def latest_seq(self, match_id: str) -> int:
        found = False
        if plain(match_id):
            with self.connection() as conn:
                found, seq = conn.execute(
                    "SELECT EXISTS (SELECT 1 FROM matches WHERE id = %s), "
                    "(SELECT max(seq) FROM events WHERE match_id = %s)", [match_id, match_id]).fetchone()
        if not found:
            raise UnknownMatch(match_id)
        return seq or 0

    @postgres_faults
    def news(self, match_id: str, after: int) -> tuple[int, list[dict]]:
        rows = []
        if plain(match_id):  # one statement sees one snapshot: the latest seq and the events after `after` agree
            with self.connection() as conn:
                rows = conn.execute(
                    "SELECT EXISTS (SELECT 1 FROM matches WHERE id = %(id)s), "
                    "(SELECT max(seq) FROM events WHERE match_id = %(id)s), event.seq, event.payload "
                    "FROM (SELECT 1) AS one LEFT JOIN events AS event "
                    "ON event.match_id = %(id)s AND event.seq > %(after)s ORDER BY event.seq",
                    {"id": match_id, "after": after}).fetchall()
        if not rows or not rows[0][0]:
            raise UnknownMatch(match_id)
        return rows[0][1] or 0, [logged_event(payload, seq) for _, _, seq, payload in rows if seq is not None]

    @postgres_faults
    def latest_seqs(self, match_ids: list[str]) -> dict[str, int]:
        with self.connection() as conn:
            rows = conn.execute("SELECT id, (SELECT max(seq) FROM events WHERE match_id = id) "
                                "FROM unnest(%s::text[]) AS followed (id)", [match_ids]).fetchall()
        return {match_id: seq or 0 for match_id, seq in rows}

    @postgres_faults
    def append_event(self, match_id: str, event: dict, idempotency_key: str | None = None,
                     request_hash: str | None = None) -> None:
        seq, keyless = event["seq"], not idempotency_key
        read = None
        if has_app_context():
            with self.connection():  # the request's first look, if it has not looked yet
                read = g.get(GENERATION)

        def work(conn: psycopg.Connection) -> str:
            # where the log the request read still ends: the event before is there, and the data was not rewritten
            # since the request's first look (a restore, a forget write their new generation with their change,
            # `api.admin`; another request may have noticed it meanwhile: the generation is the one this request's
            # first look read)
            inserted = conn.execute(
                "INSERT INTO events (match_id, seq, type, payload, created, idempotency_key, request_hash) "
                "SELECT %s, %s, %s, %s, %s, %s, %s"
                " WHERE (%s = 1 OR EXISTS (SELECT 1 FROM events WHERE match_id = %s AND seq = %s))"
                " AND (%s::text IS NULL OR coalesce((SELECT value FROM settings WHERE name = 'generation'), '') = %s)"
                " RETURNING pg_current_xact_id()::text",
                [match_id, seq, event["type"], payload_text(event), now(), idempotency_key,
                 UNCONFIRMED if keyless else request_hash, seq, match_id, seq - 1, read, read]).fetchone()
            if inserted is None:
                raise Rewritten(seq)
            (xid,) = inserted
            conn.execute("SELECT pg_notify(%s, %s)", [CHANNEL, json.dumps([match_id, seq])])
            return xid

        def recorded(conn: psycopg.Connection, xid: str) -> bool:  # this transaction's row (its xmin), not another's
            return conn.execute("SELECT 1 FROM events WHERE match_id = %s AND seq = %s AND xmin = %s::xid8::xid",
                                [match_id, seq, xid]).fetchone() is not None

        try:
            self.commit(work, recorded, OutcomeUnknown("event", seq))
        except pg_errors.UniqueViolation as exc:
            if exc.diag.constraint_name == "events_idempotency_key":
                raise IdempotencyKeyTaken(idempotency_key) from exc
            if exc.diag.constraint_name == "events_pkey":
                raise SeqTaken(event["seq"]) from exc
            raise
        except pg_errors.ForeignKeyViolation as exc:
            raise UnknownMatch(match_id) from exc
        if keyless:
            self.confirm(match_id, seq)

    def confirm(self, match_id: str | None = None, seq: int | None = None) -> None:
        """Clears the unconfirmed mark of an event written without an Idempotency-Key, its commit known (and those
        of this process's earlier ones whose clearing was lost): one round trip, not waiting for the disk. A mark
        left (the server lost between the commit and this) is cleared at this process's next write or look at the
        marks; until then it refuses writes without key nor expect_seq to that match."""
        with self.lock:
            matches, seqs = [m for m, _ in self.left], [s for _, s in self.left]
            self.left.clear()
        if match_id is not None:
            matches, seqs = [*matches, match_id], [*seqs, seq]
        if not matches:
            return
        try:
            with self.connection() as conn, conn.pipeline(), conn.transaction():
                conn.execute("SET LOCAL synchronous_commit TO off")
                conn.execute("UPDATE events SET request_hash = NULL WHERE (match_id, seq) IN "
                             "(SELECT * FROM unnest(%s::text[], %s::bigint[])) AND idempotency_key IS NULL "
                             "AND request_hash = %s", [matches, seqs, UNCONFIRMED])
        except psycopg.OperationalError as exc:
            log.warning("%s event(s) stay marked unconfirmed for now: %s", len(matches), exc)
            self.drop_connection()
            with self.lock:
                self.left.extend(zip(matches, seqs, strict=True))

    @postgres_faults
    def unconfirmed(self, match_id: str) -> int | None:
        """A mark is waited for CONFIRM_WAIT_SECONDS: one just committed by another writer is cleared by it in a
        moment (its confirmation follows its commit); one still there after that has lost its writer."""
        self.confirm()  # this process's marks left over, known committed, first
        since = (datetime.now(UTC) - timedelta(minutes=UNCONFIRMED_MINUTES)).isoformat(timespec="milliseconds")
        deadline = time.monotonic() + CONFIRM_WAIT_SECONDS
        with self.connection() as conn:
            while True:
                (seq,) = conn.execute("SELECT max(seq) FROM events WHERE match_id = %s AND idempotency_key IS NULL "
                                      "AND request_hash = %s AND created > %s",
                                      [match_id, UNCONFIRMED, since]).fetchone()
                if seq is None or time.monotonic() >= deadline:
                    return seq
                time.sleep(CONFIRM_LOOK_SECONDS)

    @postgres_faults
    def idempotent_event(self, match_id: str, idempotency_key: str) -> dict | None:
        with self.connection() as conn, conn.cursor(row_factory=dict_row) as cursor:
            return cursor.execute("SELECT seq, request_hash FROM events WHERE match_id = %s AND idempotency_key = %s",
                                  [match_id, idempotency_key]).fetchone()

    @postgres_faults
    def create_evening(self, evening_id: str, name: str, currency: str, key_hash: str,
                       idempotency_key_hash: str | None = None, request_hash: str | None = None,
                       club_id: str | None = None) -> None:
        def work(conn: psycopg.Connection) -> str:  # in a transaction: its statement alone would be its COMMIT
            return conn.execute("INSERT INTO evenings (id, name, currency, created, key_hash, idempotency_key_hash, "
                                "request_hash, club_id) VALUES (%s, %s, %s, %s, %s, %s, %s, %s) "
                                "RETURNING pg_current_xact_id()::text",
                                [evening_id, name, currency, now(), key_hash, idempotency_key_hash,
                                 request_hash, club_id]).fetchone()[0]

        def recorded(conn: psycopg.Connection, _xid: str) -> bool:  # the id is new: an evening by it is this one
            return conn.execute("SELECT 1 FROM evenings WHERE id = %s", [evening_id]).fetchone() is not None

        with creation_key("evenings_idempotency_key", idempotency_key_hash):
            self.commit(work, recorded, OutcomeUnknown("evening"))

    @postgres_faults
    def idempotent_evening(self, idempotency_key_hash: str) -> dict | None:
        with self.connection() as conn, conn.cursor(row_factory=dict_row) as cursor:
            return cursor.execute("SELECT id, name, currency, created, key_hash, request_hash, club_id "
                                  "FROM evenings WHERE idempotency_key_hash = %s", [idempotency_key_hash]).fetchone()

    @postgres_faults
    def evening_row(self, evening_id: str) -> dict | None:
        if not plain(evening_id):
            return None
        with self.connection() as conn, conn.cursor(row_factory=dict_row) as cursor:
            return cursor.execute("SELECT id, name, currency, created, key_hash, club_id FROM evenings "
                                  "WHERE id = %s",
                                  [evening_id]).fetchone()

    @postgres_faults
    def evening_match_ids(self, evening_id: str) -> list[str]:
        with self.connection() as conn:
            rows = conn.execute("SELECT match_id FROM evening_matches WHERE evening_id = %s ORDER BY joined",
                                [evening_id]).fetchall()
        return [row[0] for row in rows]

    @postgres_faults
    def match_evening(self, match_id: str) -> str | None:
        with self.connection() as conn:
            row = conn.execute("SELECT evening_id FROM evening_matches WHERE match_id = %s", [match_id]).fetchone()
        return None if row is None else row[0]

    @postgres_faults
    def evening_key_hash(self, match_id: str) -> str | None:
        with self.connection() as conn:
            row = conn.execute("SELECT e.key_hash FROM evening_matches m JOIN evenings e ON e.id = m.evening_id "
                               "WHERE m.match_id = %s", [match_id]).fetchone()
        return None if row is None else row[0]

    # --- clubs ---

    def one(self, sql: str, params: list) -> dict | None:
        with self.connection() as conn, conn.cursor(row_factory=dict_row) as cursor:
            return cursor.execute(sql, params).fetchone()

    def rows(self, sql: str, params: list) -> list[dict]:
        with self.connection() as conn, conn.cursor(row_factory=dict_row) as cursor:
            return cursor.execute(sql, params).fetchall()

    def written(self, statements: Callable[[psycopg.Connection], None], recorded: Callable[[psycopg.Connection], bool],
                what: str) -> None:
        """A club's write in one transaction, committed as the others are (`commit`)."""
        def work(conn: psycopg.Connection) -> str:
            statements(conn)
            return conn.execute("SELECT pg_current_xact_id()::text").fetchone()[0]

        self.commit(work, lambda conn, _xid: recorded(conn), OutcomeUnknown(what))

    @postgres_faults
    def create_club(self, club_id: str, name: str, currency: str, key_hash: str, read_key_hash: str,
                    idempotency_key_hash: str | None = None, request_hash: str | None = None) -> None:
        def insert(conn: psycopg.Connection) -> None:
            conn.execute("INSERT INTO clubs (id, name, currency, created, key_hash, read_key_hash, "
                         "idempotency_key_hash, request_hash) VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
                         [club_id, name, currency, now(), key_hash, read_key_hash, idempotency_key_hash,
                          request_hash])

        def recorded(conn: psycopg.Connection) -> bool:
            return conn.execute("SELECT 1 FROM clubs WHERE id = %s", [club_id]).fetchone() is not None

        with creation_key("clubs_idempotency_key", idempotency_key_hash):
            self.written(insert, recorded, "club")

    @postgres_faults
    def idempotent_club(self, idempotency_key_hash: str) -> dict | None:
        return self.one("SELECT id, name, currency, created, key_hash, read_key_hash, rule, request_hash FROM clubs "
                        "WHERE idempotency_key_hash = %s", [idempotency_key_hash])

    @postgres_faults
    def club_row(self, club_id: str) -> dict | None:
        if not plain(club_id):
            return None
        return self.one("SELECT id, name, currency, created, key_hash, read_key_hash, rule FROM clubs WHERE id = %s",
                        [club_id])

    @postgres_faults
    def set_club_rule(self, club_id: str, rule: str) -> None:
        self.written(lambda conn: conn.execute("UPDATE clubs SET rule = %s WHERE id = %s", [rule, club_id]),
                     lambda conn: conn.execute("SELECT 1 FROM clubs WHERE id = %s AND rule = %s",
                                               [club_id, rule]).fetchone() is not None, "club")

    @postgres_faults
    def club_matches(self, club_id: str) -> list[dict]:
        return self.rows("SELECT m.match_id, m.evening_id, e.created AS evening_created, m.created AS joined "
                         "FROM evenings AS e JOIN evening_matches AS m ON m.evening_id = e.id "
                         "WHERE e.club_id = %s ORDER BY m.joined", [club_id])

    @postgres_faults
    def club_evenings(self, club_id: str) -> list[dict]:
        return self.rows("SELECT id, name, created, key_hash FROM evenings WHERE club_id = %s "
                         "ORDER BY created, id", [club_id])

    @postgres_faults
    def club_members(self, club_id: str) -> list[dict]:
        return self.rows("SELECT id, name, created, merged_into FROM club_members WHERE club_id = %s "
                         "ORDER BY created, id", [club_id])

    @postgres_faults
    def club_names(self, club_id: str) -> list[dict]:
        return self.rows("SELECT name, shown, member_id FROM club_names WHERE club_id = %s ORDER BY seated",
                         [club_id])

    @postgres_faults
    def seat_members(self, club_id: str, seats: dict[str, tuple[str, str]]) -> None:
        created = now()

        def insert(conn: psycopg.Connection) -> None:
            for name, (shown, member_id) in seats.items():
                made = conn.execute("INSERT INTO club_names (club_id, name, shown, member_id) VALUES (%s, %s, %s, %s) "
                                    "ON CONFLICT DO NOTHING", [club_id, name, shown, member_id]).rowcount
                if made:
                    conn.execute("INSERT INTO club_members (club_id, id, name, created) VALUES (%s, %s, %s, %s)",
                                 [club_id, member_id, shown, created])

        def recorded(conn: psycopg.Connection) -> bool:
            found = conn.execute("SELECT count(*) FROM club_names WHERE club_id = %s AND name = ANY(%s)",
                                 [club_id, list(seats)]).fetchone()[0]
            return found == len(seats)

        self.written(insert, recorded, "member")

    @postgres_faults
    def rename_member(self, club_id: str, member_id: str, name: str, shown: str) -> None:
        def rename(conn: psycopg.Connection) -> None:
            conn.execute("SELECT 1 FROM clubs WHERE id = %s FOR UPDATE", [club_id])
            held = conn.execute("SELECT member_id FROM club_names WHERE club_id = %s AND name = %s",
                                [club_id, name]).fetchone()
            if held is not None and held[0] != member_id:
                raise Conflict(name)
            conn.execute("INSERT INTO club_names (club_id, name, shown, member_id) VALUES (%s, %s, %s, %s) "
                         "ON CONFLICT DO NOTHING", [club_id, name, shown, member_id])
            conn.execute("UPDATE club_members SET name = %s WHERE club_id = %s AND id = %s",
                         [shown, club_id, member_id])

        self.written(rename, lambda conn: conn.execute(
            "SELECT 1 FROM club_members WHERE club_id = %s AND id = %s AND name = %s",
            [club_id, member_id, shown]).fetchone() is not None, "member")

    @postgres_faults
    def merge_members(self, club_id: str, into: str, other: str) -> None:
        def merge(conn: psycopg.Connection) -> None:
            conn.execute("SELECT 1 FROM clubs WHERE id = %s FOR UPDATE", [club_id])
            conn.execute("UPDATE club_names SET member_id = %s WHERE club_id = %s AND member_id = %s",
                         [into, club_id, other])
            conn.execute("UPDATE club_members SET merged_into = %s WHERE club_id = %s "
                         "AND (id = %s OR merged_into = %s)", [into, club_id, other, other])

        self.written(merge, lambda conn: conn.execute(
            "SELECT 1 FROM club_members WHERE club_id = %s AND id = %s AND merged_into = %s",
            [club_id, other, into]).fetchone() is not None, "member")

    @postgres_faults
    def add_payment(self, club_id: str, payment: dict, idempotency_key: str | None = None,
                    request_hash: str | None = None, owed: Callable[[list[dict]], None] | None = None) -> None:
        def insert(conn: psycopg.Connection) -> None:
            if owed is not None:  # the club's row locked until this commits: marks of its ledger take turns
                conn.execute("SELECT 1 FROM clubs WHERE id = %s FOR UPDATE", [club_id])
                cursor = conn.execute(PAYMENTS, [club_id])
                names = [column.name for column in cursor.description]
                owed([dict(zip(names, values, strict=True)) for values in cursor.fetchall()])  # raising rolls it back
            conn.execute("INSERT INTO club_payments (club_id, id, at, payer, payee, amount, by_member, "
                         "idempotency_key, request_hash) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)",
                         [club_id, payment["id"], payment["at"], payment["from"], payment["to"], payment["amount"],
                          payment["by"], idempotency_key, request_hash])

        def recorded(conn: psycopg.Connection) -> bool:
            return conn.execute("SELECT 1 FROM club_payments WHERE club_id = %s AND id = %s",
                                [club_id, payment["id"]]).fetchone() is not None

        with creation_key("club_payments_idempotency_key", idempotency_key):
            self.written(insert, recorded, "payment")

    @postgres_faults
    def club_payments(self, club_id: str) -> list[dict]:
        return self.rows(PAYMENTS, [club_id])

    # --- the matches' summaries ---

    @postgres_faults
    def generation(self) -> str:
        with self.connection():  # taken at the request's first query, which notices a new generation (`check`)
            return self.noticed or ""

    @postgres_faults
    def match_summaries(self, match_ids: list[str]) -> dict[str, tuple[int, str, str]]:
        with self.connection() as conn:
            rows = conn.execute("SELECT s.match_id, s.seq, s.summary, m.players FROM match_summaries AS s "
                                "JOIN matches AS m ON m.id = s.match_id WHERE s.match_id = ANY(%s)",
                                [match_ids]).fetchall()
        return {match_id: (seq, summary, players) for match_id, seq, summary, players in rows}

    @postgres_faults
    def keep_summaries(self, rows: list[tuple[str, int, str]], generation: str) -> None:
        rows = sorted(rows)  # rows locked in one order by every writer: two writes of the same matches never deadlock
        try:
            with self.connection() as conn, conn.transaction():
                # held until this commits: an operator's change writes its new generation first, so it waits for
                # this write and then deletes what it must, or this one waits for it and finds the generation moved
                found = conn.execute("SELECT value FROM settings WHERE name = 'generation' FOR SHARE").fetchone()
                if (found[0] if found else "") != generation:
                    return
                conn.execute("INSERT INTO match_summaries (match_id, seq, summary) "
                             "SELECT * FROM unnest(%s::text[], %s::bigint[], %s::text[]) "
                             "ON CONFLICT (match_id) DO UPDATE SET seq = EXCLUDED.seq, summary = EXCLUDED.summary "
                             "WHERE match_summaries.seq < EXCLUDED.seq",
                             [[row[0] for row in rows], [row[1] for row in rows], [row[2] for row in rows]])
        except psycopg.OperationalError:
            self.drop_connection()  # lost: the request's next query takes another (the summaries are made again)
            raise


PAYMENTS = ('SELECT id, at, payer AS "from", payee AS "to", amount, by_member AS "by", '
            "idempotency_key, request_hash FROM club_payments WHERE club_id = %s ORDER BY marked")
