"""The store: its interface (the seq and Idempotency-Key as concurrency checks, evenings, the server secret), the
SQLite file's schema, WAL and durable writes, and server processes starting together."""

from __future__ import annotations

import multiprocessing
import re
import sqlite3
import subprocess
import sys
import time
from datetime import UTC, datetime

import psycopg
import pytest

from api import keys, store
from api.store import sqlite, sqlite_file, sqlite_writer

PROCESSES = 6
STARTS = 30


@pytest.fixture
def db(tmp_path):
    path = str(tmp_path / "new" / "folder" / "referee.db")
    sqlite.migrate(path)
    db = sqlite_file.connect(path)
    yield db
    db.close()


def test_migrate_makes_the_folder_the_tables_and_wal(db):
    assert set(db.table_names()) >= {"matches", "events"}
    assert db.journal_mode == "wal"
    assert db["events"].pks == ["match_id", "seq"]
    assert db["matches"].pks == ["id"]
    assert {fk.other_table for fk in db["events"].foreign_keys} == {"matches"}


def test_a_connection_writes_durably_and_waits_for_others(db):
    assert db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert db.execute("PRAGMA busy_timeout").fetchone()[0] == sqlite_file.BUSY_TIMEOUT_MS
    assert db.execute("PRAGMA foreign_keys").fetchone()[0] == 1


def test_migrating_again_changes_nothing(db, tmp_path):
    before = list(db.query("SELECT name FROM _sqlite_migrations"))
    sqlite.migrate(str(tmp_path / "new" / "folder" / "referee.db"))
    names = [row["name"] for row in db.query("SELECT name FROM _sqlite_migrations")]
    assert [row["name"] for row in before] == names
    assert sorted(names) == ["create_clubs", "create_evenings", "create_match_summaries", "create_matches_and_events",
                             "create_the_server_secret", "remember_idempotent_creations",
                             "remember_idempotent_evenings"]
    assert db.execute("SELECT count(*) FROM settings").fetchone() == (1,)  # one server secret, made once


@pytest.fixture
def held(app):
    """The store of a fresh app, in the app's context: the interface the views use."""
    with app.app_context():
        yield store.current()


HEADER = {"game": "ogorek", "players": ["A", "B"], "options": {}, "stake": "0", "currency": None}


@pytest.mark.both_stores
def test_the_same_seq_twice_is_refused_by_the_key(held):
    held.create_match("m1", HEADER, keys.hash_key("k"))
    held.append_event("m1", {"seq": 1, "type": "deal", "dealer": 0})
    with pytest.raises(store.SeqTaken):
        held.append_event("m1", {"seq": 1, "type": "deal", "dealer": 1})
    assert held.events("m1") == [{"seq": 1, "type": "deal", "dealer": 0}]
    assert held.latest_seq("m1") == 1


@pytest.mark.both_stores
def test_an_event_that_does_not_follow_the_log_is_refused(held):
    """The log of a match has no gap: an event is stored only right after the one before it (a request that read
    the match before the data was put back from an older backup would write past the log's end)."""
    held.create_match("m1", HEADER, keys.hash_key("k"))
    with pytest.raises(store.Rewritten):
        held.append_event("m1", {"seq": 2, "type": "deal", "dealer": 0})
    held.append_event("m1", {"seq": 1, "type": "deal", "dealer": 0})
    with pytest.raises(store.Rewritten):
        held.append_event("m1", {"seq": 3, "type": "end"}, "key", "hash")
    assert held.events("m1") == [{"seq": 1, "type": "deal", "dealer": 0}]
    assert held.idempotent_event("m1", "key") is None
    held.append_event("m1", {"seq": 2, "type": "end"})
    assert held.latest_seq("m1") == 2


@pytest.mark.both_stores
def test_an_idempotency_key_is_unique_within_a_match(held):
    for match_id in ("m1", "m2"):
        held.create_match(match_id, HEADER, keys.hash_key("k"))
    held.append_event("m1", {"seq": 1, "type": "end"}, "same", "h")
    held.append_event("m2", {"seq": 1, "type": "end"}, "same", "h")
    held.append_event("m1", {"seq": 2, "type": "end"})
    held.append_event("m1", {"seq": 3, "type": "end"})
    with pytest.raises(store.IdempotencyKeyTaken):
        held.append_event("m1", {"seq": 4, "type": "end"}, "same", "h")
    assert held.idempotent_event("m1", "same") == {"seq": 1, "request_hash": "h"}
    assert held.latest_seqs(["m1", "m2", "nobody"]) == {"m1": 3, "m2": 1, "nobody": 0}


