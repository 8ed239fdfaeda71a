"""Running Kibic for years: its settings (one table, checked at start), its version, health, deleting and forgetting,
the log's lines, the database's permissions."""

from __future__ import annotations

import json
import logging
import os
import re
import sqlite3
import tomllib
from contextlib import closing
from pathlib import Path

import pytest

from api import admin, contract, create_app, logs, settings
from api.version import VERSION
from referee import GAMES

ROOT = Path(__file__).resolve().parents[2]
NAME = "Zbigniewa"


# --- settings -------------------------------------------------------------------------------------

def test_the_operators_table_of_settings_is_the_codes():
    guide = (ROOT / "docs" / "operating.md").read_text(encoding="utf-8")
    assert settings.table() in guide, "python -m api.settings prints the table docs/operating.md should hold"


def test_every_kibic_setting_the_code_reads_is_in_the_table():
    named = {setting.name for setting in settings.SETTINGS}
    read = set()
    for path in [*(ROOT / "api").glob("*.py"), ROOT / "Makefile"]:
        read |= set(re.findall(r"KIBIC_[A-Z_]+", path.read_text(encoding="utf-8")))
    assert read <= named


@pytest.mark.parametrize(("name", "value"), [("KIBIC_PORT", "eighty"), ("KIBIC_PORT", "70000"),
                                             ("KIBIC_WORKERS", "0"), ("KIBIC_PUBLIC_URL", "kibic.example.org"),
                                             ("KIBIC_TRUSTED_HOSTS", "club lan"), ("KIBIC_LOG_FORMAT", "xml"),
                                             ("KIBIC_LOG_LEVEL", "loud")])
def test_a_bad_setting_stops_the_start_naming_it(monkeypatch, tmp_path, name, value):
    monkeypatch.setenv("KIBIC_DB", str(tmp_path / "referee.db"))
    monkeypatch.setenv(name, value)
    with pytest.raises(settings.BadSetting) as refused:
        create_app()
    assert refused.value.name == name
    assert str(refused.value).startswith(f"{name}: ")
    assert not (tmp_path / "referee.db").exists()


def test_the_database_setting_and_its_old_name(tmp_path):
    assert settings.load({"REFEREE_DB": "/x/old.db"}).database == "/x/old.db"
    assert settings.load({"REFEREE_DB": "/x/old.db", "KIBIC_DB": "/x/new.db"}).database == "/x/new.db"
    assert settings.load({"KIBIC_DATA": str(tmp_path)}).database == str(tmp_path / "referee.db")
    default = settings.load({}).data
    assert not default.is_relative_to(ROOT), "the data lives outside the clone, where git clean cannot reach it"


def test_host_names_are_compared_without_regard_to_case(monkeypatch, tmp_path):
    monkeypatch.setenv("KIBIC_TRUSTED_HOSTS", "Club.LAN")
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "referee.db")})
    client = app.test_client()
    assert client.get("/api/games", headers={"Host": "CLUB.LAN"}).status_code == 200
    assert client.get("/api/games", headers={"Host": "club.lan:8000"}).status_code == 200
    refused = client.get("/api/games", headers={"Host": "evil.example"})
    assert refused.status_code == 400
    assert "error" in refused.get_json()


# --- version and health ---------------------------------------------------------------------------

