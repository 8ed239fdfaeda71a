"""Oh Hell (RULES.md §4): hands and trumps, tricks, scores and places, bids, the views and the options."""

import random

import pytest
from oh_hell_table import (
    NAMES,
    SimTable,
    bid,
    first_hand,
    new,
    play,
    play_first_hand,
    play_second_hand,
    rejection,
)

from referee import InvalidInput, Match, catalogue
from referee.games.oh_hell import hand_sizes, points, trump_turned

# --- hands and trumps ----------------------------------------------------------------------------

@pytest.mark.parametrize("players, sequence, sizes", [
    (3, "up", list(range(1, 16))),
    (4, "up", list(range(1, 14))),
    (5, "down", list(range(10, 0, -1))),
    (6, "up_down", [1, 2, 3, 4, 5, 6, 7, 8, 7, 6, 5, 4, 3, 2, 1]),
    (7, "down_up", [7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7]),
    (4, [5, 3, 13], [5, 3, 13]),
])
def test_hand_sizes_follow_the_sequence(players, sequence, sizes):
    assert hand_sizes(sequence, players) == sizes


@pytest.mark.parametrize("players, sequence, no_trump_last_hand, without_trump", [
    (3, "up", True, [15]),
    (3, "up", False, []),
    (4, "up", True, [13]),
    (4, "up", False, [13]),          # 4 × 13 = 52 cards: none left to turn
    (4, "down", False, [1]),
    (4, "up_down", True, [13, 25]),
    (5, "up", True, [10]),
    (7, [7, 7], False, []),           # 49 cards dealt, 3 left
])
def test_which_hands_turn_a_trump(players, sequence, no_trump_last_hand, without_trump):
    options = {"no_trump_last_hand": no_trump_last_hand}
    sizes = hand_sizes(sequence, players)
    turned = [trump_turned(options, sizes, number, players) for number in range(1, len(sizes) + 1)]
    assert [number for number, trump in enumerate(turned, 1) if not trump] == without_trump


@pytest.mark.parametrize("players, sequence", [(3, "up"), (4, "up_down"), (7, "down_up"), (6, [8, 2, 8])])
def test_a_whole_match_deals_the_sequence_and_rotates_the_dealer(players, sequence):
    match = new(players, sequence=sequence)
    table = SimTable(match, random.Random(players), first_dealer=players - 1)
    dealers = []
    while match.expected() is not None:
        if match.expected()["type"] == "deal":
            dealers.append(table.deal()["dealer"])
        else:
            table.step()
    sizes = hand_sizes(sequence, players)
    assert table.sizes == sizes
    assert dealers == [(players - 1 + i) % players for i in range(len(sizes))]
    assert table.turned[-1] is False
    assert [entry["scores"] for entry in match.view()["history"]][-1] == table.totals
    assert match.view()["status"] == "finished"


def test_the_trump_card_must_be_given_when_one_is_turned():
    with pytest.raises(InvalidInput) as info:
        new().play({"type": "deal", "dealer": 0})
    assert info.value.code == "trump_required"


@pytest.mark.parametrize("players, sequence, why", [
    (3, [2, 1], "last hand"),
    (4, [13, 1], "leave no card"),
])
def test_no_trump_card_is_accepted_when_none_is_turned(players, sequence, why):
    match = new(players, sequence=sequence)
    if sequence[0] != 13:
        table = SimTable(match, random.Random(1))
        table.deal()
        while match.expected()["type"] != "deal":
            table.step()
    with pytest.raises(InvalidInput) as info:
        match.play({"type": "deal", "dealer": 1, "trump": "2C"})
    assert info.value.code == "no_trump_in_hand"
    assert why in info.value.message


def test_the_last_hand_has_a_trump_when_the_table_wants_one():
    match = new(sequence=[1], no_trump_last_hand=False)
    match.play({"type": "deal", "dealer": 0, "trump": "QD"})
    assert match.view()["deal"]["trump"] == "D"


# --- tricks --------------------------------------------------------------------------------------

