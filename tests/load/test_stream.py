"""`GET /api/matches/{id}/stream`: the state pushed as Server-Sent Events, read without the key.

In-process (the Flask app and its own stream watcher) for the shape of the stream, its resumption and
its idle comments, each message read held to the contract (`check_contract`: the message as openapi.yaml's
`StreamMessage`, its data as `State`); over a real gunicorn with two gevent workers for a table whose scorer and
followers land on different processes. Every read is bounded by a socket timeout or a deadline.
"""

from __future__ import annotations

import json
import time
from http.client import HTTPConnection
from urllib.parse import urlsplit

import pytest
from conftest import Table, check_contract
from flask import Response
from flask.testing import FlaskClient
from gunicorn_server import call, serve
from jsonschema.exceptions import ValidationError as SchemaError
from ogorek_helpers import SEED_HANDS, SEED_PLAYERS, SEED_TRICKS
from openapi_core.validation.response.exceptions import ResponseValidationError

from api import create_app, stream

SEATS = SEED_PLAYERS
KNOWN_DEAL = {"type": "deal", "dealer": 0,
              "hands": {str(SEATS.index(name)): cards for name, cards in SEED_HANDS.items()}}
PLAYS = [{"type": "play", "seat": SEATS.index(name), "card": card} for trick in SEED_TRICKS for name, card in trick]
READ_SECONDS = 5.0


def parse(block: str) -> dict:
    """One message of an event stream: its fields (a comment line comes as "comment")."""
    fields: dict = {}
    for line in block.split("\n"):
        name, _, value = line.partition(":")
        fields[name or "comment"] = value[1:] if value.startswith(" ") else value
    return fields


class Reader:
    """Reads messages from an event stream's chunks, however they are cut; `check`, if given, is called with the
    text of each message that carries data."""

    def __init__(self, chunks, check=None):
        self.chunks, self.buffer, self.check = chunks, "", check

    def next(self) -> dict:
        deadline = time.monotonic() + READ_SECONDS
        while "\n\n" not in self.buffer:
            assert time.monotonic() < deadline, f"nothing in {READ_SECONDS} s; read so far: {self.buffer!r}"
            chunk = next(self.chunks)
            self.buffer += chunk.decode() if isinstance(chunk, bytes) else chunk
        block, self.buffer = self.buffer.split("\n\n", 1)
        fields = parse(block)
        if self.check is not None and "data" in fields:
            self.check(block)
        return fields

    def next_state(self) -> tuple[int, dict]:
        """The next message that carries a state (`retry` and comments skipped): its id and its state."""
        deadline = time.monotonic() + READ_SECONDS
        while time.monotonic() < deadline:
            fields = self.next()
            if "data" in fields:
                return int(fields["id"]), json.loads(fields["data"])
        raise AssertionError(f"no state in {READ_SECONDS} s")


# --- in-process ------------------------------------------------------------------------------------------

@pytest.fixture
def reader(app, monkeypatch):
    """Opens the stream of a match in the app itself (a plain test client: the stream never ends, so the
    contract client, which reads a whole answer, cannot take it); closes what it opened. An idle comment
    every second gives a reader waiting in vain its turn to see its deadline."""
    monkeypatch.setattr(stream, "IDLE_SECONDS", 1.0)
    opened = []

    def open_stream(match_id: str, headers: dict | None = None):
        response = FlaskClient(app).get(f"/api/matches/{match_id}/stream", headers=headers or {}, buffered=False)
        opened.append(response)
        return response, Reader(iter(response.response), held_to_contract(response))

    yield open_stream
    for response in opened:
        response.close()


def held_to_contract(stream):
    """Checks one message of `stream` against the contract: as the whole answer of a stream that sent only it."""

    def check(block: str) -> None:
        answer = Response(block + "\n\n", status=stream.status_code, headers=stream.headers)
        answer.request = stream.request
        check_contract(answer)

    return check


