"""The SQLite store: the `Store` interface over one SQLite file through sqlite-utils (the default store).

`events` has the primary key `(match_id, seq)`: two writers that both append event n to a match collide
on it, and the second one learns that the log moved on (`SeqTaken`). Each write is one transaction, and with
WAL and `synchronous=FULL` it is on disk before the response leaves. Each server process keeps its
connections open (`Connections`) and lends one to each request, through `g`.

That key is the compare-and-swap of the log: a writer decides event n+1 on the n events it read and
inserts it as seq n+1, which succeeds only if nobody appended in between, so no write needs to hold the
lock while the referee decides (the unique index on a creation's Idempotency-Key does the same for
matches). A write is a few INSERTs, all or none, handed to the process's writer (`api.store.sqlite_writer`):
on gevent's loop one real thread of the process (else the request's own thread) commits with `BEGIN IMMEDIATE`
(waiting up to the busy timeout for the other processes) the writes queued meanwhile, each all or nothing (one
statement by itself, several in a savepoint of their own), one sync for them all.

Only `migrate` (at start) creates the database file. A request opens an existing file or fails: a file
or folder gone missing is a fault (answered 503), not a fresh empty store that would hide the matches
(the file's checks are `api.store.sqlite_file`'s).
"""

from __future__ import annotations

import functools
import json
import logging
import os
import secrets
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from flask import Flask, current_app, g, has_app_context
from sqlite_utils import Database, Migrations

from ..loop import real_lock
from . import sqlite_file
from .base import (
    LAST_SEQ,
    RESTORED,
    STORE,
    Busy,
    Conflict,
    IdempotencyKeyTaken,
    P,
    R,
    Rewritten,
    Room,
    SeqTaken,
    Store,
    StoreError,
    Unavailable,
    UnknownMatch,
    logged_event,
    now,
    payload_text,
    storage_unavailable,
)
from .sqlite_file import HeaderReader, file_identity, open_checked, renewed
from .sqlite_writer import Writer

log = logging.getLogger(__name__)

NOT_MIGRATED = "kibic.store_not_migrated"
CONNECTIONS = "kibic.connections"
IDLE_CONNECTIONS = 8  # per process: as many as its requests use at once, most of the time
LOOKUP_CHUNK = 500  # match ids per query, when the streams look up the latest seq of the matches they follow


# --- migrations ----------------------------------------------------------------------------------

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


@migrations()
def create_clubs(db: Database) -> None:
    """Clubs across evenings (`api.clubs`): a club (its key's and its read link's hashes, its table's rule), its
    evenings, its members and the names that seat them, and the payments marked in its ledger."""
    db["clubs"].create({"id": str, "name": str, "currency": str, "created": str, "key_hash": str,
                        "read_key_hash": str, "rule": str, "idempotency_key_hash": str, "request_hash": str},
                       pk="id", not_null={"name", "currency", "created", "key_hash", "read_key_hash"})
    db.execute("CREATE UNIQUE INDEX clubs_idempotency_key ON clubs (idempotency_key_hash) "
               "WHERE idempotency_key_hash IS NOT NULL")
    db["evenings"].add_column("club_id", str)
    db.execute("CREATE INDEX evenings_club ON evenings (club_id) WHERE club_id IS NOT NULL")
    db["club_members"].create({"club_id": str, "id": str, "name": str, "created": str, "merged_into": str},
                              pk=("club_id", "id"), not_null={"club_id", "id", "name", "created"})
    db["club_names"].create({"club_id": str, "name": str, "shown": str, "member_id": str}, pk=("club_id", "name"),
                            not_null={"club_id", "name", "shown", "member_id"})
    db["club_payments"].create({"club_id": str, "id": str, "at": str, "payer": str, "payee": str, "amount": str,
                                "by_member": str, "idempotency_key": str, "request_hash": str},
                               pk=("club_id", "id"), not_null={"club_id", "id", "at", "payer", "payee", "amount",
                                                               "by_member"})
    db.execute("CREATE UNIQUE INDEX club_payments_idempotency_key ON club_payments (club_id, idempotency_key) "
               "WHERE idempotency_key IS NOT NULL")


