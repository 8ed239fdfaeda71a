"""What an operator does to a running Kibic, as library functions (`kibic` is a thin command line over them):
backups and restores, checks, migrations, the server secret's rotation, deleting a match or an evening, forgetting
a person's name. Each works on the database a `KIBIC_DB` names: the SQLite file (while servers serve it), or a
PostgreSQL address.

A SQLite backup is made and put back through SQLite's backup API, online: a backup is one consistent file (never
the file copied beside its write-ahead log), and a restore writes the backup into the live file under its write
lock, with a new `generation` in `settings` that each server process notices at its next request
(`store.sqlite.notice_restore`): every process then serves the restored state and forgets the matches it held. A file
that is not a whole Kibic database is refused before anything is changed. On PostgreSQL, `pg_dump` and `pg_restore`
do both (wrapped by `backup` and `restore`; found on the PATH, else where Debian's packages put them): a file that
is not a `pg_dump` archive of a Kibic database is refused before anything is changed, and a restore writes a new
`generation` in the transaction that puts the archive's rows back (`put_back_postgresql`), which every app server's
process notices at its next request (`PostgresStore.check`), as on SQLite.
"""

from __future__ import annotations

import glob
import hashlib
import json
import logging
import os
import re
import secrets
import shutil
import sqlite3
import stat
import subprocess
import tempfile
import unicodedata
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

from . import store
from .store import sqlite, sqlite_file

log = logging.getLogger(__name__)

SECRET = "server_secret"  # the first secret (id 1), made by the migration `create_the_server_secret`
SECRET_PREFIX = "server_secret:"  # the later ones: server_secret:<id>, valued "<hex>@<when it was made>"
RETRY_WINDOW = timedelta(hours=24)  # a creation's retry gets its key within this (api.matches)
RETIRE_AFTER = RETRY_WINDOW + timedelta(hours=1)  # a secret superseded this long ago serves no retry any more
FORGOTTEN = "Forgotten"
TABLES_OF_KIBIC = {"matches", "events", "settings"}
POSTGRESQL_PROGRAMS = "/usr/lib/postgresql/*/bin"  # Debian's: the client tools of each version, not on the PATH


class AdminError(Exception):
    "What an operator's command cannot do, in words (nothing was changed)"


# --- the secrets ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Secret:
    id: int
    value: bytes
    made: datetime | None  # None for the first one (made with the database)


def parse_secrets(rows: list[tuple[str, str]]) -> list[Secret]:
    """The secrets kept in `settings` (its rows named server_secret...), newest first."""
    found = []
    for name, value in rows:
        if name == SECRET:
            found.append(Secret(1, bytes.fromhex(value), None))
        elif name.startswith(SECRET_PREFIX) and name[len(SECRET_PREFIX):].isdigit():
            hexed, _, made = value.partition("@")
            found.append(Secret(int(name[len(SECRET_PREFIX):]), bytes.fromhex(hexed), datetime.fromisoformat(made)))
    return sorted(found, key=lambda secret: secret.id, reverse=True)


def retired(kept: list[Secret], now: datetime) -> list[Secret]:
    """The secrets (of `kept`, newest first) superseded longer ago than a creation's retry window."""
    return [older for newer, older in zip(kept, kept[1:], strict=False)
            if newer.made is not None and now - newer.made > RETIRE_AFTER]


# --- one connection for one command --------------------------------------------------------------