@pytest.mark.both_stores
def test_news_is_the_latest_seq_and_the_events_after_a_seq(held):
    held.create_match("m1", HEADER, keys.hash_key("k"))
    held.create_match("m2", HEADER, keys.hash_key("k"))
    assert held.news("m1", 0) == (0, [])
    for seq in (1, 2, 3):
        held.append_event("m1", {"seq": seq, "type": "penalty", "seat": 0, "points": seq})
    held.append_event("m2", {"seq": 1, "type": "end"})

    assert held.news("m1", 1) == (3, [{"seq": 2, "type": "penalty", "seat": 0, "points": 2},
                                      {"seq": 3, "type": "penalty", "seat": 0, "points": 3}])
    assert held.news("m1", 3) == (3, [])
    assert held.news("m1", 5) == (3, [])  # a log behind the match in hand says so
    assert held.news("m2", 0) == (1, [{"seq": 1, "type": "end"}])
    with pytest.raises(store.UnknownMatch):
        held.news("nobody", 0)
    with pytest.raises(store.UnknownMatch):
        held.news("nobody", 2)


def test_an_event_is_stamped_with_the_time_in_utc_to_the_millisecond():
    for _ in range(3):  # the second's text is kept: the next second has its own
        before = datetime.now(UTC)
        written = store.now()
        after = datetime.now(UTC)
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00", written)
        assert before.replace(microsecond=before.microsecond // 1000 * 1000) <= datetime.fromisoformat(written) <= after
        time.sleep(0.6)


@pytest.mark.both_stores
def test_an_event_cannot_belong_to_no_match(held):
    with pytest.raises(store.UnknownMatch):
        held.append_event("nobody", {"seq": 1, "type": "end"})
    with pytest.raises(store.UnknownMatch):
        held.latest_seq("nobody")
    with pytest.raises(store.UnknownMatch):
        held.match_row("nobody")


@pytest.mark.both_stores
def test_a_creation_key_makes_one_match(held):
    held.create_match("m1", HEADER, keys.hash_key("k"), "creation-hash", "request-hash")
    with pytest.raises(store.IdempotencyKeyTaken):
        held.create_match("m2", HEADER, keys.hash_key("k"), "creation-hash", "request-hash")
    found = held.idempotent_match("creation-hash")
    assert found["id"] == "m1" and found["request_hash"] == "request-hash"
    assert store.header(found) == HEADER
    assert held.idempotent_match("other") is None


@pytest.mark.both_stores
def test_an_evening_keeps_its_matches_in_order(held):
    held.create_evening("e1", "Friday", "PLN", keys.hash_key("ek"))
    for match_id in ("m2", "m1", "m3"):
        held.create_match(match_id, {**HEADER, "currency": "PLN"}, keys.hash_key("k"), evening_id="e1")
    held.create_match("alone", HEADER, keys.hash_key("k"))
    assert held.evening_match_ids("e1") == ["m2", "m1", "m3"]
    assert held.evening_row("e1")["name"] == "Friday" and held.evening_row("nobody") is None
    assert held.evening_key_hash("m1") == keys.hash_key("ek") and held.evening_key_hash("alone") is None


@pytest.mark.both_stores
def test_the_server_secret_is_made_once(held):
    assert len(held.server_secret()) == 32
    held.secret = None
    assert held.server_secret() == held.server_secret()


def test_keys_are_compared_by_their_hash():
    key_hash = keys.hash_key("secret")
    assert key_hash != "secret" and len(key_hash) == 64
    assert keys.key_matches("secret", key_hash)
    assert not keys.key_matches("secre", key_hash)


def migrate_after(path: str, barrier) -> None:
    barrier.wait()
    sqlite.migrate(path)


def test_server_processes_starting_together_all_migrate(tmp_path):
    """gunicorn's workers each create the app at once; a race to switch to WAL once failed about one
    start in seven, so thirty starts of six processes each would show it again."""
    for start in range(STARTS):
        path = str(tmp_path / str(start) / "referee.db")
        barrier = multiprocessing.Barrier(PROCESSES)
        processes = [multiprocessing.Process(target=migrate_after, args=(path, barrier)) for _ in range(PROCESSES)]
        for process in processes:
            process.start()
        for process in processes:
            process.join(timeout=30)
        assert [process.exitcode for process in processes] == [0] * PROCESSES, f"start {start}"
        with sqlite3.connect(path) as db:
            assert db.execute("SELECT count(*) FROM _sqlite_migrations").fetchone() == (7,)
            assert db.execute("SELECT count(*) FROM settings").fetchone() == (1,)


HOLD_A_READ = """
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("SELECT count(*) FROM matches").fetchone()
db.close()
"""


def test_a_header_check_leaves_the_process_locks_on_the_file_alone(tmp_path):
    """Closing any file of the database drops every POSIX lock the process holds on it, SQLite's read lock
    too: another process closing its last connection would then checkpoint and delete the write-ahead log
    under this process's connections, and their commits would go to a deleted file. The header is read
    while a connection is lent (so the file is opened for it), then another process opens and closes a
    connection: the log stays, and what this process commits after is there for a fresh reader."""
    path = tmp_path / "referee.db"
    sqlite.migrate(str(path))
    held = sqlite.Connections(str(path))
    lent = held.take()
    lent.execute("SELECT count(*) FROM matches").fetchone()  # this process reads the file in WAL mode
    second = held.take()  # none idle: a new connection, the header read first
    assert held.headers.fault(str(path)) is None

    subprocess.run([sys.executable, "-c", HOLD_A_READ, str(path)], check=True, timeout=30)

    assert path.with_name("referee.db-wal").exists()
    sqlite.write(lent, lambda conn: conn.execute("INSERT INTO settings (name, value) VALUES ('after', 'closed')"))
    with sqlite3.connect(path) as fresh:
        assert fresh.execute("SELECT value FROM settings WHERE name = 'after'").fetchone() == ("closed",)
    held.give_back(lent), held.give_back(second), held.close()


def add_match(db, match_id: str) -> None:
    db.execute("INSERT INTO matches (id, game, players, options, stake, created, key_hash) "
               "VALUES (?, 'ogorek', '[\"A\", \"B\"]', '{}', '0', '', '')", [match_id])
    db.conn.commit()


def events(match_id: str, *seqs: int):
    """A write that stores these events of the match, in this order."""
    def insert(conn):
        for seq in seqs:
            conn.execute("INSERT INTO events (match_id, seq, type, payload, created) VALUES (?, ?, 'end', '{}', '')",
                         [match_id, seq])
    return insert


def test_writes_queued_together_commit_together_each_all_or_nothing(db, tmp_path):
    """Writes queued while another commits go in one transaction, each in a savepoint of its own: one refused
    by a key is refused alone, and its statements before the refusal are undone."""
    path = str(tmp_path / "new" / "folder" / "referee.db")
    held = sqlite.Connections(path)
    add_match(db, "m1")
    queued = [sqlite_writer.Write(events("m1", 1)),
              sqlite_writer.Write(events("m1", 2, 1)),  # 1 is taken: 2 is undone with it
              sqlite_writer.Write(events("m1", 3))]
    held.writer.queued = list(queued)
    held.writer.commit_queued(queued[0])

    assert [write.done for write in queued] == [True, True, True]
    assert queued[0].error is None and queued[2].error is None
    assert isinstance(queued[1].error, sqlite3.IntegrityError)
    assert [row["seq"] for row in db.query("SELECT seq FROM events WHERE match_id = 'm1'")] == [1, 3]
    held.close()


def test_single_statements_queued_together_each_stand_or_fall_alone(db, tmp_path):
    """Writes of one statement each (an event) need no savepoint: the one refused by a key is refused alone."""
    path = str(tmp_path / "new" / "folder" / "referee.db")
    held = sqlite.Connections(path)
    add_match(db, "m1")
    add_match(db, "m2")
    queued = [sqlite_writer.Write(events("m1", 1), single=True), sqlite_writer.Write(events("m1", 1), single=True),
              sqlite_writer.Write(events("m2", 1), single=True), sqlite_writer.Write(events("m1", 2), single=True)]
    held.writer.queued = list(queued)
    held.writer.commit_queued(queued[0])

    assert [write.done for write in queued] == [True] * 4
    assert [type(write.error).__name__ for write in queued] == ["NoneType", "IntegrityError", "NoneType", "NoneType"]
    assert [(row["match_id"], row["seq"]) for row in db.query("SELECT match_id, seq FROM events ORDER BY rowid")] \
        == [("m1", 1), ("m2", 1), ("m1", 2)]
    held.close()


def test_a_commit_that_fails_fails_every_write_in_it(db, tmp_path):
    """The transaction cannot commit (the other writer keeps the lock past the busy timeout): every write
    queued in it gets the error and none is recorded."""
    path = str(tmp_path / "new" / "folder" / "referee.db")
    held = sqlite.Connections(path)
    add_match(db, "m1")
    queued = [sqlite_writer.Write(events("m1", seq)) for seq in (1, 2)]
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        writer = held.writer.writing_connection()
        writer.execute("PRAGMA busy_timeout = 10")
        held.writer.queued = list(queued)
        held.writer.commit_queued(queued[0])
    finally:
        other.execute("ROLLBACK")
        other.close()

    assert [write.done for write in queued] == [True, True]
    assert all(isinstance(write.error, sqlite3.OperationalError) for write in queued)
    assert queued[0].error is not queued[1].error
    assert queued[0].error.sqlite_errorcode & 0xFF == sqlite3.SQLITE_BUSY
    assert list(db.query("SELECT seq FROM events")) == []
    held.close()


def test_postgresql_migrates_once_for_processes_starting_together(postgres_cluster):
    """As with the SQLite file: app servers starting at once against a new database all start, and each
    migration is applied once."""
    dsn = postgres_cluster.new_database()
    barrier = multiprocessing.Barrier(PROCESSES)
    processes = [multiprocessing.Process(target=open_postgres_after, args=(dsn, barrier)) for _ in range(PROCESSES)]
    for process in processes:
        process.start()
    for process in processes:
        process.join(timeout=60)
    assert [process.exitcode for process in processes] == [0] * PROCESSES
    with psycopg.connect(dsn) as conn:
        names = [row[0] for row in conn.execute("SELECT name FROM kibic_migrations ORDER BY name")]
        assert names == ["create_clubs", "create_evenings", "create_match_summaries", "create_matches_and_events",
                         "create_the_server_secret", "remember_idempotent_creations", "remember_idempotent_evenings"]
        # one server secret, made once, and the generation's row that a stored summary locks (`keep_summaries`)
        assert conn.execute("SELECT name FROM settings ORDER BY name").fetchall() == [("generation",),
                                                                                   ("server_secret",)]
        primary_key = conn.execute("SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid "
                                   "AND a.attnum = ANY(i.indkey) WHERE i.indrelid = 'events'::regclass "
                                   "AND i.indisprimary ORDER BY a.attnum").fetchall()
        assert [row[0] for row in primary_key] == ["match_id", "seq"]


def open_postgres_after(dsn: str, barrier) -> None:
    from api.store.postgres import PostgresStore

    barrier.wait()
    held = PostgresStore(dsn)
    held.pool.open(wait=True)
    held.migrate()
    assert held.migrated
    held.close()


def test_both_stores_have_the_same_migrations_in_the_same_order():
    """A schema change is made on both stores: the PostgreSQL store's steps are named as the SQLite file's."""
    from api.store import postgres

    assert [step.__name__ for step in postgres.MIGRATIONS] == [step.name for step in sqlite.migrations._migrations]


@pytest.mark.parametrize("payload", [
    {"type": "play", "seat": 2, "card": "10H", "warnings": []},
    {"type": "penalty", "seat": 0, "points": 10**30, "reason": "a whole number beyond 64 bits"},
    {"type": "penalty", "seat": 0, "points": 5, "reason": "Żółw \u2028 \ud800 lone surrogate, line separator"},
    {"type": "deal", "hands": {"0": ["1234567890123456789012"]}, "warnings": [{"code": "x", "details": None}]},
])
def test_an_event_is_read_back_from_the_log_as_it_was_written(payload):
    text = store.payload_text({**payload, "seq": 7})
    assert '"seq"' not in text
    assert store.logged_event(text, 7) == {**payload, "seq": 7}
    assert type(store.logged_event(text, 7).get("points", 0)) is int
