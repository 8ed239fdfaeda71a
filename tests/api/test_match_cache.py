"""Each server process keeps the matches it folded; the state it serves is never behind the log.

Two apps on one database file stand for two server processes: each has its own cache, and each must
see what the other logged (plays and undos) at its next request. A polling page gets `304` while
nothing was logged, and the new state as soon as something was.
"""

from __future__ import annotations

import random

import pytest
from conftest import ContractClient, Table, stored

import api.matches
import api.views
from api import create_app, matches, store
from referee import Match

SEED_PLAYS = [("W", "K"), ("N", "2"), ("E", "3"), ("S", "A"), ("S", "9"), ("W", "K"), ("N", "5"), ("E", "7")]


@pytest.fixture
def worker(app):
    """Another server process on the same database file, with a cache of its own."""

    def start(**config) -> Table:
        other = create_app({"TESTING": True, "DATABASE": app.config["DATABASE"], **config})
        other.test_client_class = ContractClient
        return Table(other.test_client())

    return start


@pytest.fixture
def rebuilds(monkeypatch) -> list[str]:
    """The matches rebuilt from their whole log (not taken from a cache)."""
    seen: list[str] = []
    load = matches.load_match

    def counting(match_id, upto=None):
        seen.append(match_id)
        return load(match_id, upto)

    monkeypatch.setattr(matches, "load_match", counting)
    return seen


def dealt_match(table: Table) -> dict:
    match = table.new_match()
    table.post_event(match, {"type": "deal", "dealer": 0})
    return match


def get(table: Table, match: dict, etag: str | None = None):
    headers = {"If-None-Match": etag} if etag else {}
    return table.client.get(f"/api/matches/{match['id']}", headers=headers)


@pytest.mark.both_stores
def test_another_process_sees_each_play_as_soon_as_it_is_logged(table, worker):
    match = dealt_match(table)
    other = worker()
    assert other.state(match)["seq"] == 1
    for number, (seat, card) in enumerate(SEED_PLAYS):
        writer, reader = (table, other) if number % 2 == 0 else (other, table)
        answer = writer.play(match, seat, card)
        assert reader.state(match) == answer["state"]
        assert writer.state(match) == answer["state"]


@pytest.mark.both_stores
def test_an_undo_through_one_process_is_seen_by_another(table, worker):
    match = dealt_match(table)
    other = worker()
    table.play(match, "W", "K")
    table.play(match, "N", "2")
    assert [play["card"] for play in other.state(match)["deal"]["table"]] == ["K", "2"]

    undone = table.undo(match)["state"]

    assert other.state(match) == undone
    assert [play["card"] for play in undone["deal"]["table"]] == ["K"]
    answer = other.play(match, "N", "A")
    assert table.state(match) == answer["state"]
    assert [play["card"] for play in answer["state"]["deal"]["table"]] == ["K", "A"]


@pytest.mark.both_stores
def test_a_play_on_a_match_in_hand_rebuilds_nothing(table, worker, rebuilds):
    match = dealt_match(table)
    table.state(match)
    other = worker()
    other.state(match)
    rebuilds.clear()

    for number, (seat, card) in enumerate(SEED_PLAYS):
        (table if number % 3 else other).play(match, seat, card)
        table.state(match)
        other.state(match)

    assert rebuilds == [], "each process applies only the events logged since it last looked"


@pytest.mark.both_stores
def test_a_write_checks_its_key_without_reading_the_match_row(app, table, worker, monkeypatch):
    match = dealt_match(table)
    other = worker()
    rows: list[str] = []
    stored_class = type(store.current(app))
    read_row = stored_class.match_row

    def counting(self, match_id):
        rows.append(match_id)
        return read_row(self, match_id)

    monkeypatch.setattr(stored_class, "match_row", counting)
    for number, (seat, card) in enumerate(SEED_PLAYS):
        (table if number % 2 else other).play(match, seat, card)
    assert rows == [match["id"]] * 2, "the process that created the match knows its key; the other reads the " \
        "row once for the key and once to rebuild the match, then never again"

    rows.clear()
    table.post_event(match, {"type": "play", "seat": 0, "card": "A"}, expect=403, key="not-the-key")
    other.post_event(match, {"type": "play", "seat": 0, "card": "A"}, expect=403, key=other.new_match()["key"])
    for client in (table.client, other.client):
        refused = client.post(f"/api/matches/{match['id']}/events", json={"type": "play", "seat": 0, "card": "A"})
        assert refused.status_code == 401
        assert refused.get_json()["error"]["code"] == "key_required"
        assert client.get(f"/api/matches/{match['id']}", headers={"Authorization": "Bearer nope"}).status_code == 403
        assert client.post("/api/matches/nosuchmatch/events", json={"type": "play", "seat": 0, "card": "A"},
                           headers={"Authorization": f"Bearer {match['key']}"}).status_code == 404
    assert rows == ["nosuchmatch", "nosuchmatch"], "a key is checked against the hash kept with the match"