class Connection:
    """A command's connection to either store: the statements the commands need, each one literal text with
    bound values, in SQLite's dialect here and PostgreSQL's in `PostgresConnection`."""

    postgresql = False

    def __init__(self, database: str):
        if not Path(database).exists():
            raise AdminError(f"There is no database at {database}: start `kibic serve` (or `kibic migrate`) "
                             "once to make it, or name it with --data or KIBIC_DB.")
        self.db = sqlite_file.connect(database)
        self.conn = self.db.conn
        self.conn.isolation_level = None

    @contextmanager
    def transaction(self) -> Iterator[None]:
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        self.conn.execute("COMMIT")

    def close(self) -> None:
        self.conn.close()

    def secrets(self) -> list[Secret]:
        return parse_secrets(self.conn.execute(
            "SELECT name, value FROM settings WHERE name = 'server_secret' OR name LIKE 'server_secret:%'").fetchall())

    def add_setting(self, name: str, value: str) -> None:
        self.conn.execute("INSERT INTO settings (name, value) VALUES (?, ?)", [name, value])

    def drop_setting(self, name: str) -> None:
        self.conn.execute("DELETE FROM settings WHERE name = ?", [name])

    def new_generation(self) -> None:
        """Tells every server process that the data changed behind its back (a restore, a deletion, a name
        forgotten): each forgets the matches it holds at its next request (`store.sqlite.notice_restore`)."""
        self.conn.execute("INSERT OR REPLACE INTO settings (name, value) VALUES ('generation', ?)",
                          [secrets.token_hex(8)])

    def tables(self) -> set[str]:
        return {row[0] for row in self.conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}

    def applied(self) -> list[str]:
        return [row[0] for row in self.conn.execute(
            "SELECT name FROM _sqlite_migrations WHERE migration_set = 'kibic' ORDER BY rowid")]

    def counts(self) -> dict[str, int]:
        matches, evenings = self.conn.execute(
            "SELECT (SELECT count(*) FROM matches), (SELECT count(*) FROM evenings)").fetchone()
        return {"matches": matches, "evenings": evenings}

    def match_exists(self, match_id: str) -> bool:
        return self.conn.execute("SELECT 1 FROM matches WHERE id = ?", [match_id]).fetchone() is not None

    def evening_exists(self, evening_id: str) -> bool:
        return self.conn.execute("SELECT 1 FROM evenings WHERE id = ?", [evening_id]).fetchone() is not None

    def evening_match_ids(self, evening_id: str) -> list[str]:
        return [row[0] for row in self.conn.execute(
            "SELECT match_id FROM evening_matches WHERE evening_id = ?", [evening_id])]

    def delete_match(self, match_id: str) -> tuple[int, int]:
        """Deletes the match, its log and its summary: (matches, events) deleted."""
        self.conn.execute("DELETE FROM match_summaries WHERE match_id = ?", [match_id])
        events = self.conn.execute("DELETE FROM events WHERE match_id = ?", [match_id]).rowcount
        self.conn.execute("DELETE FROM evening_matches WHERE match_id = ?", [match_id])
        return self.conn.execute("DELETE FROM matches WHERE id = ?", [match_id]).rowcount, events

    def delete_evening(self, evening_id: str) -> int:
        return self.conn.execute("DELETE FROM evenings WHERE id = ?", [evening_id]).rowcount

    def players(self) -> list[tuple[str, str]]:
        return self.conn.execute("SELECT id, players FROM matches").fetchall()

    def set_players(self, match_id: str, players: str) -> None:
        self.conn.execute("UPDATE matches SET players = ? WHERE id = ?", [players, match_id])

    def club_names(self) -> list[tuple[str, str]]:
        return self.conn.execute("SELECT id, name FROM clubs").fetchall()

    def set_club_name(self, club_id: str, name: str) -> None:
        self.conn.execute("UPDATE clubs SET name = ? WHERE id = ?", [name, club_id])

    def member_names(self) -> list[tuple[str, str, str]]:
        return self.conn.execute("SELECT club_id, id, name FROM club_members").fetchall()

    def set_member_name(self, club_id: str, member_id: str, name: str) -> None:
        self.conn.execute("UPDATE club_members SET name = ? WHERE club_id = ? AND id = ?",
                          [name, club_id, member_id])

    def seat_names(self) -> list[tuple[str, str, str, str]]:
        return self.conn.execute("SELECT club_id, name, shown, member_id FROM club_names").fetchall()

    def set_seat_name(self, club_id: str, name: str, new: str | None, shown: str) -> None:
        """The name that seats a member renamed (`new`), or dropped (None) when the new name seats one already."""
        if new is None:
            self.conn.execute("DELETE FROM club_names WHERE club_id = ? AND name = ?", [club_id, name])
        else:
            self.conn.execute("UPDATE club_names SET name = ?, shown = ? WHERE club_id = ? "
                              "AND name = ?", [new, shown, club_id, name])

    def evening_names(self) -> list[tuple[str, str]]:
        return self.conn.execute("SELECT id, name FROM evenings").fetchall()

    def set_evening_name(self, evening_id: str, name: str) -> None:
        self.conn.execute("UPDATE evenings SET name = ? WHERE id = ?", [name, evening_id])

    def payloads(self) -> list[tuple[str, int, str]]:
        return self.conn.execute("SELECT match_id, seq, payload FROM events").fetchall()

    def set_payload(self, match_id: str, seq: int, payload: str) -> None:
        self.conn.execute("UPDATE events SET payload = ? WHERE match_id = ? AND seq = ?", [payload, match_id, seq])

    def drop_summaries(self, match_ids: list[str] | None = None) -> None:
        """Deletes the stored summaries of these matches (`api.clubs`; every match's when None): made again at the
        next read of their club."""
        if match_ids is None:
            self.conn.execute("DELETE FROM match_summaries")
        else:
            self.conn.executemany("DELETE FROM match_summaries WHERE match_id = ?", [[each] for each in match_ids])

    def wipe_old_bytes(self) -> None:
        """What the next statements overwrite or delete is overwritten with zeros on disk."""
        self.conn.execute("PRAGMA secure_delete = ON")

    def drop_freed_bytes(self) -> None:
        """Writes the file anew without its free space (which holds what was deleted or overwritten before, unless
        SQLite overwrote it then: `secure_delete`, off where SQLite is not built with it on), and empties the
        write-ahead log (which holds pages as they were) once every reader is done with it."""
        self.conn.execute("VACUUM")
        self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")


