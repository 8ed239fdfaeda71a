"""The SQLite file's writer: every write of a server process committed by one connection of its own, the writes
that arrive together in one transaction.

Writes are committed by a real thread, off the server's loop (`Committer`): on gevent's loop every call into
SQLite stops every request of the process while it runs, and a commit runs for the time of a sync to disk (or of
the wait for another process's write lock). In the thread SQLite lets go of Python's lock while it syncs or
waits, and the loop goes on serving. Off the loop (threads, or a single one), each write commits in its own
thread, with the writes queued meanwhile. Either way the writes that arrive while a commit runs are committed
together in the next transaction (`BEGIN IMMEDIATE`, waiting up to the busy timeout for the other processes),
one sync to disk for them all, and each still all or nothing (one refused by a key does not stop the others):
a write of one statement by itself, as SQLite undoes a refused statement, a write of several within a savepoint
of its own. A write is answered only once its transaction is committed.
"""

from __future__ import annotations

import copy
import logging
import os
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass

from sqlite_utils import Database

from .. import loop
from ..loop import LoopSignal, on_gevent_loop, real_lock, real_sleep, real_thread
from .base import Unavailable
from .sqlite_file import HeaderReader, file_identity, open_checked, renewed

log = logging.getLogger(__name__)


@dataclass(eq=False)
class Write:
    """What to commit as one (`work`, given the writer's connection: its statements, and nothing else), and
    what became of it."""

    work: Callable[[sqlite3.Connection], None]
    single: bool = False  # `work` executes one statement, which SQLite applies whole or not at all by itself
    done: bool = False
    error: BaseException | None = None


class Writer:
    """The writes of a server process to the database file at `path`: queued (`write`), committed by whichever
    thread holds `committing` on the writer's own connection, opened again when the file is not the one it
    opened (its header checked by `headers`, the process's reader)."""

    def __init__(self, path: str, headers: HeaderReader):
        self.path, self.headers = path, headers
        self.queued: list[Write] = []
        self.queue_lock = real_lock()
        self.committing = real_lock()  # held by the thread that commits, for the whole transaction
        self.db: Database | None = None  # used only by the thread that holds `committing`
        self.committer: Committer | None = None  # on gevent's loop: made in the process that serves

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
        held = self.db
        if held is not None and identity is not None and (
                held.identity == identity or renewed(held.identity, identity, self.headers, self.path, real_sleep)):
            held.identity = identity
            return held
        stale, self.db = self.db, None
        try:
            db = open_checked(self.path, self.headers, identity, real_sleep)
            db.conn.isolation_level = None  # its transactions are begun and ended by `commit`
            self.db = db
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
            if self.db is db:
                self.db = None
            db.close()

    def close(self) -> None:
        """Closes the writer's connection: the next write opens a new one."""
        with self.committing:
            db, self.db = self.db, None
        if db is not None:
            db.close()


class Committer:
    """On gevent's loop: the process's writes, committed by one real thread of its own, a batch at a time.

    A request's greenlet queues its write and waits; the thread takes everything queued, commits it as one
    transaction (`Writer.commit`) and wakes the loop once for the whole batch, which then wakes each
    write's greenlet. A write costs the loop no thread of its own and no wake-up of its own: only the first
    write of a quiet moment wakes the thread, and one signal answers a batch. The thread sleeps on a lock
    of the operating system's while nothing is queued.
    """

    def __init__(self, writer: Writer):
        self.writer = writer
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
                with self.writer.committing:
                    self.writer.commit([write for write, _ in batch])
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