@pytest.mark.both_stores
def test_the_stream_starts_with_the_state_and_sends_each_new_one_in_order(table, reader):
    match = table.new_match(players=SEATS)
    response, messages = reader(match["id"])
    assert response.status_code == 200
    assert response.mimetype == "text/event-stream"
    assert response.headers["Cache-Control"] == "no-cache"
    assert messages.next() == {"retry": str(stream.RETRY_MS)}
    assert messages.next_state() == (0, table.state(match))

    table.post_event(match, KNOWN_DEAL)
    seen = [messages.next_state()]
    for play in PLAYS[:6]:
        table.post_event(match, play)
        seen.append(messages.next_state())
    assert [seq for seq, _ in seen] == list(range(1, 8))
    assert all(state["seq"] == seq for seq, state in seen)


def test_the_stream_carries_what_a_reader_without_the_key_gets(table, reader):
    """The stream's data is the keyless `GET /api/matches/{id}` at the same seq: the same view, the same
    hiding of what a reader without the key may not see (the hands entered for the referee)."""
    match = table.new_match(players=SEATS)
    _, messages = reader(match["id"])  # no Authorization header
    messages.next_state()
    for event in [KNOWN_DEAL, *PLAYS[:5]]:
        answer = table.post_event(match, event)
        seq, state = messages.next_state()
        assert seq == answer["event"]["seq"]
        assert state == table.state(match)  # nothing logged in between: the keyless GET at the same seq
        assert "legal" not in state["expected"] and state["deal"]["known_hands"] == []  # no hand in it
        assert table.state(match, keyed=True)["deal"]["known_hands"] == [0, 1, 2, 3]


@pytest.mark.both_stores
def test_last_event_id_resumes_after_that_seq(table, reader):
    match = table.new_match(players=SEATS)
    table.post_event(match, KNOWN_DEAL)
    for play in PLAYS[:3]:
        table.post_event(match, play)

    _, messages = reader(match["id"], {"Last-Event-ID": "4"})  # holds the latest state: nothing until the next
    table.post_event(match, PLAYS[3])
    assert messages.next_state() == (5, table.state(match))

    _, behind = reader(match["id"], {"Last-Event-ID": "2"})  # missed some: gets the state as it stands
    assert behind.next_state() == (5, table.state(match))


@pytest.mark.both_stores
def test_an_undo_is_a_new_seq_on_the_stream(table, reader):
    match = table.new_match(players=SEATS)
    table.post_event(match, KNOWN_DEAL)
    table.post_event(match, PLAYS[0])
    _, messages = reader(match["id"], {"Last-Event-ID": "2"})
    table.undo(match)
    seq, state = messages.next_state()
    assert seq == state["seq"] == 3
    assert state["deal"]["table"] == []


def test_an_idle_stream_sends_a_comment(table, reader, monkeypatch):
    monkeypatch.setattr(stream, "IDLE_SECONDS", 0.2)
    match = table.new_match(players=SEATS)
    _, messages = reader(match["id"])
    messages.next_state()
    started = time.monotonic()
    assert messages.next() == {"comment": "idle"}
    assert time.monotonic() - started < READ_SECONDS


def lost(text: str) -> str:
    return text.replace('"status":"playing"', '"status":"lost"')


def unnumbered(text: str) -> str:
    return text.replace("id: ", "id: seq-", 1)


def cut(text: str) -> str:
    return text[:text.index("data: ") + 40] + "\n\n"


@pytest.mark.parametrize(("broken", "refusal"), [(lost, SchemaError), (unnumbered, ResponseValidationError),
                                                 (cut, json.JSONDecodeError)],
                         ids=["data not a state", "id not a seq", "data not JSON"])
def test_the_contract_check_refuses_a_message_that_breaks_the_schema(table, reader, monkeypatch, broken, refusal):
    built = stream.message
    monkeypatch.setattr(stream, "message", lambda *asked: (lambda seq, text: (seq, broken(text.decode()).encode()))(
        *built(*asked)))
    match = table.new_match(players=SEATS)
    _, messages = reader(match["id"])
    assert messages.next() == {"retry": str(stream.RETRY_MS)}
    with pytest.raises(refusal):
        messages.next()


