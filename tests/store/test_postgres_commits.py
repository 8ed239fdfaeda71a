"""PostgreSQL: an answer that says what the database holds when the connection is lost at the worst moment, and a
database found again at once after a restart.

A write's connection lost once its COMMIT was sent may have committed: PostgreSQL commits, and only its answer
is lost. A TCP proxy on loopback between the app and the cluster (`tests/support/pg_proxy.py`) cuts the connection right
after it passes a COMMIT on (or just before), and can refuse new connections, as a server gone would. The answer
is then the truth: `201` when the write committed, `503 storage_unavailable` ("Nothing was recorded") only when
it did not, `503 outcome_unknown` when the server cannot be asked; a retry with the same Idempotency-Key, or a
read, tells which; a resend without key nor `expect_seq` of an event that may be recorded is refused (`409
possibly_recorded`). Before, each of these cuts after COMMIT answered "Nothing was recorded" with the write in
the database.

After `pg_ctl restart -m fast` every connection in the pool is dead: they were found one per request, with
psycopg_pool's waits of 1, 2, 4 s between them, so that requests waited the pool's whole 5 s and answered 503 for
half a minute. Now one found dead has the others checked at once, and no request waits the pool's timeout.
"""

from __future__ import annotations

import http.client
import json
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlsplit

import pytest
from conftest import ContractClient, Table, stored
from gunicorn_server import serve
from pg_proxy import Proxy

import api.store.postgres
from api import create_app, store

SEATS = ["W", "N", "E", "S"]
PENALTY = {"type": "penalty", "seat": 1, "points": 5, "reason": "a card shown"}


@pytest.fixture
def database(postgres_cluster):
    yield postgres_cluster.emptied()
    api.store.postgres.PostgresStore.close_all()


@pytest.fixture
def proxy(database):
    parts = urlsplit(database)
    proxy = Proxy((parts.hostname, parts.port))
    yield proxy
    proxy.close()


@pytest.fixture
def app(database, proxy):
    app = create_app({"TESTING": True, "DATABASE": proxy.dsn(database), "STORE_WAIT_SECONDS": 1.0})
    app.test_client_class = ContractClient
    return app


@pytest.fixture
def match(table) -> dict:
    match = table.new_match(players=SEATS)
    table.post_event(match, {"type": "deal", "dealer": 0})
    return match


def write(client, match: dict, idempotency_key: str | None = None, body: dict = PENALTY):
    headers = {"Authorization": f"Bearer {match['key']}"}
    if idempotency_key:
        headers["Idempotency-Key"] = idempotency_key
    return client.post(f"/api/matches/{match['id']}/events", json=body, headers=headers)


class Direct:
    "The cluster's database read straight (not through the proxy), as `conftest.stored` reads an app's"

    def __init__(self, database: str):
        self.config = {"DATABASE": database}


def logged(database: str, match: dict) -> list[tuple]:
    """The match's log as the database holds it: (seq, Idempotency-Key) of each event."""
    return stored(Direct(database), "SELECT seq, idempotency_key FROM events WHERE match_id = ? ORDER BY seq",
                  [match["id"]])


def assert_error(response, status: int, code: str) -> dict:
    body = response.get_json()
    assert response.status_code == status, body
    assert body["error"]["code"] == code, body
    assert "psycopg" not in body["error"]["message"]
    return body["error"]


@pytest.mark.parametrize("idempotency_key", ["cut-after-commit", None], ids=["with key", "without key"])
def test_a_commit_whose_answer_is_lost_is_answered_as_recorded(app, client, table, match, proxy, database,
                                                                idempotency_key):
    """The server committed and its answer was lost, the server still there: the write asks whether its
    transaction committed, and answers 201 (before: 503 "Nothing was recorded", the event in the log)."""
    before = logged(database, match)
    proxy.cut_after()
    response = write(client, match, idempotency_key)
    assert proxy.cuts == 1
    assert logged(database, match) == [*before, (2, idempotency_key)]  # committed: the cut came after COMMIT
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["event"]["seq"] == 2 and table.state(match)["seq"] == 2
    follow = write(client, match)  # nothing is left unconfirmed: the next write without key goes through
    assert follow.status_code == 201, follow.get_json()


