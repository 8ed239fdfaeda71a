"""Every class of bad input gets its status and code, in the one error shape; nothing gets a 500."""

from __future__ import annotations

import pytest

import api.matches
import api.views

EVENTS = "/api/matches/{id}/events"
UNDO = "/api/matches/{id}/undo"
MATCHES = "/api/matches"
JSON = "application/json"

# (name, method, path, body as text or JSON, content type, status, code)
CASES = [
    ("malformed JSON", "POST", EVENTS, "{", JSON, 400, "bad_json"),
    ("no body", "POST", EVENTS, "", None, 400, "bad_json"),
    ("wrong content type", "POST", EVENTS, '{"type": "end"}', "text/plain", 400, "bad_content_type"),
    ("form body", "POST", MATCHES, "game=ogorek", "application/x-www-form-urlencoded", 400, "bad_content_type"),
    ("NaN", "POST", EVENTS, '{"type": "play", "seat": NaN, "card": "K"}', JSON, 400, "bad_json"),
    ("lone surrogate", "POST", MATCHES, '{"game": "ogorek", "players": ["\\ud800", "B"]}', JSON, 400, "bad_json"),
    ("deep nesting", "POST", EVENTS, "[" * 50_000 + "]" * 50_000, JSON, 413, "body_too_large"),
    ("nesting under the limit", "POST", EVENTS, "[" * 20_000 + "]" * 20_000, JSON, 400, "bad_json"),
    ("not UTF-8", "POST", MATCHES, b'{"game": "\xff"}', JSON, 400, "bad_json"),
    ("body over 64 KiB", "POST", MATCHES, '{"game": "' + "x" * 70_000 + '"}', JSON, 413, "body_too_large"),
    ("unknown route", "GET", "/api/nowhere", None, None, 404, "not_found"),
    ("double slash", "POST", "/api/matches//events", {"type": "end"}, JSON, 404, "not_found"),
    ("wrong method", "DELETE", "/api/matches/{id}", None, None, 405, "method_not_allowed"),
    ("unknown match", "GET", "/api/matches/no-such-match", None, None, 404, "match_not_found"),
    ("unknown match, write", "POST", "/api/matches/no-such-match/undo", None, None, 404, "match_not_found"),
    ("top-level array", "POST", EVENTS, [], JSON, 422, "invalid_input"),
    ("no type", "POST", EVENTS, {"seat": 1}, JSON, 422, "invalid_input"),
    ("unknown event type", "POST", EVENTS, {"type": "shuffle"}, JSON, 422, "invalid_input"),
    ("undo as an event", "POST", EVENTS, {"type": "undo"}, JSON, 422, "invalid_input"),
    ("event the game lacks", "POST", EVENTS, {"type": "bid", "seat": 1, "bid": 2}, JSON, 422, "bad_event_type"),
    ("unknown field", "POST", EVENTS, {"type": "play", "seat": 1, "card": "K", "x": 1}, JSON, 422, "invalid_input"),
    ("seat as text", "POST", EVENTS, {"type": "play", "seat": "1", "card": "K"}, JSON, 422, "invalid_input"),
    ("seat as boolean", "POST", EVENTS, {"type": "play", "seat": True, "card": "K"}, JSON, 422, "invalid_input"),
    ("seat with a fraction", "POST", EVENTS, {"type": "play", "seat": 1.5, "card": "K"}, JSON, 422, "invalid_input"),
    ("negative seat", "POST", EVENTS, {"type": "play", "seat": -1, "card": "K"}, JSON, 422, "bad_seat"),
    ("seat beyond 64 bits", "POST", EVENTS, '{"type": "play", "seat": 123456789012345678901234567, "card": "K"}', JSON,
     422, "bad_seat"),
    ("body after a UTF-8 BOM", "POST", EVENTS, '\ufeff{"type": "play", "seat": -1, "card": "K"}'.encode(), JSON, 422,
     "bad_seat"),
    ("seat past the table", "POST", EVENTS, {"type": "play", "seat": 7, "card": "K"}, JSON, 422, "bad_seat"),
    ("seat past the table", "POST", EVENTS, {"type": "play", "seat": 4, "card": "K"}, JSON, 422, "bad_seat"),
    ("bad card", "POST", EVENTS, {"type": "play", "seat": 1, "card": "Z"}, JSON, 422, "bad_card"),
    ("card as number", "POST", EVENTS, {"type": "play", "seat": 1, "card": 10}, JSON, 422, "invalid_input"),
    ("force as text", "POST", EVENTS, {"type": "end", "force": "yes"}, JSON, 422, "invalid_input"),
    ("zero penalty", "POST", EVENTS, {"type": "penalty", "seat": 1, "points": 0}, JSON, 422, "bad_points"),
    ("huge penalty", "POST", EVENTS, {"type": "penalty", "seat": 1, "points": 10**30}, JSON, 422, "bad_points"),
    ("bad hands", "POST", EVENTS, {"type": "deal", "hands": {"x": ["K"]}}, JSON, 422, "invalid_input"),
    ("negative expect_seq", "POST", UNDO, {"expect_seq": -1}, JSON, 422, "invalid_input"),
    ("unknown undo field", "POST", UNDO, {"seq": 1}, JSON, 422, "invalid_input"),
    ("undo body null", "POST", UNDO, "null", JSON, 422, "invalid_input"),
    ("new match null", "POST", MATCHES, "null", JSON, 422, "invalid_input"),
    ("unknown game", "POST", MATCHES, {"game": "poker", "players": ["A", "B"]}, JSON, 422, "unknown_game"),
    ("no players", "POST", MATCHES, {"game": "ogorek"}, JSON, 422, "invalid_input"),
    ("one player", "POST", MATCHES, {"game": "ogorek", "players": ["A"]}, JSON, 422, "bad_players"),
    ("nine players", "POST", MATCHES, {"game": "ogorek", "players": list("ABCDEFGHI")}, JSON, 422, "invalid_input"),
    ("same names", "POST", MATCHES, {"game": "ogorek", "players": ["Ala", "ala"]}, JSON, 422, "bad_players"),
    ("empty name", "POST", MATCHES, {"game": "ogorek", "players": ["Ala", " "]}, JSON, 422, "bad_players"),
    ("long name", "POST", MATCHES, {"game": "ogorek", "players": ["Ala", "x" * 41]}, JSON, 422, "bad_players"),
    ("unknown option", "POST", MATCHES, {"game": "ogorek", "players": ["A", "B"], "options": {"jokers": 3}}, JSON,
     422, "bad_options"),
    ("bad option", "POST", MATCHES, {"game": "ogorek", "players": ["A", "B"], "options": {"limit": 0}}, JSON,
     422, "bad_options"),
    ("stake with an exponent", "POST", MATCHES, {"game": "ogorek", "players": ["A", "B"], "stake": 1e-7}, JSON,
     422, "bad_stake"),
    ("stake not a number", "POST", MATCHES, {"game": "ogorek", "players": ["A", "B"], "stake": "lots"}, JSON,
     422, "bad_stake"),
    ("negative stake", "POST", MATCHES, {"game": "ogorek", "players": ["A", "B"], "stake": "-1"}, JSON,
     422, "bad_stake"),
    ("bad currency", "POST", MATCHES, {"game": "ogorek", "players": ["A", "B"], "currency": "zloty"}, JSON,
     422, "bad_currency"),
    ("not your turn", "POST", EVENTS, {"type": "play", "seat": 2, "card": "K"}, JSON, 409, "not_your_turn"),
    ("deal in progress", "POST", EVENTS, {"type": "deal"}, JSON, 409, "deal_in_progress"),
    ("stale expect_seq", "POST", EVENTS, {"type": "play", "seat": 1, "card": "K", "expect_seq": 0}, JSON,
     409, "seq_conflict"),
]