@pytest.mark.parametrize(("path", "headers", "status", "code"), [
    ("/api/matches/nobody/stream", {}, 404, "match_not_found"),
    (None, {"Last-Event-ID": "twelve"}, 400, "bad_last_event_id"),
    (None, {"Last-Event-ID": "-1"}, 400, "bad_last_event_id"),
])
def test_a_stream_that_cannot_start_is_an_error_in_the_one_shape(client, table, path, headers, status, code):
    path = path or f"/api/matches/{table.new_match(players=SEATS)['id']}/stream"
    response = client.get(path, headers=headers)  # the contract client: held to openapi.yaml
    assert response.status_code == status
    assert response.get_json()["error"]["code"] == code


def test_streams_that_end_leave_nothing_followed(app, table):
    match = table.new_match(players=SEATS)
    watch = app.extensions[stream.WATCH]
    responses = [FlaskClient(app).get(f"/api/matches/{match['id']}/stream", buffered=False) for _ in range(3)]
    for response in responses:
        Reader(iter(response.response)).next_state()
    assert watch.followed[match["id"]].streams == 3
    for response in responses:
        response.close()
    assert match["id"] not in watch.followed


def test_followers_of_one_match_share_one_message_built_once(app, table, monkeypatch):
    """Every stream of a match in a process gets the same bytes for a seq, built by the first stream that wants them."""
    builds = []
    built = stream.message

    def counted(*asked):
        made = built(*asked)
        builds.append(made[0])
        return made

    monkeypatch.setattr(stream, "message", counted)
    match = table.new_match(players=SEATS)
    responses = [FlaskClient(app).get(f"/api/matches/{match['id']}/stream", buffered=False) for _ in range(3)]
    try:
        chunks = [iter(response.response) for response in responses]
        assert {next(each) for each in chunks} == {b"retry: %d\n\n" % stream.RETRY_MS}
        first = [next(each) for each in chunks]
        answer = table.post_event(match, KNOWN_DEAL)
        latest = [next(each) for each in chunks]
    finally:
        for response in responses:
            response.close()
    assert builds == [0, answer["event"]["seq"]]
    for sent in (first, latest):
        assert all(each is sent[0] for each in sent)  # the very same bytes, encoded once
    assert latest[0].startswith(b"id: 1\ndata: ")


def test_a_keyless_stream_never_gets_a_hand_the_process_holds_with_the_key(app, table):
    """The process that answered the deal holds the match at its seq, and the state it built for the key (with the
    hands): the stream's message, built from the match held without a look at the log, is the keyless state."""
    match = table.new_match(players=SEATS)
    answer = table.post_event(match, KNOWN_DEAL)
    assert answer["state"]["deal"]["known_hands"] == [0, 1, 2, 3]
    seq, text = stream.message(app, match["id"], answer["event"]["seq"])
    fields = parse(text.decode().removesuffix("\n\n"))
    assert (seq, int(fields["id"])) == (1, 1)
    state = json.loads(fields["data"])
    assert state == table.state(match)
    assert state["deal"]["known_hands"] == [] and "legal" not in state["expected"]
    keyed = table.state(match, keyed=True)
    assert keyed != state and keyed["deal"]["known_hands"] == [0, 1, 2, 3]


def played_after_a_backup(app, tmp_path):
    """A match dealt, a backup of the data made, then W's K played (seq 2): the table, the match, the database, the
    backup."""
    from api import admin

    database, backup = app.config["DATABASE"], tmp_path / "backup.db"
    table = Table(app.test_client())
    match = table.new_match(players=SEATS)
    table.post_event(match, KNOWN_DEAL)
    admin.backup(database, backup)
    table.post_event(match, PLAYS[0])
    return table, match, database, backup


def test_a_message_built_from_the_match_held_notices_a_restore(app, tmp_path):
    """A process holds the match at seq 2 (a play); the data is put back to a backup at seq 1 and another process
    logs an undo as seq 2. The message of seq 2 is built from the data put back, not from the match held."""
    from api import admin

    table, match, database, backup = played_after_a_backup(app, tmp_path)
    held = stream.message(app, match["id"], 2)  # held at seq 2, the play
    assert held[0] == 2
    admin.restore(database, backup)
    other = create_app({"TESTING": True, "DATABASE": database})
    undone = Table(other.test_client()).undo(match)
    assert undone["event"]["seq"] == 2 and undone["event"]["type"] == "undo"

    seq, text = stream.message(app, match["id"], 2)
    state = json.loads(parse(text.decode().removesuffix("\n\n"))["data"])
    assert seq == 2
    assert state == json.loads(other.test_client().get(f"/api/matches/{match['id']}").data)
    assert text != held[1] and state["deal"] is None  # the deal undone, not the play held


