"""Storage: the matches and their append-only event logs, behind one interface (`Store`) with two
implementations: one SQLite file through sqlite-utils (here, the default) and PostgreSQL through psycopg 3
(`api.postgres`, when `REFEREE_DB` is a `postgresql://` address). The views, the stream and the engine ask
`current()` and never learn which one they talk to. The store raises its own errors (`StoreError` and its
kinds), never HTTP ones: `api.errors` answers them.

`events` has the primary key `(match_id, seq)`: two writers that both append event n to a match collide
on it, and the second one learns that the log moved on (`SeqTaken`). Each write is one transaction, and with
WAL and `synchronous=FULL` it is on disk before the response leaves. Each server process keeps its
connections open (`Connections`) and lends one to each request, through `g`.

That key is the compare-and-swap of the log: a writer decides event n+1 on the n events it read and
inserts it as seq n+1, which succeeds only if nobody appended in between, so no write needs to hold the
lock while the referee decides (the unique index on a creation's Idempotency-Key does the same for
matches). A write is a few INSERTs, all or none, handed to the process's writer (`Connections.write`):
on gevent's loop one real thread of the process (`Committer`; else the request's own thread) commits with
`BEGIN IMMEDIATE` (waiting up to the busy timeout for the other processes) the writes queued meanwhile,
each all or nothing (one statement by itself, several in a savepoint of their own), one sync for them all.

Only `migrate` (at start) creates the database file. A request opens an existing file or fails: a file
or folder gone missing is a fault (answered 503), not a fresh empty store that would hide the matches.

The matches each process keeps folded, and the protocol that records an event once, are `api.matches`'s.
"""

from __future__ import annotations

import copy
import functools
import json
import logging
import os
import re
import secrets
import sqlite3
import time
import weakref
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import ParamSpec, TypeVar

import orjson
from flask import Flask, current_app, g
from sqlite_utils import Database, Migrations

from . import loop
from .loop import LoopSignal, on_gevent_loop, real_lock, real_sleep, real_thread

log = logging.getLogger(__name__)

BUSY_TIMEOUT_MS = 10_000
NOT_MIGRATED = "kibic.store_not_migrated"
STORE = "kibic.store"
CONNECTIONS = "kibic.connections"
IDLE_CONNECTIONS = 8  # per process: as many as its requests use at once, most of the time
SQLITE_MAGIC = b"SQLite format 3\0"
HEADER_WAITS = (0.01, 0.02, 0.05, 0.1, 0.2)  # seconds: a checkpoint in progress is done by then
LAST_SEQ = 2**63 - 1  # SQLite's largest integer: "up to the end of the log"
LONG_NUMBER = re.compile(r"\d{19}")  # orjson reads a whole number beyond 64 bits as a float, `json` as written
LOOKUP_CHUNK = 500  # match ids per query, when the streams look up the latest seq of the matches they follow
P = ParamSpec("P")
R = TypeVar("R")
Room = Callable[[list[list[str]]], None]  # an evening's room, asked with the players of each of its matches


# --- the store's errors --------------------------------------------------------------------------

class StoreError(Exception):
    "An error of the store, whichever database holds the matches"


class UnknownMatch(StoreError):
    "No match has this id"

    def __init__(self, match_id: str):
        super().__init__(match_id)
        self.match_id = match_id


class Conflict(StoreError):
    "A write refused because its key is taken: the log moved on, or the request was stored already"


class SeqTaken(Conflict):
    "Another writer appended an event with this seq first"


class IdempotencyKeyTaken(Conflict):
    "A match or an event was stored under this Idempotency-Key already"


class Unavailable(StoreError):
    "The database cannot be reached, opened, read or written; `cause` says what is wrong in a few plain words"

    def __init__(self, reason: str, cause: str):
        super().__init__(f"{reason}: {cause}")
        self.reason, self.cause = reason, cause


class Busy(StoreError):
    "The database stayed locked by other writers for longer than the store waits"


class OutcomeUnknown(StoreError):
    """A write whose connection was lost while it committed, and whose outcome could not be learnt since: it may
    or may not be recorded. `what` is "event", "match" or "evening"; `seq` the event's seq, for an event."""

    def __init__(self, what: str, seq: int | None = None):
        super().__init__(f"the outcome of a write of {what} {seq or ''} is unknown")
        self.what, self.seq = what, seq


def storage_unavailable(reason: str, cause: str) -> Unavailable:
    return Unavailable(reason, cause)


# --- the interface -------------------------------------------------------------------------------