class PostgresConnection(Connection):
    postgresql = True

    def __init__(self, database: str):
        import psycopg

        self.conn = psycopg.connect(database, autocommit=True, connect_timeout=5)

    @contextmanager
    def transaction(self) -> Iterator[None]:
        with self.conn.transaction():
            yield

    def secrets(self) -> list[Secret]:
        return parse_secrets(self.conn.execute(
            "SELECT name, value FROM settings WHERE name = 'server_secret' OR name LIKE 'server_secret:%'").fetchall())

    def add_setting(self, name: str, value: str) -> None:
        self.conn.execute("INSERT INTO settings (name, value) VALUES (%s, %s)", [name, value])

    def drop_setting(self, name: str) -> None:
        self.conn.execute("DELETE FROM settings WHERE name = %s", [name])

    def new_generation(self) -> None:
        self.conn.execute("INSERT INTO settings (name, value) VALUES ('generation', %s) ON CONFLICT (name) DO UPDATE "
                          "SET value = EXCLUDED.value", [secrets.token_hex(8)])

    def tables(self) -> set[str]:
        return {row[0] for row in self.conn.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")}

    def applied(self) -> list[str]:
        return [row[0] for row in self.conn.execute("SELECT name FROM kibic_migrations ORDER BY applied")]

    def counts(self) -> dict[str, int]:
        matches, evenings = self.conn.execute(
            "SELECT (SELECT count(*) FROM matches), (SELECT count(*) FROM evenings)").fetchone()
        return {"matches": matches, "evenings": evenings}

    def match_exists(self, match_id: str) -> bool:
        return self.conn.execute("SELECT 1 FROM matches WHERE id = %s", [match_id]).fetchone() is not None

    def evening_exists(self, evening_id: str) -> bool:
        return self.conn.execute("SELECT 1 FROM evenings WHERE id = %s", [evening_id]).fetchone() is not None

    def evening_match_ids(self, evening_id: str) -> list[str]:
        return [row[0] for row in self.conn.execute(
            "SELECT match_id FROM evening_matches WHERE evening_id = %s", [evening_id])]

    def delete_match(self, match_id: str) -> tuple[int, int]:
        self.conn.execute("DELETE FROM match_summaries WHERE match_id = %s", [match_id])
        events = self.conn.execute("DELETE FROM events WHERE match_id = %s", [match_id]).rowcount
        self.conn.execute("DELETE FROM evening_matches WHERE match_id = %s", [match_id])
        return self.conn.execute("DELETE FROM matches WHERE id = %s", [match_id]).rowcount, events

    def delete_evening(self, evening_id: str) -> int:
        return self.conn.execute("DELETE FROM evenings WHERE id = %s", [evening_id]).rowcount

    def players(self) -> list[tuple[str, str]]:
        return self.conn.execute("SELECT id, players FROM matches").fetchall()

    def set_players(self, match_id: str, players: str) -> None:
        self.conn.execute("UPDATE matches SET players = %s WHERE id = %s", [players, match_id])

    def club_names(self) -> list[tuple[str, str]]:
        return self.conn.execute("SELECT id, name FROM clubs").fetchall()

    def set_club_name(self, club_id: str, name: str) -> None:
        self.conn.execute("UPDATE clubs SET name = %s WHERE id = %s", [name, club_id])

    def member_names(self) -> list[tuple[str, str, str]]:
        return self.conn.execute("SELECT club_id, id, name FROM club_members").fetchall()

    def set_member_name(self, club_id: str, member_id: str, name: str) -> None:
        self.conn.execute("UPDATE club_members SET name = %s WHERE club_id = %s AND id = %s",
                          [name, club_id, member_id])

    def seat_names(self) -> list[tuple[str, str, str, str]]:
        return self.conn.execute("SELECT club_id, name, shown, member_id FROM club_names").fetchall()

    def set_seat_name(self, club_id: str, name: str, new: str | None, shown: str) -> None:
        """The name that seats a member renamed (`new`), or dropped (None) when the new name seats one already."""
        if new is None:
            self.conn.execute("DELETE FROM club_names WHERE club_id = %s AND name = %s", [club_id, name])
        else:
            self.conn.execute("UPDATE club_names SET name = %s, shown = %s WHERE club_id = %s "
                              "AND name = %s", [new, shown, club_id, name])

    def evening_names(self) -> list[tuple[str, str]]:
        return self.conn.execute("SELECT id, name FROM evenings").fetchall()

    def set_evening_name(self, evening_id: str, name: str) -> None:
        self.conn.execute("UPDATE evenings SET name = %s WHERE id = %s", [name, evening_id])

    def payloads(self) -> list[tuple[str, int, str]]:
        return self.conn.execute("SELECT match_id, seq, payload FROM events").fetchall()

    def set_payload(self, match_id: str, seq: int, payload: str) -> None:
        self.conn.execute("UPDATE events SET payload = %s WHERE match_id = %s AND seq = %s", [payload, match_id, seq])

    def drop_summaries(self, match_ids: list[str] | None = None) -> None:
        if match_ids is None:
            self.conn.execute("DELETE FROM match_summaries")
        else:
            self.conn.execute("DELETE FROM match_summaries WHERE match_id = ANY(%s)", [match_ids])

    def drop_tables(self, names: set[str]) -> None:
        from .store import postgres

        postgres.drop_tables(self.conn, names)

    def migrate(self) -> list[str]:
        from .store import postgres

        return postgres.migrate(self.conn)

    def wipe_old_bytes(self) -> None:
        """PostgreSQL keeps old row versions until a vacuum: docs/operating.md says to run VACUUM FULL after a
        forget."""

    def drop_freed_bytes(self) -> None:
        """PostgreSQL's own write-ahead log is recycled by the server."""


@contextmanager
def connected(database: str) -> Iterator[Connection]:
    made = PostgresConnection(database) if store.is_postgresql(database) else Connection(database)
    try:
        yield made
    finally:
        made.close()


# --- migrate, check ------------------------------------------------------------------------------

def migrate(database: str) -> list[str]:
    """Applies the pending migrations (before new servers start on a shared database): their names."""
    if store.is_postgresql(database):
        import psycopg

        from .store import postgres

        with psycopg.connect(database, autocommit=True, connect_timeout=5) as conn:
            applied = postgres.migrate(conn)
        if applied:
            log.info("migrated %s: %s", store.described(database), ", ".join(applied))
        return applied
    before = set(applied_migrations(database)) if Path(database).exists() else set()
    sqlite.migrate(database)  # which logs what it applied
    return [name for name in applied_migrations(database) if name not in before]


def applied_migrations(database: str) -> list[str]:
    with closing(sqlite3.connect(f"{Path(database).absolute().as_uri()}?mode=ro", uri=True)) as conn:
        try:
            return [row[0] for row in conn.execute(
                "SELECT name FROM _sqlite_migrations WHERE migration_set = 'kibic' ORDER BY rowid")]
        except sqlite3.OperationalError:
            return []


def known_migrations(database: str) -> list[str]:
    if store.is_postgresql(database):
        from .store import postgres

        return [step.__name__ for step in postgres.MIGRATIONS]
    return [migration.name for migration in sqlite.migrations._migrations]


@dataclass
class Report:
    problems: list[str] = field(default_factory=list)
    facts: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def check(database: str) -> Report:
    """What is wrong with the store, in words: reached, whole, migrated, its secret, its permissions."""
    report = Report()
    report.facts.append(f"database: {store.described(database)}")
    if not store.is_postgresql(database):
        path = Path(database)
        if not path.exists():
            report.problems.append(f"There is no database file at {path}: `kibic migrate` or `kibic serve` makes it.")
            return report
        check_permissions(path, report)
        try:
            with closing(sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True)) as conn:
                found = conn.execute("PRAGMA integrity_check").fetchone()[0]
            if found != "ok":
                report.problems.append(f"The database file is damaged ({found}): restore a backup (`kibic restore`).")
                return report
        except sqlite3.DatabaseError as exc:
            report.problems.append(f"The file is not a database SQLite can read ({exc}).")
            return report
    try:
        with connected(database) as conn:
            if not TABLES_OF_KIBIC <= conn.tables():
                report.problems.append("The database holds no Kibic tables: it is not Kibic's, or was never migrated "
                                       "(`kibic migrate`).")
                return report
            applied = conn.applied()
            kept = conn.secrets()
            counts = conn.counts()
    except AdminError as exc:
        report.problems.append(str(exc))
        return report
    except Exception as exc:  # noqa: BLE001 - a database out of reach: said in words, whatever the driver's error
        report.problems.append(f"The database cannot be reached or read: {exc}")
        return report
    known = known_migrations(database)
    pending = [name for name in known if name not in applied]
    unknown = [name for name in applied if name not in known]
    if pending:
        report.problems.append(f"{len(pending)} migration(s) not applied ({', '.join(pending)}): run `kibic migrate`.")
    if unknown:
        report.problems.append(f"The database was migrated by a newer Kibic ({', '.join(unknown)}): run that version.")
    if not kept:
        report.problems.append("The database holds no server secret: restore a backup.")
    elif any(len(secret.value) != 32 for secret in kept):
        report.problems.append("A server secret is not 32 bytes long: restore a backup.")
    old = retired(kept, datetime.now(UTC))
    if old:
        report.problems.append(f"{len(old)} old server secret(s) kept past the retry window: `kibic secret prune`.")
    report.facts.append(f"migrations applied: {len(applied)} of {len(known)}")
    report.facts.append(f"server secret: number {kept[0].id if kept else '-'}, {len(kept)} kept")
    report.facts.append(f"matches: {counts['matches']}, evenings: {counts['evenings']}")
    return report


