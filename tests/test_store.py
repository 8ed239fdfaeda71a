"""The SQLite store: its schema, WAL and durable writes, its keys, and server processes starting together."""

from __future__ import annotations

import multiprocessing
import sqlite3

import pytest

from api import store

PROCESSES = 6
STARTS = 30


@pytest.fixture
def db(tmp_path):
    path = str(tmp_path / "new" / "folder" / "referee.db")
    store.migrate(path)
    db = store.connect(path)
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
    assert db.execute("PRAGMA busy_timeout").fetchone()[0] == store.BUSY_TIMEOUT_MS
    assert db.execute("PRAGMA foreign_keys").fetchone()[0] == 1


def test_migrating_again_changes_nothing(db, tmp_path):
    before = list(db.query("SELECT name FROM _sqlite_migrations"))
    store.migrate(str(tmp_path / "new" / "folder" / "referee.db"))
    names = [row["name"] for row in db.query("SELECT name FROM _sqlite_migrations")]
    assert [row["name"] for row in before] == names
    assert sorted(names) == ["create_evenings", "create_matches_and_events", "create_the_server_secret",
                             "remember_idempotent_creations"]
    assert db.execute("SELECT count(*) FROM settings").fetchone() == (1,)  # one server secret, made once


def test_the_same_seq_twice_is_refused_by_the_key(db):
    header = {"game": "ogorek", "players": ["A", "B"], "options": {}, "stake": "0", "currency": None}
    store.insert_match(db, "m1", header, store.hash_key("k"))
    store.append_event(db, "m1", {"seq": 1, "type": "deal", "dealer": 0})
    with pytest.raises(sqlite3.IntegrityError):
        store.append_event(db, "m1", {"seq": 1, "type": "deal", "dealer": 1})
    assert store.events(db, "m1") == [{"seq": 1, "type": "deal", "dealer": 0}]


def test_an_idempotency_key_is_unique_within_a_match(db):
    header = {"game": "ogorek", "players": ["A", "B"], "options": {}, "stake": "0", "currency": None}
    for match_id in ("m1", "m2"):
        store.insert_match(db, match_id, header, store.hash_key("k"))
    store.append_event(db, "m1", {"seq": 1, "type": "end"}, "same", "h")
    store.append_event(db, "m2", {"seq": 1, "type": "end"}, "same", "h")
    store.append_event(db, "m1", {"seq": 2, "type": "end"})
    store.append_event(db, "m1", {"seq": 3, "type": "end"})
    with pytest.raises(sqlite3.IntegrityError):
        store.append_event(db, "m1", {"seq": 4, "type": "end"}, "same", "h")
    assert store.idempotent_event(db, "m1", "same") == {"seq": 1, "request_hash": "h"}


def test_an_event_cannot_belong_to_no_match(db):
    with pytest.raises(sqlite3.IntegrityError):
        store.append_event(db, "nobody", {"seq": 1, "type": "end"})


def test_keys_are_compared_by_their_hash(db):
    key_hash = store.hash_key("secret")
    assert key_hash != "secret" and len(key_hash) == 64
    assert store.key_matches("secret", key_hash)
    assert not store.key_matches("secre", key_hash)


def migrate_after(path: str, barrier) -> None:
    barrier.wait()
    store.migrate(path)


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
            assert db.execute("SELECT count(*) FROM _sqlite_migrations").fetchone() == (4,)
            assert db.execute("SELECT count(*) FROM settings").fetchone() == (1,)
