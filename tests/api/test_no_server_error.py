"""No input of any kind yields a 500: random bodies, shaped and unshaped, on every write route."""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

EVENT_TYPES = ["deal", "play", "bid", "exchange", "attack", "defend", "penalty", "end", "undo"]
CARDS = ["2", "9", "10", "T", "J", "Q", "K", "A", "X", "10H", "QS", "9♠", "kh", "1", "11", "Z", "", " K "]
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "120"))  # raise it to search longer by hand
FUZZ = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.integers(-3, 10) | st.floats(allow_nan=False)
    | st.text(max_size=12) | st.sampled_from(CARDS),
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=6), children, max_size=4),
    max_leaves=12,
)
cards = st.sampled_from(CARDS) | json_values
plausible = {
    "seat": st.integers(-2, 9) | json_values,
    "dealer": st.none() | st.integers(-2, 9) | json_values,
    "card": cards,
    "cards": st.lists(cards, max_size=7) | json_values,
    "beats": st.lists(st.fixed_dictionaries({"card": cards, "with": cards}), max_size=3) | json_values,
    "hands": st.dictionaries(st.sampled_from(["0", "1", "2", "3", "9", "x", "-1"]), st.lists(cards, max_size=8),
                             max_size=4) | json_values,
    "trump": cards,
    "bid": st.integers(-2, 60) | json_values,
    "points": st.integers(-5, 2000) | json_values,
    "reason": st.text(max_size=250) | json_values,
    "force": st.booleans() | json_values,
    "expect_seq": st.integers(-2, 40) | json_values,
    "extra": json_values,
}
events = st.builds(lambda kind, fields: {"type": kind, **fields},
                   st.sampled_from(EVENT_TYPES) | json_values,
                   st.dictionaries(st.sampled_from(sorted(plausible)), json_values, max_size=4).flatmap(
                       lambda chosen: st.fixed_dictionaries({key: plausible[key] for key in chosen})))
new_matches = st.fixed_dictionaries(
    {"game": st.sampled_from(["ogorek", "Ogorek", ""]) | json_values},
    optional={
        "players": st.lists(st.text(max_size=45), max_size=10) | json_values,
        "options": st.dictionaries(st.sampled_from(["packets", "ace_penalty", "limit", "cut_penalty", "all_out", "x"]),
                                   json_values | st.integers(-5, 2000), max_size=3) | json_values,
        "stake": st.sampled_from(["0.50", "1e9", "NaN", "-0", "0.00001", "Infinity", "1_0"]) | json_values,
        "currency": st.sampled_from(["PLN", "pln", "EURO", ""]) | json_values,
        "extra": json_values,
    },
)
bodies = json_values | events | new_matches


@pytest.fixture
def dealt(table):
    match = table.new_match()
    table.post_event(match, {"type": "deal", "dealer": 0})
    return match


def assert_no_server_error(response):
    assert response.status_code < 500, response.get_data(as_text=True)
    body = response.get_json()
    assert ("error" in body) == (response.status_code >= 400)


@FUZZ
@given(body=events | bodies)
def test_random_events(client, dealt, body):
    response = client.post(f"/api/matches/{dealt['id']}/events", json=body,
                           headers={"Authorization": f"Bearer {dealt['key']}"})
    assert_no_server_error(response)


@FUZZ
@given(body=new_matches | bodies)
def test_random_new_matches(client, body):
    assert_no_server_error(client.post("/api/matches", json=body))


@FUZZ
@given(body=bodies, route=st.sampled_from(["events", "undo"]), key=st.sampled_from(["mine", "none", "junk"]),
       idempotency_key=st.none() | st.sampled_from(["k1", "k2"])
       | st.text(st.characters(exclude_categories=["Cc", "Cs"]), max_size=5))
def test_random_writes_with_random_keys(client, dealt, body, route, key, idempotency_key):
    headers = {"Authorization": {"mine": f"Bearer {dealt['key']}", "none": "", "junk": "Bearer \u00ff"}[key]}
    if idempotency_key is not None:
        headers["Idempotency-Key"] = idempotency_key.encode("utf-8").decode("latin-1")
    response = client.post(f"/api/matches/{dealt['id']}/{route}", json=body, headers=headers)
    assert_no_server_error(response)


@FUZZ
@given(data=st.binary(max_size=200) | st.text(max_size=200).map(str.encode)
       | json_values.map(lambda value: json.dumps(value).encode()),
       content_type=st.sampled_from(["application/json", "text/plain", "application/json; charset=latin-1", ""]),
       path=st.sampled_from(["/api/matches", "/api/matches/{id}/events", "/api/matches/{id}/undo"]))
def test_random_bytes(client, dealt, data, content_type, path):
    response = client.post(path.format(id=dealt["id"]), data=data, content_type=content_type,
                           headers={"Authorization": f"Bearer {dealt['key']}"})
    assert_no_server_error(response)


@FUZZ
@given(match_id=st.text(min_size=1, max_size=40),
       suffix=st.sampled_from(["", "/events", "/settlement"]))
def test_random_match_ids(client, match_id, suffix):
    assert_no_server_error(client.get(f"/api/matches/{match_id}{suffix}"))