def test_a_commit_that_never_arrived_is_answered_nothing_was_recorded(app, client, table, match, proxy, database):
    """The connection cut just before COMMIT reached the server, the server still there: it says the transaction
    was rolled back, so 503 "Nothing was recorded" is true (with `Retry-After: 2`, not 30: a server out of reach
    is found again within a second of its return); the resend without a key records it once."""
    before = logged(database, match)
    proxy.cut_before()
    error = assert_error(response := write(client, match), 503, "storage_unavailable")
    assert proxy.cuts == 1 and "Nothing was recorded" in error["message"]
    assert response.headers["Retry-After"] == "2"  # the server is found again within a second of its return
    assert logged(database, match) == before
    assert write(client, match).status_code == 201
    assert logged(database, match) == [*before, (2, None)]


def test_an_event_whose_commit_cannot_be_asked_about_is_outcome_unknown_and_the_retry_tells(app, client, table,
                                                                                          match, proxy, database):
    """Cut after COMMIT and the server out of reach: `503 outcome_unknown` naming the event's seq, never
    "Nothing was recorded"; once it is back the retry with the same Idempotency-Key gets the first answer and
    records nothing more."""
    before = logged(database, match)
    proxy.cut_after(then_refuse=True)
    error = assert_error(response := write(client, match, "unsure"), 503, "outcome_unknown")
    assert error["details"] == {"seq": 2} and "Nothing was recorded" not in error["message"]
    assert "may or may not" in error["message"] and "Idempotency-Key" in error["message"]
    assert 1 <= int(response.headers["Retry-After"]) <= 2
    assert logged(database, match) == [*before, (2, "unsure")]  # it did commit

    proxy.refusing.clear()
    retry = write(client, match, "unsure")
    assert retry.status_code == 201, retry.get_json()
    assert retry.get_json()["event"]["seq"] == 2
    assert write(client, match, "unsure").get_json() == retry.get_json()
    assert logged(database, match) == [*before, (2, "unsure")]


def test_a_resend_without_key_after_an_unknown_outcome_is_refused_not_doubled(app, client, table, match, proxy,
                                                                              database):
    """The same without an Idempotency-Key: the resend without key nor expect_seq may be the same write again,
    so it is refused (409 possibly_recorded with the state, which shows event 2), by any app server; a resend
    with the expect_seq the client last saw is 409 seq_conflict; one with the current expect_seq records."""
    before = logged(database, match)
    proxy.cut_after(then_refuse=True)
    assert_error(write(client, match), 503, "outcome_unknown")
    assert logged(database, match) == [*before, (2, None)]
    proxy.refusing.clear()

    other = create_app({"TESTING": True, "DATABASE": database})  # another app server, told nothing
    other.test_client_class = ContractClient
    for server in (client, other.test_client()):
        refused = assert_error(write(server, match), 409, "possibly_recorded")
        assert refused["details"]["seq"] == 2 and refused["details"]["state"]["seq"] == 2
        assert "expect_seq" in refused["message"]
    assert_error(write(client, match, body={**PENALTY, "expect_seq": 1}), 409, "seq_conflict")
    assert logged(database, match) == [*before, (2, None)]

    assert write(client, match, body={**PENALTY, "expect_seq": 2}).status_code == 201
    assert write(client, match, "a-new-one").status_code == 201
    assert logged(database, match) == [*before, (2, None), (3, None), (4, "a-new-one")]


def test_a_keyless_write_whose_commit_never_arrived_is_unknown_then_recorded_once(app, client, match, proxy,
                                                                                  database):
    """Cut just before COMMIT reached the server, the server then out of reach: the app cannot tell that from a
    cut after it, so the answer is outcome_unknown (not "Nothing was recorded", which it cannot know); nothing was
    recorded, so once the server is back the resend without key is recorded once, not refused."""
    before = logged(database, match)
    proxy.cut_before(then_refuse=True)
    assert_error(write(client, match), 503, "outcome_unknown")
    assert logged(database, match) == before
    proxy.refusing.clear()
    assert write(client, match).status_code == 201
    assert logged(database, match) == [*before, (2, None)]


CREATIONS = {
    "match": ("/api/matches", {"game": "ogorek", "players": SEATS}, "matches"),
    "evening": ("/api/evenings", {"name": "Friday", "currency": "PLN"}, "evenings"),
}


