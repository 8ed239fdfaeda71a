"""The same tests over every game of the catalogue, through the API: a new game gets them for free.

Each game's table simulator (`tests/support/game_tables.py`, one interface for all) plays random legal matches over
the API, with hands entered or blind; now and then an event is undone and entered again, and the state after
the undo is the state before the event. At the end the log replayed on the engine is the served view, and the
money sums to zero.
"""

from __future__ import annotations

import random
from decimal import Decimal

import pytest
from api_match import ApiMatch
from game_tables import SIMULATORS

from referee import GAMES, Match

NAMES = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal"]
SEEDS = range(1)  # a whole match of each game through the API; the engine alone plays thousands in the property tests


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_has_a_table_simulator(game):
    assert callable(SIMULATORS[game])  # a game without one fails here, naming the table to fill


def test_every_table_simulator_is_of_a_game_of_the_registry():
    assert sorted(set(SIMULATORS) - set(GAMES)) == []


def without(state: dict, *names: str) -> dict:
    return {name: value for name, value in state.items() if name not in names}


def play_match(table, game: str, seed: int) -> ApiMatch:
    rng = random.Random(seed)
    spec = GAMES[game]
    players = rng.randint(spec.min_players, min(spec.max_players, 5))
    match = ApiMatch(table, game, NAMES[:players], stake="1")
    simulator = SIMULATORS[game](match, rng, known=rng.choice([0.0, 0.5, 1.0]))
    while True:
        before = match.view()
        command = simulator.step()
        if command is None:
            break
        if rng.random() < 0.03:  # undo anywhere: the state goes back to what it was, then the table goes on
            match.undo()
            assert without(match.view(), "seq") == without(before, "seq"), command
            match.play(command)
    assert match.view()["status"] == "finished"
    return match


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("game", sorted(GAMES))
def test_random_playouts_replay_to_the_served_view_and_the_money_sums_to_zero(table, game, seed):
    match = play_match(table, game, seed)
    served = match.refresh()
    log = [without(event, "undone_by", "corrected_by") for event in match.events()]
    assert any(event["type"] == "undo" for event in log)  # the seed undoes something in every game
    header = {"game": game, "players": match.players, "options": served["options"], "stake": served["stake"],
              "currency": served["currency"]}
    assert {**Match.replay(header, log).view(), "id": served["id"], "evening": None} == served
    money = match.settlement()
    assert money["final"] is True
    assert sum(Decimal(player["net"]) for player in money["players"]) == 0
