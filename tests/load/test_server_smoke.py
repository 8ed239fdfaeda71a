"""A real gunicorn on a free loopback port and a temporary database: a match played over HTTP."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest
from gunicorn_server import serve


@pytest.fixture
def server(tmp_path):
    """gunicorn on 127.0.0.1, on a port the system picks; yields the base URL and stops the server after."""
    with serve(tmp_path / "data" / "referee.db") as base:
        yield base


def call(base: str, method: str, path: str, body=None, key: str | None = None) -> tuple[int, dict]:
    headers = {"Content-Type": "application/json"} if body is not None else {}
    if key:
        headers["Authorization"] = f"Bearer {key}"
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        with error:
            return error.code, json.loads(error.read())


@pytest.mark.server
def test_a_match_over_real_http(server, tmp_path):
    status, match = call(server, "POST", "/api/matches", {"game": "ogorek", "players": ["S", "W", "N", "E"],
                                                          "stake": "0.50", "currency": "PLN"})
    assert status == 201
    events = f"/api/matches/{match['id']}/events"
    key = match["key"]

    assert call(server, "POST", events, {"type": "deal", "dealer": 0}, key)[0] == 201
    for seat, card in [(1, "K"), (2, "2"), (3, "3"), (0, "A")]:
        status, answer = call(server, "POST", events, {"type": "play", "seat": seat, "card": card}, key)
        assert status == 201, answer
    assert answer["state"]["deal"]["tricks"][0]["winner"] == 0

    assert call(server, "POST", events, {"type": "play", "seat": 1, "card": "9"}, key)[1]["error"]["code"] == (
        "not_your_turn")
    assert call(server, "POST", events, {"type": "play", "seat": 0, "card": "9"})[0] == 401
    for _ in range(3):  # requests land on both workers: all see the same state
        status, state = call(server, "GET", f"/api/matches/{match['id']}")
        assert (status, state["seq"], state["expected"]["seat"]) == (200, 5, 0)
    assert (tmp_path / "data" / "referee.db").exists()