def test_hand_worked_tricks_trumps_discards_and_overtrumps():
    match = new(sequence=[3, 2])
    first_hand(match)
    play_first_hand(match)
    deal = match.view()["deal"]
    assert [trick["winner"] for trick in deal["tricks"]] == [2, 2, 1]
    assert deal["taken"] == [0, 1, 2]
    assert [result["points"] for result in deal["result"]] == [0, 11, 0]
    assert match.view()["findings"] == []


def test_without_trump_the_highest_card_of_the_suit_led_wins():
    match = new(sequence=[3, 2])
    first_hand(match)
    play_first_hand(match)
    play_second_hand(match)
    view = match.view()
    assert view["deal"]["trump"] is None and view["deal"]["trump_card"] is None
    assert [trick["winner"] for trick in view["deal"]["tricks"]] == [2, 1]
    assert [player["score"] for player in view["players"]] == [10, 22, 11]
    assert [player["place"] for player in view["players"]] == [3, 1, 2]
    assert view["status"] == "finished" and view["expected"] is None
    assert [entry["scores"] for entry in view["history"]] == [[0, 11, 0], [10, 22, 11]]


def test_the_winner_of_a_trick_leads_the_next():
    match = new(sequence=[3, 2])
    first_hand(match)
    for seat, card in [(1, "KS"), (2, "2H"), (0, "AS")]:
        play(match, seat, card)
    assert match.expected()["seat"] == 2
    assert match.expected()["trick"] == 2
    error = rejection(match, {"type": "play", "seat": 1, "card": "2D"})
    assert error.code == "not_your_turn"


# --- scoring -------------------------------------------------------------------------------------

@pytest.mark.parametrize("bid_, taken, size, miss_scores_tricks, zero_bid_bonus, expected", [
    (2, 2, 5, False, False, 12),
    (2, 3, 5, False, False, 0),
    (2, 1, 5, True, False, 1),
    (0, 0, 7, False, False, 10),
    (0, 0, 7, False, True, 12),
    (0, 2, 7, False, True, 0),
    (0, 2, 7, True, True, 2),
    (3, 3, 7, True, True, 13),
])
def test_points_of_a_hand(bid_, taken, size, miss_scores_tricks, zero_bid_bonus, expected):
    options = {"miss_scores_tricks": miss_scores_tricks, "zero_bid_bonus": zero_bid_bonus}
    assert points(bid_, taken, size, options) == expected


@pytest.mark.parametrize("options, scores", [
    ({}, [10, 11, 0]),
    ({"miss_scores_tricks": True}, [10, 11, 2]),
    ({"zero_bid_bonus": True}, [8, 11, 0]),
])
def test_scoring_options_in_a_hand(options, scores):
    match = new(sequence=[3, 2], **options)
    first_hand(match, bids=(1, 1, 0))
    play_first_hand(match)
    assert [player["score"] for player in match.view()["players"]] == scores


def test_equal_totals_share_the_win_and_the_pool():
    match = Match.create("oh_hell", NAMES[:3], {"sequence": [1]}, stake="1.00", currency="EUR")
    match.play({"type": "deal", "dealer": 0})
    for seat in (1, 2, 0):
        bid(match, seat, 0)
    for seat, card in [(1, "AS"), (2, "2S"), (0, "3S")]:
        play(match, seat, card)
    view = match.view()
    assert [player["score"] for player in view["players"]] == [10, 0, 10]
    assert [player["place"] for player in view["players"]] == [1, 3, 1]
    assert view["settlement"]["pool"] == "6.00"   # places 1-2 pay 1.00 each, place 3 pays 4.00
    assert {p["seat"]: p["net"] for p in view["settlement"]["players"]} == {0: "2.00", 1: "-4.00", 2: "2.00"}