def check_permissions(path: Path, report: Report) -> None:
    for each, wanted in ((path, 0o600), (path.parent, 0o700)):
        found = each.stat()
        if found.st_uid != os.getuid():
            report.problems.append(f"{each} belongs to another user (uid {found.st_uid}): the service's user should "
                                   "own it.")
        if stat.S_IMODE(found.st_mode) & 0o077:
            report.problems.append(f"{each} can be read by other users (mode {stat.S_IMODE(found.st_mode):o}): "
                                   f"chmod {wanted:o} {each}")


# --- backup and restore --------------------------------------------------------------------------

def backup(database: str, target: str | Path) -> dict:
    """Writes a consistent copy of the live database to `target` (for the service's user alone, 0600): what it
    holds. On PostgreSQL, `pg_dump --format=custom`."""
    target = Path(target)
    if store.is_postgresql(database):
        part = target.with_name(f".{target.name}.{os.getpid()}.part")
        command = [postgresql_program("pg_dump"), "--format=custom", "--no-owner", f"--file={part}", database]
        os.close(os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600))
        try:
            run_program(command)
            os.replace(part, target)
        finally:
            if part.exists():
                part.unlink()
        return {"file": str(target)}
    if not Path(database).exists():
        raise AdminError(f"There is no database at {database} to back up.")
    kibic_database(Path(database))
    part = target.with_name(f".{target.name}.{os.getpid()}.part")
    os.close(os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600))
    try:
        with closing(sqlite3.connect(f"{Path(database).absolute().as_uri()}?mode=ro", uri=True)) as source, \
                closing(sqlite3.connect(part)) as copy:
            source.backup(copy)
            copy.execute("PRAGMA journal_mode = DELETE")  # one file, with no write-ahead log beside it
            found = copy.execute("PRAGMA integrity_check").fetchone()[0]
            if found != "ok":
                raise AdminError(f"The copy is not whole ({found}): the live database may be damaged (`kibic check`).")
        with open(part, "rb") as written:
            os.fsync(written.fileno())
        os.replace(part, target)
    finally:
        if part.exists():
            part.unlink()
    return contents(target)