@pytest.mark.parametrize("what", CREATIONS)
def test_a_creation_whose_commit_answer_is_lost_is_created_once_and_answered(app, client, proxy, database, what):
    """A match's or an evening's creation cut after COMMIT: the server there, 201 with what was created; the
    server out of reach, 503 outcome_unknown, and the retry with the same Idempotency-Key gets the one created."""
    path, body, table = CREATIONS[what]
    count = f"SELECT count(*) FROM {table}"  # noqa: S608 - the test's own table names
    proxy.cut_after()
    first = client.post(path, json=body, headers={"Idempotency-Key": "7c2b9e5a-3d41-4f0e-9a6b-2e8d1c5f7a90"})
    assert proxy.cuts == 1
    assert first.status_code == 201, first.get_json()
    assert stored(Direct(database), f"SELECT id FROM {table}") == [(first.get_json()["id"],)]  # noqa: S608

    creation_key = "0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0"
    proxy.cut_after(then_refuse=True)
    error = assert_error(client.post(path, json=body, headers={"Idempotency-Key": creation_key}), 503,
                         "outcome_unknown")
    assert "may or may not" in error["message"] and "Idempotency-Key" in error["message"]
    assert stored(Direct(database), count) == [(2,)]
    proxy.refusing.clear()
    retry = client.post(path, json=body, headers={"Idempotency-Key": creation_key})
    assert retry.status_code == 201, retry.get_json()
    assert stored(Direct(database), count) == [(2,)]
    ids = {row[0] for row in stored(Direct(database), f"SELECT id FROM {table}")}  # noqa: S608
    assert ids == {first.get_json()["id"], retry.get_json()["id"]}


# --- after a restart --------------------------------------------------------------------------------

def test_after_a_fast_restart_no_request_waits_for_the_dead_connections(database, postgres_cluster):
    """Six connections in the pool, PostgreSQL restarted (`-m fast`): every connection dead. The requests after
    it are answered at once, none waits the pool's 5 s (before: 1 s, then 2 s more per dead connection, and
    503 after 5 s)."""
    app = create_app({"TESTING": True, "DATABASE": database, "STORE_WAIT_SECONDS": 5.0})
    table = Table(app.test_client())
    match = table.new_match(players=SEATS)
    held = store.current(app)
    lent = [held.pool.getconn() for _ in range(6)]  # the pool grows to six, as a burst would make it
    for conn in lent:
        held.pool.putconn(conn)
    assert held.pool.get_stats()["pool_available"] >= 6

    postgres_cluster.stop("fast")
    postgres_cluster.restart()
    waits = []
    for _ in range(8):
        start = time.monotonic()
        response = table.client.get(f"/api/matches/{match['id']}")
        waits.append(time.monotonic() - start)
        assert response.status_code == 200, (response.get_json(), waits)
    assert max(waits) < 2.5, f"a request waited for dead connections: {waits}"  # the pool's timeout is 5 s


def test_requests_during_a_restart_are_answered_as_soon_as_the_server_is_back(database, postgres_cluster):
    """Two readers in threads through a restart, eight connections in the pool: once the server accepts
    connections again they are answered within about a second (before: after 5 s waits, for half a minute),
    and no answer waits the pool's timeout."""
    app = create_app({"TESTING": True, "DATABASE": database, "STORE_WAIT_SECONDS": 5.0})
    match = Table(app.test_client()).new_match(players=SEATS)
    held = store.current(app)
    lent = [held.pool.getconn() for _ in range(8)]
    for conn in lent:
        held.pool.putconn(conn)
    answers: list[tuple[float, float, int]] = []  # (sent, answered, status)
    stop = threading.Event()

    def reader():
        client = app.test_client()
        while not stop.is_set():
            sent = time.monotonic()
            status = client.get(f"/api/matches/{match['id']}").status_code
            answers.append((sent, time.monotonic(), status))
            time.sleep(0.05)

    threads = [threading.Thread(target=reader) for _ in range(2)]
    for thread in threads:
        thread.start()
    try:
        time.sleep(0.5)
        postgres_cluster.stop("fast")
        down = time.monotonic()
        time.sleep(1.0)
        postgres_cluster.restart()
        back = time.monotonic()  # pg_ctl -w: accepting connections
        time.sleep(3.0)
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=30)
    after = [answer for answer in answers if answer[0] >= back]
    assert after and all(status == 200 for _, _, status in after), after
    first_ok = min(answered for sent, answered, status in answers if status == 200 and answered > down)
    assert first_ok - back < 1.5, f"found {first_ok - back:.2f} s after the server was back"
    assert max(answered - sent for sent, answered, _ in answers) < 4.0, "a request waited the pool's 5 s"