class Store(ABC):
    """What the API needs of a store: matches, their logs, the Idempotency-Key records and the evenings.

    Every method works on the current request's (or app context's) connection and raises `StoreError`s:
    `UnknownMatch`, `SeqTaken` and `IdempotencyKeyTaken` (the write changed nothing), `Unavailable` and
    `Busy` (storage out of order: nothing was recorded), `OutcomeUnknown` (the connection lost while
    committing: maybe recorded). Rows are dicts; a match's row has `id`, `game`,
    `players` and `options` (JSON text), `stake`, `currency`, `created` (ISO 8601), `key_hash`,
    `idempotency_key_hash` and `request_hash`.
    """

    @abstractmethod
    def migrate(self) -> None:
        """Creates the tables if missing and applies the pending migrations; safe for processes starting at once."""

    @abstractmethod
    def close(self) -> None:
        """Lets go of the connections held idle."""

    @abstractmethod
    def server_secret(self) -> bytes:
        """The server's own secret, made at the first start and kept with the data (never in the code)."""

    @abstractmethod
    def secret_rows(self) -> list[tuple[str, str]]:
        """The server's secrets as `settings` keeps them, (name, value) rows: `server_secret` and each kept one
        (`server_secret:<when>`, `api.admin`'s rotation), in no order."""

    @abstractmethod
    def create_match(self, match_id: str, header: dict, key_hash: str, idempotency_key_hash: str | None = None,
                     request_hash: str | None = None, evening_id: str | None = None, room: Room | None = None) -> None:
        """Stores a new match (and its place in the evening, in the same transaction); raises
        `IdempotencyKeyTaken` when its Idempotency-Key already made one.

        `room`, with an evening, is asked in that transaction, once no other creation can join the evening
        before it commits, with the players of each match the evening holds: what it raises refuses the match
        (nothing stored) and reaches the caller as it was raised. So an evening's limits hold however many
        creations arrive at once."""

    @abstractmethod
    def idempotent_match(self, idempotency_key_hash: str) -> dict | None:
        """The row of the match created earlier with this Idempotency-Key (by its hash)."""

    @abstractmethod
    def match_row(self, match_id: str) -> dict:
        """The match's row; raises `UnknownMatch`."""

    @abstractmethod
    def events(self, match_id: str, upto: int | None = None, after: int = 0) -> list[dict]:
        """The log of a match (after event `after`, up to event `upto` when given), oldest first, with their `seq`."""

    @abstractmethod
    def event(self, match_id: str, seq: int) -> dict:
        """One stored event, with its `seq`."""

    @abstractmethod
    def latest_seq(self, match_id: str) -> int:
        """The seq of the match's latest event (0 before the first one); raises `UnknownMatch`."""

    def news(self, match_id: str, after: int) -> tuple[int, list[dict]]:
        """The seq of the match's latest event and the events after event `after` up to it, as one look at the
        log (raises `UnknownMatch`): what a process holding the match as it stood at `after` has to catch up."""
        latest = self.latest_seq(match_id)
        return latest, self.events(match_id, upto=latest, after=after) if latest > after else []

    @abstractmethod
    def latest_seqs(self, match_ids: list[str]) -> dict[str, int]:
        """The latest seq of each of these matches, in as few queries as can be (the streams' look)."""

    @abstractmethod
    def append_event(self, match_id: str, event: dict, idempotency_key: str | None = None,
                     request_hash: str | None = None) -> None:
        """Stores `event` as its `seq`, with its Idempotency-Key record in the same transaction; raises
        `SeqTaken` or `IdempotencyKeyTaken` (nothing stored), `UnknownMatch`."""

    @abstractmethod
    def idempotent_event(self, match_id: str, idempotency_key: str) -> dict | None:
        """The event recorded earlier under this Idempotency-Key: its `seq` and its request's `request_hash`."""

    @abstractmethod
    def create_evening(self, evening_id: str, name: str, currency: str, key_hash: str,
                       idempotency_key_hash: str | None = None, request_hash: str | None = None) -> None:
        """Stores a new evening; raises `IdempotencyKeyTaken` when its Idempotency-Key already made one."""

    @abstractmethod
    def idempotent_evening(self, idempotency_key_hash: str) -> dict | None:
        """The evening created earlier with this Idempotency-Key (by its hash): its `id`, `name`, `currency`,
        `created`, `key_hash` and `request_hash`."""

    @abstractmethod
    def evening_row(self, evening_id: str) -> dict | None:
        """The evening's `id`, `name`, `currency`, `created` and `key_hash`; None when there is no such evening."""

    @abstractmethod
    def evening_match_ids(self, evening_id: str) -> list[str]:
        """The ids of the evening's matches, in the order they joined it."""

    @abstractmethod
    def match_evening(self, match_id: str) -> str | None:
        """The id of the evening the match belongs to; None for a match of its own."""

    @abstractmethod
    def evening_key_hash(self, match_id: str) -> str | None:
        """The key hash of the evening the match belongs to; None for a match of its own."""

    def unconfirmed(self, match_id: str) -> int | None:
        """The seq of an event of the last minutes written without an Idempotency-Key whose answer may have been
        lost (its outcome unknown to the writer: see `api.postgres`), if any; a store that always learns the
        outcome of its commits has none."""
        return None

    def listen(self, woken: Callable[[str, int], None]) -> bool:
        """Calls `woken(match_id, seq)` whenever any server logs an event, if the store can tell (False when
        it cannot: then the streams look for new events by themselves)."""
        return False

    def hearing(self) -> bool:
        """Whether every event logged is heard of (through `listen`) just now."""
        return False


def is_postgresql(database: str) -> bool:
    return database.startswith(("postgresql://", "postgres://"))


def install(app: Flask) -> None:
    """The app's store, chosen by its `DATABASE` (`REFEREE_DB`): a `postgresql://` address, or a SQLite file."""
    database = app.config["DATABASE"]
    if is_postgresql(database):
        from .postgres import POOL_TIMEOUT, PostgresStore

        app.extensions[STORE] = PostgresStore(database, timeout=app.config.get("STORE_WAIT_SECONDS", POOL_TIMEOUT))
        app.extensions[STORE].open(app)
    else:
        open_store(app)
        app.teardown_appcontext(close_db)
        app.extensions[STORE] = SQLiteStore(database)


def current(app: Flask | None = None) -> Store:
    """The store of the app (the current one by default)."""
    return (app or current_app._get_current_object()).extensions[STORE]  # a proxy's lookup costs more


_second: tuple[int, str] = (-1, "")  # the latest second `now` wrote, and its text


def now() -> str:
    """The time in UTC to the millisecond, in ISO 8601 (2026-12-01T18:30:22.541+00:00); the text of the second
    is worked out once per second."""
    global _second
    second, millisecond = divmod(time.time_ns() // 1_000_000, 1000)
    known, text = _second
    if second != known:
        text = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second))
        _second = (second, text)
    return f"{text}.{millisecond:03d}+00:00"


def payload_text(event: dict) -> str:
    """The JSON text the log keeps of an event: all but its seq. Written by orjson (a play is logged at every
    tap), or by the standard library where orjson cannot (a whole number beyond 64 bits)."""
    payload = {key: value for key, value in event.items() if key != "seq"}
    try:
        return orjson.dumps(payload).decode()
    except orjson.JSONEncodeError:
        return json.dumps(payload)


