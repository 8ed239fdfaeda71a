"""The catalogue, starting a match, playing it to the end and settling the money, over the API."""

from __future__ import annotations

from decimal import Decimal

import conftest
import pytest

from api import contract, create_app
from referee import GAMES, catalogue
from referee.games.ogorek import Ogorek

pytestmark = pytest.mark.both_stores


def test_the_catalogue_is_the_referees(client):
    response = client.get("/api/games")
    assert response.status_code == 200
    assert response.get_json() == {"games": catalogue()}
    [ogorek] = [g for g in response.get_json()["games"] if g["game"] == "ogorek"]
    assert (ogorek["min_players"], ogorek["max_players"]) == (2, 8)
    assert {o["name"]: o["default"] for o in ogorek["options"]}["limit"] == 21


def test_a_new_match_shows_its_state_id_and_key(client):
    response = client.post("/api/matches", json={"game": "ogorek", "players": [" Ala ", "Ola", "Ela"],
                                                 "options": {"ace_penalty": 1}, "stake": 2, "currency": "pln"})
    assert response.status_code == 201
    match = response.get_json()
    assert response.headers["Location"] == f"/api/matches/{match['id']}"
    assert [p["name"] for p in match["players"]] == ["Ala", "Ola", "Ela"]
    assert match["options"] == {"packets": 2, "ace_penalty": 1, "limit": 21, "cut_penalty": 5, "all_out": "share"}
    assert (match["stake"], match["currency"], match["status"], match["seq"]) == ("2", "PLN", "playing", 0)
    assert match["expected"]["type"] == "deal" and match["expected"]["dealer"] is None
    state = client.get(f"/api/matches/{match['id']}").get_json()
    assert state == {key: value for key, value in match.items() if key != "key"}


def test_penalties_end_the_match_and_the_settlement_is_final(table):
    match = table.new_match(players=["S", "W", "N"], stake="0.50", currency="PLN")
    table.post_event(match, {"type": "penalty", "seat": 2, "points": 22, "reason": "cut the deck"})
    answer = table.post_event(match, {"type": "penalty", "seat": 1, "points": 30})

    state = answer["state"]
    assert state["status"] == "finished" and state["expected"] is None
    assert [(p["out"], p["place"]) for p in state["players"]] == [(False, 1), (True, 2), (True, 3)]
    settlement = table.client.get(f"/api/matches/{match['id']}/settlement").get_json()
    assert settlement == state["settlement"]
    assert settlement["final"] is True and settlement["pool"] == "3.00"
    assert [p["net"] for p in settlement["players"]] == ["3.00", "-1.00", "-2.00"]
    assert sum(Decimal(p["net"]) for p in settlement["players"]) == 0
    assert settlement["transfers"] == [{"from": 1, "to": 0, "amount": "1.00"}, {"from": 2, "to": 0, "amount": "2.00"}]

    refused = table.post_event(match, {"type": "deal"}, expect=409)
    assert refused["error"]["code"] == "match_finished"


def test_the_players_may_end_the_match(table):
    match = table.new_match(stake="1")
    answer = table.post_event(match, {"type": "end"})
    assert answer["state"]["status"] == "finished"
    assert answer["state"]["settlement"]["final"] is True


def test_a_wrong_dealer_is_refused_unless_forced(table):
    match = table.new_match()
    table.post_event(match, {"type": "deal", "dealer": 0})
    for w, n, e, s in zip("AAAAKK", "222233", "334444", "555566", strict=True):  # W takes every trick
        for seat, card in (("W", w), ("N", n), ("E", e), ("S", s)):
            table.play(match, seat, card)
    assert table.state(match)["expected"] == {"type": "deal", "dealer": 1, "deal": 2, "cards": 6}

    refused = table.post_event(match, {"type": "deal", "dealer": 3}, expect=409)
    assert refused["error"]["code"] == "wrong_dealer" and refused["error"]["details"]["forceable"] is True

    forced = table.post_event(match, {"type": "deal", "dealer": 3, "force": True})
    assert forced["event"]["dealer"] == 3 and [w["code"] for w in forced["warnings"]] == ["wrong_dealer"]
    assert forced["event"]["warnings"] == forced["warnings"]


class Ogorek5(Ogorek):
    "Ogórek with a different name, standing in for a game added to the referee later"

    name = "ogorek_five"
    title = "Ogórek of five"
    max_players = 5
    event_types = frozenset({"deal", "play", "penalty", "end"})


@pytest.fixture
def another_game(monkeypatch):
    """The game added to the referee, and the contract `python -m api.contract --write` then writes: every answer
    of the test client is held to it."""
    monkeypatch.setitem(GAMES, Ogorek5.name, Ogorek5())
    written = contract.load(contract.derived(contract.SPEC.read_text(encoding="utf-8")))
    assert written["components"]["schemas"]["State"]["discriminator"]["mapping"][Ogorek5.name] == (
        "#/components/schemas/OgorekFiveState")
    monkeypatch.setattr(conftest, "spec", lambda: written)
    monkeypatch.setattr(conftest, "contract", lambda: conftest.openapi_of(written))
    return Ogorek5.name


@pytest.fixture
def sqlite_table(tmp_path) -> conftest.Table:
    """A table on a SQLite file alone: the game's registry and the contract written for it are the same whatever the
    store (the contract's derivation takes seconds; the stores are held to one contract by every other test)."""
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "referee.db")})
    app.test_client_class = conftest.ContractClient
    return conftest.Table(app.test_client())


def test_a_game_added_to_the_referee_works_without_changing_the_api(sqlite_table, another_game):
    table = sqlite_table
    games = [g["game"] for g in table.client.get("/api/games").get_json()["games"]]
    assert another_game in games

    too_many = table.new_match(game=another_game, players=list("ABCDEF"), expect=422)
    assert too_many["error"]["code"] == "bad_players"
    match = table.new_match(game=another_game, players=["A", "B"])
    answer = table.post_event(match, {"type": "deal", "dealer": 0})
    assert answer["state"]["game"] == another_game
    assert table.post_event(match, {"type": "attack", "seat": 1, "cards": ["9S"]}, expect=422)["error"]["code"] == (
        "bad_event_type")
