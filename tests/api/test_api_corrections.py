"""Corrections through the API: on the events route with the key, `expect_seq` and `Idempotency-Key`; in the
log and the state of every reader; seen by another process and pushed on the stream; on both stores.

Every answer is checked against openapi.yaml by the test client.
"""

from __future__ import annotations

import random
import threading

import pytest
from api_match import ApiMatch
from conftest import ContractClient, Table
from correcting import random_correction
from game_tables import SIMULATORS
from ogorek_helpers import SEED_HANDS, SEED_PLAYERS, SEED_TRICKS
from test_stream import Reader

from api import create_app
from referee import GAMES, InvalidInput, Match, Rejected
from referee.corrections import command_of

pytestmark = pytest.mark.both_stores

SEATS = SEED_PLAYERS
PLAYS = [{"type": "play", "seat": SEATS.index(name), "card": card} for trick in SEED_TRICKS for name, card in trick]
KNOWN_DEAL = {"type": "deal", "dealer": 0,
              "hands": {str(SEATS.index(name)): cards for name, cards in SEED_HANDS.items()}}


def header_of(state: dict, game: str) -> dict:
    return {"game": game, "players": [p["name"] for p in state["players"]], "options": state["options"],
            "stake": state["stake"], "currency": state["currency"]}


def replayed(table: Table, match: ApiMatch | dict, game: str) -> Match:
    """The engine's match rebuilt from the log the API serves with the key."""
    as_dict = {"id": match.id, "key": match.key} if isinstance(match, ApiMatch) else match
    log = [{k: v for k, v in e.items() if k not in ("undone_by", "corrected_by")}
           for e in table.events(as_dict, keyed=True)]
    return Match.replay(header_of(table.state(as_dict, keyed=True), game), log)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_random_corrections_of_every_game_through_the_api(table, game):
    """A random match of each game, then random corrections through the API, each answered as the engine answers
    the same correction of the same match; the served log replays to the served state."""
    rng = random.Random(sum(map(ord, game)))
    spec = GAMES[game]
    match = ApiMatch(table, game, ["Ann", "Bob", "Cid", "Dan"][:max(spec.min_players, min(4, spec.max_players))],
                     stake="1")
    simulator = SIMULATORS[game](match, rng, known=0.5)
    for _ in range(rng.randint(40, 90)):
        if simulator.step() is None:
            break
    recorded = refused = 0
    for attempt in range(30):
        engine = replayed(table, match, game)
        if recorded >= 3 and refused:
            break
        command, *_ = random_correction(engine, rng)
        if attempt % 5 == 4:  # the latest entry set again as it is: always fits
            last = list(engine.entries.values())[-1]
            command = {"type": "correct", "seq": last["seq"], "with": command_of(last)}
        try:
            expected = engine.play(command)
        except (Rejected, InvalidInput) as refusal:
            with pytest.raises(type(refusal)) as answer:
                match.play(command)
            assert answer.value.code == refusal.code
            refused += 1
            continue
        event, warnings, findings = match.play(command)
        assert (event, warnings) == (expected[0], expected[1])
        assert findings == [f.as_dict() for f in expected[2]]
        served = table.state({"id": match.id, "key": match.key}, keyed=True)
        assert {**engine.view(), "id": match.id, "evening": None} == served
        follower = table.state({"id": match.id, "key": match.key})
        assert {**engine.public().view(), "id": match.id, "evening": None} == follower
        assert table.events({"id": match.id}) == engine.events_view(hidden=True)
        recorded += 1
    assert recorded and refused  # the seed makes both
    assert replayed(table, match, game).view() == {key: value for key, value in table.state(
        {"id": match.id, "key": match.key}, keyed=True).items() if key not in ("id", "evening")}


def seed_table(table: Table) -> dict:
    match = table.new_match(players=SEATS)
    table.post_event(match, {"type": "deal", "dealer": 0})
    for play in PLAYS[:10]:
        table.post_event(match, play)
    return match


def test_a_correction_needs_the_key(table, client):
    match = seed_table(table)
    body = {"type": "correct", "seq": 2, "with": {**PLAYS[0], "card": "Q"}}
    assert client.post(f"/api/matches/{match['id']}/events", json=body).status_code == 401
    wrong = client.post(f"/api/matches/{match['id']}/events", json=body, headers={"Authorization": "Bearer nope"})
    assert wrong.status_code == 403
    assert table.state(match)["seq"] == 11


