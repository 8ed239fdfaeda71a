"""Creating a match is safe to retry: with an Idempotency-Key, a retry gets the same match, id and key and
creates nothing, while the server stores neither that key nor the match key, only their hashes."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import uuid
from datetime import UTC, datetime, timedelta

import pytest
from conftest import dump, stored

from api import create_app, keys, store

pytestmark = pytest.mark.both_stores

NEW_MATCH = {"game": "ogorek", "players": ["S", "W", "N", "E"], "stake": "0.50", "currency": "PLN"}


def create(client, body=NEW_MATCH, idempotency_key=None):
    headers = {"Idempotency-Key": idempotency_key} if idempotency_key is not None else {}
    return client.post("/api/matches", json=body, headers=headers)


def stored_matches(app) -> list[tuple]:
    return stored(app, "SELECT * FROM matches")


@pytest.fixture
def idempotency_key() -> str:
    return secrets.token_urlsafe(32)


def test_a_retry_gets_the_same_match_and_key_and_creates_nothing(app, client, idempotency_key):
    first = create(client, idempotency_key=idempotency_key)
    retry = create(client, idempotency_key=idempotency_key)

    assert first.status_code == retry.status_code == 201
    assert retry.get_json() == first.get_json()
    assert retry.headers["Location"] == first.headers["Location"] == f"/api/matches/{first.get_json()['id']}"
    assert len(stored_matches(app)) == 1


def test_a_late_retry_gets_the_match_as_it_was_created_and_its_key_still_writes(client, table, idempotency_key):
    first = create(client, idempotency_key=idempotency_key).get_json()
    table.post_event(first, {"type": "deal", "dealer": 0})
    table.play(first, "W", "K")

    retry = create(client, idempotency_key=idempotency_key).get_json()

    assert retry == first
    assert retry["seq"] == 0
    assert table.play(retry, "N", "A")["event"]["seq"] == 3


def test_different_keys_make_different_matches_with_different_keys(app, client):
    answers = [create(client, idempotency_key=secrets.token_urlsafe(32)).get_json() for _ in range(3)]
    assert len({a["id"] for a in answers}) == len({a["key"] for a in answers}) == 3
    assert len(stored_matches(app)) == 3


def test_the_same_key_with_another_body_is_refused_and_creates_nothing(app, client, idempotency_key):
    create(client, idempotency_key=idempotency_key)

    other = create(client, {**NEW_MATCH, "stake": "1.00"}, idempotency_key)

    assert other.status_code == 422
    assert other.get_json()["error"]["code"] == "idempotency_key_reused"
    assert len(stored_matches(app)) == 1


def test_a_refused_creation_is_not_remembered(app, client, idempotency_key):
    refused = create(client, {**NEW_MATCH, "players": ["S", "s"]}, idempotency_key)
    assert refused.get_json()["error"]["code"] == "bad_players"

    assert create(client, idempotency_key=idempotency_key).status_code == 201
    assert len(stored_matches(app)) == 1


def test_only_hashes_of_the_keys_are_stored(app, client, idempotency_key):
    match = create(client, idempotency_key=idempotency_key).get_json()

    text = dump(app)
    assert idempotency_key not in text and match["key"] not in text
    assert keys.hash_key(idempotency_key) in text and keys.hash_key(match["key"]) in text


def test_the_match_key_is_derived_from_the_idempotency_key_and_the_id(app, client, idempotency_key):
    match = create(client, idempotency_key=idempotency_key).get_json()
    with app.app_context():
        assert match["key"] == keys.derived_key(idempotency_key, match["id"])
        assert match["key"] != keys.derived_key(idempotency_key + "x", match["id"])
    assert len(match["key"]) >= 43  # 256 bits


@pytest.mark.parametrize("key", [
    "k1",
    "a" * 21,
    "a" * 40,
    "abcabcabcabcabcabcabcabc",
    "with space " + "x" * 20,
    # guessable keys that a reader who knows the match id could try (issue: all were accepted before)
    "1733036400123-1733036400123",
    "table-1-club-night-2026",
    "0123456789012345678901",
    "anna@example.com-match1",
    "00000000-0000-4000-8000-000000000001",
    "2026-12-01T20:15:00.000Z",
])
def test_a_creation_key_too_short_or_too_plain_is_refused(app, client, key):
    response = create(client, idempotency_key=key)
    assert response.status_code == 422
    assert response.get_json()["error"]["code"] == "bad_idempotency_key"
    assert stored_matches(app) == []


@pytest.mark.parametrize("make", [lambda: secrets.token_urlsafe(32), lambda: secrets.token_hex(16),
                                  lambda: str(uuid.uuid4())], ids=["base64url", "hex", "uuid"])
def test_common_random_keys_are_accepted(client, make):
    assert create(client, idempotency_key=make()).status_code == 201


def test_a_retry_racing_its_first_attempt_gets_the_same_match(app, client, idempotency_key, monkeypatch):
    """Both attempts looked for the key before either stored the match: the second learns from the index."""
    first = create(client, idempotency_key=idempotency_key).get_json()
    lookup, calls = store.current(app).idempotent_match, []

    def not_yet_then_found(key_hash):
        calls.append(key_hash)
        return None if len(calls) == 1 else lookup(key_hash)

    monkeypatch.setattr(store.current(app), "idempotent_match", not_yet_then_found)
    retry = create(client, idempotency_key=idempotency_key)

    assert len(calls) == 2
    assert retry.status_code == 201
    assert retry.get_json() == first
    assert len(stored_matches(app)) == 1


def test_the_match_key_depends_on_the_servers_own_secret(app, client, idempotency_key, tmp_path):
    """The same creation key and match id give another key on another server: the creation key is not enough."""
    match = create(client, idempotency_key=idempotency_key).get_json()
    [(secret,)] = stored(app, "SELECT value FROM settings WHERE name = 'server_secret'")
    assert len(bytes.fromhex(secret)) == 32
    without_secret = base64.urlsafe_b64encode(hmac.new(idempotency_key.encode(), b"kibic match key\0" +
                                                       match["id"].encode(), hashlib.sha256).digest())
    assert match["key"] != without_secret.rstrip(b"=").decode()
    other = create_app({"TESTING": True, "DATABASE": str(tmp_path / "other.db")})
    with other.app_context():
        assert keys.derived_key(idempotency_key, match["id"]) != match["key"]


def test_a_creation_retried_after_24_hours_gets_no_key(app, client, idempotency_key):
    first = create(client, idempotency_key=idempotency_key).get_json()
    stored(app, "UPDATE matches SET created = ?", [(datetime.now(UTC) - timedelta(hours=24, minutes=1)).isoformat()])
    late = create(client, idempotency_key=idempotency_key)
    assert late.status_code == 409
    assert late.get_json()["error"]["code"] == "creation_retry_expired"
    assert late.get_json()["error"]["details"] == {"id": first["id"]}
    assert first["key"] not in late.get_data(as_text=True)
    assert len(stored_matches(app)) == 1
