"""What only the PostgreSQL store does: storage faults of a database server (down, a connection lost in the
middle of a write) answered 503 with nothing recorded, a stream woken by `NOTIFY` alone when another app
server logs an event, and the followers on one gunicorn getting every play posted through another.

The tests shared by both stores (the interface, the API, retries, races, the stream) are marked
`both_stores` in their own files; these run on the session's throwaway cluster (`tests/support/postgres_server.py`).
"""

from __future__ import annotations

import time

import psycopg
import pytest
from conftest import ContractClient, Table, stored
from flask.testing import FlaskClient
from gunicorn_server import serve
from test_stream import KNOWN_DEAL, PLAYS, SEATS, Reader, http, open_stream

import api.store.postgres
from api import create_app, store, stream

PENALTY = {"type": "penalty", "seat": 1, "points": 5, "reason": "a card shown"}


@pytest.fixture
def database(postgres_cluster):
    yield postgres_cluster.emptied()
    api.store.postgres.PostgresStore.close_all()


@pytest.fixture
def app(database):
    app = create_app({"TESTING": True, "DATABASE": database, "STORE_WAIT_SECONDS": 1.0})
    app.test_client_class = ContractClient
    return app


@pytest.fixture
def match(table) -> dict:
    match = table.new_match(players=SEATS)
    table.post_event(match, {"type": "deal", "dealer": 0})
    return match


def write(client, match: dict, idempotency_key: str):
    return client.post(f"/api/matches/{match['id']}/events", json=PENALTY,
                       headers={"Authorization": f"Bearer {match['key']}", "Idempotency-Key": idempotency_key})


def assert_unavailable(response, reason: str) -> None:
    assert response.status_code == 503, response.get_json()
    error = response.get_json()["error"]
    assert (error["code"], error["details"]) == ("storage_unavailable", {"reason": reason})
    assert "Nothing was recorded" in error["message"] or response.request.method == "GET"
    assert "psycopg" not in error["message"] and int(response.headers["Retry-After"]) > 0


def events_stored(app) -> list[tuple]:
    return stored(app, "SELECT match_id, seq, idempotency_key FROM events ORDER BY match_id, seq")


def test_the_database_server_down_is_503_and_the_retry_after_it_is_back_records_once(app, client, table, match,
                                                                                     postgres_cluster):
    """Down for 8 s, with a phone's outbox trying every 0.3 s meanwhile: each try is 503 and records nothing, and
    the server is found again within a second or two of its return (psycopg_pool's own backoff, 1, 2, 4, 8 s
    between attempts, left the next attempt at 15 s: 6.5 s of 503s after the server was back)."""
    before = events_stored(app)
    postgres_cluster.stop()
    try:
        down = time.monotonic()
        assert_unavailable(client.post("/api/matches", json={"game": "ogorek", "players": ["A", "B"]}), "unreachable")
        assert_unavailable(client.get(f"/api/matches/{match['id']}"), "unreachable")
        while time.monotonic() - down < 8:
            assert_unavailable(write(client, match, "while-down"), "unreachable")
            time.sleep(0.3)
    finally:
        postgres_cluster.restart()
    back = time.monotonic()
    assert events_stored(app) == before

    first = write(client, match, "while-down")
    while first.status_code == 503 and time.monotonic() - back < 10:
        assert_unavailable(first, "unreachable")
        assert events_stored(app) == before
        time.sleep(0.1)
        first = write(client, match, "while-down")
    assert time.monotonic() - back < 2.5, "the server back, writes waited for the pool's backoff"
    retry = write(client, match, "while-down")
    assert first.status_code == retry.status_code == 201, first.get_json()
    assert retry.get_json() == first.get_json()
    assert events_stored(app) == [*before, (match["id"], 2, "while-down")]


def test_a_connection_lost_in_the_middle_of_a_write_records_nothing(app, client, table, match, monkeypatch):
    """The server ends the connection between the referee's decision and the insert: 503, nothing stored,
    and the retry with the same Idempotency-Key is recorded once."""
    before, clock = events_stored(app), api.store.postgres.now

    def connection_lost_then_clock():
        with psycopg.connect(app.config["DATABASE"], autocommit=True) as other:
            other.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                          "WHERE datname = current_database() AND pid <> pg_backend_pid()")
        monkeypatch.setattr(api.store.postgres, "now", clock)
        return clock()

    monkeypatch.setattr(api.store.postgres, "now", connection_lost_then_clock)
    assert_unavailable(write(client, match, "cut-off"), "unreachable")
    assert events_stored(app) == before

    retry = write(client, match, "cut-off")
    assert retry.status_code == 201, retry.get_json()
    assert events_stored(app) == [*before, (match["id"], 2, "cut-off")]
    assert table.state(match)["seq"] == 2


def test_a_stream_on_one_app_server_wakes_when_another_logs_an_event(app, table, monkeypatch):
    """Two app servers on one database: a follower of server B gets the deal posted through server A, told by
    NOTIFY (B's own looks at the log are one a minute here, so only the notification can wake it)."""
    monkeypatch.setattr(stream, "LOOK_SECONDS", 60.0)
    monkeypatch.setattr(stream, "HEARD_LOOK_SECONDS", 60.0)
    monkeypatch.setattr(stream, "IDLE_SECONDS", 1.0)
    other = create_app({"TESTING": True, "DATABASE": app.config["DATABASE"]})
    match = table.new_match(players=SEATS)
    response = FlaskClient(other).get(f"/api/matches/{match['id']}/stream", buffered=False)
    try:
        messages = Reader(iter(response.response))
        assert messages.next_state()[0] == 0
        deadline = time.monotonic() + 10
        while not store.current(other).hearing():
            assert time.monotonic() < deadline, "server B never listened"
            time.sleep(0.01)

        dealt = table.post_event(match, KNOWN_DEAL)

        assert messages.next_state() == (1, Table(other.test_client()).state(match))
        assert dealt["event"]["seq"] == 1
    finally:
        response.close()


@pytest.mark.server
@pytest.mark.timed  # the server back, writes within 2.5 s: alone
def test_followers_on_one_gunicorn_get_every_play_posted_through_another(postgres_cluster):
    """Two app servers (gunicorn, gevent workers) on one database: each play posted through the first reaches
    the followers of the second, in order, with the state the second serves."""
    database = postgres_cluster.new_database()
    with serve(database) as first, serve(database) as second:
        status, match = http(first, "POST", "/api/matches", {"game": "ogorek", "players": SEATS})
        assert status == 201
        followers = [open_stream(second, match["id"]) for _ in range(4)]  # spread over its two workers
        try:
            for _, messages in followers:
                assert messages.next_state()[0] == 0
            for event in [KNOWN_DEAL, *PLAYS[:8]]:
                status, answer = http(first, "POST", f"/api/matches/{match['id']}/events", event, match["key"])
                assert status == 201, answer
                status, keyless = http(second, "GET", f"/api/matches/{match['id']}")
                for _, messages in followers:
                    assert messages.next_state() == (answer["event"]["seq"], keyless)
        finally:
            for connection, _ in followers:
                connection.close()
