"""Fixtures: a fresh app and database per test, and a client that holds every response to openapi.yaml.

Every response a test receives through `client` is held to the contract, so every API test is also a
contract test: each shape of response (its route, status, headers and the structure of its body) is validated
once a run (`check_contract_once`); `contract_check` validates whatever it is given. A stream (`text/event-stream`)
is validated message by message, each as openapi-core validates an answer and its `data` against its
`contentSchema` (`tests/support/event_stream.py`).
A response to a route the contract does not know (404, 405) must still have
the error shape.

The database is a SQLite file; a test marked `both_stores` runs twice, on a SQLite file and on a new
database of a throwaway PostgreSQL cluster (`tests/support/postgres_server.py`, started once per run). Without
PostgreSQL installed those runs are skipped, saying why, unless `CI` is set: then they fail.
"""

from __future__ import annotations

import functools
import os
import sqlite3
import sys
from pathlib import Path

import pytest
from flask.testing import FlaskClient
from openapi_core import Config, OpenAPI
from openapi_core.contrib.werkzeug import WerkzeugOpenAPIRequest, WerkzeugOpenAPIResponse
from openapi_core.templating.paths.exceptions import OperationNotFound, PathNotFound, ServerNotFound
from openapi_schema_validator import OAS31Validator

# The suite creates thousands of matches from one address, in its apps and in the servers it starts: the
# creation limit (`api.limits`) is lifted for them, and its own tests (tests/api/test_limits.py) set it.
os.environ["KIBIC_CREATION_LIMIT"] = "none"

# The tests live in folders by subject (engine, api, store, page, load) beside `support`, the tables, servers and
# helpers they share; a test imports a helper, or another test's, by its module name alone (names are unique).
TESTS = Path(__file__).resolve().parent
for folder in ["support", *sorted(p.name for p in TESTS.iterdir() if p.is_dir() and any(p.glob("*.py")))]:
    if str(TESTS / folder) not in sys.path:
        sys.path.insert(0, str(TESTS / folder))

import event_stream  # noqa: E402

from api import create_app  # noqa: E402
from api.contract import load as read_yaml  # noqa: E402

STORES = ["sqlite", "postgresql"]

SPEC_PATH = Path(__file__).resolve().parents[1] / "openapi.yaml"
SEATS = ["S", "W", "N", "E"]


@functools.cache
def spec() -> dict:
    return read_yaml(SPEC_PATH.read_text(encoding="utf-8"))


@functools.cache
def contract() -> OpenAPI:
    return openapi_of(spec())


def openapi_of(document: dict) -> OpenAPI:
    """The contract `document` makes, as openapi-core checks requests and responses against it."""
    config = Config(extra_media_type_deserializers={"application/yaml": lambda data, **_: read_yaml(data),
                                                    "text/event-stream": lambda data, **_: event_stream.message(data)})
    return OpenAPI.from_dict(document, config=config)


class SentRequest(WerkzeugOpenAPIRequest):
    "The request a response answered, as openapi-core reads it (its body was consumed by the app)"

    @property
    def body(self) -> bytes:
        return b""


class StreamMessage(WerkzeugOpenAPIResponse):
    "One message of a stream's answer, as openapi-core reads an answer: the stream's status and headers, its body"

    def __init__(self, response, block: str):
        super().__init__(response)
        self.block = block

    @property
    def data(self) -> bytes:
        return self.block.encode("utf-8")


@functools.cache
def stream_message_schema() -> dict:
    """The schema of one message of a stream: the contract's one schema of `text/event-stream`, resolved."""
    [found] = {media["schema"]["$ref"] for route in spec()["paths"].values() for operation in route.values()
               if isinstance(operation, dict) for answer in operation.get("responses", {}).values()
               for kind, media in answer.get("content", {}).items() if kind == "text/event-stream"}
    return spec()["components"]["schemas"][found.rsplit("/", 1)[1]]


