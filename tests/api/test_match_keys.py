"""Only the holder of a match's key may change it; the key is shown once and stored only as a hash."""

from __future__ import annotations

import base64
import sqlite3

import pytest

WRITES = [
    ("/api/matches/{id}/events", {"type": "deal", "dealer": 0}),
    ("/api/matches/{id}/undo", None),
]
NO_KEY = [
    None,
    "",
    "Bearer",
    "Bearer   ",
    "Basic dXNlcjpwYXNz",
    "{key}",
]
WRONG_KEY = [
    "Bearer nope",
    "Bearer {other}",
    "Bearer {key}x",
    "Bearer {half}",
]


@pytest.fixture
def two_matches(table):
    match = table.new_match()
    table.post_event(match, {"type": "deal", "dealer": 0})
    return match, table.new_match(players=["Ala", "Ola"])


def write(client, match, other, path, body, authorization):
    headers = {}
    if authorization is not None:
        headers["Authorization"] = authorization.format(key=match["key"], other=other["key"],
                                                        half=match["key"][: len(match["key"]) // 2])
    return client.post(path.format(id=match["id"]), json=body, headers=headers)


@pytest.mark.parametrize(("path", "body"), WRITES, ids=["events", "undo"])
@pytest.mark.parametrize("authorization", NO_KEY)
def test_a_write_without_a_key_is_401(client, table, two_matches, path, body, authorization):
    match, other = two_matches
    response = write(client, match, other, path, body, authorization)
    assert response.status_code == 401
    assert response.get_json()["error"]["code"] == "key_required"
    assert table.state(match)["seq"] == 1


@pytest.mark.parametrize(("path", "body"), WRITES, ids=["events", "undo"])
@pytest.mark.parametrize("authorization", WRONG_KEY)
def test_a_write_with_another_key_is_403(client, table, two_matches, path, body, authorization):
    match, other = two_matches
    response = write(client, match, other, path, body, authorization)
    assert response.status_code == 403
    assert response.get_json()["error"]["code"] == "wrong_key"
    assert table.state(match)["seq"] == 1


@pytest.mark.parametrize(("path", "body"), WRITES, ids=["events", "undo"])
def test_the_right_key_writes(client, table, two_matches, path, body):
    dealt, fresh = two_matches
    target, bystander = (fresh, dealt) if path.endswith("events") else (dealt, fresh)
    response = write(client, target, bystander, path, body, "bearer  {key} ")
    assert response.status_code == 201, response.get_json()
    assert table.state(target)["seq"] == response.get_json()["event"]["seq"]


@pytest.mark.parametrize(("path", "body"), WRITES, ids=["events", "undo"])
def test_an_unknown_match_is_404_whatever_the_key(client, two_matches, path, body):
    match, other = two_matches
    response = client.post(path.format(id=match["id"] + "x"), json=body, headers={"Authorization": "Bearer x"})
    assert response.status_code == 404
    assert response.get_json()["error"]["code"] == "match_not_found"


def test_reading_needs_no_key(client, two_matches):
    match, _ = two_matches
    for path in ("/api/matches/{id}", "/api/matches/{id}/events", "/api/matches/{id}/settlement"):
        assert client.get(path.format(id=match["id"])).status_code == 200


def test_the_key_is_shown_once_and_stored_only_as_a_hash(app, table, two_matches):
    match, other = two_matches
    assert "key" not in table.state(match)
    with sqlite3.connect(app.config["DATABASE"]) as db:
        dump = "\n".join(db.iterdump())
    assert match["key"] not in dump and other["key"] not in dump
    assert match["id"] in dump


def test_ids_and_keys_are_long_random_and_distinct(table):
    matches = [table.new_match(players=["A", "B"]) for _ in range(5)]
    for match in matches:
        assert len(base64.urlsafe_b64decode(match["id"] + "==")) >= 16
        assert len(base64.urlsafe_b64decode(match["key"] + "==")) >= 32
    assert len({m["id"] for m in matches}) == len({m["key"] for m in matches}) == 5