def logged_event(payload: str, seq: int) -> dict:
    """An event as the log keeps it (`payload_text`) read back, with its seq: by orjson, or by the standard library
    where orjson would read otherwise (a whole number beyond 64 bits, which it makes a float) or not at all (a
    lone surrogate, which the standard library wrote escaped)."""
    if not LONG_NUMBER.search(payload):
        try:
            return {**orjson.loads(payload), "seq": seq}
        except orjson.JSONDecodeError:
            pass
    return {**json.loads(payload), "seq": seq}


def header(row: dict) -> dict:
    """A match's header (what `Match.replay` starts from) out of its row."""
    return {"game": row["game"], "players": json.loads(row["players"]), "options": json.loads(row["options"]),
            "stake": row["stake"], "currency": row["currency"]}


migrations = Migrations("kibic")


@migrations()
def create_matches_and_events(db: Database) -> None:
    db["matches"].create({
        "id": str, "game": str, "players": str, "options": str, "stake": str, "currency": str,
        "created": str, "key_hash": str,
    }, pk="id", not_null={"game", "players", "options", "stake", "created", "key_hash"})
    db["events"].create({
        "match_id": str, "seq": int, "type": str, "payload": str, "created": str,
        "idempotency_key": str, "request_hash": str,
    }, pk=("match_id", "seq"), not_null={"match_id", "seq", "type", "payload", "created"},
        foreign_keys=[("match_id", "matches", "id")])
    db.execute("CREATE UNIQUE INDEX events_idempotency_key ON events (match_id, idempotency_key) "
               "WHERE idempotency_key IS NOT NULL")


@migrations()
def remember_idempotent_creations(db: Database) -> None:
    """A match created with an Idempotency-Key keeps the key's hash and its request's hash, so that a retry
    finds it; the key itself is never stored (it is the secret the match key is derived from)."""
    db["matches"].add_column("idempotency_key_hash", str)
    db["matches"].add_column("request_hash", str)
    db.execute("CREATE UNIQUE INDEX matches_idempotency_key ON matches (idempotency_key_hash) "
               "WHERE idempotency_key_hash IS NOT NULL")


@migrations()
def create_the_server_secret(db: Database) -> None:
    """A secret of this server's own, made at its first start and kept with the data (never in the code): the
    match key of a creation retried with an Idempotency-Key is derived from it, so that knowing a creation
    key is not enough to know the match key."""
    db["settings"].create({"name": str, "value": str}, pk="name", not_null={"value"})
    db.execute("INSERT INTO settings (name, value) VALUES ('server_secret', ?)", [secrets.token_hex(32)])


@migrations()
def create_evenings(db: Database) -> None:
    """Game nights: an evening (its name, currency and key hash) and the matches played in it, in order."""
    db["evenings"].create({"id": str, "name": str, "currency": str, "created": str, "key_hash": str},
                          pk="id", not_null={"name", "currency", "created", "key_hash"})
    db["evening_matches"].create({"match_id": str, "evening_id": str, "created": str}, pk="match_id",
                                 not_null={"evening_id", "created"},
                                 foreign_keys=[("match_id", "matches", "id"), ("evening_id", "evenings", "id")])
    db.execute("CREATE INDEX evening_matches_evening ON evening_matches (evening_id)")


@migrations()
def remember_idempotent_evenings(db: Database) -> None:
    """An evening created with an Idempotency-Key keeps the key's hash and its request's hash, as a match
    does (`remember_idempotent_creations`), so that a retry finds it and gets the same evening and key."""
    db["evenings"].add_column("idempotency_key_hash", str)
    db["evenings"].add_column("request_hash", str)
    db.execute("CREATE UNIQUE INDEX evenings_idempotency_key ON evenings (idempotency_key_hash) "
               "WHERE idempotency_key_hash IS NOT NULL")


# --- connections ---------------------------------------------------------------------------------

def connect(path: str, mode: str = "rw") -> Database:
    """A connection to the database file, set for durable writes that wait for each other.

    `mode` is SQLite's: "rw" opens the file only if it exists, "rwc" creates it, "ro" only reads it. The
    connection may be handed from one thread to another (the pool below lends it to one at a time).
    """
    uri = f"{Path(path).absolute().as_uri()}?mode={mode}"
    conn = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_MS / 1000, check_same_thread=False)
    db = Database(conn, execute_plugins=False)  # the timeout above is SQLite's busy timeout
    db.execute("PRAGMA synchronous = FULL")
    db.execute("PRAGMA foreign_keys = ON")
    return db


def migrate(path: str) -> None:
    """Creates the folder and the file if missing, turns on WAL and applies pending migrations.

    Several server processes may start at once: the migrations run under a write lock, so one of them
    applies them and the others find nothing pending.
    """
    folder = Path(path).parent
    if not folder.exists():
        folder.mkdir(parents=True, mode=0o700, exist_ok=True)  # the service's user alone: names and the secret
    made = not Path(path).exists()
    if made:  # created for the service's user alone (SQLite makes its -wal and -shm with the file's mode)
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_CLOEXEC, 0o600))
    db = connect(path, mode="rwc")
    try:
        enable_wal(db)
        db.execute("BEGIN IMMEDIATE")
        try:
            pending = [migration.name for migration in migrations.pending(db)]
            migrations.apply(db)
        except BaseException:
            db.rollback()
            raise
        db.execute("COMMIT")
    finally:
        db.close()
    if pending:
        log.info("migrated the database %s: %s", path, ", ".join(pending))


def enable_wal(db: Database) -> None:
    """WAL mode, waiting for other processes: switching to it does not wait on the busy timeout."""
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            db.enable_wal()
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.02)