def contents(path: Path) -> dict:
    """What a Kibic database file holds: its matches, events and evenings, and a digest of its log."""
    with closing(sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True)) as conn:
        matches, events, evenings = conn.execute("SELECT (SELECT count(*) FROM matches), (SELECT count(*) FROM "
                                                 "events), (SELECT count(*) FROM evenings)").fetchone()
    return {"file": str(path), "matches": matches, "events": events, "evenings": evenings}


def kibic_database(path: Path) -> None:
    """Raises `AdminError` saying why the file at `path` is not a whole Kibic database this version can serve."""
    try:
        with open(path, "rb") as file:
            head = file.read(100)
    except OSError as exc:
        raise AdminError(f"{path} cannot be read: {exc.strerror}.") from None
    if not head.startswith(sqlite_file.SQLITE_MAGIC):
        raise AdminError(f"{path} is not a Kibic database: it is not a SQLite file at all.")
    try:
        with closing(sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True)) as conn:
            found = conn.execute("PRAGMA integrity_check").fetchone()[0]
            if found != "ok":
                raise AdminError(f"{path} is damaged ({found}): it cannot be restored.")
            tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if not TABLES_OF_KIBIC <= tables:
                raise AdminError(f"{path} is not a Kibic database: it is a SQLite file without Kibic's tables.")
            applied = [row[0] for row in conn.execute(
                "SELECT name FROM _sqlite_migrations WHERE migration_set = 'kibic'")]
            if not parse_secrets(conn.execute("SELECT name, value FROM settings WHERE name = 'server_secret' "
                                              "OR name LIKE 'server_secret:%'").fetchall()):
                raise AdminError(f"{path} holds no server secret: it is not a whole Kibic database.")
    except sqlite3.DatabaseError as exc:
        raise AdminError(f"{path} is not a Kibic database SQLite can read ({exc}).") from None
    unknown = [name for name in applied if name not in known_migrations(str(path))]
    if unknown:
        raise AdminError(f"{path} was made by a newer Kibic (migrations {', '.join(unknown)}): restore it with that "
                         "version.")