def test_the_version_is_the_same_everywhere(client):
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    spec = contract.load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
    assert VERSION == project == spec["info"]["version"]
    assert client.get("/api/version").get_json() == {"version": VERSION}
    assert f"## {VERSION}" in (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")


def test_alive_and_ready(client):
    assert client.get("/healthz").get_json() == {"status": "alive", "version": VERSION}
    ready = client.get("/readyz")
    assert ready.status_code == 200
    assert ready.get_json()["status"] == "ready"


def test_not_ready_when_the_file_is_gone_or_not_migrated(app, client):
    database = Path(app.config["DATABASE"])
    with sqlite3.connect(database) as db:
        db.execute("DELETE FROM _sqlite_migrations WHERE name = 'create_evenings'")
    pending = client.get("/readyz")
    assert pending.status_code == 503
    assert "kibic migrate" in pending.get_json()["error"]["details"]["reason"]
    for suffix in ("", "-wal", "-shm"):
        Path(f"{database}{suffix}").unlink(missing_ok=True)
    gone = client.get("/readyz")
    assert gone.status_code == 503
    assert gone.get_json()["error"]["code"] == "not_ready"
    assert gone.headers["Retry-After"] == "1"
    assert client.get("/healthz").status_code == 200


# --- deleting and forgetting ----------------------------------------------------------------------

def new_match(client, players, evening=None) -> dict:
    name, game = next(iter(GAMES.items()))
    body = {**game.example["match"], "game": name, "players": players}
    headers = {}
    if evening:
        body["evening"] = evening["id"]
        headers["Authorization"] = f"Bearer {evening['key']}"
    answer = client.post("/api/matches", json=body, headers=headers)
    assert answer.status_code == 201, answer.get_json()
    created = answer.get_json()
    event = game.example["events"][0]
    posted = client.post(f"/api/matches/{created['id']}/events", json=event,
                         headers={"Authorization": f"Bearer {created['key']}"})
    assert posted.status_code == 201, posted.get_json()
    return created


def players_of(count: int, first: str) -> list[str]:
    return [first, *[f"P{n}" for n in range(1, count)]]


def test_forget_leaves_the_name_nowhere(app, client):
    database = app.config["DATABASE"]
    seats = len(next(iter(GAMES.values())).example["match"]["players"])
    evening = client.post("/api/evenings", json={"name": f"{NAME}'s birthday", "currency": "PLN"}).get_json()
    in_evening = new_match(client, players_of(seats, NAME), evening)
    alone = new_match(client, players_of(seats, NAME.upper()))
    other = new_match(client, players_of(seats, "Ann"))
    assert NAME in json.dumps(client.get(f"/api/matches/{in_evening['id']}").get_json())  # held by the cache too

    counts = admin.forget(database, f" {NAME.lower()} ")

    assert counts == {"matches": 2, "evenings": 1, "clubs": 0, "events": 0}
    for match in (in_evening, alone):
        shown = json.dumps(client.get(f"/api/matches/{match['id']}").get_json())
        assert NAME.casefold() not in shown.casefold()
        assert admin.FORGOTTEN in shown
    assert NAME.casefold() not in json.dumps(client.get(f"/api/evenings/{evening['id']}").get_json()).casefold()
    assert "Ann" in json.dumps(client.get(f"/api/matches/{other['id']}").get_json())
    with sqlite3.connect(database) as db:
        assert not [line for line in db.iterdump() if NAME.casefold() in line.casefold()]
    for suffix in ("", "-wal"):
        file = Path(f"{database}{suffix}")
        if file.exists():
            stored = file.read_bytes().lower()
            assert NAME.lower().encode() not in stored, f"{file.name} still holds the name's bytes"


def test_forget_leaves_no_bytes_of_the_name_in_space_freed_before(app, client):
    """Rows deleted before the forget by a SQLite that does not overwrite what it frees (`secure_delete` is off
    unless SQLite is built with it on, as Debian's is) left the name's bytes in the file's free space, where no row
    holds them: the forget leaves them nowhere either."""
    database = app.config["DATABASE"]
    seats = len(next(iter(GAMES.values())).example["match"]["players"])
    gone = new_match(client, players_of(seats, NAME))
    new_match(client, players_of(seats, "Ann"))
    with closing(sqlite3.connect(database, isolation_level=None)) as db:
        db.execute("PRAGMA secure_delete = OFF")
        db.execute("BEGIN")
        db.execute("DELETE FROM events WHERE match_id = ?", [gone["id"]])
        db.execute("DELETE FROM matches WHERE id = ?", [gone["id"]])
        db.execute("COMMIT")
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    assert NAME.lower().encode() in Path(database).read_bytes().lower(), "the deleted match left the name's bytes"

    assert admin.forget(database, NAME) == {"matches": 0, "evenings": 0, "clubs": 0, "events": 0}

    for suffix in ("", "-wal"):
        file = Path(f"{database}{suffix}")
        if file.exists():
            assert NAME.lower().encode() not in file.read_bytes().lower(), f"{file.name} still holds the name's bytes"


def test_delete_a_match_and_an_evening(app, client):
    database = app.config["DATABASE"]
    seats = len(next(iter(GAMES.values())).example["match"]["players"])
    evening = client.post("/api/evenings", json={"name": "Friday", "currency": "PLN"}).get_json()
    played = [new_match(client, players_of(seats, f"A{n}"), evening) for n in range(2)]
    alone = new_match(client, players_of(seats, "B"))
    assert client.get(f"/api/matches/{alone['id']}").status_code == 200

    assert admin.delete_match(database, alone["id"]) == {"matches": 1, "events": 1}
    assert client.get(f"/api/matches/{alone['id']}").status_code == 404
    assert admin.delete_evening(database, evening["id"]) == {"matches": 2, "events": 2, "evenings": 1}
    assert client.get(f"/api/evenings/{evening['id']}").status_code == 404
    assert all(client.get(f"/api/matches/{match['id']}").status_code == 404 for match in played)
    with pytest.raises(admin.AdminError, match="no match"):
        admin.delete_match(database, alone["id"])


# --- the database's permissions, the check --------------------------------------------------------

def test_a_new_database_is_for_the_services_user_alone(tmp_path):
    database = tmp_path / "new" / "referee.db"
    admin.migrate(str(database))
    assert oct(database.stat().st_mode & 0o777) == "0o600"
    assert oct(database.parent.stat().st_mode & 0o777) == "0o700"
    assert admin.check(str(database)).ok
    os.chmod(database, 0o644)
    report = admin.check(str(database))
    assert not report.ok
    assert any("chmod 600" in problem for problem in report.problems)


def test_check_names_what_is_wrong(tmp_path):
    assert "no database file" in admin.check(str(tmp_path / "none.db")).problems[0]
    database = tmp_path / "referee.db"
    admin.migrate(str(database))
    with sqlite3.connect(database) as db:
        db.execute("DELETE FROM _sqlite_migrations WHERE name = 'create_evenings'")
    assert any("kibic migrate" in problem for problem in admin.check(str(database)).problems)


# --- log lines ------------------------------------------------------------------------------------

def test_access_lines_keep_no_whole_id():
    line = logs.shortened('127.0.0.1 "GET /api/matches/hY3kq0XgJ8sVt2mR5wZbNA/stream?x=1 HTTP/1.1" 200')
    assert "hY3kq0XgJ8sVt2mR5wZbNA" not in line
    assert "/api/matches/hY3k…/stream" in line
    assert logs.shortened("/?m=hY3kq0XgJ8sVt2mR5wZbNA&e=Ab3kq0XgJ8sVt2mR5wZbNA") == "/?m=hY3k…&e=Ab3k…"


def test_a_json_line_has_time_level_process_and_request_id():
    record = logging.LogRecord("api.store", logging.INFO, __file__, 1, "migrated %s", ("x",), None)
    record.request_id = "abc123"
    line = json.loads(logs.JsonFormatter().format(record))
    assert line["level"] == "INFO" and line["process"] == os.getpid() and line["request_id"] == "abc123"
    assert line["message"] == "migrated x"
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", line["time"])
    text = logs.TextFormatter().format(record)
    assert re.match(rf"^\S+Z INFO \[{os.getpid()}\] \[abc123\] api.store: migrated x$", text)


def test_every_answer_names_its_request(client):
    given = client.get("/api/games", headers={"X-Request-Id": "table-7.tap-31"})
    assert given.headers["X-Request-Id"] == "table-7.tap-31"
    made = client.get("/api/games", headers={"X-Request-Id": "no spaces; or signs"})
    assert re.fullmatch(r"[0-9a-f]{12}", made.headers["X-Request-Id"])
