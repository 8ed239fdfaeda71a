"""Storage out of order: a read-only, full, corrupt or missing database, or one locked past the busy
timeout, answers 503 in the one error shape, records nothing, and the next request after the fix works
without a restart (a retry with the same Idempotency-Key records the event once).

Faults are made without privileges: a full disk is SQLite's `max_page_count` on the app's connections
(the connections it holds are closed, so that the next request opens one with the limit); a read-only
store is the file and folder made read-only, and, since permissions do not bind root, also the app's
connections opened read-only (what an unprivileged server sees: the change of mode makes the app open
the file again).
"""

from __future__ import annotations

import functools
import shutil
import sqlite3
import stat
from pathlib import Path

import pytest
from conftest import ContractClient, Table

from api import create_app, store
from api.store import sqlite, sqlite_file

PENALTY = {"type": "penalty", "seat": 0, "points": 1, "reason": "a long reason to fill the pages " * 6}


@pytest.fixture
def db_path(app) -> Path:
    return Path(app.config["DATABASE"])


@pytest.fixture
def match(table):
    match = table.new_match(players=["Ala", "Ola"], options={"limit": 1000})
    table.post_event(match, {"type": "deal", "dealer": 0})
    return match


def write(client, match, body, idempotency_key):
    headers = {"Authorization": f"Bearer {match['key']}", "Idempotency-Key": idempotency_key}
    return client.post(f"/api/matches/{match['id']}/events", json=body, headers=headers)


def stored(path: Path) -> list[tuple]:
    """Every row of the database, read apart from the app."""
    with sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True) as db:
        rows = db.execute("SELECT id, key_hash FROM matches ORDER BY id").fetchall()
        return rows + db.execute("SELECT match_id, seq, payload, idempotency_key FROM events "
                                 "ORDER BY match_id, seq").fetchall()


def assert_unavailable(response, reason: str, code: str = "storage_unavailable"):
    body = response.get_json()
    assert response.status_code == 503, body
    assert set(body["error"]) == {"code", "message", "details"}
    assert body["error"]["code"] == code
    if code == "storage_unavailable":
        assert body["error"]["details"] == {"reason": reason}
    assert "sqlite" not in body["error"]["message"].lower() and "Traceback" not in response.get_data(as_text=True)
    assert int(response.headers["Retry-After"]) > 0
    return body["error"]


def assert_recovers(client, table, match, before: list[dict]):
    """After the fix, the refused write goes through once, retried with its key."""
    first = write(client, match, PENALTY, "after-the-fix")
    retry = write(client, match, PENALTY, "after-the-fix")
    assert first.status_code == retry.status_code == 201, first.get_json()
    assert retry.get_json() == first.get_json()
    assert table.events(match) == before + [{**first.get_json()["event"], "undone_by": None, "corrected_by": None}]


@pytest.fixture
def read_only(db_path, monkeypatch):
    """Makes the store read-only; calling the returned function makes it writable again."""
    folder = db_path.parent
    modes = {path: path.stat().st_mode for path in [folder, *folder.iterdir()]}
    for path in modes:
        path.chmod(stat.S_IMODE(modes[path]) & ~0o222)
    monkeypatch.setattr(sqlite_file, "connect", functools.partial(sqlite_file.connect, mode="ro"))

    def writable_again():
        for path, mode in modes.items():
            path.chmod(stat.S_IMODE(mode))
        monkeypatch.undo()

    yield writable_again
    writable_again()


def test_a_read_only_store_refuses_writes_and_recovers(client, table, match, db_path, read_only):
    before, rows = table.events(match), stored(db_path)

    assert_unavailable(write(client, match, PENALTY, "after-the-fix"), "read_only")
    assert_unavailable(client.post("/api/matches", json={"game": "ogorek", "players": ["A", "B"]}), "read_only")
    assert client.get(f"/api/matches/{match['id']}").status_code in (200, 503)
    assert stored(db_path) == rows

    read_only()
    assert_recovers(client, table, match, before)