def test_a_retried_correction_is_recorded_once_and_answered_the_same(table):
    match = seed_table(table)
    body = {"type": "correct", "seq": 2, "with": {**PLAYS[0], "card": "Q"}}
    key = {"Idempotency-Key": "fix-the-king-of-trick-one"}
    first = table.post_event(match, body, headers=key)
    again = table.post_event(match, body, headers=key)
    assert again == first
    assert first["event"]["seq"] == 12 and first["event"]["with"]["card"] == "Q"
    events = table.events(match)
    assert [e["type"] for e in events].count("correct") == 1
    assert events[1]["corrected_by"] == 12
    assert [e["corrected_by"] for e in events if e["seq"] != 2] == [None] * 11  # present on every event, as undone_by
    other = table.post_event(match, {**body, "with": {**PLAYS[0], "card": "J"}}, expect=422, headers=key)
    assert other["error"]["code"] == "idempotency_key_reused"
    assert table.state(match)["deal"]["tricks"][0]["plays"][0] == {"seat": 1, "card": "Q", "seq": 2}


def test_a_correction_with_a_stale_expect_seq_is_refused(table):
    match = seed_table(table)
    refused = table.post_event(match, {"type": "correct", "seq": 2, "remove": True, "expect_seq": 10}, expect=409)
    assert refused["error"]["code"] == "seq_conflict" and refused["error"]["details"]["seq"] == 11
    answer = table.post_event(match, {"type": "correct", "seq": 11, "remove": True, "expect_seq": 11})
    assert answer["event"]["corrects"] == 11 and answer["state"]["seq"] == 12


def test_a_refused_correction_names_the_entry_and_records_nothing(table):
    match = seed_table(table)
    before = table.events(match, keyed=True)
    refused = table.post_event(match, {"type": "correct", "seq": 2, "remove": True}, expect=409)["error"]
    assert refused["code"] == "correction_breaks_log"
    assert refused["details"]["seq"] == 3 and refused["details"]["code"] == "not_your_turn"
    assert refused["details"]["forceable"] is False
    assert table.events(match, keyed=True) == before
    bad = table.post_event(match, {"type": "correct", "seq": 2, "with": {"type": "play", "seat": 1}}, expect=422)
    assert bad["error"]["code"] == "invalid_input" and "with" in bad["error"]["details"]
    shapes = table.post_event(match, {"type": "correct", "seq": 2}, expect=422)
    assert shapes["error"]["code"] == "bad_correction"
    undo = table.post_event(match, {"type": "correct", "seq": 99, "remove": True}, expect=409)
    assert undo["error"]["code"] == "not_correctable"
    assert table.events(match, keyed=True) == before


def test_a_correction_of_secret_hands_stays_secret(table):
    """The hands of the deal being played, corrected: the scorer sees the hands as corrected; a follower sees
    neither those nor the hands as first entered, in the state or the log."""
    match = table.new_match(players=SEATS)
    table.post_event(match, KNOWN_DEAL)
    for play in PLAYS[:4]:
        table.post_event(match, play)
    hands = dict(KNOWN_DEAL["hands"])
    hands["3"] = ["Q", "9", "9", "8", "7", "2"]  # E's 3 typed as a 2
    typed = table.post_event(match, {"type": "correct", "seq": 1, "with": {**KNOWN_DEAL, "hands": hands},
                                     "force": True})
    assert typed["event"]["flagged"] == [4]  # E's 3 of trick 1 is now a card E was not dealt
    assert [f["code"] for f in typed["findings"]] == ["card_not_in_hand"]
    follower = table.state(match)
    assert follower["deal"]["known_hands"] == [] and "legal" not in follower["expected"]
    assert all(f["code"] != "card_not_in_hand" for f in follower["findings"])
    for event in table.events(match):
        for entry in [event] + [event.get(k) for k in ("with", "was", "insert") if event.get(k)] + event.get(
                "changed", []):
            assert "hands" not in entry, entry
            assert entry.get("illegal", {}).get("code") != "card_not_in_hand"
    scorer = table.events(match, keyed=True)
    assert scorer[-1]["with"]["hands"]["3"] == hands["3"] and scorer[-1]["was"]["hands"] == KNOWN_DEAL["hands"]
    # set right again (the correction of the correction): the hands as first entered, nothing flagged
    back = table.post_event(match, {"type": "correct", "seq": typed["event"]["seq"], "remove": True})
    assert back["event"]["amends"] == typed["event"]["seq"]
    assert back["state"]["findings"] == [] and table.state(match)["findings"] == []