def test_places_and_money_follow_the_totals():
    match = Match.create("oh_hell", NAMES[:3], {"sequence": [1]}, stake="1.00")
    match.play({"type": "deal", "dealer": 0})
    for seat, tricks in [(1, 1), (2, 0), (0, 1)]:
        bid(match, seat, tricks)
    for seat, card in [(1, "2S"), (2, "3S"), (0, "AS")]:
        play(match, seat, card)
    view = match.view()
    assert [player["score"] for player in view["players"]] == [11, 0, 10]
    assert [player["place"] for player in view["players"]] == [1, 3, 2]
    nets = {p["seat"]: p["net"] for p in view["settlement"]["players"]}
    assert nets == {0: "6.00", 1: "-4.00", 2: "-2.00"}


def test_ending_early_ranks_by_the_totals_so_far():
    match = new(sequence=[3, 2])
    first_hand(match)
    play_first_hand(match)
    match.play({"type": "end"})
    view = match.view()
    assert view["status"] == "finished"
    assert [player["place"] for player in view["players"]] == [2, 1, 2]
    assert rejection(match, {"type": "deal"}).code == "match_finished"


# --- bidding -------------------------------------------------------------------------------------

def test_bids_go_clockwise_from_the_dealers_left():
    match = new(sequence=[3, 2])
    match.play({"type": "deal", "dealer": 0, "trump": "9H"})
    assert match.expected() == {"type": "bid", "seat": 1, "seats": [1, 2, 0], "deal": 1,
                                "allowed": [0, 1, 2, 3], "forbidden": None}
    error = rejection(match, {"type": "bid", "seat": 0, "bid": 1})
    assert (error.code, error.forceable) == ("not_your_turn", False)
    assert "Bob's turn to bid" in error.message
    bid(match, 1, 2)
    assert rejection(match, {"type": "bid", "seat": 1, "bid": 1}).code == "already_bid"
    assert match.view()["deal"]["bids"] == [None, 2, None]
    assert [player["bid"] for player in match.view()["players"]] == [None, 2, None]


@pytest.mark.parametrize("value", [-1, 4, 99])
def test_a_bid_out_of_range_is_rejected(value):
    match = new(sequence=[3, 2])
    match.play({"type": "deal", "dealer": 0, "trump": "9H"})
    error = rejection(match, {"type": "bid", "seat": 1, "bid": value})
    assert error.code == "bid_out_of_range"
    assert "bid 0 to 3" in error.message


@pytest.mark.parametrize("value", ["2", 1.5, True, None])
def test_a_bid_that_is_not_a_number_is_invalid(value):
    match = new(sequence=[3, 2])
    match.play({"type": "deal", "dealer": 0, "trump": "9H"})
    with pytest.raises(InvalidInput) as info:
        match.play({"type": "bid", "seat": 1, "bid": value})
    assert info.value.code == "bad_bid"


def test_no_bid_before_the_deal_and_none_after_play_began():
    match = new(sequence=[3, 2], simultaneous_bids=True)
    assert rejection(match, {"type": "bid", "seat": 1, "bid": 1}).code == "no_deal"
    first_hand(match)
    play(match, 1, "KS")
    assert rejection(match, {"type": "bid", "seat": 1, "bid": 2}).code == "bidding_over"


def test_no_play_before_every_bid_is_in():
    match = new(sequence=[3, 2])
    match.play({"type": "deal", "dealer": 0, "trump": "9H"})
    bid(match, 1, 1)
    error = rejection(match, {"type": "play", "seat": 1, "card": "KS"})
    assert (error.code, error.forceable) == ("bids_missing", False)
    assert "Cid, Ann" in error.message


def test_the_hook_forbids_the_dealer_the_bid_that_makes_the_total():
    match = new(sequence=[3, 2], hook=True)
    match.play({"type": "deal", "dealer": 0, "trump": "9H"})
    bid(match, 1, 1)
    assert match.expected()["forbidden"] is None
    bid(match, 2, 1)
    assert match.expected()["allowed"] == [0, 2, 3]
    assert match.expected()["forbidden"] == 1
    error = rejection(match, {"type": "bid", "seat": 0, "bid": 1})
    assert (error.code, error.forceable) == ("hook", True)
    assert "may not bid 1" in error.message and "Ann" in error.message
    bid(match, 0, 2)
    assert match.view()["findings"] == []