def check_contract(response) -> None:
    """Fails the test when `response` does not match what openapi.yaml promises for its request (a stream: each of
    its messages)."""
    request = SentRequest(response.request)
    try:
        if response.status_code == 200 and response.mimetype == "text/event-stream":
            for block in event_stream.blocks(response.get_data(as_text=True)):
                contract().validate_response(request, StreamMessage(response, block))
                event_stream.check_content(event_stream.message(block), stream_message_schema(),
                                           spec()["components"])
            return
        contract().validate_response(request, WerkzeugOpenAPIResponse(response))
    except (PathNotFound, OperationNotFound, ServerNotFound):  # ServerNotFound: an {id} holding a "/"
        assert response.status_code in (404, 405), f"{request.method} {request.path} is not in openapi.yaml"
        OAS31Validator({**spec()["components"]["schemas"]["Error"], "components": spec()["components"]}).validate(
            response.get_json())


def shape(value: object) -> object:
    """What of a JSON value the contract's structure sees: each object's keys with their values' shapes, an array's
    distinct item shapes, a leaf's type (not its value)."""
    if isinstance(value, dict):
        return tuple(sorted((key, shape(item)) for key, item in value.items()))
    if isinstance(value, list):
        return ("[]", frozenset(shape(item) for item in value))
    return type(value).__name__


CHECKED: set = set()
"""The shapes of the responses already validated in this run (by route, method, status, headers and body)."""
COUNTS = {"responses": 0, "validated": 0}


def check_contract_once(response, rule: str) -> None:
    """`check_contract`, once per shape of response in the run: a response like one already validated (the same
    route, method, status, headers and shape of body) is not validated again. Every shape is still checked; a
    response that fails is never remembered, so it fails every time."""
    COUNTS["responses"] += 1
    if response.mimetype == "text/event-stream":  # a stream is read only as the contract's check reads it
        check_contract(response)
        COUNTS["validated"] += 1
        return
    request = response.request
    body = shape(response.get_json(silent=True)) if response.is_json else ("bytes", bool(response.get_data()))
    key = (request.method, rule, response.status_code, response.mimetype, tuple(sorted(response.headers.keys())), body)
    if key in CHECKED:
        return
    check_contract(response)
    COUNTS["validated"] += 1
    CHECKED.add(key)


def pytest_terminal_summary(terminalreporter):
    if COUNTS["responses"]:  # a run of one process (with xdist, each worker counts its own)
        terminalreporter.write_line(f"contract: {COUNTS['responses']} responses, {COUNTS['validated']} shapes "
                                    "validated")


class ContractClient(FlaskClient):
    "A test client that validates every response against openapi.yaml (each shape once a run)"

    def open(self, *args, **kwargs):
        response = super().open(*args, **kwargs)
        check_contract_once(response, self.rule_of(response.request))
        return response

    def rule_of(self, request) -> str:
        """The app's route the request took (`/api/matches/<match_id>`), or its path where none matched."""
        try:
            rule, _ = self.application.url_map.bind("localhost").match(request.path, method=request.method,
                                                                        return_rule=True)
            return rule.rule
        except Exception:  # noqa: BLE001 - a 404 or 405: the path itself
            return request.path


def pytest_generate_tests(metafunc):
    """A test marked `both_stores` that uses the database (through `app` and the like) runs on each store."""
    if metafunc.definition.get_closest_marker("both_stores") and "database" in metafunc.fixturenames:
        metafunc.parametrize("database", STORES, indirect=True)


@pytest.fixture(scope="session")
def postgres_cluster():
    """A PostgreSQL server of its own for the run (initdb in a temporary folder, a free port), removed after."""
    from postgres_server import Cluster, binaries

    found = binaries()
    if found is None:
        reason = ("PostgreSQL is not installed (no initdb and pg_ctl: Debian's postgresql package, which .ci/run "
                  "installs), so the tests of the PostgreSQL store cannot run")
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason + "; they are skipped here, and fail where CI is set")
    cluster = Cluster(found).start()
    yield cluster
    cluster.remove()


@pytest.fixture
def database(request, tmp_path):
    """The app's DATABASE: a new SQLite file, or (`both_stores`) the PostgreSQL cluster's, emptied."""
    if getattr(request, "param", "sqlite") == "postgresql":
        yield request.getfixturevalue("postgres_cluster").emptied()
        from api.store.postgres import PostgresStore

        PostgresStore.close_all()  # the pools of every app the test made
    else:
        yield str(tmp_path / "referee.db")