def open_store(app: Flask) -> None:
    """Migrates the app's database at start. When its storage is out of order the app starts all the same,
    answers 503 and migrates on the first request that finds the storage back: no restart needed."""
    try:
        migrate(app.config["DATABASE"])
    except (sqlite3.Error, OSError) as exc:
        log.error("cannot open the database %s (requests answer 503 until it can): %s", app.config["DATABASE"], exc)
        app.extensions[NOT_MIGRATED] = True
    app.extensions[CONNECTIONS] = Connections(app.config["DATABASE"])


def file_identity(path: str) -> tuple[int, ...]:
    """What tells this database file apart from another one put in its place, or from itself changed behind
    SQLite's back: its device and inode, size and last change (a checkpoint changes them too, now and then).
    Raises `OSError` when the file is missing."""
    found = os.stat(path)
    return found.st_dev, found.st_ino, found.st_size, found.st_ctime_ns


class HeaderReader:
    """Reads the 100 bytes of the database file's header, through files it opens once and never closes.

    Never closed, because closing any file descriptor of a file drops every POSIX lock the process holds on
    it, SQLite's included: the read lock its connections keep on a WAL database. Another process closing
    its last connection would then take the file for itself, checkpoint and delete the write-ahead log
    under this process's connections, and the commits they make after that go to a deleted file (lost),
    the next readers finding the database malformed. SQLite keeps its own files open while it holds locks
    for this reason; this reader does the same, with one file per database file it has met (a new one
    only when the file is replaced). They are closed with the reader, when its process no longer holds it.
    """

    def __init__(self):
        self.files: dict[tuple[int, ...], int] = {}
        self.largest: dict[tuple[int, int], int] = {}  # the largest size each file had when it was found whole
        self.lock = real_lock()
        weakref.finalize(self, close_files, self.files)

    def read(self, path: str) -> tuple[bytes, int, tuple[int, int]]:
        """The header and the size of the file at `path` now, and the file's device and inode."""
        found = os.stat(path)
        file = found.st_dev, found.st_ino
        with self.lock:
            fd = self.files.get(file)
        if fd is None:
            fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
            opened = os.fstat(fd)  # the file opened, which may have been replaced since the stat
            file = opened.st_dev, opened.st_ino
            with self.lock:
                if self.files.setdefault(file, fd) != fd:  # opened twice at once: both kept
                    self.files[(*file, fd)] = fd
        return os.pread(fd, 100, 0), os.fstat(fd).st_size, file

    def fault(self, path: str, sleep=time.sleep) -> tuple[str, str] | None:
        """Why the file at `path` is no usable database (a reason and a cause), or None when it is one.

        SQLite never makes a database file shorter (Kibic does not vacuum), so a file met before is checked
        against the largest size it had: one that grew is whole. A file met for the first time, or found
        shorter than before (cut short, or a copy put back in its place), is checked against the page count
        its header gives; a checkpoint writes that header before the pages that grow the file, so a file
        found short is looked at again for a moment (with `sleep`, a cooperative one on the server's loop)."""
        for wait in (*HEADER_WAITS, None):
            try:
                head, size, file = self.read(path)
            except FileNotFoundError:
                return ("missing", "the database file or its folder is missing")
            except OSError:
                return ("io_error", "the disk reports an error")
            with self.lock:
                largest = self.largest.get(file)
            if head.startswith(SQLITE_MAGIC) and (largest is not None and size >= largest or header_intact(head, size)):
                with self.lock:
                    self.largest[file] = size
                return None
            if wait is not None:
                sleep(wait)
        return ("corrupt", "the database file is damaged")


def close_files(files: dict) -> None:
    for fd in files.values():
        os.close(fd)


def header_intact(head: bytes, size: int) -> bool:
    """Whether a header says SQLite and a file of at least the pages it counts."""
    page_size = int.from_bytes(head[16:18], "big") if len(head) == 100 else 0
    pages = int.from_bytes(head[28:32], "big") if head[24:28] == head[92:96] else 0  # valid only when they match
    return head.startswith(SQLITE_MAGIC) and size >= pages * (65536 if page_size == 1 else page_size)


@dataclass(eq=False)
class Write:
    """What to commit as one (`work`, given the writer's connection: its statements, and nothing else), and
    what became of it."""

    work: Callable[[sqlite3.Connection], None]
    single: bool = False  # `work` executes one statement, which SQLite applies whole or not at all by itself
    done: bool = False
    error: BaseException | None = None