def test_a_hook_break_forced_through_is_a_finding():
    match = new(sequence=[3, 2], hook=True)
    match.play({"type": "deal", "dealer": 0, "trump": "9H"})
    bid(match, 1, 3)
    bid(match, 2, 0)
    event, warnings, findings = bid(match, 0, 0, force=True)
    assert event["illegal"]["code"] == "hook"
    assert [w["code"] for w in warnings] == ["hook"]
    assert [(f.seq, f.proof_seq, f.seat, f.code, f.deal) for f in findings] == [(4, 4, 0, "hook", 1)]


def test_the_hook_has_nothing_to_forbid_when_the_others_bid_too_much():
    match = new(sequence=[2, 1], hook=True)
    match.play({"type": "deal", "dealer": 0, "trump": "9H"})
    bid(match, 1, 2)
    bid(match, 2, 2)
    assert match.expected()["allowed"] == [0, 1, 2]
    bid(match, 0, 0)


def test_simultaneous_bids_come_in_any_order_and_the_hook_does_not_apply():
    match = new(sequence=[3, 2], simultaneous_bids=True, hook=True)
    match.play({"type": "deal", "dealer": 0, "trump": "9H"})
    assert match.expected()["seat"] is None
    assert match.view()["deal"]["turn"] is None
    bid(match, 0, 1)
    bid(match, 2, 1)
    assert match.expected()["seats"] == [1]
    bid(match, 1, 1)
    assert match.view()["findings"] == []
    assert match.expected()["type"] == "play" and match.expected()["seat"] == 1


# --- views and catalogue -------------------------------------------------------------------------

def test_the_deal_view_shows_the_hand():
    match = new(sequence=[3, 2])
    first_hand(match)
    play(match, 1, "KS")
    deal = match.view()["deal"]
    assert {key: deal[key] for key in ("number", "hands", "cards", "dealer", "trump_card", "trump", "phase",
                                       "bids", "taken", "trick", "led", "turn", "over")} == {
        "number": 1, "hands": 2, "cards": 3, "dealer": 0, "trump_card": "9H", "trump": "H", "phase": "playing",
        "bids": [1, 1, 1], "taken": [0, 0, 0], "trick": 1, "led": "S", "turn": 2, "over": False}
    assert deal["table"] == [{"seat": 1, "card": "KS", "seq": 5}]
    assert match.expected() == {"type": "play", "seat": 2, "deal": 1, "trick": 1, "led": "S", "trump": "H"}
    assert match.view()["players"][1]["tricks"] == 0


def test_the_catalogue_describes_oh_hell():
    entry = next(game for game in catalogue() if game["game"] == "oh_hell")
    assert (entry["min_players"], entry["max_players"], entry["suited"]) == (3, 7, True)
    assert entry["events"] == ["bid", "deal", "end", "play"]
    assert {option["name"]: option["default"] for option in entry["options"]} == {
        "sequence": "up", "no_trump_last_hand": True, "hook": False, "simultaneous_bids": False,
        "must_trump": False, "miss_scores_tricks": False, "zero_bid_bonus": False}


@pytest.mark.parametrize("players, options, fragment", [
    (3, {"sequence": "sideways"}, "must be one of"),
    (3, {"sequence": []}, "non-empty list"),
    (4, {"sequence": [1, 14]}, "1 to 13 cards with 4 players, not 14"),
    (7, {"sequence": [0, 8]}, "not 0, 8"),
    (3, {"sequence": [1] * 101}, "at most 100 hands"),
    (3, {"hook": "yes"}, "true or false"),
    (3, {"trumps": True}, "no option"),
])
def test_bad_options_are_named(players, options, fragment):
    with pytest.raises(InvalidInput) as info:
        new(players, **options)
    assert fragment in info.value.message


@pytest.mark.parametrize("players", [2, 8])
def test_three_to_seven_players(players):
    with pytest.raises(InvalidInput):
        Match.create("oh_hell", [f"P{i}" for i in range(players)])
