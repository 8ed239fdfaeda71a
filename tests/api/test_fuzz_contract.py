"""Schemathesis over the live app: requests generated from openapi.yaml, valid and invalid, on every
route. No answer may be a 5xx, and every answer must be what the contract promises (status, headers,
content type, body schema); invalid requests must be refused, a write without the key too.

The stream never ends by itself: schemathesis reads each of its answers for at most STREAM_MESSAGES messages or
STREAM_SECONDS, whichever comes first (an idle comment every few hundredths of a second lets it see its
deadline), and holds every message to `StreamMessage`: its `id` a seq, its `data` parsed as JSON and validated
against `State` (`contentSchema`).

Bounded and seeded: a fixed number of examples per operation and phase, a fixed seed, a deadline per
request. Most requests are aimed at real matches of every game (with their keys), the rest at ids that
do not exist. The total is printed (`pytest -s` or `-rP`, in one process: `-p no:xdist`); FUZZ_EXAMPLES and
FUZZ_SEED search further.
"""

from __future__ import annotations

import hashlib
import itertools
import os
import re
import tempfile
import zlib
from datetime import timedelta
from pathlib import Path

import pytest
import schemathesis
from conftest import Table
from hypothesis import HealthCheck, seed, settings
from schemathesis.specs.openapi.checks import positive_data_acceptance

import api.views
from api import create_app, stream
from referee import GAMES

# a request is milliseconds of bounded work: its deadline holds on cores the other tests share (`make test`), where
# the cases of this module spread over the test processes, each printing the figures of its part
DEADLINE = timedelta(seconds=10)
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "60"))
STREAM_EXAMPLES = int(os.environ.get("FUZZ_STREAM_EXAMPLES", "20"))
STREAM_MESSAGES = 2  # read from each stream at most, the `retry` line and comments not counted
STREAM_SECONDS = 0.1  # and for at most this long
SEED = int(os.environ.get("FUZZ_SEED", "20240608"))
MATCHES = [(name, game.example["match"]["players"],
            {key: value for key, value in game.example["events"][0].items() if key != "hands"})
           for name, game in GAMES.items()] + [(next(iter(GAMES)), ["Jan", "Ewa"], None)]
"""A match of every game, the players of its example and its example's deal (no hand entered), and one not dealt."""
REQUESTS: dict[str, int] = {}
MESSAGES: list[int] = []
"""The messages read from each stream that answered 200."""
FRESH = itertools.count()


STORE = tempfile.TemporaryDirectory(prefix="kibic-fuzz-")
app = create_app({"TESTING": True, "DATABASE": str(Path(STORE.name) / "referee.db")})
schema = schemathesis.openapi.from_wsgi("/openapi.yaml", app)  # the contract as the app serves it
schema.config.max_stream_events = STREAM_MESSAGES
fuzzed = schema.exclude(operation_id="streamMatch")
streamed = schema.include(operation_id="streamMatch")


@pytest.fixture(scope="module")
def matches() -> list[dict]:
    """A match of every game, most of them dealt, that the requests aim at."""
    table, made = Table(app.test_client()), []
    for game, players, deal in MATCHES:
        match = table.new_match(players=players, game=game)
        if deal:
            table.post_event(match, deal)
        made.append(match)
    return made


@pytest.fixture(scope="module")
def club() -> dict:
    """A club with an evening of one finished match, and its members, that the club's requests aim at."""
    client = app.test_client()
    made = client.post("/api/clubs", json={"name": "Fuzz club", "currency": "PLN"}).get_json()
    key = {"Authorization": f"Bearer {made['key']}"}
    evening = client.post("/api/evenings", json={"name": "Fuzz", "currency": "PLN", "club": made["id"]},
                          headers=key).get_json()
    match = client.post("/api/matches", json={"game": "ogorek", "players": ["Ala", "Ola", "Ela"], "stake": "1",
                                              "evening": evening["id"]},
                        headers={"Authorization": f"Bearer {evening['key']}"}).get_json()
    for seat in (2, 1):
        client.post(f"/api/matches/{match['id']}/events", json={"type": "penalty", "seat": seat, "points": 22},
                    headers={"Authorization": f"Bearer {match['key']}"})
    members = [member["id"] for member in client.get(f"/api/clubs/{made['id']}", headers=key).get_json()["members"]]
    return {**made, "members": members}


@pytest.fixture(scope="module", autouse=True)
def report():
    yield
    STORE.cleanup()
    print(f"\nfuzz: {sum(REQUESTS.values())} requests over {len(REQUESTS)} operations (seed {SEED}, "
          f"{EXAMPLES} examples per operation and phase, {STREAM_EXAMPLES} on the stream): no 5xx, every answer as "
          f"openapi.yaml says; {sum(MESSAGES)} stream messages from {len(MESSAGES)} streams held to StreamMessage")