def test_an_open_stream_sends_the_state_put_back_by_a_restore_though_it_sent_that_seq(app, reader, tmp_path):
    """A follower's stream has sent seq 2 (a play); the data is put back to a backup at seq 1: the stream sends the
    state put back (seq 1, the play gone), and then the undo another process logs as seq 2 (before: nothing until a
    seq above 2, the follower shown a play the log no longer holds)."""
    from api import admin

    database, backup = app.config["DATABASE"], tmp_path / "backup.db"
    table = Table(app.test_client())
    match = table.new_match(players=SEATS)
    table.post_event(match, KNOWN_DEAL)
    admin.backup(database, backup)
    _, follower = reader(match["id"])
    assert follower.next_state()[0] == 1
    table.post_event(match, PLAYS[0])
    seq, played = follower.next_state()
    assert seq == 2 and played["deal"]["table"]  # the play on the table
    admin.restore(database, backup)
    seq, put_back = follower.next_state()
    assert seq == 1 and put_back == table.state(match) and not put_back["deal"]["table"]
    other = create_app({"TESTING": True, "DATABASE": database})
    undone = Table(other.test_client()).undo(match)
    assert undone["event"]["seq"] == 2
    seq, state = follower.next_state()
    assert seq == 2 and state["deal"] is None and state == table.state(match)


def test_a_restore_before_the_streams_first_look_is_noticed_by_it(app, reader, tmp_path, monkeypatch):
    """The first stream of a process has sent seq 2 (a play) and the data is put back to a backup at seq 1 before the
    process's first look for new events: that look sends the state put back (before: the look took the generation it
    first saw for the one the stream started under, and the follower kept the play)."""
    from api import admin

    monkeypatch.setattr(stream, "LOOK_SECONDS", 1.0)  # the restore surely comes before the first look
    monkeypatch.setattr(stream, "HEARD_LOOK_SECONDS", 1.0)
    table, match, database, backup = played_after_a_backup(app, tmp_path)
    _, follower = reader(match["id"])
    seq, played = follower.next_state()
    assert seq == 2 and played["deal"]["table"]
    admin.restore(database, backup)
    seq, put_back = follower.next_state()
    assert seq == 1 and not put_back["deal"]["table"] and put_back == table.state(match)


# --- over gunicorn ---------------------------------------------------------------------------------------

def http(base: str, method: str, path: str, body=None, key: str | None = None) -> tuple[int, dict]:
    return call(base, method, path, body, key, timeout=READ_SECONDS)


def open_stream(base: str, match_id: str) -> tuple[HTTPConnection, Reader]:
    url = urlsplit(base)
    connection = HTTPConnection(url.hostname, url.port, timeout=READ_SECONDS)
    connection.request("GET", f"/api/matches/{match_id}/stream")
    response = connection.getresponse()
    assert response.status == 200
    assert response.getheader("Content-Type").startswith("text/event-stream")
    return connection, Reader(iter(lambda: response.read1(65536) or b"", b""))


@pytest.mark.server
@pytest.mark.timed  # every read against a deadline: alone
def test_followers_on_both_workers_get_every_play_of_the_scorer(tmp_path):
    with serve(tmp_path / "referee.db") as base:
        status, match = http(base, "POST", "/api/matches", {"game": "ogorek", "players": SEATS})
        assert status == 201
        followers = [open_stream(base, match["id"]) for _ in range(6)]  # spread over both workers
        try:
            for _, messages in followers:
                assert messages.next_state()[0] == 0
            for event in [KNOWN_DEAL, *PLAYS[:8]]:
                status, answer = http(base, "POST", f"/api/matches/{match['id']}/events", event, match["key"])
                assert status == 201, answer
                status, keyless = http(base, "GET", f"/api/matches/{match['id']}")
                for _, messages in followers:
                    assert messages.next_state() == (answer["event"]["seq"], keyless)
        finally:
            for connection, _ in followers:
                connection.close()