class Connections:
    """The connections a server process holds open to its database: connections that read, lent to one
    request (thread or greenlet) at a time and kept for the next, and one that writes (`write`).
    Opening one per request would make SQLite checkpoint and delete its write-ahead log at every
    request's close, several syncs where the commit's one would do.

    A connection is used only while the file is the one it opened: a file replaced, damaged, changed in
    mode or checkpointed since is opened again (a stat per request), so that a fault shows as a fresh
    process would see it. A missing file is a fault, never a new empty store.

    Writes are committed by a real thread, off the server's loop (`Committer`): on gevent's loop every call
    into SQLite stops every request of the process while it runs, and a commit runs for the time of a sync
    to disk (or of the wait for another process's write lock). In the thread SQLite lets go of Python's
    lock while it syncs or waits, and the loop goes on serving. The writes that arrive while a commit runs
    are committed together in the next transaction, one sync to disk for them all, and each still all or
    nothing (one refused by a key does not stop the others): a write of one statement by itself, as SQLite
    undoes a refused statement, a write of several within a savepoint of its own. A write is
    answered only once its transaction is committed.
    """

    def __init__(self, path: str, idle: int = IDLE_CONNECTIONS):
        self.path, self.idle = path, idle
        self.free: list[tuple[Database, tuple[int, ...]]] = []
        self.lock = real_lock()  # held for a few list steps, which never wait (a cheap lock on gevent's loop too)
        self.headers = HeaderReader()
        self.queued: list[Write] = []
        self.queue_lock = real_lock()
        self.committing = real_lock()  # held by the thread that commits, for the whole transaction
        self.writer: Database | None = None  # used only by the thread that holds `committing`
        self.committer: Committer | None = None  # on gevent's loop: made in the process that serves

    def take(self) -> Database:
        """A connection to the file as it is now, for one request alone."""
        try:
            identity = file_identity(self.path)
        except OSError:
            identity = None
        stale = []
        with self.lock:
            while self.free and self.free[-1][1] != identity:
                stale.append(self.free.pop()[0])
            held = self.free.pop()[0] if self.free else None
        try:
            if held is None:
                try:
                    held = self.open(identity, time.sleep)
                except Unavailable as exc:
                    log.error("the database file %s cannot be used: %s", self.path, exc)
                    raise
                held.held_by = self
            return held
        finally:  # closed once the new one is open: the last connection to close checkpoints the log
            for db in stale:
                db.close()

    def open(self, identity: tuple[int, ...] | None, sleep) -> Database:
        """A new connection to the file, once its header is found intact (the file's `identity` is noted on it);
        raises `Unavailable` when it is not."""
        if identity is not None:
            fault = self.headers.fault(self.path, sleep)
            if fault is not None:
                raise Unavailable(*fault)
        db = connect(self.path)  # raises SQLITE_CANTOPEN (503 "missing") when the file is gone
        db.identity = identity
        return db

    def give_back(self, db: Database) -> None:
        """Keeps `db` for the next request; rolls back what a failed request left open."""
        identity = getattr(db, "identity", None)
        try:
            if db.conn.in_transaction:
                db.conn.rollback()
        except sqlite3.Error:
            db.close()
            return
        with self.lock:
            if identity is not None and len(self.free) < self.idle:
                self.free.append((db, identity))
                return
        db.close()

    def close(self) -> None:
        """Closes every connection held idle, and the writer's: the next request opens new ones."""
        with self.lock:
            held, self.free = self.free, []
        for db, _ in held:
            db.close()
        with self.committing:
            writer, self.writer = self.writer, None
        if writer is not None:
            writer.close()

    # --- writing ---

    def write(self, work: Callable[[sqlite3.Connection], None], single: bool = False) -> None:
        """Commits what `work` executes as one (all or none), durably, before it returns; raises what SQLite
        raised (`sqlite3.IntegrityError` for a key taken, and the store's `Unavailable`). `single`: `work`
        executes one statement."""
        write = Write(work, single)
        if on_gevent_loop():
            self.loop_committer().commit(write)
        else:  # threads or a single one: each commits in its own thread, the writes queued meanwhile with it
            with self.queue_lock:
                self.queued.append(write)
            self.commit_queued(write)
        if isinstance(write.error, Unavailable):  # logged here: the writer's thread logs nothing
            log.error("the database file %s cannot be used: %s", self.path, write.error)
        if write.error is not None:
            raise write.error

    def loop_committer(self) -> Committer:
        if self.committer is None or self.committer.pid != os.getpid():
            self.committer = Committer(self)
        return self.committer

    def commit_queued(self, write: Write) -> None:
        """In a real thread: commits every queued write, `write` among them, unless a commit took it already."""
        with self.committing:
            if write.done:
                return
            with self.queue_lock:
                queued, self.queued = self.queued, []
            try:
                self.commit(queued)
            finally:
                for each in queued:
                    each.done = True

    def commit(self, writes: list[Write]) -> None:
        db = None
        try:
            db = self.writing_connection()
            conn = db.conn
            conn.execute("BEGIN IMMEDIATE")  # waits for the other processes' writes (the busy timeout)
            if len(writes) == 1:  # alone in its transaction: all or nothing without a savepoint
                writes[0].work(conn)
                conn.execute("COMMIT")
                return
            for write in writes:
                if write.single:  # a statement refused by a key undoes itself, and the transaction goes on
                    try:
                        write.work(conn)
                    except sqlite3.Error as exc:
                        if not conn.in_transaction:
                            raise
                        write.error = exc
                    continue
                conn.execute("SAVEPOINT write")
                try:
                    write.work(conn)
                except sqlite3.Error as exc:
                    if not conn.in_transaction:  # SQLite rolled the whole transaction back
                        raise
                    conn.execute("ROLLBACK TO write")
                    write.error = exc
                conn.execute("RELEASE write")
            conn.execute("COMMIT")
        except BaseException as exc:  # nothing of the transaction stays: every write in it gets the error
            self.abandon(db)
            for write in writes:
                write.error = copy.copy(exc) if isinstance(exc, sqlite3.Error) else exc

    def writing_connection(self) -> Database:
        """The writer's connection to the file as it is now (in the thread that holds `committing`)."""
        try:
            identity = file_identity(self.path)
        except OSError:
            identity = None
        if self.writer is not None and identity is not None and self.writer.identity == identity:
            return self.writer
        stale, self.writer = self.writer, None
        try:
            db = self.open(identity, real_sleep)
            db.conn.isolation_level = None  # its transactions are begun and ended by `commit`
            self.writer = db
            return db
        finally:
            if stale is not None:
                stale.close()

    def abandon(self, db: Database | None) -> None:
        """Rolls back what a failed commit left open; a connection that cannot roll back is closed."""
        if db is None:
            return
        try:
            if db.conn.in_transaction:
                db.conn.execute("ROLLBACK")
        except sqlite3.Error:
            if self.writer is db:
                self.writer = None
            db.close()