def aim(case, matches: list[dict], club: dict) -> None:
    """Points four requests in five with a match id at a real match, with its key if the request sends one (a
    club's request at the club, its key or read key, and a member's at one of its members); the rest stay
    unknown. A valid Idempotency-Key is made fresh, so that requests are not all refused as
    retries of another; an invalid one stays as generated."""
    match_id = (case.path_parameters or {}).get("id")
    if match_id is not None and (choice := zlib.crc32(str(match_id).encode())) % 5:
        match = matches[choice % len(matches)]
        case.path_parameters["id"] = match["id"]
        if "Authorization" in (case.headers or {}):
            case.headers["Authorization"] = f"Bearer {match['key']}"
    club_id = (case.path_parameters or {}).get("club_id")
    if club_id is not None and (choice := zlib.crc32(str(club_id).encode())) % 5:
        case.path_parameters["club_id"] = club["id"]
        if "member_id" in case.path_parameters:
            case.path_parameters["member_id"] = club["members"][choice % len(club["members"])]
        if "Authorization" in (case.headers or {}):
            case.headers["Authorization"] = f"Bearer {club['read_key' if choice % 3 == 0 else 'key']}"
    key = (case.headers or {}).get("Idempotency-Key")
    shortest = 22 if match_id is None and club_id is None else 1
    if isinstance(key, str) and re.fullmatch(rf"[!-~]{{{shortest},200}}", key):
        case.headers["Idempotency-Key"] = hashlib.sha256(f"{key} {next(FRESH)}".encode()).hexdigest()


@fuzzed.parametrize()
@settings(max_examples=EXAMPLES, deadline=DEADLINE, database=None,
          suppress_health_check=list(HealthCheck))
@seed(SEED)
def test_the_app_keeps_its_contract(matches, club, case):
    aim(case, matches, club)
    case.call_and_validate(excluded_checks=[positive_data_acceptance])
    REQUESTS[case.operation.label] = REQUESTS.get(case.operation.label, 0) + 1


@pytest.fixture(scope="module")
def quick_idle():
    """An idle comment every 20 ms, so that a stream with nothing new to send reaches its reader's deadline."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(stream, "IDLE_SECONDS", 0.02)
        yield


@streamed.parametrize()
@settings(max_examples=STREAM_EXAMPLES, deadline=DEADLINE, database=None,
          suppress_health_check=list(HealthCheck))
@seed(SEED)
def test_the_stream_keeps_its_contract(matches, club, quick_idle, case):
    """Generated match ids and Last-Event-ID headers, valid and not; each message read held to its schema."""
    aim(case, matches, club)
    response = case.call_and_validate(excluded_checks=[positive_data_acceptance], timeout=STREAM_SECONDS)
    REQUESTS[case.operation.label] = REQUESTS.get(case.operation.label, 0) + 1
    if response.status_code == 200:
        MESSAGES.append(response.content.count(b"\ndata: "))


def wrong_shape():
    return [{"game": 1}]


def broken():
    raise RuntimeError("the catalogue is gone")


@pytest.mark.parametrize(("catalogue", "failure"), [(wrong_shape, "Response violates schema"),
                                                    (broken, "Server error")], ids=["wrong shape", "500"])
def test_the_checks_catch_an_answer_that_breaks_the_contract(monkeypatch, catalogue, failure):
    monkeypatch.setattr(api.views, "catalogue", catalogue)
    with pytest.raises(schemathesis.errors.FailureGroup) as caught:
        schema["/api/games"]["GET"].Case().call_and_validate()
    assert failure in str(caught.value)


def lost(text: str) -> str:
    return text.replace('"status":"playing"', '"status":"lost"')


def unnumbered(text: str) -> str:
    return text.replace("id: ", "id: seq-", 1)


@pytest.mark.parametrize(("broken", "failure"), [(lost, "SSE event payload violates content schema"),
                                                 (unnumbered, "SSE event violates schema")],
                         ids=["data not a state", "id not a seq"])
def test_the_checks_catch_a_stream_message_that_breaks_the_contract(monkeypatch, matches, quick_idle, broken,
                                                                    failure):
    built = stream.message
    monkeypatch.setattr(stream, "message", lambda *asked: (lambda seq, text: (seq, broken(text.decode()).encode()))(
        *built(*asked)))
    case = schema["/api/matches/{id}/stream"]["GET"].Case(path_parameters={"id": matches[0]["id"]})
    with pytest.raises(schemathesis.errors.FailureGroup) as caught:
        case.call_and_validate(timeout=STREAM_SECONDS)
    assert failure in str(caught.value)