@migrations()
def create_match_summaries(db: Database) -> None:
    """Each match's summary for its club (`api.clubs`): the seq it was made at, and the summary as JSON text, which
    names no one (its seats are named from the match's players when read)."""
    db["match_summaries"].create({"match_id": str, "seq": int, "summary": str}, pk="match_id",
                                 not_null={"seq", "summary"}, if_not_exists=True)


# --- the file, at start ---------------------------------------------------------------------------

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
    db = sqlite_file.connect(path, mode="rwc")
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
    deadline = time.monotonic() + sqlite_file.BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            db.enable_wal()
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.02)


def install(app: Flask) -> None:
    """The app's store: the SQLite file its `DATABASE` names, migrated at start (`open_store`)."""
    open_store(app)
    app.teardown_appcontext(close_db)
    app.extensions[STORE] = SQLiteStore(app.config["DATABASE"])


def open_store(app: Flask) -> None:
    """Migrates the app's database at start. When its storage is out of order the app starts all the same,
    answers 503 and migrates on the first request that finds the storage back: no restart needed."""
    try:
        migrate(app.config["DATABASE"])
    except (sqlite3.Error, OSError) as exc:
        log.error("cannot open the database %s (requests answer 503 until it can): %s", app.config["DATABASE"], exc)
        app.extensions[NOT_MIGRATED] = True
    app.extensions[CONNECTIONS] = Connections(app.config["DATABASE"])


# --- connections ---------------------------------------------------------------------------------

class Connections:
    """The connections a server process holds open to its database: connections that read, lent to one
    request (thread or greenlet) at a time and kept for the next, and the process's writer (`write`:
    `api.store.sqlite_writer`). Opening one per request would make SQLite checkpoint and delete its
    write-ahead log at every request's close, several syncs where the commit's one would do.

    A connection is used only while the file is the one it opened: a file replaced, or changed in mode or owner,
    is opened again (a stat per request), so that a fault shows as a fresh process would see it; a file only
    checkpointed since (its size and last change moved) keeps its connections once its header is found whole,
    as a new connection's would be (`sqlite_file.renewed`). A missing file is a fault, never a new empty store.
    """

    def __init__(self, path: str, idle: int = IDLE_CONNECTIONS):
        self.path, self.idle = path, idle
        self.free: list[tuple[Database, tuple[int, ...]]] = []
        self.lock = real_lock()  # held for a few list steps, which never wait (a cheap lock on gevent's loop too)
        self.headers = HeaderReader()
        self.writer = Writer(path, self.headers)

    def take(self) -> Database:
        """A connection to the file as it is now, for one request alone."""
        try:
            identity = file_identity(self.path)
        except OSError:
            identity = None
        with self.lock:
            known = self.free[-1][1] if self.free else None
        if known is not None and known != identity and renewed(known, identity, self.headers, self.path, time.sleep):
            self.renew(known, identity)
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

    def renew(self, known: tuple[int, ...], identity: tuple[int, ...]) -> None:
        """The connections held for the file as it was (`known`) serve it as it is (`identity`): `renewed`."""
        with self.lock:
            for db, held in self.free:
                if held == known:
                    db.identity = identity
            self.free = [(db, identity if held == known else held) for db, held in self.free]

    def open(self, identity: tuple[int, ...] | None, sleep) -> Database:
        """A new connection to the file, once its header is found intact; raises `Unavailable` when it is not."""
        return open_checked(self.path, self.headers, identity, sleep)

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
        self.writer.close()

    def write(self, work: Callable[[sqlite3.Connection], None], single: bool = False) -> None:
        """Commits what `work` executes as one (all or none), durably, before it returns (`Writer.write`)."""
        self.writer.write(work, single)