class Committer:
    """On gevent's loop: the process's writes, committed by one real thread of its own, a batch at a time.

    A request's greenlet queues its write and waits; the thread takes everything queued, commits it as one
    transaction (`Connections.commit`) and wakes the loop once for the whole batch, which then wakes each
    write's greenlet. A write costs the loop no thread of its own and no wake-up of its own: only the first
    write of a quiet moment wakes the thread, and one signal answers a batch. The thread sleeps on a lock
    of the operating system's while nothing is queued.
    """

    def __init__(self, connections: Connections):
        self.connections = connections
        self.pid = os.getpid()
        self.lock = real_lock()  # guards `waiting`, `sleeping` and `finished`; never held for long
        self.waiting: list[tuple[Write, object]] = []  # queued writes, each with its greenlet's waiter
        self.finished: list[tuple[Write, object]] = []  # committed (or failed), for the loop to wake
        self.sleeping = False
        self.wakeup = real_lock()  # held while the thread sleeps: released to wake it
        self.wakeup.acquire()
        self.loop_wakeup = LoopSignal(self.woken)  # `send` from the thread runs `woken` on the loop
        real_thread(self.run)

    def commit(self, write: Write) -> None:
        """Queues `write` and waits, letting the loop serve, until its transaction is over."""
        waiter = loop.waiter()
        with self.lock:
            self.waiting.append((write, waiter))
            wake, self.sleeping = self.sleeping, False
        if wake:
            self.wakeup.release()
        waiter.get()

    def run(self) -> None:
        """The thread: commits what is queued, then sleeps until a write comes."""
        while True:
            with self.lock:
                batch, self.waiting = self.waiting, []
                self.sleeping = not batch
            if not batch:
                self.wakeup.acquire()
                continue
            try:
                with self.connections.committing:
                    self.connections.commit([write for write, _ in batch])
            except BaseException as exc:  # noqa: BLE001 - the thread never ends: each write gets the error
                for write, _ in batch:
                    write.error = write.error or exc
            with self.lock:
                self.finished.extend(batch)
            self.loop_wakeup.send()

    def woken(self) -> None:
        """On the loop: wakes the greenlet of every write the thread is done with."""
        with self.lock:
            finished, self.finished = self.finished, []
        for write, waiter in finished:
            write.done = True
            waiter.switch(None)


def write(db: Database, work: Callable[[sqlite3.Connection], None], single: bool = False) -> None:
    """Commits what `work` executes as one transaction: through the process's writer when `db` is one of
    its connections (`Connections.write`), else on `db` itself. `work` runs in the writer's thread: it
    executes its statements on the connection it is given, and touches nothing else (`single`: one)."""
    held = getattr(db, "held_by", None)
    if held is not None:
        held.write(work, single)
        return
    with db.atomic():
        work(db.conn)


class NoRoom(sqlite3.IntegrityError):
    "A creation that the evening's room refused in the writer's transaction (the refusal is its argument)"


def write_creation(work: Callable[[sqlite3.Connection], None], idempotency_key_hash: str | None) -> None:
    """Writes a match's or an evening's creation: `IdempotencyKeyTaken` when another creation holds the same
    Idempotency-Key (its unique index)."""
    try:
        write(get_db(), work)
    except sqlite3.IntegrityError as exc:
        if "idempotency_key_hash" in str(exc):
            raise IdempotencyKeyTaken(idempotency_key_hash) from exc
        raise


def connections(app: Flask | None = None) -> Connections:
    """The connections the app's process holds."""
    return (app or current_app._get_current_object()).extensions[CONNECTIONS]


@contextmanager
def connection() -> Iterator[Database]:
    """A connection of the process's own, for the block alone (a stream's look at the log between its waits)."""
    db = open_db()
    try:
        yield db
    finally:
        connections().give_back(db)


def open_db() -> Database:
    app = current_app._get_current_object()  # the app itself: each use of the proxy looks it up again
    if app.extensions.get(NOT_MIGRATED):
        try:
            migrate(app.config["DATABASE"])
        except OSError as exc:
            raise storage_unavailable("missing", "the database folder cannot be made") from exc
        app.extensions.pop(NOT_MIGRATED, None)
    db = connections(app).take()
    try:
        notice_restore(app, db)
    except BaseException:
        connections(app).give_back(db)
        raise
    return db


# --- a restore (`kibic restore`) -----------------------------------------------------------------

GENERATION = "kibic.generation"
RESTORED = "kibic.restored"  # what forgets what the process holds of the data before a restore (its caches)


def on_restore(app: Flask, forget: Callable[[], None]) -> None:
    """Calls `forget` in each process whose data was restored (`kibic restore`), before its next request's reads."""
    app.extensions.setdefault(RESTORED, []).append(forget)


def notice_restore(app: Flask, db: Database) -> None:
    """A restore writes the backup into the live file (SQLite's backup API) with a new `generation` in `settings`;
    each request's first look at the store compares it with the one this process knows (one indexed read), and
    when it changed the process forgets what it held of the data before (its folded matches, their keys' hashes)."""
    row = db.execute("SELECT value FROM settings WHERE name = 'generation'").fetchone()
    found = row[0] if row else ""
    known = app.extensions.get(GENERATION)
    if known == found:
        return
    app.extensions[GENERATION] = found
    if known is not None:
        log.info("the database %s was restored: the matches held are read again", app.config["DATABASE"])
        for forget in app.extensions.get(RESTORED, []):
            forget()


def described(database: str) -> str:
    """The database for a log line: a SQLite path, or a PostgreSQL address without its password."""
    if not is_postgresql(database):
        return str(Path(database).absolute())
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(database)
    host = parts.hostname or ""
    netloc = (f"{parts.username}@" if parts.username else "") + host + (f":{parts.port}" if parts.port else "")
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


def get_db() -> Database:
    """This request's connection: one of the process's, lent until the request ends."""
    held = g._get_current_object()  # the request's own `g`: each use of the proxy looks it up again
    db = held.get("db")
    if db is None:
        db = held.db = open_db()
    return db


def close_db(_error: BaseException | None = None) -> None:
    db = g._get_current_object().pop("db", None)
    if db is not None:
        connections().give_back(db)


# --- the SQLite store ----------------------------------------------------------------------------

