"""What a stake and a player's name may be: amounts written plainly, names people can tell apart."""

from __future__ import annotations

import pytest

PLAYERS = ["S", "W", "N", "E"]


@pytest.mark.parametrize("stake, shown", [
    ("0.50", "0.50"), ("2", "2"), (2, "2"), (0.5, "0.5"), (2.0, "2"), ("1000000", "1000000"), ("0.0001", "0.0001"),
    ("0", "0"), (" 1.5 ", "1.5"),
])
def test_a_plain_amount_is_a_stake(table, stake, shown):
    assert table.new_match(stake=stake)["stake"] == shown


@pytest.mark.parametrize("stake", [
    "1e-999999999", "1E+6", "0E+999999999", "-0", "-1", "+1", "1_000", "٣", "１", "1,5", "0.00001", ".5", "5.",
    "NaN", "Infinity", "1000000.01", 1e-7, -0.5, 1e20, "0x10",
])
def test_anything_else_is_refused_with_a_clear_error(table, stake):
    refused = table.new_match(stake=stake, expect=422)["error"]
    assert refused["code"] in ("bad_stake", "invalid_input") and "stake" in refused["message"]


def test_a_zero_stake_settles_without_a_minus_zero(table):
    match = table.new_match(stake="0")
    settlement = table.client.get(f"/api/matches/{match['id']}/settlement").get_json()
    assert all(not player["net"].startswith("-") for player in settlement["players"])


@pytest.mark.parametrize("names", [
    ["Ann", "Ａｎｎ", "N", "E"],  # full-width letters
    ["Ann", "ann", "N", "E"],
    ["Anna", "Аnna", "N", "E"],  # a Cyrillic А
    ["Olek", "Οlek", "N", "E"],  # a Greek Ο
    ["José", "Jose\u0301", "N", "E"],  # é composed and decomposed
    ["Ann", "An\u200bn", "N", "E"],  # a zero-width space inside
    ["Ann Lee", "Ann  Lee", "N", "E"],
])
def test_names_that_look_the_same_are_refused_as_one_player(table, names):
    refused = table.new_match(players=names, expect=422)["error"]
    assert refused["code"] == "bad_players" and "look the same" in refused["message"]


@pytest.mark.parametrize("name", ["\u200b", "\u3164", "\u2800", "\u115f\u1160", "\u00ad", "\u200d\u200d", " \u2060 "])
def test_a_name_needs_a_character_that_can_be_seen(table, name):
    refused = table.new_match(players=["S", "W", "N", name], expect=422)["error"]
    assert refused["code"] == "bad_players"


def test_names_are_kept_composed_and_distinct_scripts_stay_distinct(table):
    match = table.new_match(players=["Jose\u0301", "Юля", "Łucja", "名人"])
    assert [p["name"] for p in match["players"]] == ["Jos\u00e9", "Юля", "Łucja", "名人"]


@pytest.mark.parametrize("reason", ["cut\x00the deck", "cut\r\nthe deck", "cut\tthe deck", "cut\u2028deck",
                                    "\u202ecut"])
def test_a_penalty_reason_refuses_control_characters(table, reason):
    match = table.new_match()
    refused = table.post_event(match, {"type": "penalty", "seat": 0, "points": 5, "reason": reason}, expect=422)
    assert refused["error"]["code"] in ("bad_reason", "invalid_input")
    assert table.state(match)["seq"] == 0


def test_a_plain_reason_is_kept(table):
    match = table.new_match()
    event = table.post_event(match, {"type": "penalty", "seat": 0, "points": 5, "reason": "Przełożył talię ♠"})
    assert event["event"]["reason"] == "Przełożył talię ♠"


@pytest.mark.parametrize("number", ["1e-400", "-2.5E-999", "1e400", "5e+309"])
def test_a_number_beyond_what_a_float_holds_is_refused_not_read_as_another(table, number):
    """1e-400 was read as 0 and made a match with no stake; 1e400 as infinity."""
    body = '{"game": "ogorek", "players": ["S", "W"], "stake": ' + number + '}'
    answer = table.client.post("/api/matches", data=body, content_type="application/json")
    assert answer.status_code == 400, answer.get_json()
    error = answer.get_json()["error"]
    assert error["code"] == "bad_json" and number in error["message"] and "exactly" in error["message"]


@pytest.mark.parametrize("number, shown", [("5e-1", "0.5"), ("2E0", "2"), ("0e5", "0")])
def test_a_number_with_an_exponent_within_range_is_read_as_written(table, number, shown):
    body = '{"game": "ogorek", "players": ["S", "W"], "stake": ' + number + '}'
    answer = table.client.post("/api/matches", data=body, content_type="application/json")
    assert answer.status_code == 201, answer.get_json()
    assert answer.get_json()["stake"] == shown