def restore(database: str, source: str | Path) -> dict:
    """Puts the backup `source` in place of the live database, online: every server process serves the backup's
    state from its next request on. Refused, with nothing changed, when `source` is not a whole Kibic database."""
    source = Path(source)
    if store.is_postgresql(database):
        return restore_postgresql(database, source)
    kibic_database(source)
    live = Path(database)
    if not live.exists():
        sqlite.migrate(database)  # a fresh machine: an empty database (0600) to restore into
    staged = live.with_name(f".{live.name}.restore.{os.getpid()}")
    os.close(os.open(staged, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600))
    try:
        with closing(sqlite3.connect(f"{source.absolute().as_uri()}?mode=ro", uri=True)) as backup_file, \
                closing(sqlite3.connect(staged, isolation_level=None)) as copy:
            backup_file.backup(copy)
            copy.execute("PRAGMA journal_mode = DELETE")
        sqlite.migrate(str(staged))  # a backup of an older version: brought to this one's tables first
        with closing(sqlite3.connect(staged, isolation_level=None)) as copy:
            copy.execute("PRAGMA journal_mode = DELETE")
            copy.execute("INSERT OR REPLACE INTO settings (name, value) VALUES ('generation', ?)",
                         [secrets.token_hex(8)])
            if copy.execute("PRAGMA integrity_check").fetchone()[0] != "ok":
                raise AdminError(f"{source} could not be copied whole: nothing was changed.")
            with closing(sqlite_file.connect(database).conn) as target:
                target.execute("PRAGMA busy_timeout = 30000")
                try:
                    copy.backup(target, sleep=0.05)  # under the live file's write lock: readers see it whole at once
                except sqlite3.Error as exc:
                    raise AdminError(f"{source} could not be written into {live} ({exc}): nothing was changed.") \
                        from None
                target.execute("PRAGMA wal_checkpoint(PASSIVE)")
    finally:
        for leftover in (staged, staged.with_name(staged.name + "-journal")):
            if leftover.exists():
                leftover.unlink()
    restored = contents(live)
    log.info("restored %s from %s: %d matches, %d events, %d evenings", live, source, restored["matches"],
             restored["events"], restored["evenings"])
    return restored


def postgresql_program(name: str) -> str:
    """The path of one of PostgreSQL's client tools: the PATH's, else the newest of Debian's versions."""
    found = shutil.which(name)
    if found:
        return found
    versions = sorted(glob.glob(f"{POSTGRESQL_PROGRAMS}/{name}"), reverse=True,
                      key=lambda path: int(version) if (version := Path(path).parts[-3]).isdigit() else 0)
    if versions:
        return versions[0]
    raise AdminError(f"{name} is not installed: PostgreSQL's client tools (on Debian and Ubuntu the postgresql-client "
                     f"package), at least the server's version, are needed; it was looked for on the PATH and in "
                     f"{POSTGRESQL_PROGRAMS}.")


def run_program(command: list[str], env: dict[str, str] | None = None) -> str:
    done = subprocess.run(command, capture_output=True, text=True, env=env)
    if done.returncode != 0:
        raise AdminError(f"{Path(command[0]).name} failed: {done.stderr.strip()}")
    return done.stdout


ARCHIVED_MIGRATIONS = re.compile(r"^COPY (\w+\.)?kibic_migrations \(.*\) FROM stdin;$")  # its rows follow, to "\."
ARCHIVE_TABLE = re.compile(r"^\d+; \d+ \d+ TABLE \S+ (\w+) ", re.MULTILINE)  # `pg_restore --list`: a table's line


def archived_migrations(program: str, source: Path) -> list[str]:
    """The names of the migrations a `kibic backup` on PostgreSQL holds: its `kibic_migrations` rows, read from the
    archive as `pg_restore` writes them out (`COPY ... FROM stdin;`, a row a line, a tab after the name)."""
    script = run_program([program, "--data-only", "--table=kibic_migrations", "--file=-", str(source)])
    names, rows = [], False
    for line in script.splitlines():
        if rows:
            if line == "\\.":
                break
            names.append(line.split("\t", 1)[0])
        rows = rows or ARCHIVED_MIGRATIONS.match(line) is not None
    return names


RESTORED_GENERATION = ("RESET search_path; "  # the archive's SQL names its tables with their schema, and empties it
                       "INSERT INTO settings (name, value) "
                       "VALUES ('generation', replace(gen_random_uuid()::text, '-', '')) "
                       "ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value")
"""The data's new generation, written by the restore's `psql` after the archive's rows (PostgreSQL 13 or later)."""


def put_back_postgresql(program: str, database: str, source: Path) -> None:
    """The archive's tables and rows in place of the database's, and a new `generation`, in one transaction: the
    archive written out as SQL by `pg_restore` (whole, to a file of its own for the service's user), then run by
    `psql` with the new generation after it. A request that read the data before never writes into the backup's,
    even where the backup's generation is the one it read (nothing rewritten between the backup and now): its
    append finds the generation moved (`api.store.postgres`)."""
    with tempfile.NamedTemporaryFile(prefix="kibic-restore-", suffix=".sql") as script:  # 0600, removed after
        run_program([program, "--clean", "--if-exists", "--no-owner", f"--file={script.name}", str(source)])
        run_program([postgresql_program("psql"), "--no-psqlrc", "--quiet", "--single-transaction",
                     "--set=ON_ERROR_STOP=1", f"--dbname={database}", f"--file={script.name}",
                     "--command", RESTORED_GENERATION],
                    env={**os.environ, "PGOPTIONS": "-c client_min_messages=warning"})