BUSY = {sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED}
STORAGE_FAULTS = {
    sqlite3.SQLITE_READONLY: ("read_only", "the database file or its folder is read-only"),
    sqlite3.SQLITE_PERM: ("read_only", "the database file or its folder is read-only"),
    sqlite3.SQLITE_FULL: ("disk_full", "the disk is full"),
    sqlite3.SQLITE_CORRUPT: ("corrupt", "the database file is damaged"),
    sqlite3.SQLITE_NOTADB: ("corrupt", "the database file is damaged"),
    sqlite3.SQLITE_CANTOPEN: ("missing", "the database file or its folder is missing"),
    sqlite3.SQLITE_IOERR: ("io_error", "the disk reports an error"),
    sqlite3.SQLITE_PROTOCOL: ("io_error", "the disk reports an error"),
    sqlite3.SQLITE_NOMEM: ("io_error", "the server is out of memory"),
}


def sqlite_fault(error: sqlite3.Error, path: str | None = None) -> StoreError | None:
    """The store's error for a database that is busy or out of order; None for an error that is a bug. A disk
    error on a disk with no room left (`path`, the database file's) is a full disk: SQLite says SQLITE_IOERR when
    the write that found the disk full was not its own page's (its log's shared memory, a sync)."""
    if isinstance(error, sqlite3.IntegrityError):
        return None
    primary = (getattr(error, "sqlite_errorcode", None) or 0) & 0xFF
    if primary in BUSY:
        return Busy("the database stayed locked by other writers")
    if primary == sqlite3.SQLITE_IOERR and no_room_left(path):  # a write, a sync or the shared memory's growth
        return Unavailable("disk_full", "the disk is full")
    if primary in STORAGE_FAULTS:
        return Unavailable(*STORAGE_FAULTS[primary])
    if str(error).startswith("no such table"):
        return Unavailable("corrupt", "the database file is not Kibic's")
    return None


def no_room_left(path: str | None) -> bool:
    """Whether the disk holding the database file `path` has less room left than a few pages."""
    if path is None:
        return False
    try:
        disk = os.statvfs(os.path.dirname(os.path.abspath(path)))
    except OSError:
        return False
    return disk.f_bavail * disk.f_frsize < 64 * 1024


