"""Agurk, the Danish cucumber (RULES.md §5), deal by deal as worked out at the table: the ace led, the last
trick's highest card, a cucumber and the way back, simultaneous cucumbers, elimination and money."""

from decimal import Decimal

import pytest

from referee import InvalidInput, Match, Rejected, catalogue
from referee.cards import Card
from referee.games.climbing import card_points

NAMES = ["S", "W", "N", "E"]
FILLER = ("2", "3", "4", "5", "6", "7")  # tricks 1-6: everyone plays the same rank, the latest takes it


def new_match(players: int = 3, stake: str | None = None, **options) -> Match:
    return Match.create("agurk", NAMES[:players], options, stake)


def play(match: Match, *cards: str) -> list:
    """Play `cards` in turn order; returns the findings they raised."""
    findings = []
    for card in cards:
        findings.extend(match.play({"type": "play", "seat": match.expected()["seat"], "card": card})[2])
    return findings


def deal(match: Match, hands: dict | None = None) -> dict:
    command: dict = {"type": "deal"}
    if match.expected()["dealer"] is None:
        command["dealer"] = 0
    if hands:
        command["hands"] = hands
    return match.play(command)[0]


def play_deal(match: Match, last: dict[int, str]) -> dict:
    """A whole deal, blind: six filler tricks, then the last trick with `last[seat]` for each seat; its result."""
    deal(match)
    for rank in FILLER:
        play(match, *[rank] * len(last))
    for _ in last:
        seat = match.expected()["seat"]
        match.play({"type": "play", "seat": seat, "card": last[seat]})
    return match.view()["deal"]["result"]


def test_the_catalogue_describes_agurk():
    [game] = [game for game in catalogue() if game["game"] == "agurk"]
    assert (game["min_players"], game["max_players"], game["suited"]) == (2, 7, False)
    assert {o["name"]: o["default"] for o in game["options"]} == {"ace_led_lowest": True, "limit": 21, "lives": 2}
    rules = game["rules"]
    assert rules["ranks"] == ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]  # ace high
    assert rules["hand_sizes"]["4"] == [7] and rules["keypad"] == "ranks" and rules["events"] == ["deal", "end", "play"]


@pytest.mark.parametrize(("card", "points"), [("2", 2), ("10", 10), ("J", 11), ("Q", 12), ("K", 13), ("A", 14)])
def test_card_points(card, points):
    assert card_points(Card(card)) == points


def test_bad_options_are_refused():
    with pytest.raises(InvalidInput):
        new_match(lives=0)


def test_an_ace_led_makes_everyone_play_their_lowest_card_even_holding_an_ace():
    match = new_match(3)
    deal(match, {"2": ["A", "K", "3", "9", "9", "10", "J"]})
    play(match, "A")  # W leads an ace
    assert match.expected()["rule"] == "lowest" and match.expected()["legal"] == ["3"]
    with pytest.raises(Rejected) as refused:
        play(match, "A")
    assert refused.value.code == "must_play_lowest" and refused.value.details["case"] == "ace_led"
    assert refused.value.forceable
    play(match, "3")


def test_without_the_ace_rule_an_ace_led_is_reached_as_any_card():
    match = new_match(3, ace_led_lowest=False)
    deal(match, {"2": ["A", "K", "3", "9", "9", "10", "J"]})
    play(match, "A")
    assert match.expected()["legal"] == ["A"]
    with pytest.raises(Rejected) as refused:
        play(match, "3")
    assert refused.value.code == "must_play_higher"


def test_an_ace_played_later_does_not_lock_the_trick():
    match = new_match(3)
    deal(match, {"0": ["A", "K", "3", "9", "9", "10", "J"]})
    play(match, "5", "A")  # W leads 5, N plays an ace: S must reach it (the ace) or play lowest
    assert match.expected()["rule"] == "reach" and match.expected()["legal"] == ["A"]


def test_a_blind_play_after_an_ace_led_is_found_when_a_lower_card_comes_later():
    match = new_match(2)
    deal(match)
    play(match, "A", "9")  # S plays 9 on W's ace: their lowest, the table says
    findings = play(match, "8", "3")  # S, leading... W took the trick: W leads 8, S plays 3, lower than 9
    assert [(f.code, f.details["case"], f.seat) for f in findings] == [("must_play_lowest", "found", 0)]


def test_the_highest_card_of_the_last_trick_scores_its_value():
    match = new_match(3)
    result = play_deal(match, {0: "9", 1: "K", 2: "J"})
    assert (result["losers"], result["card"], result["points"]) == ([1], "K", 13)
    assert [p["score"] for p in match.view()["players"]] == [0, 13, 0]
    assert match.view()["history"][-1]["scores"] == [0, 13, 0]


