"""The SQLite connections a process keeps: a checkpoint of the file leaves them in use (its header found whole), a
file changed in mode is opened again, and a request's connection goes back to the process while its write waits for
the commit (`api.store.sqlite`)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from conftest import Table

from api import create_app
from api.store import sqlite
from api.store.sqlite_file import file_identity

SEATS = ["S", "W", "N", "E"]
PENALTY = {"type": "penalty", "seat": 0, "points": 5, "reason": "cut the deck"}


@pytest.fixture
def app(tmp_path):
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / "referee.db")})


def read_with(app, match_id: str) -> sqlite.Database:
    """The connection a read of the match was lent."""
    with app.test_request_context():
        db = sqlite.get_db()
        app.test_client().get(f"/api/matches/{match_id}")
        sqlite.close_db()
    return db


def checkpoint(path: str) -> None:
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def test_a_checkpoint_leaves_the_connections_in_use(app):
    table = Table(app.test_client())
    match = table.new_match(players=SEATS)
    path = app.config["DATABASE"]
    for _ in range(30):
        table.new_match(players=SEATS)
    before = read_with(app, match["id"])
    known = file_identity(path)
    checkpoint(path)
    assert file_identity(path) != known  # the file grew: a new connection for each request, before
    after = read_with(app, match["id"])
    assert after is before
    assert after.identity == file_identity(path)
    assert table.post_event(match, PENALTY)["event"]["seq"] == 1


def test_a_file_changed_in_mode_is_opened_again(app):
    table = Table(app.test_client())
    match = table.new_match(players=SEATS)
    path = Path(app.config["DATABASE"])
    before = read_with(app, match["id"])
    path.chmod(0o640)
    assert read_with(app, match["id"]) is not before


def test_a_file_found_damaged_after_a_checkpoint_is_not_read_by_the_connections_held(app):
    table = Table(app.test_client())
    match = table.new_match(players=SEATS)
    read_with(app, match["id"])
    path = Path(app.config["DATABASE"])
    with path.open("r+b") as file:
        file.truncate(path.stat().st_size // 2)
    answer = app.test_client().get(f"/api/matches/{match['id']}")
    assert answer.status_code == 503
    assert answer.get_json()["error"]["details"]["reason"] == "corrupt"


def test_a_request_lends_its_connection_back_while_its_write_waits_for_the_commit(app, monkeypatch):
    table = Table(app.test_client())
    match = table.new_match(players=SEATS)
    held = sqlite.connections(app)
    seen = []
    committed = held.writer.write

    def write(work, single=False):
        seen.append([db for db, _ in held.free])
        return committed(work, single)

    monkeypatch.setattr(held.writer, "write", write)
    with app.test_request_context():
        lent = sqlite.get_db()
        sqlite.write(lent, lambda conn: conn.execute("UPDATE settings SET value = value WHERE name = 'generation'"))
        assert "db" not in sqlite.g
    assert seen and lent in seen[0]
    assert table.post_event(match, PENALTY)["event"]["seq"] == 1