@pytest.mark.both_stores
def test_a_refused_play_keeps_the_match_in_hand(table, rebuilds):
    match = dealt_match(table)
    table.state(match)
    rebuilds.clear()

    assert table.play(match, "N", "2", expect=409)["error"]["code"] == "not_your_turn"
    table.post_event(match, {"type": "play", "seat": 1, "card": "K"})

    assert rebuilds == []


@pytest.mark.both_stores
def test_a_new_process_rebuilds_the_match_from_the_log(table, worker, rebuilds):
    match = dealt_match(table)
    for seat, card in SEED_PLAYS:
        table.play(match, seat, card)
    rebuilds.clear()

    assert worker().state(match) == table.state(match)
    assert rebuilds == [match["id"]]


@pytest.mark.both_stores
def test_polling_gets_304_until_something_is_logged_then_the_new_state(table, worker):
    match = dealt_match(table)
    first = get(table, match)
    tag = first.headers["ETag"]
    assert first.status_code == 200 and tag == f'"{match["id"]}-1"'
    assert first.headers["Cache-Control"] == "no-cache"

    unchanged = get(table, match, tag)
    assert unchanged.status_code == 304 and unchanged.get_data() == b""
    assert unchanged.headers["ETag"] == tag
    assert get(worker(), match, tag).status_code == 304

    worker().play(match, "W", "K")

    changed = get(table, match, tag)
    assert changed.status_code == 200
    assert changed.headers["ETag"] == f'"{match["id"]}-2"'
    assert changed.get_json()["deal"]["table"] == [{"seat": 1, "card": "K", "seq": 2}]
    assert get(table, match, changed.headers["ETag"]).status_code == 304


@pytest.mark.both_stores
def test_an_undo_changes_the_tag_too(table):
    match = dealt_match(table)
    table.play(match, "W", "K")
    tag = get(table, match).headers["ETag"]

    table.undo(match)

    again = get(table, match, tag)
    assert again.status_code == 200 and again.get_json()["deal"]["table"] == []


@pytest.mark.parametrize("sent, status", [
    ('"{id}-1"', 304),
    ('W/"{id}-1"', 304),
    ('"other", "{id}-1"', 304),
    ("*", 304),
    ('"{id}-0"', 200),
    ('"{id}-2"', 200),
])
@pytest.mark.both_stores
def test_if_none_match_forms(table, sent, status):
    match = dealt_match(table)
    assert get(table, match, sent.format(id=match["id"])).status_code == status


@pytest.mark.both_stores
def test_304_does_not_build_the_state(table, monkeypatch):
    match = dealt_match(table)
    tag = get(table, match).headers["ETag"]

    def broken(*args, **kwargs):
        raise AssertionError("the state was built")

    monkeypatch.setattr(api.views.Match, "view", broken)
    assert get(table, match, tag).status_code == 304


@pytest.mark.both_stores
def test_an_unknown_match_is_404_even_with_a_tag(table):
    response = table.client.get("/api/matches/nope", headers={"If-None-Match": '"nope-0"'})
    assert response.status_code == 404
    assert response.get_json()["error"]["code"] == "match_not_found"


@pytest.mark.both_stores
def test_the_cache_keeps_the_latest_matches_only(app, table):
    matches = [dealt_match(table) for _ in range(5)]
    cache = app.extensions[api.matches.CACHE]
    cache.size = 2
    for match in matches:
        table.state(match)
    assert len(cache) == 2
    assert set(cache.matches) == {matches[-2]["id"], matches[-1]["id"]}
    table.play(matches[0], "W", "K")
    assert set(cache.matches) == {matches[-1]["id"], matches[0]["id"]}
    assert table.state(matches[0])["seq"] == 2


@pytest.mark.both_stores
def test_a_lost_race_drops_the_match_in_hand(table, dealt_in_race):
    match, answer = dealt_in_race
    assert answer["error"]["code"] == "seq_conflict"
    state = table.state(match)
    assert state["seq"] == 2
    assert state["deal"]["table"] == [{"seat": 1, "card": "K", "seq": 2}]