def sqlite_faults(method: Callable[P, R]) -> Callable[P, R]:
    """`method` with SQLite's errors of a busy or broken database raised as the store's own."""

    @functools.wraps(method)
    def translated(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return method(*args, **kwargs)
        except sqlite3.Error as exc:
            fault = sqlite_fault(exc, getattr(args[0], "path", None) if args else None)
            if fault is None:
                raise
            log.error("storage failure: %s", exc)
            raise fault from exc

    return translated


class SQLiteStore(Store):
    """The matches in one SQLite file through sqlite-utils, each request on a connection of the process's
    (`get_db`)."""

    def __init__(self, path: str):
        self.path = path
        self.secret: bytes | None = None

    @sqlite_faults
    def migrate(self) -> None:
        migrate(self.path)

    def close(self) -> None:
        connections().close()

    @sqlite_faults
    def server_secret(self) -> bytes:
        """The server's own secret (`create_the_server_secret`), read once per process."""
        if self.secret is None:
            row = get_db().execute("SELECT value FROM settings WHERE name = 'server_secret'").fetchone()
            self.secret = bytes.fromhex(row[0])
        return self.secret

    @sqlite_faults
    def secret_rows(self) -> list[tuple[str, str]]:
        rows = get_db().execute("SELECT name, value FROM settings WHERE name = 'server_secret' "
                                "OR name LIKE 'server_secret:%'").fetchall()
        return [tuple(row) for row in rows]

    @sqlite_faults
    def create_match(self, match_id: str, header: dict, key_hash: str, idempotency_key_hash: str | None = None,
                     request_hash: str | None = None, evening_id: str | None = None, room: Room | None = None) -> None:
        row = [match_id, header["game"], json.dumps(header["players"]), json.dumps(header["options"]),
               header["stake"], header["currency"], now(), key_hash, idempotency_key_hash, request_hash]

        def insert(conn: sqlite3.Connection) -> None:
            conn.execute("INSERT INTO matches (id, game, players, options, stake, currency, created, key_hash, "
                         "idempotency_key_hash, request_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", row)
            if evening_id is None:
                return
            if room is not None:  # the writer holds the file's write lock (BEGIN IMMEDIATE): no other joins now
                tables = conn.execute("SELECT m.players FROM evening_matches AS e JOIN matches AS m "
                                      "ON m.id = e.match_id WHERE e.evening_id = ?", [evening_id]).fetchall()
                try:
                    room([json.loads(players) for (players,) in tables])
                except Exception as exc:
                    raise NoRoom(exc) from exc  # an SQLite error, so that a batch's other writes go on
            conn.execute("INSERT INTO evening_matches (match_id, evening_id, created) VALUES (?, ?, ?)",
                         [match_id, evening_id, row[6]])

        try:
            write_creation(insert, idempotency_key_hash)
        except NoRoom as refused:
            raise refused.args[0] from None

    @sqlite_faults
    def idempotent_match(self, idempotency_key_hash: str) -> dict | None:
        rows = list(get_db().query("SELECT * FROM matches WHERE idempotency_key_hash = ?", [idempotency_key_hash]))
        return rows[0] if rows else None

    @sqlite_faults
    def match_row(self, match_id: str) -> dict:
        cursor = get_db().execute("SELECT * FROM matches WHERE id = ?", [match_id])  # one statement, no savepoint
        row = cursor.fetchone()
        if row is None:
            raise UnknownMatch(match_id)
        return dict(zip([column[0] for column in cursor.description], row, strict=True))

    @sqlite_faults
    def events(self, match_id: str, upto: int | None = None, after: int = 0) -> list[dict]:
        rows = get_db().query(
            "SELECT seq, payload FROM events WHERE match_id = ? AND seq > ? AND seq <= ? ORDER BY seq",
            [match_id, after, LAST_SEQ if upto is None else upto])
        return [logged_event(row["payload"], row["seq"]) for row in rows]

    @sqlite_faults
    def event(self, match_id: str, seq: int) -> dict:
        rows = get_db().query("SELECT payload FROM events WHERE match_id = ? AND seq = ?", [match_id, seq])
        return logged_event(next(rows)["payload"], seq)

    @sqlite_faults
    def latest_seq(self, match_id: str) -> int:
        found, seq = get_db().execute(
            "SELECT EXISTS (SELECT 1 FROM matches WHERE id = ?), (SELECT max(seq) FROM events WHERE match_id = ?)",
            [match_id, match_id]).fetchone()
        if not found:
            raise UnknownMatch(match_id)
        return seq or 0

    @sqlite_faults
    def news(self, match_id: str, after: int) -> tuple[int, list[dict]]:
        # Most often the log holds event `after` and a few more: one look at the match's events from `after` on
        # (the log has no gaps) says both what follows and that the log is not behind, without the match's row.
        first = max(after, 1)
        rows = get_db().execute(
            "SELECT seq, CASE WHEN seq > ? THEN payload END FROM events WHERE match_id = ? AND seq >= ? ORDER BY seq",
            [after, match_id, first]).fetchall()
        if rows and rows[0][0] == first:
            return rows[-1][0], [logged_event(payload, seq) for seq, payload in rows if seq > after]
        # else a match without events, a log behind the match in hand, or no such match: one statement, one read
        # of the log, so that the latest seq and the events after `after` agree
        rows = get_db().execute(
            "SELECT EXISTS (SELECT 1 FROM matches WHERE id = :id), (SELECT max(seq) FROM events WHERE match_id = :id), "
            "event.seq, event.payload FROM (SELECT 1) LEFT JOIN events AS event "
            "ON event.match_id = :id AND event.seq > :after ORDER BY event.seq",
            {"id": match_id, "after": after}).fetchall()
        found, latest = rows[0][:2]
        if not found:
            raise UnknownMatch(match_id)
        return latest or 0, [logged_event(payload, seq) for _, _, seq, payload in rows if seq is not None]

    @sqlite_faults
    def latest_seqs(self, match_ids: list[str]) -> dict[str, int]:
        found: dict[str, int] = {}
        with connection() as db:
            for start in range(0, len(match_ids), LOOKUP_CHUNK):
                ids = json.dumps(match_ids[start:start + LOOKUP_CHUNK])
                rows = db.execute("SELECT value, (SELECT max(seq) FROM events WHERE match_id = value) "
                                  "FROM json_each(?)", [ids])
                found.update((match_id, seq or 0) for match_id, seq in rows)
        return found

    @sqlite_faults
    def append_event(self, match_id: str, event: dict, idempotency_key: str | None = None,
                     request_hash: str | None = None) -> None:
        row = [match_id, event["seq"], event["type"], payload_text(event), now(), idempotency_key, request_hash]

        def insert(conn: sqlite3.Connection) -> None:
            conn.execute("INSERT INTO events (match_id, seq, type, payload, created, idempotency_key, request_hash) "
                         "VALUES (?, ?, ?, ?, ?, ?, ?)", row)

        try:
            write(get_db(), insert, single=True)
        except sqlite3.IntegrityError as exc:
            if "events.idempotency_key" in str(exc):
                raise IdempotencyKeyTaken(idempotency_key) from exc
            if "events.seq" in str(exc):
                raise SeqTaken(event["seq"]) from exc
            if "FOREIGN KEY" in str(exc):
                raise UnknownMatch(match_id) from exc
            raise

    @sqlite_faults
    def idempotent_event(self, match_id: str, idempotency_key: str) -> dict | None:
        rows = list(get_db().query("SELECT seq, request_hash FROM events WHERE match_id = ? AND idempotency_key = ?",
                                   [match_id, idempotency_key]))
        return rows[0] if rows else None

    @sqlite_faults
    def create_evening(self, evening_id: str, name: str, currency: str, key_hash: str,
                       idempotency_key_hash: str | None = None, request_hash: str | None = None) -> None:
        row = [evening_id, name, currency, now(), key_hash, idempotency_key_hash, request_hash]

        def insert(conn: sqlite3.Connection) -> None:
            conn.execute("INSERT INTO evenings (id, name, currency, created, key_hash, idempotency_key_hash, "
                         "request_hash) VALUES (?, ?, ?, ?, ?, ?, ?)", row)

        write_creation(insert, idempotency_key_hash)

    @sqlite_faults
    def idempotent_evening(self, idempotency_key_hash: str) -> dict | None:
        rows = list(get_db().query("SELECT id, name, currency, created, key_hash, request_hash FROM evenings "
                                   "WHERE idempotency_key_hash = ?", [idempotency_key_hash]))
        return rows[0] if rows else None

    @sqlite_faults
    def evening_row(self, evening_id: str) -> dict | None:
        cursor = get_db().execute("SELECT id, name, currency, created, key_hash FROM evenings WHERE id = ?",
                                  [evening_id])
        row = cursor.fetchone()
        return None if row is None else dict(zip([column[0] for column in cursor.description], row, strict=True))

    @sqlite_faults
    def evening_match_ids(self, evening_id: str) -> list[str]:
        rows = get_db().execute("SELECT match_id FROM evening_matches WHERE evening_id = ? ORDER BY rowid",
                                [evening_id])
        return [row[0] for row in rows.fetchall()]

    @sqlite_faults
    def match_evening(self, match_id: str) -> str | None:
        row = get_db().execute("SELECT evening_id FROM evening_matches WHERE match_id = ?", [match_id]).fetchone()
        return None if row is None else row[0]

    @sqlite_faults
    def evening_key_hash(self, match_id: str) -> str | None:
        row = get_db().execute("SELECT e.key_hash FROM evening_matches m JOIN evenings e ON e.id = m.evening_id "
                               "WHERE m.match_id = ?", [match_id]).fetchone()
        return None if row is None else row[0]