def write(db: Database, work: Callable[[sqlite3.Connection], None], single: bool = False) -> None:
    """Commits what `work` executes as one transaction: through the process's writer when `db` is one of
    its connections (`Connections.write`), else on `db` itself. `work` runs in the writer's thread: it
    executes its statements on the connection it is given, and touches nothing else (`single`: one).

    The request's own connection (`get_db`) goes back to the process while the write waits for its commit, for
    another request to read with meanwhile (the request takes one again if it reads on): on gevent's loop the
    requests whose writes wait for a sync held one each, more than the process keeps, and closed and opened
    connections at every tap."""
    held = getattr(db, "held_by", None)
    if held is not None:
        lent = g._get_current_object() if has_app_context() else None
        if lent is not None and lent.get("db") is db:
            del lent.db
            held.give_back(db)
        held.write(work, single)
        return
    with db.atomic():
        work(db.conn)


APPEND = ("INSERT INTO events (match_id, seq, type, payload, created, idempotency_key, request_hash) "
          "SELECT ?, ?, ?, ?, ?, ?, ?"
          " WHERE (? = 1 OR EXISTS (SELECT 1 FROM events WHERE match_id = ? AND seq = ?))"
          " AND coalesce((SELECT value FROM settings WHERE name = 'generation'), '') IS coalesce(?, '')")
"""An event appended right after the one before it, in the data of the generation the request read (`append_event`):
nothing inserted otherwise."""


class NotNext(sqlite3.IntegrityError):
    "An event that the log, as it is when written, does not end just before (`APPEND`): nothing was inserted"


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