def test_another_process_sees_the_corrected_match(app, table):
    """A process that holds the match in its cache catches up with a correction another process recorded."""
    match = seed_table(table)
    other = create_app({"TESTING": True, "DATABASE": app.config["DATABASE"]})
    other.test_client_class = ContractClient
    elsewhere = Table(other.test_client())
    assert elsewhere.state(match)["seq"] == 11  # now in that process's cache
    answer = table.post_event(match, {"type": "correct", "seq": 2, "with": {**PLAYS[0], "card": "Q"}})
    assert elsewhere.state(match, keyed=True) == answer["state"]
    undone = elsewhere.undo(match)["state"]
    assert table.state(match, keyed=True) == undone
    assert undone["deal"]["tricks"][0]["plays"][0]["card"] == "K"


def test_the_stream_pushes_the_corrected_state(app, table):
    from flask.testing import FlaskClient

    match = seed_table(table)
    response = FlaskClient(app).get(f"/api/matches/{match['id']}/stream", headers={"Last-Event-ID": "11"},
                                    buffered=False)
    try:
        messages = Reader(iter(response.response))
        answer = table.post_event(match, {"type": "correct", "seq": 2, "with": {**PLAYS[0], "card": "Q"}})
        seq, state = messages.next_state()
        assert seq == 12 == answer["event"]["seq"]
        assert state == table.state(match)
        assert state["deal"]["tricks"][0]["plays"][0]["card"] == "Q"
    finally:
        response.close()


def race(app, match, bodies: list[dict]) -> list:
    barrier = threading.Barrier(len(bodies))
    responses: list = [None] * len(bodies)

    def post(index: int, body: dict) -> None:
        client = app.test_client()
        barrier.wait()
        responses[index] = client.post(f"/api/matches/{match['id']}/events", json=body,
                                       headers={"Authorization": f"Bearer {match['key']}"})

    threads = [threading.Thread(target=post, args=(i, body)) for i, body in enumerate(bodies)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return responses


def test_racing_corrections_with_expect_seq_record_exactly_one(app, table):
    match = seed_table(table)
    for seq, card in ((11, "Q"), (12, "J")):
        responses = race(app, match, [{"type": "correct", "seq": 2, "with": {**PLAYS[0], "card": card},
                                       "expect_seq": seq},
                                      {"type": "correct", "seq": 3, "with": {**PLAYS[1], "card": "3"},
                                       "expect_seq": seq}])
        assert sorted(r.status_code for r in responses) == [201, 409], [r.get_json() for r in responses]
        lost = next(r.get_json()["error"] for r in responses if r.status_code == 409)
        assert lost["code"] == "seq_conflict" and lost["details"]["seq"] == seq + 1
    assert replayed(table, match, "ogorek").view() == {
        key: value for key, value in table.state(match, keyed=True).items() if key not in ("id", "evening")}


def test_a_correction_racing_a_play_never_loses_either(app, table):
    """Without expect_seq: a correction and the next card posted at once; each is recorded once or refused
    with seq_conflict (nothing recorded), and the log replays to the state served."""
    match = seed_table(table)
    responses = race(app, match, [{"type": "correct", "seq": 2, "with": {**PLAYS[0], "card": "Q"}}, PLAYS[10]])
    codes = [r.status_code for r in responses]
    assert all(code in (201, 409) for code in codes) and 201 in codes
    for response in responses:
        if response.status_code == 409:
            assert response.get_json()["error"]["code"] == "seq_conflict"
    events = table.events(match, keyed=True)
    assert len(events) == 11 + codes.count(201)
    assert sorted(e["type"] for e in events[11:]) == sorted(
        r.get_json()["event"]["type"] for r in responses if r.status_code == 201)
    assert replayed(table, match, "ogorek").view() == {
        key: value for key, value in table.state(match, keyed=True).items() if key not in ("id", "evening")}