@pytest.fixture
def dealt(table):
    """A match of S, W, N, E with S dealing: W is to lead."""
    match = table.new_match()
    table.post_event(match, {"type": "deal", "dealer": 0})
    return match


def send(client, match, method, path, body, content_type, headers=None):
    kwargs = {"headers": {"Authorization": f"Bearer {match['key']}", **(headers or {})}}
    if isinstance(body, (dict, list)):
        kwargs["json"] = body
    elif body is not None:
        kwargs["data"] = body
        if content_type:
            kwargs["content_type"] = content_type
    return client.open(path.format(id=match["id"]), method=method, **kwargs)


def assert_error_shape(response, status, code):
    body = response.get_json()
    assert response.status_code == status, body
    assert set(body) == {"error"}
    assert set(body["error"]) == {"code", "message", "details"}
    assert body["error"]["code"] == code
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    assert isinstance(body["error"]["details"], dict)
    return body["error"]


@pytest.mark.parametrize(("name", "method", "path", "body", "content_type", "status", "code"), CASES,
                         ids=[case[0] for case in CASES])
def test_bad_input_gets_its_status_and_code(client, dealt, name, method, path, body, content_type, status, code):
    response = send(client, dealt, method, path, body, content_type)
    assert_error_shape(response, status, code)


def test_field_messages_are_in_the_details(client, dealt):
    response = send(client, dealt, "POST", EVENTS, {"type": "play", "seat": "1", "card": 10, "x": 1}, JSON)
    error = assert_error_shape(response, 422, "invalid_input")
    assert set(error["details"]) == {"seat", "card", "x"}
    assert "seat" in error["message"] and "card" in error["message"]