# --- the pool's size -----------------------------------------------------------------------------------

def test_the_pool_size_is_set_by_kibic_pg_pool_size(database, monkeypatch):
    """`KIBIC_PG_POOL_SIZE` bounds each process's connections (one kept idle): a deployment fits PostgreSQL's
    max_connections and leaves room for pg_dump; a value that is no size stops the start with a clear error."""
    monkeypatch.setenv("KIBIC_PG_POOL_SIZE", "3")
    held = store.current(create_app({"TESTING": True, "DATABASE": database}))
    assert (held.pool.min_size, held.pool.max_size) == (1, 3)
    lent = [held.take() for _ in range(3)]
    with pytest.raises(api.store.postgres.PoolTimeout):
        held.take(timeout=0.5)  # never a fourth
    for conn in lent:
        held.pool.putconn(conn)
    for wrong in ("0", "many", "1000"):
        monkeypatch.setenv("KIBIC_PG_POOL_SIZE", wrong)
        with pytest.raises(ValueError, match="KIBIC_PG_POOL_SIZE"):
            create_app({"TESTING": True, "DATABASE": database})
    monkeypatch.delenv("KIBIC_PG_POOL_SIZE")
    assert store.current(create_app({"TESTING": True, "DATABASE": database})).pool.max_size == 10


# --- on gunicorn ------------------------------------------------------------------------------------

def request(base: str, method: str, path: str, body=None, headers: dict | None = None) -> tuple[int, dict, float]:
    """One JSON request to gunicorn on a connection of its own: (status, answer, seconds taken)."""
    url = urlsplit(base)
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
    sent = {"Content-Type": "application/json", **(headers or {})} if body is not None else dict(headers or {})
    start = time.monotonic()
    try:
        connection.request(method, path, body=json.dumps(body) if body is not None else None, headers=sent)
        response = connection.getresponse()
        return response.status, json.loads(response.read()), time.monotonic() - start
    finally:
        connection.close()


@pytest.mark.server
def test_on_gunicorn_an_answer_lost_in_commit_is_never_nothing_was_recorded(postgres_cluster):
    """gunicorn (two gevent workers) reaching PostgreSQL through the proxy: a commit whose answer is lost is
    answered 201 with the server there, 503 outcome_unknown with it gone; then a resend without key is refused
    by either worker, the retry with the key gets the first answer, and the log holds each event once."""
    database = postgres_cluster.new_database()
    parts = urlsplit(database)
    proxy = Proxy((parts.hostname, parts.port))
    try:
        with serve(proxy.dsn(database)) as base:
            status, match, _ = request(base, "POST", "/api/matches", {"game": "ogorek", "players": SEATS})
            assert status == 201, match
            scorer = {"Authorization": f"Bearer {match['key']}"}
            events = f"/api/matches/{match['id']}/events"
            of = match["id"].encode()  # the cuts hit this match's writes, not another worker's start
            assert request(base, "POST", events, {"type": "deal", "dealer": 0}, scorer)[0] == 201

            proxy.cut_after(of=of)
            status, answer, _ = request(base, "POST", events, PENALTY, scorer)
            assert (proxy.cuts, status, answer.get("event", {}).get("seq")) == (1, 201, 2), answer

            proxy.cut_after(then_refuse=True, of=of)
            status, answer, _ = request(base, "POST", events, PENALTY, scorer)
            assert (status, answer["error"]["code"], answer["error"]["details"]) == (503, "outcome_unknown",
                                                                                     {"seq": 3}), answer
            proxy.refusing.clear()
            for _ in range(4):  # to both workers
                status, answer, _ = request(base, "POST", events, PENALTY, scorer)
                assert (status, answer["error"]["code"]) == (409, "possibly_recorded"), answer

            proxy.cut_after(then_refuse=True, of=of)
            keyed = {**scorer, "Idempotency-Key": "lost-answer"}
            status, answer, _ = request(base, "POST", events, {**PENALTY, "expect_seq": 3}, keyed)
            assert (status, answer["error"]["code"]) == (503, "outcome_unknown"), answer
            proxy.refusing.clear()
            retries = [request(base, "POST", events, {**PENALTY, "expect_seq": 3}, keyed) for _ in range(3)]
            assert [(status, answer["event"]["seq"]) for status, answer, _ in retries] == [(201, 4)] * 3, retries
            assert logged(database, match) == [(1, None), (2, None), (3, None), (4, "lost-answer")]
    finally:
        proxy.close()


