"""An evening's room holds under concurrency: the count of its matches and people is checked in the transaction
that adds a match, so creations sent at once with the evening's key cannot all pass a check made before any of
them was written (12 at once put 96 people into an evening of at most 12, and 70 matches into one of 60)."""

from __future__ import annotations

import threading

import pytest

from referee.evening import MAX_MATCHES, MAX_PEOPLE

pytestmark = pytest.mark.both_stores


def new_evening(client) -> dict:
    response = client.post("/api/evenings", json={"name": "Friday", "currency": "PLN"})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def at_once(app, evening: dict, tables: list[list[str]]) -> list:
    """Creates one match per table of names, each from its own thread, all released together."""
    barrier = threading.Barrier(len(tables))
    answers: list = [None] * len(tables)

    def create(index: int, players: list[str]) -> None:
        client = app.test_client()
        barrier.wait()
        answers[index] = client.post("/api/matches", json={"game": "ogorek", "players": players,
                                                           "evening": evening["id"]},
                                     headers={"Authorization": f"Bearer {evening['key']}"})

    threads = [threading.Thread(target=create, args=(i, players)) for i, players in enumerate(tables)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return answers


def test_people_sent_at_once_never_overfill_an_evening(app, client):
    evening = new_evening(client)
    tables = [[f"P{i}-{seat}" for seat in range(8)] for i in range(12)]  # 96 different people

    answers = at_once(app, evening, tables)

    created = [a for a in answers if a.status_code == 201]
    refused = [a.get_json()["error"] for a in answers if a.status_code != 201]
    assert len(created) == MAX_PEOPLE // 8  # the first match of 8 fits, a second would make 16
    assert all(r["code"] == "evening_full" and r["details"] == {"people": MAX_PEOPLE} for r in refused), refused
    shown = client.get(f"/api/evenings/{evening['id']}").get_json()
    assert len(shown["people"]) <= MAX_PEOPLE
    assert len(shown["matches"]) == len(created)


def test_matches_sent_at_once_never_overfill_an_evening(app, client):
    evening = new_evening(client)
    players = ["Ann", "Bob"]
    for _ in range(MAX_MATCHES - 6):
        assert client.post("/api/matches", json={"game": "ogorek", "players": players, "evening": evening["id"]},
                           headers={"Authorization": f"Bearer {evening['key']}"}).status_code == 201

    answers = at_once(app, evening, [players] * 12)

    assert sorted(a.status_code for a in answers) == [201] * 6 + [422] * 6
    assert {a.get_json()["error"]["code"] for a in answers if a.status_code == 422} == {"evening_full"}
    shown = client.get(f"/api/evenings/{evening['id']}").get_json()
    assert len(shown["matches"]) == MAX_MATCHES