def test_a_rule_rejection_says_who_and_whether_it_can_be_forced(client, dealt):
    response = send(client, dealt, "POST", EVENTS, {"type": "play", "seat": 2, "card": "K"}, JSON)
    error = assert_error_shape(response, 409, "not_your_turn")
    assert error["details"] == {"seat": 2, "forceable": False, "turn": 1}
    assert error["message"] == "It is W's turn, not N's."


def test_a_whole_number_written_with_a_point_is_that_number(client, dealt):
    """1.0 is the JSON number 1 (an integer for JSON Schema, hence for openapi.yaml): it is seat 1."""
    response = send(client, dealt, "POST", EVENTS, {"type": "play", "seat": 1.0, "card": "K", "expect_seq": 1.0}, JSON)
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["event"] == {"type": "play", "seat": 1, "card": "K", "seq": 2, "format": 2}


def test_wrong_method_says_which_methods_are_allowed(client, dealt):
    response = send(client, dealt, "PUT", EVENTS, None, None)
    assert_error_shape(response, 405, "method_not_allowed")
    assert {"GET", "POST"} <= set(response.headers["Allow"].replace(" ", "").split(","))


def test_an_unexpected_failure_is_a_500_without_a_trace(client, dealt, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("secret internals /etc/passwd")

    monkeypatch.setattr(api.views.Match, "view", broken)
    client.application.extensions[api.matches.CACHE].states.clear()  # the deal's answer is not served again
    response = client.get(f"/api/matches/{dealt['id']}")
    error = assert_error_shape(response, 500, "internal_error")
    assert "secret" not in response.get_data(as_text=True)
    assert "Traceback" not in response.get_data(as_text=True)
    assert error["details"] == {}


def test_a_whole_number_beyond_64_bits_is_read_as_written(client, dealt):
    """The body's reader keeps every digit of a long whole number (never a float's rounding of it)."""
    body = '{"type": "play", "seat": 1, "card": "K", "expect_seq": 123456789012345678901234567}'
    error = assert_error_shape(send(client, dealt, "POST", EVENTS, body, JSON), 409, "seq_conflict")
    assert "123456789012345678901234567" in error["message"]
