"""Every game of the catalogue tallies its own figures for the club (`Game.tallies`, `Game.tally`): whole matches
played by each game's table simulator, the figures held against the match's own record (its history of deals)."""

from __future__ import annotations

import random

import pytest
from game_tables import SIMULATORS

from referee import GAMES, Match
from referee.club import TALLIES, figures, summarize

MEMBERS = ["m0", "m1", "m2", "m3"]


def whole_match(game: str, seed: int) -> Match:
    players = ["Ann", "Bob", "Cid", "Dan"][:min(4, GAMES[game].max_players)]
    match = Match.create(game, players, None, "1")
    table = SIMULATORS[game](match, random.Random(seed), known=0.5)
    table.careless = 0.05  # a few illegal plays let stand, and blind ones found later
    table.play_out()
    return match


@pytest.mark.parametrize("game", list(GAMES))
def test_each_game_names_only_figures_the_club_knows(game):
    tallies = GAMES[game].tallies
    assert tallies and set(tallies) <= set(TALLIES) and len(set(tallies)) == len(tallies)


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("game", list(GAMES))
def test_a_whole_match_tallies_what_its_record_says(game, seed):
    match = whole_match(game, seed)
    state = match.state
    assert state.finished
    summary = summarize(match, MEMBERS[:len(match.players)], match_id="x", date="2025-03-07")
    history = state.history
    for seat, player in enumerate(summary["players"]):
        mine = player["figures"]
        assert set(mine) == set(GAMES[game].tallies) | {"illegal_found", "illegal_let_stand"}
        if not state.out[seat]:  # in to the end: dealt every deal played to its end
            assert mine["deals"] == len(history)
        if "lives_lost" in mine:
            before = [match.options["lives"]] + [deal["lives"][seat] for deal in history]
            assert mine["lives_lost"] == sum(1 for a, b in zip(before, before[1:], strict=False) if b < a)
        if "minus_points" in mine:
            assert mine["minus_points"] == state.scores[seat]
        if "bids" in mine:
            assert mine["bids"] == len(history)  # everyone bids in every hand
            assert mine["exact_bids"] == sum(1 for hand in history if hand["bids"][seat] == hand["taken"][seat])
        if "deals_lost" in mine:
            if history and "durak" in history[0]:  # the score counts the deals the player was the durak of
                assert mine["deals_lost"] == state.scores[seat]
            else:  # two players, the score counts deals won: a deal the other won is one this player lost
                assert mine["deals_lost"] == state.scores[1 - seat]
    found = match.public().state.findings
    assert sum(p["figures"]["illegal_found"] + p["figures"]["illegal_let_stand"] for p in summary["players"]) \
        == len(found)
    summed = figures([summary, {**summary, "match": "y"}])
    for player in summary["players"]:
        total = summed[player["member"]][game]
        assert total["matches"] == 2 and total["wins"] == 2 * (player["place"] == 1)
        assert all(total[name] == 2 * value for name, value in player["figures"].items())
