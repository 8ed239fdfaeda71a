"""Each server process holds one idle connection to the database file open, so that a request closing its own
connection never checkpoints the write-ahead log into the file and deletes it (two more syncs per request)."""

from __future__ import annotations

from pathlib import Path

from api import create_app


def test_the_log_file_stays_after_each_request(app, table):
    match = table.new_match()
    table.post_event(match, {"type": "deal", "dealer": 0})
    table.play(match, "W", "K")

    assert Path(app.config["DATABASE"] + "-wal").exists()
    assert table.state(match)["seq"] == 2


def test_without_the_held_connection_the_last_close_would_remove_it(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "referee.db")})
    client = app.test_client()
    created = client.post("/api/matches", json={"game": "ogorek", "players": ["A", "B"]})
    assert created.status_code == 201
    wal = Path(app.config["DATABASE"] + "-wal")
    assert wal.exists()

    app.extensions.pop("kibic_database_held_open").close()
    client.get(f"/api/matches/{created.get_json()['id']}")

    assert not wal.exists()