def get_db() -> Database:
    """This request's connection: one of the process's, lent until the request ends."""
    held = g._get_current_object()  # the request's own `g`: each use of the proxy looks it up again
    db = held.get("db")
    if db is None:
        db = held.db = open_db()
        held.setdefault("generation", current_app.extensions.get(GENERATION))  # of the data its first look read
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
        rows = get_db().execute(
            "SELECT seq, payload FROM events WHERE match_id = ? AND seq > ? AND seq <= ? ORDER BY seq",
            [match_id, after, LAST_SEQ if upto is None else upto])
        return [logged_event(payload, seq) for seq, payload in rows]

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
        seq = event["seq"]
        # where the log the request read still ends: the event before is there, and the data was not rewritten since
        # the request's first look (a restore, a forget write their new generation with their change,
        # `notice_restore`; another request may have noticed it meanwhile: the generation is the one this request's
        # first look read)
        get_db()  # the request's first look, if it has not looked yet
        row = [match_id, seq, event["type"], payload_text(event), now(), idempotency_key, request_hash,
               seq, match_id, seq - 1, g.get("generation")]

        def insert(conn: sqlite3.Connection) -> None:
            if conn.execute(APPEND, row).rowcount == 0:
                raise NotNext(seq)

        try:
            write(get_db(), insert, single=True)
        except NotNext as exc:
            raise Rewritten(seq) from exc
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
                       idempotency_key_hash: str | None = None, request_hash: str | None = None,
                       club_id: str | None = None) -> None:
        row = [evening_id, name, currency, now(), key_hash, idempotency_key_hash, request_hash, club_id]

        def insert(conn: sqlite3.Connection) -> None:
            conn.execute("INSERT INTO evenings (id, name, currency, created, key_hash, idempotency_key_hash, "
                         "request_hash, club_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", row)

        write_creation(insert, idempotency_key_hash)

    @sqlite_faults
    def idempotent_evening(self, idempotency_key_hash: str) -> dict | None:
        rows = list(get_db().query("SELECT id, name, currency, created, key_hash, request_hash, club_id "
                                   "FROM evenings WHERE idempotency_key_hash = ?", [idempotency_key_hash]))
        return rows[0] if rows else None

    @sqlite_faults
    def evening_row(self, evening_id: str) -> dict | None:
        cursor = get_db().execute("SELECT id, name, currency, created, key_hash, club_id FROM evenings WHERE id = ?",
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

    # --- clubs ---

    def one(self, sql: str, params: list) -> dict | None:
        cursor = get_db().execute(sql, params)
        row = cursor.fetchone()
        return None if row is None else dict(zip([column[0] for column in cursor.description], row, strict=True))

    def rows(self, sql: str, params: list) -> list[dict]:
        return list(get_db().query(sql, params))

    @sqlite_faults
    def create_club(self, club_id: str, name: str, currency: str, key_hash: str, read_key_hash: str,
                    idempotency_key_hash: str | None = None, request_hash: str | None = None) -> None:
        row = [club_id, name, currency, now(), key_hash, read_key_hash, idempotency_key_hash, request_hash]

        def insert(conn: sqlite3.Connection) -> None:
            conn.execute("INSERT INTO clubs (id, name, currency, created, key_hash, read_key_hash, "
                         "idempotency_key_hash, request_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", row)

        write_creation(insert, idempotency_key_hash)

    @sqlite_faults
    def idempotent_club(self, idempotency_key_hash: str) -> dict | None:
        return self.one("SELECT id, name, currency, created, key_hash, read_key_hash, rule, request_hash FROM clubs "
                        "WHERE idempotency_key_hash = ?", [idempotency_key_hash])

    @sqlite_faults
    def club_row(self, club_id: str) -> dict | None:
        return self.one("SELECT id, name, currency, created, key_hash, read_key_hash, rule FROM clubs WHERE id = ?",
                        [club_id])

    @sqlite_faults
    def set_club_rule(self, club_id: str, rule: str) -> None:
        write(get_db(), lambda conn: conn.execute("UPDATE clubs SET rule = ? WHERE id = ?", [rule, club_id]),
              single=True)

    @sqlite_faults
    def club_matches(self, club_id: str) -> list[dict]:
        return self.rows("SELECT m.match_id, m.evening_id, e.created AS evening_created, m.created AS joined "
                         "FROM evenings AS e JOIN evening_matches AS m ON m.evening_id = e.id "
                         "WHERE e.club_id = ? ORDER BY m.rowid", [club_id])

    @sqlite_faults
    def club_evenings(self, club_id: str) -> list[dict]:
        return self.rows("SELECT id, name, created, key_hash FROM evenings WHERE club_id = ? "
                         "ORDER BY created, id", [club_id])

    @sqlite_faults
    def club_members(self, club_id: str) -> list[dict]:
        return self.rows("SELECT id, name, created, merged_into FROM club_members WHERE club_id = ? "
                         "ORDER BY created, id", [club_id])

    @sqlite_faults
    def club_names(self, club_id: str) -> list[dict]:
        return self.rows("SELECT name, shown, member_id FROM club_names WHERE club_id = ? ORDER BY rowid", [club_id])

    @sqlite_faults
    def seat_members(self, club_id: str, seats: dict[str, tuple[str, str]]) -> None:
        created = now()

        def insert(conn: sqlite3.Connection) -> None:
            for name, (shown, member_id) in seats.items():
                made = conn.execute("INSERT OR IGNORE INTO club_names (club_id, name, shown, member_id) "
                                    "VALUES (?, ?, ?, ?)", [club_id, name, shown, member_id]).rowcount
                if made:
                    conn.execute("INSERT INTO club_members (club_id, id, name, created) VALUES (?, ?, ?, ?)",
                                 [club_id, member_id, shown, created])

        write(get_db(), insert)

    @sqlite_faults
    def rename_member(self, club_id: str, member_id: str, name: str, shown: str) -> None:
        def rename(conn: sqlite3.Connection) -> None:
            held = conn.execute("SELECT member_id FROM club_names WHERE club_id = ? AND name = ?",
                                [club_id, name]).fetchone()
            if held is not None and held[0] != member_id:
                raise NameHeld(name)
            conn.execute("INSERT OR IGNORE INTO club_names (club_id, name, shown, member_id) VALUES (?, ?, ?, ?)",
                         [club_id, name, shown, member_id])
            conn.execute("UPDATE club_members SET name = ? WHERE club_id = ? AND id = ?", [shown, club_id, member_id])

        try:
            write(get_db(), rename)
        except NameHeld as exc:
            raise Conflict(str(exc)) from None

    @sqlite_faults
    def merge_members(self, club_id: str, into: str, other: str) -> None:
        def merge(conn: sqlite3.Connection) -> None:
            conn.execute("UPDATE club_names SET member_id = ? WHERE club_id = ? AND member_id = ?",
                         [into, club_id, other])
            conn.execute("UPDATE club_members SET merged_into = ? WHERE club_id = ? AND (id = ? OR merged_into = ?)",
                         [into, club_id, other, other])

        write(get_db(), merge)

    @sqlite_faults
    def add_payment(self, club_id: str, payment: dict, idempotency_key: str | None = None,
                    request_hash: str | None = None, owed: Callable[[list[dict]], None] | None = None) -> None:
        row = [club_id, payment["id"], payment["at"], payment["from"], payment["to"], payment["amount"],
               payment["by"], idempotency_key, request_hash]

        def insert(conn: sqlite3.Connection) -> None:
            if owed is not None:  # the writer holds the file's write lock (BEGIN IMMEDIATE): no other mark now
                cursor = conn.execute(PAYMENTS, [club_id])
                names = [column[0] for column in cursor.description]
                try:
                    owed([dict(zip(names, values, strict=True)) for values in cursor.fetchall()])
                except Exception as exc:
                    raise NotOwed(exc) from exc  # an SQLite error, so that a batch's other writes go on
            conn.execute("INSERT INTO club_payments (club_id, id, at, payer, payee, amount, by_member, "
                         "idempotency_key, request_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", row)

        try:
            write(get_db(), insert, single=owed is None)
        except NotOwed as refused:
            raise refused.args[0] from None
        except sqlite3.IntegrityError as exc:
            if "idempotency_key" in str(exc):
                raise IdempotencyKeyTaken(idempotency_key) from exc
            raise

    @sqlite_faults
    def club_payments(self, club_id: str) -> list[dict]:
        return self.rows(PAYMENTS, [club_id])

    # --- the matches' summaries ---

    @sqlite_faults
    def generation(self) -> str:
        get_db()  # the request's first look at the store notices a new generation (`notice_restore`)
        return current_app.extensions.get(GENERATION) or ""

    @sqlite_faults
    def match_summaries(self, match_ids: list[str]) -> dict[str, tuple[int, str, str]]:
        rows = get_db().execute("SELECT s.match_id, s.seq, s.summary, m.players FROM json_each(?) AS wanted "
                                "JOIN match_summaries AS s ON s.match_id = wanted.value "
                                "JOIN matches AS m ON m.id = s.match_id", [json.dumps(match_ids)])
        return {match_id: (seq, summary, players) for match_id, seq, summary, players in rows}

    @sqlite_faults
    def keep_summaries(self, rows: list[tuple[str, int, str]], generation: str) -> None:
        def insert(conn: sqlite3.Connection) -> None:
            # the writer holds the file's write lock (BEGIN IMMEDIATE): no operator's change can come in between
            found = conn.execute("SELECT value FROM settings WHERE name = 'generation'").fetchone()
            if (found[0] if found else "") != generation:
                return
            conn.executemany("INSERT INTO match_summaries (match_id, seq, summary) VALUES (?, ?, ?) "
                             "ON CONFLICT (match_id) DO UPDATE SET seq = excluded.seq, summary = excluded.summary "
                             "WHERE excluded.seq > match_summaries.seq", rows)

        write(get_db(), insert)


PAYMENTS = ('SELECT id, at, payer AS "from", payee AS "to", amount, by_member AS "by", '
            "idempotency_key, request_hash FROM club_payments WHERE club_id = ? ORDER BY rowid")


class NotOwed(sqlite3.IntegrityError):
    "A payment refused in the writer's transaction: no longer owed (the refusal is its argument)"


class NameHeld(sqlite3.IntegrityError):
    "A rename refused in the writer's transaction: another member holds the name"