@pytest.fixture
def dealt_in_race(table, monkeypatch):
    """A play that loses the race for seq 2 to another phone's K, after the match was read."""
    match = dealt_match(table)
    table.state(match)
    up_to_date = matches.up_to_date

    def read_then_race(match_id, held, latest):
        loaded = up_to_date(match_id, held, latest)
        monkeypatch.setattr(matches, "up_to_date", up_to_date)
        store.current().append_event(match_id, {"type": "play", "seat": 1, "card": "K", "seq": loaded.seq + 1})
        return loaded

    monkeypatch.setattr(matches, "up_to_date", read_then_race)
    return match, table.play(match, "W", "A", expect=409)


@pytest.mark.parametrize("seed", range(2))
def test_the_state_served_is_never_behind_the_log(table, worker, seed):
    """Random writes, undos and reads through three processes with small caches: every answer is the log's."""
    rng = random.Random(seed)
    workers = [table, worker(MATCHES_CACHED=1), worker(MATCHES_CACHED=2)]
    matches = [dealt_match(table) for _ in range(3)]
    for _ in range(40):
        match, through = rng.choice(matches), rng.choice(workers)
        state = through.state(match)
        action = rng.random()
        if action < 0.2 and state["seq"] > 1:
            state = through.undo(match)["state"]
        elif action < 0.8 and state["expected"] and state["expected"]["type"] == "play":
            play = {"type": "play", "seat": state["expected"]["seat"], "card": rng.choice(["2", "7", "10", "K", "A"])}
            response = through.client.post(f"/api/matches/{match['id']}/events", json=play,
                                           headers={"Authorization": f"Bearer {match['key']}"})
            assert response.status_code in (201, 409), response.get_json()
            if response.status_code == 201:
                state = response.get_json()["state"]
        elif state["expected"] and state["expected"]["type"] == "deal":
            state = through.post_event(match, {"type": "deal"})["state"]
        for reader in workers:
            assert reader.state(match) == state


@pytest.mark.both_stores
def test_a_log_shorter_than_the_match_in_hand_is_believed(app, table):
    """The database was put back to an earlier copy: the match is rebuilt from the log, not served from memory."""
    match = dealt_match(table)
    for seat, card in SEED_PLAYS[:4]:
        table.play(match, seat, card)
    earlier = table.client.get(f"/api/matches/{match['id']}/events").get_json()["events"][:3]
    stored(app, "DELETE FROM events WHERE match_id = ? AND seq > 3", [match["id"]])

    state = table.state(match)

    assert state["seq"] == 3
    assert [play["card"] for play in state["deal"]["table"]] == ["K", "2"]
    assert table.events(match) == earlier


@pytest.mark.both_stores
def test_a_play_after_the_log_went_back_is_decided_on_the_log(app, table):
    """The same, when the next request is a play: the match in hand is ahead of the log, so it is not used."""
    match = dealt_match(table)
    for seat, card in SEED_PLAYS[:4]:
        table.play(match, seat, card)
    stored(app, "DELETE FROM events WHERE match_id = ? AND seq > 3", [match["id"]])

    answer = table.play(match, *SEED_PLAYS[2])

    assert answer["event"]["seq"] == 4
    assert [play["card"] for play in answer["state"]["deal"]["table"]] == ["K", "2", SEED_PLAYS[2][1]]
    assert table.state(match)["seq"] == 4


def test_the_state_answering_a_play_is_the_one_its_followers_read(table, monkeypatch):
    """No hand is secret: the state built to answer the scorer's play is the one a follower's read of that event
    gets, built once (and built again for the next event)."""
    match = dealt_match(table)
    views = []
    view = Match.view
    monkeypatch.setattr(Match, "view", lambda self, *shown: views.append(self.seq) or view(self, *shown))

    answer = table.play(match, *SEED_PLAYS[0])
    follower = table.state(match)
    scorer = table.state(match, keyed=True)

    assert follower == scorer == answer["state"]
    assert views == [answer["state"]["seq"]]
    assert table.play(match, *SEED_PLAYS[1])["state"]["seq"] == table.state(match)["seq"]
    assert len(views) == 2


def test_only_the_states_of_the_matches_played_last_are_kept(app, table, monkeypatch):
    """A kept state is for the followers of the event just logged: a process keeps a few, not one per match."""
    monkeypatch.setattr(matches, "STATES_KEPT", 2)
    played = [dealt_match(table)["id"] for _ in range(4)]
    assert list(app.extensions[matches.CACHE].states) == played[-2:]
