"""Safe retries: Idempotency-Key returns the first answer and records nothing; expect_seq and the
store's (match_id, seq) key refuse a write when the log has moved on."""

from __future__ import annotations

import pytest

from api import keys, matches, store

pytestmark = pytest.mark.both_stores


@pytest.fixture
def dealt(table):
    match = table.new_match()
    table.post_event(match, {"type": "deal", "dealer": 0})
    return match


def post(client, match, body, idempotency_key=None, route="events"):
    headers = {"Authorization": f"Bearer {match['key']}"}
    if idempotency_key is not None:
        headers["Idempotency-Key"] = idempotency_key
    return client.post(f"/api/matches/{match['id']}/{route}", json=body, headers=headers)


def test_a_retry_gets_the_first_answer_and_records_nothing(client, table, dealt):
    first = post(client, dealt, {"type": "play", "seat": 1, "card": "K"}, "phone-1-0001")
    retry = post(client, dealt, {"type": "play", "seat": 1, "card": "K"}, "phone-1-0001")

    assert first.status_code == retry.status_code == 201
    assert retry.get_json() == first.get_json()
    assert [e["seq"] for e in table.events(dealt)] == [1, 2]


def test_a_late_retry_still_gets_the_first_answer(client, table, dealt):
    first = post(client, dealt, {"type": "play", "seat": 1, "card": "K"}, "k1")
    table.play(dealt, "N", "2")
    table.undo(dealt)

    retry = post(client, dealt, {"type": "play", "seat": 1, "card": "K"}, "k1")

    assert retry.status_code == 201
    assert retry.get_json() == first.get_json()
    assert table.state(dealt)["seq"] == 4


def test_a_retry_of_a_play_that_raised_a_finding_gets_the_finding_again(client, table, dealt):
    for seat, card in [("W", "K"), ("N", "2"), ("E", "3"), ("S", "A"), ("S", "9"), ("W", "K"), ("N", "5")]:
        table.play(dealt, seat, card)
    first = post(client, dealt, {"type": "play", "seat": 3, "card": "2"}, "proof")  # E played 3 on K as lowest
    assert [f["code"] for f in first.get_json()["findings"]] == ["must_play_lowest"]

    retry = post(client, dealt, {"type": "play", "seat": 3, "card": "2"}, "proof")
    assert retry.get_json() == first.get_json()


def test_the_same_key_with_another_body_is_refused(client, table, dealt):
    post(client, dealt, {"type": "play", "seat": 1, "card": "K"}, "k1")

    other = post(client, dealt, {"type": "play", "seat": 2, "card": "A"}, "k1")
    undo = post(client, dealt, None, "k1", route="undo")

    for response in (other, undo):
        assert response.status_code == 422
        assert response.get_json()["error"]["code"] == "idempotency_key_reused"
    assert table.state(dealt)["seq"] == 2


def test_an_undo_retried_undoes_once(client, table, dealt):
    table.play(dealt, "W", "K")
    first = post(client, dealt, None, "undo-1", route="undo")
    retry = post(client, dealt, None, "undo-1", route="undo")

    assert retry.get_json() == first.get_json()
    assert [e["type"] for e in table.events(dealt)] == ["deal", "play", "undo"]


def test_a_refused_request_is_not_remembered(client, table, dealt):
    refused = post(client, dealt, {"type": "play", "seat": 2, "card": "K"}, "k1")
    assert refused.status_code == 409

    assert post(client, dealt, {"type": "play", "seat": 2, "card": "K"}, "k1").status_code == 409
    assert post(client, dealt, {"type": "play", "seat": 1, "card": "K"}, "k2").status_code == 201


def test_keys_belong_to_their_match(client, table, dealt):
    other = table.new_match(players=["Ala", "Ola"])
    assert post(client, dealt, {"type": "play", "seat": 1, "card": "K"}, "shared").status_code == 201
    assert post(client, other, {"type": "deal", "dealer": 0}, "shared").status_code == 201


@pytest.mark.parametrize("key", ["", " ", "with space", "x" * 201, "zażółć"])
def test_a_malformed_idempotency_key_is_refused(client, dealt, key):
    response = client.post(f"/api/matches/{dealt['id']}/events", json={"type": "play", "seat": 1, "card": "K"},
                           headers={"Authorization": f"Bearer {dealt['key']}",
                                    "Idempotency-Key": key.encode().decode("latin-1")})
    assert response.status_code == 422
    assert response.get_json()["error"]["code"] == "bad_idempotency_key"


def test_expect_seq_matching_the_log_is_recorded(table, dealt):
    assert table.play(dealt, "W", "K", expect_seq=1)["event"]["seq"] == 2


def test_expect_seq_behind_the_log_is_refused_with_the_current_state(table, dealt):
    table.play(dealt, "W", "K")

    refused = table.play(dealt, "N", "A", expect=409, expect_seq=1)

    error = refused["error"]
    assert error["code"] == "seq_conflict"
    assert error["details"]["seq"] == 2
    assert error["details"]["state"] == table.state(dealt)
    assert table.state(dealt)["seq"] == 2


def another_phone_writes_first(monkeypatch, event, idempotency_key=None, request_hash=None):
    """Between our read of the log and our write, another phone appends `event` as the next seq."""
    up_to_date = matches.up_to_date

    def read_then_race(match_id, match, latest):
        loaded = up_to_date(match_id, match, latest)
        monkeypatch.setattr(matches, "up_to_date", up_to_date)
        store.current().append_event(match_id, {**event, "seq": loaded.seq + 1}, idempotency_key, request_hash)
        return loaded

    monkeypatch.setattr(matches, "up_to_date", read_then_race)


def test_two_phones_logging_the_same_seq_the_second_gets_a_conflict(client, table, dealt, monkeypatch):
    another_phone_writes_first(monkeypatch, {"type": "play", "seat": 1, "card": "K"})

    response = post(client, dealt, {"type": "play", "seat": 1, "card": "A"})

    assert response.status_code == 409
    error = response.get_json()["error"]
    assert error["code"] == "seq_conflict"
    assert error["details"]["seq"] == 2
    assert error["details"]["state"]["deal"]["table"] == [{"seat": 1, "card": "K", "seq": 2}]
    assert [e.get("card") for e in table.events(dealt)] == [None, "K"]


def test_a_retry_racing_its_own_first_attempt_gets_the_first_answer(client, table, dealt, monkeypatch):
    body = {"type": "play", "seat": 1, "card": "K"}
    digest = keys.request_hash("event", body)
    another_phone_writes_first(monkeypatch, body, "k1", digest)

    response = post(client, dealt, body, "k1")

    assert response.status_code == 201
    assert response.get_json()["event"] == {**body, "seq": 2, "format": 2}
    assert len(table.events(dealt)) == 2