def restore_postgresql(database: str, source: Path) -> dict:
    """`pg_restore` of a `kibic backup` (pg_dump's custom format) into the database, in one transaction: refused,
    nothing changed, when the file is not such an archive of a Kibic database."""
    program = postgresql_program("pg_restore")
    if not source.is_file():
        raise AdminError(f"{source} cannot be read: there is no such file.")
    done = subprocess.run([program, "--list", str(source)], capture_output=True, text=True)
    if done.returncode != 0:
        raise AdminError(f"{source} is not a backup of a PostgreSQL database (`kibic backup` on PostgreSQL makes "
                         f"one): {done.stderr.strip()}")
    tables = set(ARCHIVE_TABLE.findall(done.stdout))
    if not TABLES_OF_KIBIC <= tables:
        raise AdminError(f"{source} is not a backup of a Kibic database: it holds no Kibic tables.")
    unknown = [name for name in archived_migrations(program, source) if name not in known_migrations(database)]
    if unknown:
        raise AdminError(f"{source} was made by a newer Kibic (migrations {', '.join(unknown)}): restore it with that "
                         "version.")
    put_back_postgresql(program, database, source)
    from .store import postgres

    with connected(database) as conn:
        with conn.transaction():
            # an archive of an older version: the tables made since it was taken (which `--clean` leaves, holding
            # what the backup did not, and which its list of migrations lacks) are dropped and made anew by the
            # migrations it lacks, as a restored file of an older version is brought to this one's tables
            conn.drop_tables((conn.tables() & postgres.TABLES) - tables)
            migrated = conn.migrate()
            conn.new_generation()  # every process forgets what it held, at its next request (`PostgresStore.check`)
            conn.drop_summaries()  # the live ones stay when the archive holds none; made again at the next reads
        restored = {"file": str(source), **conn.counts()}
    log.info("restored %s from %s: %d matches, %d evenings%s", store.described(database), source,
             restored["matches"], restored["evenings"], f"; migrated: {', '.join(migrated)}" if migrated else "")
    return restored


# --- the server secret ---------------------------------------------------------------------------

def rotate_secret(database: str, now: datetime | None = None) -> dict:
    """Adds a new server secret: creations from now on derive their keys from it; the older ones stay for the
    retries of creations made with them (24 h), and those superseded longer ago are dropped."""
    now = now or datetime.now(UTC)
    with connected(database) as conn, conn.transaction():
        kept = conn.secrets()
        if not kept:
            raise AdminError("The database holds no server secret: it is not migrated (`kibic migrate`).")
        made = kept[0].id + 1
        conn.add_setting(f"{SECRET_PREFIX}{made}", f"{secrets.token_hex(32)}@{now.isoformat()}")
        dropped = drop(conn, retired([Secret(made, b"", now), *kept], now))
    log.info("rotated the server secret: number %d now; %d older kept for retries, %d dropped", made,
             len(kept) - dropped, dropped)
    return {"secret": made, "kept": len(kept) - dropped, "dropped": dropped}


def prune_secrets(database: str, now: datetime | None = None) -> int:
    """Drops the secrets superseded longer ago than the retry window: how many."""
    with connected(database) as conn, conn.transaction():
        dropped = drop(conn, retired(conn.secrets(), now or datetime.now(UTC)))
    if dropped:
        log.info("dropped %d old server secret(s)", dropped)
    return dropped


def drop(conn: Connection, old: list[Secret]) -> int:
    for secret in old:
        conn.drop_setting(SECRET if secret.id == 1 else f"{SECRET_PREFIX}{secret.id}")
    return len(old)


# --- deleting and forgetting ---------------------------------------------------------------------

def delete_match(database: str, match_id: str) -> dict:
    """Deletes a match and its log."""
    with connected(database) as conn, conn.transaction():
        if not conn.match_exists(match_id):
            raise AdminError(f"There is no match {match_id}.")
        conn.new_generation()  # first: a summary being stored meanwhile waits, or is not stored (`api.clubs`)
        counts = delete_matches(conn, [match_id])
    log.info("deleted match %s…", match_id[:4])
    return counts


def delete_evening(database: str, evening_id: str) -> dict:
    """Deletes an evening with every match played in it."""
    with connected(database) as conn, conn.transaction():
        if not conn.evening_exists(evening_id):
            raise AdminError(f"There is no evening {evening_id}.")
        conn.new_generation()
        counts = delete_matches(conn, conn.evening_match_ids(evening_id))
        counts["evenings"] = conn.delete_evening(evening_id)
    log.info("deleted evening %s… and its %d matches", evening_id[:4], counts["matches"])
    return counts


def delete_matches(conn: Connection, ids: list[str]) -> dict:
    counts = {"matches": 0, "events": 0}
    for match_id in ids:
        matches, events = conn.delete_match(match_id)
        counts["matches"] += matches
        counts["events"] += events
    return counts


def same_name(name: str) -> str:
    return unicodedata.normalize("NFC", name).strip().casefold()


