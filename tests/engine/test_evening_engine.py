"""The evening in the engine (`referee.evening`): people by name, nets, the fewest transfers, the figures."""

from __future__ import annotations

from decimal import Decimal

import pytest
from ogorek_helpers import SEED_PLAYERS, play, seed_match
from oh_hell_table import first_hand, play_first_hand

from referee import InvalidInput, Match
from referee.evening import MAX_PEOPLE, check_evening_name, evening, figures_rows, people_count


def ogorek(players: list[str], out: list[int], stake: str = "1") -> Match:
    """An Ogórek match where the seats in `out` go out in that order (a penalty past the limit each)."""
    match = Match.create("ogorek", players, None, stake, "PLN")
    for seat in out:
        match.play({"type": "penalty", "seat": seat, "points": 22})
    return match


def test_people_are_names_whatever_seat_and_spelling():
    first = ogorek(["Ann", "Bob", "Cid"], [2, 1])  # Cid out first, Bob second: Ann wins
    second = ogorek(["cid", "BOB", "Аnn"], [2, 1])  # the Cyrillic А looks Latin; Ann out first, Bob, Cid wins
    summary = evening([("m1", first), ("m2", second)])
    assert [p["name"] for p in summary["people"]] == ["Ann", "Bob", "Cid"]
    assert [p["person"] for p in summary["matches"][1]["players"]] == ["Cid", "Bob", "Ann"]
    assert {p["name"]: p["net"] for p in summary["people"]} == {"Ann": "2.00", "Bob": "-4.00", "Cid": "2.00"}


def test_the_evening_is_settled_once_with_the_fewest_transfers():
    """Per match it would take four transfers; over the evening Bob pays twice and that is all."""
    first = ogorek(["Ann", "Bob", "Cid"], [2, 1])
    second = ogorek(["Cid", "Bob", "Ann"], [2, 1])
    assert len(first.settlement()["transfers"]) + len(second.settlement()["transfers"]) == 4
    summary = evening([("m1", first), ("m2", second)])
    assert summary["transfers"] == [{"from": "Bob", "to": "Ann", "amount": "2.00"},
                                    {"from": "Bob", "to": "Cid", "amount": "2.00"}]
    assert sum(Decimal(p["net"]) for p in summary["people"]) == 0
    assert summary["final"] is True


def test_a_match_being_played_counts_as_if_stopped_now():
    done = ogorek(["Ann", "Bob"], [1])  # Bob out: Ann +2
    playing = ogorek(["Ann", "Bob", "Cid"], [0], stake="0.50")  # Ann out first; Bob and Cid share the rest
    summary = evening([("m1", done), ("m2", playing)])
    assert [m["final"] for m in summary["matches"]] == [True, False]
    assert summary["final"] is False
    assert [p["net"] for p in summary["matches"][1]["players"]] == ["-2.00", "1.00", "1.00"]
    assert {p["name"]: p["net"] for p in summary["people"]} == {"Ann": "0.00", "Bob": "-1.00", "Cid": "1.00"}
    assert summary["transfers"] == [{"from": "Bob", "to": "Cid", "amount": "1.00"}]


def test_an_evening_without_matches_settles_nothing():
    assert evening([]) == {"final": False, "matches": [], "people": [], "transfers": []}


def test_figures_a_game_does_not_keep_are_null_not_zero():
    match = ogorek(["Ann", "Bob", "Cid"], [2])
    mine = evening([("m", match)])["matches"][0]["players"][2]["figures"]
    assert mine["minus_points"] == 22
    assert mine["lives_lost"] is None and mine["bids"] is None and mine["exact_bids_pct"] is None
    assert mine["places"] == [3] and mine["won"] == 0 and mine["matches"] == 1


def test_oh_hell_exact_bids_and_ogorek_minus_points_add_up_over_the_evening():
    oh_hell = Match.create("oh_hell", ["Ann", "Bob", "Cid"], {"sequence": [3, 2]})
    first_hand(oh_hell)  # everyone bids 1
    play_first_hand(oh_hell)  # Ann takes none, Bob one, Cid two
    climbing = ogorek(["Bob", "Ann"], [])
    climbing.play({"type": "penalty", "seat": 1, "points": 5})
    people = {p["name"]: p["figures"] for p in evening([("a", oh_hell), ("b", climbing)])["people"]}
    assert [people[name]["exact_bids"] for name in ("Ann", "Bob", "Cid")] == [0, 1, 0]
    assert [people[name]["exact_bids_pct"] for name in ("Ann", "Bob", "Cid")] == [0.0, 100.0, 0.0]
    assert people["Ann"]["minus_points"] == 5 and people["Bob"]["minus_points"] == 0
    assert people["Cid"]["minus_points"] is None
    assert people["Ann"]["matches"] == 2 and people["Cid"]["matches"] == 1


def test_lives_lost_in_ogurets():
    match = Match.create("ogurets", ["Ann", "Bob"], {"lives": 3})
    match.state.lives[1] = 1  # as after two deals lost
    figures = evening([("m", match)])["matches"][0]["players"]
    assert [p["figures"]["lives_lost"] for p in figures] == [0, 2]


def test_an_illegal_play_let_stand_is_counted_for_its_player():
    match = seed_match(known_hands=True)
    play(match, "W", "K")
    play(match, "N", "5", force=True)  # N must play their lowest card, the 2
    players = evening([("m", match)])["matches"][0]["players"]
    assert [p["figures"]["illegal_let_stand"] for p in players] == [0, 0, 1, 0]
    assert [p["figures"]["illegal_found"] for p in players] == [0, 0, 0, 0]
    assert [p["name"] for p in players] == SEED_PLAYERS


def test_the_figures_rows_have_the_evening_then_each_match():
    rows = figures_rows(evening([("m1", ogorek(["Ann", "Bob"], [1]))]))
    assert rows[0][:5] == ["match", "game", "name", "net", "matches"]
    assert rows[1][:4] == ["evening", "", "Ann", "2.00"]
    assert rows[4][:4] == ["m1", "ogorek", "Bob", "-2.00"]
    assert rows[4][rows[0].index("bids")] == ""  # a figure the game does not keep is empty, not 0


def test_people_are_counted_once_however_written():
    assert people_count([["Ann", "Bob"], ["ANN", "Cid"]]) == 3
    assert MAX_PEOPLE == 12


@pytest.mark.parametrize(("name", "kept"), [("  Friday  ", "Friday"), ("Piątek u Ewy", "Piątek u Ewy")])
def test_an_evening_name_is_trimmed(name, kept):
    assert check_evening_name(name) == kept


@pytest.mark.parametrize("name", ["", "   ", "a\nb", "x" * 81, 7, None, "\u3164"])
def test_a_bad_evening_name_is_refused(name):
    with pytest.raises(InvalidInput) as info:
        check_evening_name(name)
    assert info.value.code == "bad_evening_name"
