"""The SQLite database file: a connection to it (`connect`, set for durable writes that wait for each other),
what tells the file apart from another one put in its place (`file_identity`), and whether it is whole
(`HeaderReader`), read without ever closing a file of it behind SQLite's back.
"""

from __future__ import annotations

import os
import sqlite3
import time
import weakref
from pathlib import Path

from sqlite_utils import Database

from ..loop import real_lock
from .base import Unavailable

BUSY_TIMEOUT_MS = 10_000
SQLITE_MAGIC = b"SQLite format 3\0"
HEADER_WAITS = (0.01, 0.02, 0.05, 0.1, 0.2)  # seconds: a checkpoint in progress is done by then


def connect(path: str, mode: str = "rw") -> Database:
    """A connection to the database file, set for durable writes that wait for each other.

    `mode` is SQLite's: "rw" opens the file only if it exists, "rwc" creates it, "ro" only reads it. The
    connection may be handed from one thread to another (`api.store.sqlite.Connections` lends it to one at a
    time).
    """
    uri = f"{Path(path).absolute().as_uri()}?mode={mode}"
    conn = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_MS / 1000, check_same_thread=False)
    db = Database(conn, execute_plugins=False)  # the timeout above is SQLite's busy timeout
    db.execute("PRAGMA synchronous = FULL")
    db.execute("PRAGMA foreign_keys = ON")
    return db


def file_identity(path: str) -> tuple[int, ...]:
    """What tells this database file apart from another one put in its place, or from itself changed behind
    SQLite's back: its device and inode, mode, owner and group (`SAME_FILE`), then its size and last change (a
    checkpoint changes those too: `renewed`). Raises `OSError` when the file is missing."""
    found = os.stat(path)
    return (found.st_dev, found.st_ino, found.st_mode, found.st_uid, found.st_gid, found.st_size,
            found.st_ctime_ns)


SAME_FILE = 5  # the fields of an identity that a checkpoint leaves as they were: device, inode, mode, owner, group


def renewed(known: tuple[int, ...] | None, identity: tuple[int, ...] | None, headers: HeaderReader, path: str,
            sleep) -> bool:
    """Whether a connection opened on the file as it was (`known`) may serve it as it is now (`identity`): the same
    file, in the same mode, whose size and last change alone moved (a checkpoint's, every few seconds while taps
    come) and whose header is found whole, as a new connection's would be (`HeaderReader.fault`). A file put in
    its place, changed in mode or owner, or found damaged is opened again."""
    if known is None or identity is None or known[:SAME_FILE] != identity[:SAME_FILE]:
        return False
    return headers.fault(path, sleep) is None


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


def open_checked(path: str, headers: HeaderReader, identity: tuple[int, ...] | None, sleep) -> Database:
    """A new connection to the file at `path`, once its header is found intact (the file's `identity` is noted
    on it); raises `Unavailable` when it is not. `sleep` waits between looks at a header found short."""
    if identity is not None:
        fault = headers.fault(path, sleep)
        if fault is not None:
            raise Unavailable(*fault)
    db = connect(path)  # raises SQLITE_CANTOPEN (503 "missing") when the file is gone
    db.identity = identity
    return db