@pytest.mark.server
@pytest.mark.timed  # a restart of PostgreSQL costs no request the pool's timeout: alone
def test_on_gunicorn_a_fast_restart_of_postgresql_costs_no_request_the_pool_timeout(postgres_cluster):
    """gunicorn's two workers with several pooled connections each, PostgreSQL restarted with `-m fast`: every
    request after it is answered 200 without waiting the pool's 5 s (before: 503 after 5 s, for half a minute)."""
    database = postgres_cluster.new_database()
    with serve(database) as base:
        status, match, _ = request(base, "POST", "/api/matches", {"game": "ogorek", "players": SEATS})
        assert status == 201, match
        path = f"/api/matches/{match['id']}"
        with ThreadPoolExecutor(24) as burst:  # the pools grow under a burst of reads
            assert set(burst.map(lambda _: request(base, "GET", path)[0], range(240))) == {200}
        (connections,) = stored(Direct(database), "SELECT count(*) - 1 FROM pg_stat_activity "
                                "WHERE datname = current_database()")[0]
        assert connections >= 4, "the burst left too few pooled connections to show anything"

        postgres_cluster.stop("fast")
        postgres_cluster.restart()
        answers = [request(base, "GET", path) for _ in range(3 * connections)]
        assert [status for status, _, _ in answers] == [200] * len(answers), answers
        waits = [seconds for _, _, seconds in answers]
        assert max(waits) < 2.5, f"requests waited for dead connections (the pool's timeout is 5 s): {waits}"


def test_writes_through_real_stops_of_postgresql_are_answered_truthfully(database, postgres_cluster):
    """Four phones write penalties (every other one without Idempotency-Key, each with a reason of its own) while
    PostgreSQL is stopped (`-m immediate`, then `-m fast`) and started again: every write answered 201 is in the
    log once, every one answered 503 storage_unavailable ("Nothing was recorded") is not, and those answered 503
    outcome_unknown are in it at most once."""
    app = create_app({"TESTING": True, "DATABASE": database, "STORE_WAIT_SECONDS": 1.0})
    matches = [Table(app.test_client()).new_match(players=SEATS) for _ in range(4)]
    for match in matches:
        Table(app.test_client()).post_event(match, {"type": "deal", "dealer": 0})
    answers: list[tuple[str, int, str, bool]] = []  # (reason, status, code, sent without a key)
    stop = threading.Event()

    def phone(match: dict, number: int) -> None:
        client = app.test_client()
        for attempt in range(100_000):
            if stop.is_set():
                return
            reason = f"phone {number} write {attempt}"
            response = write(client, match, f"p{number}-{attempt}" if attempt % 2 else None,
                             {**PENALTY, "reason": reason})
            body = response.get_json()
            answers.append((reason, response.status_code, body.get("error", {}).get("code", ""), attempt % 2 == 0))
            if response.status_code != 201:
                time.sleep(0.05)

    threads = [threading.Thread(target=phone, args=(match, number)) for number, match in enumerate(matches)]
    for thread in threads:
        thread.start()
    try:
        for mode in ("immediate", "fast", "immediate"):
            time.sleep(1.0)
            postgres_cluster.stop(mode)
            time.sleep(0.5)
            postgres_cluster.restart()
        time.sleep(1.0)
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=60)
    rows = stored(Direct(database), "SELECT payload FROM events WHERE match_id = ANY(?) AND type = 'penalty'",
                  [[match["id"] for match in matches]])
    logged_reasons = [json.loads(payload)["reason"] for (payload,) in rows]
    statuses = {(status, code) for _, status, code, _ in answers}
    print(f"writes through 3 stops: {len(answers)} answered,",
          dict(Counter(f"{status} {code}".strip() for _, status, code, _ in answers)))
    assert (201, "") in statuses and len(answers) > 20, statuses
    for reason, status, code, keyless in answers:
        times = logged_reasons.count(reason)
        if status == 201:
            assert times == 1, (reason, times)
        elif code in ("storage_unavailable", "storage_busy"):
            assert times == 0, f"{reason!r} answered {status} {code} (nothing recorded) is in the log"
        elif code == "possibly_recorded":  # a keyless write after one whose mark was left: refused, not recorded
            assert keyless and status == 409 and times == 0, (reason, status, code, times)
        else:
            assert (status, code) == (503, "outcome_unknown") and times <= 1, (reason, status, code, times)
