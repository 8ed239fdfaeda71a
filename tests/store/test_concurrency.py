"""Two phones writing at once, for real: threads released together post to the same match. With
`expect_seq`, exactly one write of each race is recorded and the other gets 409 seq_conflict with the
current state; without it, nothing is ever recorded twice or out of order."""

from __future__ import annotations

import threading

import pytest

pytestmark = pytest.mark.both_stores

ROUNDS = 25


@pytest.fixture
def match(table):
    return table.new_match(players=["Ala", "Ola", "Ela"], options={"limit": 1000})


def race(app, match, bodies: list[tuple[str, dict | None]]) -> list:
    """Posts each (route, body) from its own thread, all released at once; the responses in order."""
    barrier = threading.Barrier(len(bodies))
    responses: list = [None] * len(bodies)

    def post(index: int, route: str, body: dict | None) -> None:
        client = app.test_client()
        barrier.wait()
        responses[index] = client.post(f"/api/matches/{match['id']}/{route}", json=body,
                                       headers={"Authorization": f"Bearer {match['key']}"})

    threads = [threading.Thread(target=post, args=(i, *body)) for i, body in enumerate(bodies)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return responses


def penalty(seat: int, **fields) -> tuple[str, dict]:
    return "events", {"type": "penalty", "seat": seat, "points": 1, **fields}


def test_racing_writers_with_expect_seq_record_exactly_one(app, table, match, contract_check):
    for seq in range(ROUNDS):
        responses = race(app, match, [penalty(0, expect_seq=seq), penalty(1, expect_seq=seq)])

        for response in responses:
            contract_check(response)
        assert sorted(r.status_code for r in responses) == [201, 409], [r.get_json() for r in responses]
        won = next(r.get_json() for r in responses if r.status_code == 201)
        lost = next(r.get_json()["error"] for r in responses if r.status_code == 409)
        assert won["event"]["seq"] == seq + 1
        assert lost["code"] == "seq_conflict"
        assert lost["details"]["seq"] == seq + 1
        assert lost["details"]["state"] == won["state"] == table.state(match)
    assert [e["seq"] for e in table.events(match)] == list(range(1, ROUNDS + 1))


def test_racing_undos_with_expect_seq_undo_once(app, table, match):
    for seat in range(3):
        table.post_event(match, {"type": "penalty", "seat": seat, "points": 1})
    for seq in (3, 4, 5):  # each round undoes one more penalty; the log grows by one undo
        responses = race(app, match, [("undo", {"expect_seq": seq}), ("undo", {"expect_seq": seq})])
        assert sorted(r.status_code for r in responses) == [201, 409]
    events = table.events(match)
    assert [e["type"] for e in events] == ["penalty"] * 3 + ["undo"] * 3
    assert [e["undone_by"] for e in events[:3]] == [6, 5, 4]
    assert all(p["score"] == 0 for p in table.state(match)["players"])


def test_racing_writers_without_expect_seq_never_share_a_seq(app, table, match):
    recorded = []
    for _ in range(ROUNDS):
        responses = race(app, match, [penalty(0), penalty(1), penalty(2)])
        for response in responses:
            assert response.status_code in (201, 409), response.get_json()
            if response.status_code == 409:
                assert response.get_json()["error"]["code"] == "seq_conflict"
            else:
                recorded.append(response.get_json()["event"])
    events = table.events(match)
    assert sorted(e["seq"] for e in recorded) == [e["seq"] for e in events] == list(range(1, len(events) + 1))
    assert len(events) >= ROUNDS
    assert sum(p["score"] for p in table.state(match)["players"]) == len(events)