def disk_full(app, monkeypatch):
    """The app's connections may not grow the file by one page: the disk is full."""
    connect = sqlite_file.connect

    def full(path, mode="rw"):
        db = connect(path, mode)
        db.execute(f"PRAGMA max_page_count = {db.execute('PRAGMA page_count').fetchone()[0]}")
        return db

    monkeypatch.setattr(sqlite_file, "connect", full)
    sqlite.connections(app).close()


def test_a_full_disk_refuses_the_write_that_does_not_fit_and_recovers(app, client, table, match, db_path,
                                                                      monkeypatch):
    disk_full(app, monkeypatch)
    recorded = []
    for attempt in range(200):
        response = write(client, match, PENALTY, f"fill-{attempt}")
        if response.status_code != 201:
            break
        recorded.append(response.get_json()["event"]["seq"])
    assert_unavailable(response, "disk_full")
    assert client.get(f"/api/matches/{match['id']}").json["seq"] == 1 + len(recorded)
    rows = stored(db_path)
    assert_unavailable(write(client, match, PENALTY, f"fill-{attempt}"), "disk_full")
    assert stored(db_path) == rows

    monkeypatch.undo()
    sqlite.connections(app).close()  # the disk has room again
    retry = write(client, match, PENALTY, f"fill-{attempt}")
    assert retry.status_code == 201
    assert [e["seq"] for e in table.events(match)] == [1, *recorded, retry.get_json()["event"]["seq"]]


def garbage(path: Path) -> None:
    path.write_bytes(b"not a database, whatever it once was " * 200)


