"""A throwaway PostgreSQL cluster for the tests: `initdb` into a temporary folder, `pg_ctl` on a free loopback
port, stopped and removed after the run.

The server binaries are Debian's (`postgresql` package: /usr/lib/postgresql/<version>/bin) or any on the
PATH. PostgreSQL refuses to run as root: as root, the cluster belongs to the `postgres` user (or `nobody`)
and is run as that user with `runuser`.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import random
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

import psycopg
from psycopg import sql

SUPERUSER = "kibic"
START_SECONDS = 30


def binaries() -> Path | None:
    """The folder of `initdb` and `pg_ctl`: the newest Debian version, or the PATH's; None when not installed."""
    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda path: int(path.split("/")[-2])
                         if path.split("/")[-2].isdigit() else 0, reverse=True):
        if (Path(folder) / "initdb").exists() and (Path(folder) / "pg_ctl").exists():
            return Path(folder)
    found = shutil.which("initdb")
    return Path(found).parent if found and shutil.which("pg_ctl") else None


def free_port() -> int:
    """A free loopback port below the system's range of ephemeral ports: while the cluster is stopped for a
    restart, no outgoing connection of any process can take its port as its own and keep it from listening
    again (`could not bind ... Address already in use`)."""
    try:
        lowest = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        lowest = 32768
    for _ in range(200):
        port = random.randrange(10_000, max(lowest, 10_001))
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free loopback port below the ephemeral range")


class Cluster:
    """One PostgreSQL server of its own in a temporary folder, reached at `dsn(database)`."""

    def __init__(self, bin_dir: Path):
        self.bin = bin_dir
        self.folder = Path(tempfile.mkdtemp(prefix="kibic-postgres-"))
        self.data = self.folder / "data"
        self.port = free_port()
        self.user = None if os.geteuid() != 0 else self.unprivileged_user()
        self.databases = 0
        self.shared: str | None = None

    @staticmethod
    def unprivileged_user() -> str:
        for name in ("postgres", "nobody"):
            with contextlib.suppress(KeyError):
                pwd.getpwnam(name)
                return name
        raise RuntimeError("PostgreSQL will not run as root, and there is neither a postgres nor a nobody user")

    def run(self, *command: str) -> None:
        """Runs a server program, as the cluster's user when this is root."""
        prefix = ["runuser", "-u", self.user, "--"] if self.user else []
        result = subprocess.run([*prefix, *command], capture_output=True, text=True, timeout=120)
        if result.returncode != 0:
            raise RuntimeError(f"{command[0]} failed: {result.stdout}\n{result.stderr}")

    def start(self) -> Cluster:
        if self.user:
            shutil.chown(self.folder, user=self.user)
        self.run(str(self.bin / "initdb"), "-D", str(self.data), "-U", SUPERUSER, "--auth=trust", "-E", "UTF8",
                 "--no-locale", "--no-sync")
        options = (f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c max_connections=300 "
                   "-c shared_buffers=32MB")
        self.run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.folder / "server.log"), "-w",
                 "-t", str(START_SECONDS), "-o", options, "start")
        return self

    def dsn(self, database: str = "postgres") -> str:
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A new empty database of the cluster: its address."""
        self.databases += 1
        name = f"kibic_{self.databases}"
        with psycopg.connect(self.dsn(), autocommit=True) as conn:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        return self.dsn(name)

    def emptied(self) -> str:
        """The tests' shared database, migrated once and emptied of matches and evenings (faster than a new one
        per test, which costs PostgreSQL a checkpoint): its address."""
        if self.shared is None:
            self.shared = self.new_database()
        with psycopg.connect(self.shared) as conn:
            if conn.execute("SELECT to_regclass('evening_matches')").fetchone()[0] is not None:
                conn.execute("DELETE FROM evening_matches")
                conn.execute("DELETE FROM events")
                conn.execute("DELETE FROM evenings")
                if conn.execute("SELECT to_regclass('clubs')").fetchone()[0] is not None:
                    for table in ("club_payments", "club_names", "club_members", "clubs"):
                        conn.execute(f"DELETE FROM {table}")
                if conn.execute("SELECT to_regclass('match_summaries')").fetchone()[0] is not None:
                    conn.execute("DELETE FROM match_summaries")
                conn.execute("DELETE FROM matches")
        return self.shared

    def stop(self, mode: str = "fast") -> None:
        self.run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop")

    def restart(self) -> None:
        options = (f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c max_connections=300 "
                   "-c shared_buffers=32MB")
        self.run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.folder / "server.log"), "-w",
                 "-o", options, "start")

    def remove(self) -> None:
        with contextlib.suppress(RuntimeError):
            self.stop("immediate")
        shutil.rmtree(self.folder, ignore_errors=True)
