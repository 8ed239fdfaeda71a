"""`kibic secret rotate`: a new server secret for new creations, the old one kept for the retries of the 24 h
window. A creation retried after a rotation, answered by any worker of a real gunicorn, gets the same working key."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import sqlite3
import subprocess
import sys
import uuid
from datetime import UTC, datetime, timedelta
from http.client import HTTPConnection
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from gunicorn_server import call, serve

from api import admin
from referee import GAMES

KIBIC = str(Path(sys.executable).with_name("kibic"))
RETRIES = 12  # each on a connection of its own: both workers answer some


def create(base: str, body: dict, idempotency_key: str) -> tuple[int, dict]:
    """POST /api/matches with an Idempotency-Key, on a connection of its own: (status, answer)."""
    url = urlsplit(base)
    connection = HTTPConnection(url.hostname, url.port, timeout=10)
    try:
        connection.request("POST", "/api/matches", body=json.dumps(body),
                           headers={"Content-Type": "application/json", "Idempotency-Key": idempotency_key})
        response = connection.getresponse()
        return response.status, json.loads(response.read())
    finally:
        connection.close()


def derived(secret: bytes, idempotency_key: str, match_id: str) -> str:
    message = b"kibic match key\0" + idempotency_key.encode() + b"\0" + match_id.encode()
    return base64.urlsafe_b64encode(hmac.new(secret, message, hashlib.sha256).digest()).rstrip(b"=").decode()


def secrets_of(database: Path) -> list[admin.Secret]:
    with sqlite3.connect(database) as db:
        return admin.parse_secrets(db.execute("SELECT name, value FROM settings WHERE name LIKE 'server_secret%'")
                                   .fetchall())


@pytest.mark.server
def test_a_creation_retried_after_a_rotation_gets_the_same_working_key_from_any_worker(tmp_path):
    database = tmp_path / "data" / "referee.db"
    name, game = next(iter(GAMES.items()))
    body = {"game": name, **game.example["match"]}
    idempotency_key = str(uuid.uuid4())
    with serve(database, workers=2) as base:
        status, first = create(base, body, idempotency_key)
        assert status == 201, first

        rotated = subprocess.run([KIBIC, "secret", "rotate"], capture_output=True, text=True, timeout=60,
                                 env={**os.environ, "KIBIC_DB": str(database)})
        assert rotated.returncode == 0, rotated.stderr
        kept = secrets_of(database)
        assert [secret.id for secret in kept] == [2, 1]

        for _ in range(RETRIES):
            status, retry = create(base, body, idempotency_key)
            assert status == 201, retry
            assert (retry["id"], retry["key"]) == (first["id"], first["key"])
        status, answer = call(base, "POST", f"/api/matches/{first['id']}/events", game.example["events"][0],
                              key=first["key"])
        assert status == 201, answer

        later_key = str(uuid.uuid4())
        status, later = create(base, body, later_key)
        assert status == 201
        assert later["key"] == derived(kept[0].value, later_key, later["id"]), "a new creation uses the new secret"
        assert first["key"] == derived(kept[1].value, idempotency_key, first["id"])
        for _ in range(RETRIES // 2):
            status, retry = create(base, body, later_key)
            assert (status, retry["key"]) == (201, later["key"])


def test_a_secret_is_dropped_once_its_retry_window_is_over(tmp_path):
    database = tmp_path / "referee.db"
    admin.migrate(str(database))
    start = datetime.now(UTC)
    assert admin.rotate_secret(str(database), now=start) == {"secret": 2, "kept": 1, "dropped": 0}
    assert admin.prune_secrets(str(database), now=start + timedelta(hours=24)) == 0
    assert [secret.id for secret in secrets_of(database)] == [2, 1]
    assert admin.check(str(database)).ok
    late = start + admin.RETIRE_AFTER + timedelta(minutes=1)
    assert admin.prune_secrets(str(database), now=late) == 1
    assert [secret.id for secret in secrets_of(database)] == [2]
    assert admin.rotate_secret(str(database), now=late) == {"secret": 3, "kept": 1, "dropped": 0}