def forget(database: str, name: str, replacement: str = FORGOTTEN) -> dict:
    """Replaces a person's name everywhere Kibic keeps it (the players of every match, the evenings' names, the
    clubs' names, members and the names that seat them (`forget_in_clubs`), any
    event that holds it), however it was written (case, spaces); on SQLite the old bytes are overwritten too
    (`secure_delete`, and the write-ahead log emptied). A club's stored match summaries name no one (their seats are
    named from the match's players when read); those of a log changed are deleted. Counts what it changed."""
    wanted = same_name(name)
    if not wanted:
        raise AdminError("Name the person to forget.")
    counts = {"matches": 0, "evenings": 0, "clubs": 0, "events": 0}
    with connected(database) as conn:
        conn.wipe_old_bytes()
        with conn.transaction():
            conn.new_generation()  # first: a summary being stored meanwhile waits, or is not stored (`api.clubs`)
            for match_id, players in conn.players():
                names = json.loads(players)
                if any(isinstance(each, str) and same_name(each) == wanted for each in names):
                    conn.set_players(match_id, json.dumps(renamed(names, wanted, replacement)))
                    counts["matches"] += 1
            for evening_id, evening in conn.evening_names():
                changed = replaced_in(evening, name, replacement)
                if changed != evening:
                    conn.set_evening_name(evening_id, changed)
                    counts["evenings"] += 1
            counts["clubs"] = forget_in_clubs(conn, name, wanted, replacement)
            logs = set()
            for match_id, seq, payload in conn.payloads():
                event = json.loads(payload)
                changed = replaced_values(event, wanted, replacement)
                if changed != event:
                    conn.set_payload(match_id, seq, json.dumps(changed))
                    counts["events"] += 1
                    logs.add(match_id)
            conn.drop_summaries(sorted(logs))  # a summary names no one, but one of a log changed may be out of date
        conn.drop_freed_bytes()
    log.info("forgot a name (hash %s): %s", hashlib.sha256(wanted.encode()).hexdigest()[:8], counts)
    return counts


def forget_in_clubs(conn: Connection, name: str, wanted: str, replacement: str) -> int:
    """The name forgotten in the clubs: a club's name holding it, a member's display name, and the name that seats
    them (now the replacement, as their matches' seats are: a member keeps their figures under it). Where the
    replacement seats another member of the club already, the forgotten name is dropped, and its matches' seats
    count for that member: a club that forgets two people keeps them apart by forgetting each under a replacement
    of its own (`kibic forget NAME --as ...`). Counts the clubs changed."""
    changed = set()
    for club_id, club in conn.club_names():
        new = replaced_in(club, name, replacement)
        if new != club:
            conn.set_club_name(club_id, new)
            changed.add(club_id)
    for club_id, member_id, shown in conn.member_names():
        if same_name(shown) == wanted:
            conn.set_member_name(club_id, member_id, replacement)
            changed.add(club_id)
    from referee.match import same_name as seat_name  # how a club compares the names that seat its members

    seats, seated = conn.seat_names(), seat_name(name)
    taken = {(club_id, seat) for club_id, seat, _, _ in seats}
    for club_id, seat, _shown, _member in seats:
        if seat == seated:
            new = seat_name(replacement)
            conn.set_seat_name(club_id, seat, None if (club_id, new) in taken else new, replacement)
            changed.add(club_id)
    return len(changed)


def renamed(names: list, wanted: str, replacement: str) -> list:
    """The players with the forgotten one renamed, each name still its match's own."""
    taken = {same_name(each) for each in names if isinstance(each, str) and same_name(each) != wanted}
    out = []
    for each in names:
        if isinstance(each, str) and same_name(each) == wanted:
            new, number = replacement, 1
            while same_name(new) in taken:
                number += 1
                new = f"{replacement} {number}"
            taken.add(same_name(new))
            each = new
        out.append(each)
    return out


def replaced_in(text: str, name: str, replacement: str) -> str:
    """`text` with every occurrence of `name` in it as a word of its own (without regard to case) replaced."""
    pattern = r"(?<!\w)" + re.escape(unicodedata.normalize("NFC", name).strip()) + r"(?!\w)"
    return re.sub(pattern, replacement, unicodedata.normalize("NFC", text), flags=re.IGNORECASE)


NAME_FIELDS = {"name", "names", "player", "players", "person", "people"}


def replaced_values(value, wanted: str, replacement: str, named: bool = False):
    """An event's payload with the name replaced wherever a field that holds names has it (the games' events
    name seats by number; a field of names is changed, never a card or a type that happens to read the same)."""
    if isinstance(value, str):
        return replacement if named and same_name(value) == wanted else value
    if isinstance(value, list):
        return [replaced_values(each, wanted, replacement, named) for each in value]
    if isinstance(value, dict):
        return {key: replaced_values(each, wanted, replacement, named or key in NAME_FIELDS)
                for key, each in value.items()}
    return value
