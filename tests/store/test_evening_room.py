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


@pytest.mark.server
def test_a_real_server_keeps_the_room_under_a_burst_and_answers_the_evening(tmp_path, database):
    """Two gunicorn workers (the processes `make serve` runs), twelve creations of eight new people each sent
    at once, then the evening read twice at once while another phone asks for the games."""
    import json
    from concurrent.futures import ThreadPoolExecutor
    from http.client import HTTPConnection
    from urllib.parse import urlsplit

    from gunicorn_server import gunicorn

    def call(base, method, path, body=None, key=None):
        where = urlsplit(base)
        connection = HTTPConnection(where.hostname, where.port, timeout=60)
        headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {key}"} if key else {})}
        connection.request(method, path, json.dumps(body) if body is not None else None, headers)
        answer = connection.getresponse()
        status, data = answer.status, json.loads(answer.read())
        connection.close()
        return status, data

    with gunicorn(env={"REFEREE_DB": database}, workers=2) as base:
        status, evening = call(base, "POST", "/api/evenings", {"name": "Friday", "currency": "PLN"})
        assert status == 201
        bodies = [{"game": "ogorek", "players": [f"P{i}-{seat}" for seat in range(8)], "evening": evening["id"]}
                  for i in range(12)]
        with ThreadPoolExecutor(12) as pool:
            answers = list(pool.map(lambda body: call(base, "POST", "/api/matches", body, evening["key"]), bodies))
        assert sorted(status for status, _ in answers) == [201] + [422] * 11
        with ThreadPoolExecutor(3) as pool:
            reads = [pool.submit(call, base, "GET", f"/api/evenings/{evening['id']}") for _ in range(2)]
            games = pool.submit(call, base, "GET", "/api/games")
            assert games.result()[0] == 200
            shown = [read.result() for read in reads]
    assert all(status == 200 and len(data["people"]) == 8 for status, data in shown)