def truncated(path: Path) -> None:
    with path.open("r+b") as file:
        file.truncate(path.stat().st_size // 2)


def emptied(path: Path) -> None:
    path.write_bytes(b"")


@pytest.mark.parametrize("damage", [garbage, truncated, emptied])
def test_a_corrupt_file_answers_503_until_it_is_restored(client, table, match, db_path, tmp_path, damage):
    for seq in range(2, 40):  # enough pages that a cut through the middle damages the tables
        write(client, match, PENALTY, f"k{seq}")
    before = table.events(match)
    backup = tmp_path / "backup.db"
    with sqlite3.connect(db_path) as live, sqlite3.connect(backup) as copy:
        live.backup(copy)  # the server holds its log open: a copy of the file alone would miss the latest
    damage(db_path)

    assert_unavailable(client.get(f"/api/matches/{match['id']}"), "corrupt")
    assert_unavailable(write(client, match, PENALTY, "after-the-fix"), "corrupt")

    shutil.copy(backup, db_path)
    assert_recovers(client, table, match, before)


def move_file(path: Path) -> tuple[Path, Path]:
    return path, path.with_name("moved.db")


def move_folder(path: Path) -> tuple[Path, Path]:
    return path.parent, path.parent.with_name("moved")


@pytest.mark.parametrize("move", [move_file, move_folder], ids=["file", "folder"])
def test_a_missing_file_is_not_replaced_by_an_empty_store(client, table, match, db_path, move):
    before = table.events(match)
    where, away = move(db_path)
    where.rename(away)

    assert_unavailable(client.get(f"/api/matches/{match['id']}"), "missing")
    assert_unavailable(write(client, match, PENALTY, "after-the-fix"), "missing")
    assert_unavailable(client.post("/api/matches", json={"game": "ogorek", "players": ["A", "B"]}), "missing")
    assert not db_path.exists()

    away.rename(where)
    assert_recovers(client, table, match, before)


def test_a_store_out_of_order_at_start_does_not_stop_the_server(tmp_path):
    path = tmp_path / "referee.db"
    garbage(path)

    app = create_app({"TESTING": True, "DATABASE": str(path)})
    app.test_client_class = ContractClient
    table = Table(app.test_client())
    assert_unavailable(table.client.post("/api/matches", json={"game": "ogorek", "players": ["A", "B"]}), "corrupt")
    assert table.client.get("/api/games").status_code == 200

    path.unlink()  # the operator moves the damaged file away; the next request makes a new store
    match = table.new_match(players=["A", "B"])
    assert table.state(match)["seq"] == 0


def test_a_write_locked_out_past_the_busy_timeout_is_503_and_can_be_retried(app, client, table, match, db_path,
                                                                             monkeypatch):
    monkeypatch.setattr(sqlite_file, "BUSY_TIMEOUT_MS", 100)
    sqlite.connections(app).close()  # the next connection waits 100 ms
    before = table.events(match)
    other_writer = sqlite3.connect(db_path, isolation_level=None)
    other_writer.execute("BEGIN IMMEDIATE")
    try:
        assert_unavailable(write(client, match, PENALTY, "after-the-fix"), None, code="storage_busy")
        assert table.state(match)["seq"] == 1  # readers are not held up by a writer
    finally:
        other_writer.execute("ROLLBACK")
        other_writer.close()

    assert_recovers(client, table, match, before)


def test_storage_errors_that_are_bugs_stay_500(client, match, monkeypatch):
    def broken(*args, **kwargs):
        raise sqlite3.OperationalError('near "SELEC": syntax error')

    monkeypatch.setattr(store.current(client.application), "match_row", broken)
    held = store.current(client.application)
    monkeypatch.setattr(held, "latest_seq", broken)  # a cached match reads only its latest seq
    monkeypatch.setattr(held, "news", broken)  # (or that and the events since, as one read)
    response = client.get(f"/api/matches/{match['id']}")
    assert response.status_code == 500
    assert response.get_json()["error"]["code"] == "internal_error"
    assert "SELEC" not in response.get_data(as_text=True)


@pytest.fixture
def small_disk(tmp_path):
    """A real file system of 2 MiB (tmpfs, mounted for the test: the suite runs as root on its own machine)."""
    import subprocess

    folder = tmp_path / "disk"
    folder.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(folder)], capture_output=True,
                             text=True)
    assert mounted.returncode == 0, f"a full disk is tested on a tmpfs of its own: {mounted.stderr}"
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def test_a_really_full_disk_is_told_as_a_full_disk_and_nothing_is_recorded(small_disk):
    app = create_app({"TESTING": True, "DATABASE": str(small_disk / "referee.db")})
    app.test_client_class = ContractClient
    client = app.test_client()
    table = Table(client)
    match = table.new_match(players=["Ala", "Ola"], options={"limit": 1000})
    table.post_event(match, {"type": "deal", "dealer": 0})
    (small_disk / "ballast").write_bytes(b"\0" * (1024 * 1024))  # most of the disk taken by something else
    answers = []
    for attempt in range(3000):
        response = write(client, match, PENALTY, f"fill-{attempt}")
        answers.append(response.status_code)
        if response.status_code != 201:
            break
    assert answers[-1] == 503, answers[-5:]
    error = assert_unavailable(response, "disk_full")
    assert error["details"]["reason"] == "disk_full"
    recorded = answers.count(201)
    assert client.get(f"/api/matches/{match['id']}").get_json()["seq"] == 1 + recorded  # nothing of the refused one
    (small_disk / "ballast").unlink()
    sqlite.connections(app).close()
    assert write(client, match, PENALTY, f"fill-{attempt}").status_code == 201


def test_a_disk_error_with_no_room_left_is_a_full_disk(monkeypatch, tmp_path):
    """SQLite says SQLITE_IOERR (not SQLITE_FULL) when the write that found the disk full was its log's shared
    memory or a sync: with no room left on the database's disk, that is a full disk too."""
    error = sqlite3.OperationalError("disk I/O error")
    error.sqlite_errorcode = sqlite3.SQLITE_IOERR_WRITE
    path = str(tmp_path / "referee.db")
    assert sqlite.sqlite_fault(error, path).reason == "io_error"

    class NoRoom:
        f_bavail, f_frsize = 3, 4096

    monkeypatch.setattr(sqlite.os, "statvfs", lambda folder: NoRoom())
    assert sqlite.sqlite_fault(error, path).reason == "disk_full"