def test_equal_highest_cards_of_the_last_trick_all_score():
    match = new_match(3)
    result = play_deal(match, {0: "A", 1: "8", 2: "A"})
    assert (result["losers"], result["points"]) == ([0, 2], 14)
    assert [p["score"] for p in match.view()["players"]] == [14, 0, 14]


def test_21_is_safe_and_over_21_costs_a_life_and_comes_back_with_the_highest_total_of_the_others():
    match = new_match(3)
    play_deal(match, {0: "8", 1: "10", 2: "9"})  # W 10
    play_deal(match, {0: "K", 1: "8", 2: "9"})  # S 13
    play_deal(match, {0: "8", 1: "9", 2: "J"})  # N 11
    play_deal(match, {0: "8", 1: "9", 2: "10"})  # N 21: still safe
    assert [(p["score"], p["lives"]) for p in match.view()["players"]] == [(13, 2), (10, 2), (21, 2)]
    result = play_deal(match, {0: "9", 1: "8", 2: "A"})  # N 35: a cucumber, back with S's 13
    assert result["lost_life"] == [2] and result["comeback"] == {"2": 13} and result["out"] == []
    assert [(p["score"], p["lives"], p["out"]) for p in match.view()["players"]] == [
        (13, 2, False), (10, 2, False), (13, 1, False)]


def test_several_cucumbers_in_one_deal_come_back_with_the_highest_total_of_those_who_lost_none():
    match = new_match(3)
    play_deal(match, {0: "K", 1: "K", 2: "9"})  # S 13, W 13
    play_deal(match, {0: "8", 1: "9", 2: "10"})  # N 10
    result = play_deal(match, {0: "Q", 1: "Q", 2: "8"})  # S 25, W 25: both over, back with N's 10
    assert result["lost_life"] == [0, 1] and result["comeback"] == {"0": 10, "1": 10}
    assert [(p["score"], p["lives"]) for p in match.view()["players"]] == [(10, 1), (10, 1), (10, 2)]


def test_a_cucumber_with_nobody_left_to_copy_comes_back_at_zero():
    match = new_match(2)
    play_deal(match, {0: "K", 1: "K"})
    result = play_deal(match, {0: "Q", 1: "Q"})  # both 25
    assert result["comeback"] == {"0": 0, "1": 0}
    assert [(p["score"], p["lives"]) for p in match.view()["players"]] == [(0, 1), (0, 1)]


def test_the_last_life_lost_puts_a_player_out_and_the_last_one_in_wins_the_pool():
    match = new_match(3, stake="1", lives=1)
    play_deal(match, {0: "K", 1: "8", 2: "9"})
    result = play_deal(match, {0: "Q", 1: "8", 2: "9"})  # S 25: out
    assert result["out"] == [0] and match.view()["players"][0]["out"]
    play_deal(match, {1: "K", 2: "8"})
    play_deal(match, {1: "Q", 2: "8"})  # W 25: out; N wins
    view = match.view()
    assert view["status"] == "finished"
    assert [p["place"] for p in view["players"]] == [3, 2, 1]
    money = view["settlement"]
    assert [Decimal(p["net"]) for p in money["players"]] == [Decimal(-4), Decimal(-2), Decimal(6)]
    assert sum(Decimal(p["net"]) for p in money["players"]) == 0


def test_everyone_out_in_the_same_deal_share_the_places_left_and_the_pool():
    match = new_match(2, stake="1", lives=1)
    play_deal(match, {0: "K", 1: "K"})
    play_deal(match, {0: "Q", 1: "Q"})
    view = match.view()
    assert view["status"] == "finished" and [p["place"] for p in view["players"]] == [1, 1]
    assert [Decimal(p["net"]) for p in view["settlement"]["players"]] == [0, 0]


def test_the_dealer_rotates_clockwise_skipping_players_who_are_out():
    match = new_match(3, lives=1)
    play_deal(match, {0: "K", 1: "8", 2: "9"})  # dealt by S
    play_deal(match, {0: "Q", 1: "8", 2: "9"})  # dealt by W; S goes out
    assert match.expected()["dealer"] == 2
    play_deal(match, {1: "8", 2: "9"})
    assert match.expected()["dealer"] == 1


def test_entered_hands_stay_secret_until_the_deal_is_over():
    match = new_match(2)
    deal(match, {"1": ["A", "K", "3", "9", "9", "10", "J"]})
    assert match.game.hands_secret(match.state)
    assert "hands" not in match.public().events_view(hidden=True)[0]