@pytest.fixture
def app(database):
    app = create_app({"TESTING": True, "DATABASE": database})
    app.test_client_class = ContractClient
    return app


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def restart(app):
    """Starts the service again on the same database file: a new app, and a `Table` over it."""

    def again() -> Table:
        app_again = create_app({"TESTING": True, "DATABASE": app.config["DATABASE"]})
        app_again.test_client_class = ContractClient
        return Table(app_again.test_client())

    return again


def stored(app, sql: str, params=()) -> list[tuple]:
    """Rows read (or changes made) straight in the app's database, behind the app's back: a SQLite file or
    PostgreSQL. `sql` marks each value with `?`."""
    database = app.config["DATABASE"]
    if database.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(database) as conn:
            cursor = conn.execute(sql.replace("?", "%s"), params)
            return cursor.fetchall() if cursor.description else []
    with sqlite3.connect(database) as db:
        return db.execute(sql, params).fetchall()


def dump(app) -> str:
    """Everything the app's database holds, as text."""
    database = app.config["DATABASE"]
    if not database.startswith("postgresql://"):
        with sqlite3.connect(database) as db:
            return "\n".join(db.iterdump())
    tables = ["matches", "events", "evenings", "evening_matches", "settings"]
    return "\n".join(repr(row) for table in tables for row in stored(app, f"SELECT * FROM {table}"))


class Table:
    """Small actions over the API, as a table would take them; each checks the status it expects."""

    def __init__(self, client: FlaskClient):
        self.client = client

    def new_match(self, players=SEATS, game="ogorek", expect=201, **fields) -> dict:
        response = self.client.post("/api/matches", json={"game": game, "players": list(players), **fields})
        assert response.status_code == expect, response.get_json()
        return response.get_json()

    def post_event(self, match: dict, event: dict, expect=201, key: str | None = None, headers=None) -> dict:
        headers = {"Authorization": f"Bearer {key or match['key']}", **(headers or {})}
        response = self.client.post(f"/api/matches/{match['id']}/events", json=event, headers=headers)
        assert response.status_code == expect, response.get_json()
        return response.get_json()

    def undo(self, match: dict, body: dict | None = None, expect=201, headers=None) -> dict:
        headers = {"Authorization": f"Bearer {match['key']}", **(headers or {})}
        response = self.client.post(f"/api/matches/{match['id']}/undo", json=body, headers=headers)
        assert response.status_code == expect, response.get_json()
        return response.get_json()

    def play(self, match: dict, seat: str, card: str, expect=201, **fields) -> dict:
        return self.post_event(match, {"type": "play", "seat": SEATS.index(seat), "card": card, **fields}, expect)

    def state(self, match: dict, keyed: bool = False) -> dict:
        """The state as a reader sees it: with the match's key (`keyed`, the scorer) or without (a follower)."""
        response = self.client.get(f"/api/matches/{match['id']}", headers=self.reader(match, keyed))
        assert response.status_code == 200, response.get_json()
        return response.get_json()

    def events(self, match: dict, keyed: bool = False) -> list[dict]:
        response = self.client.get(f"/api/matches/{match['id']}/events", headers=self.reader(match, keyed))
        assert response.status_code == 200, response.get_json()
        return response.get_json()["events"]

    @staticmethod
    def reader(match: dict, keyed: bool) -> dict:
        return {"Authorization": f"Bearer {match['key']}"} if keyed else {}


@pytest.fixture
def openapi_spec() -> dict:
    return spec()


@pytest.fixture
def contract_check():
    return check_contract


@pytest.fixture
def table(client) -> Table:
    return Table(client)


# --- the page in a real browser (tests/test_page_*.py) ----------------------------------------------
from conftest_browser import chromium, contexts, live_server, new_phone, phone, playwright, server_api  # noqa: E402, F401


def pytest_collection_modifyitems(items):
    """The page's tests first, those that start a real server next, the quick rest last: the processes sharing the
    cores (`make test`) take the long tests while there are many left and end on short ones, so that none of them
    finishes a long test alone at the end (xdist's `worksteal` hands a waiting process half of another's rest)."""
    def weight(item) -> int:
        return 0 if item.get_closest_marker("browser") else 1 if item.get_closest_marker("server") else 2
    items.sort(key=weight)
