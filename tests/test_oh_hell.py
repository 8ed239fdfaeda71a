"""Oh Hell (RULES.md §4): hands, trumps, bids, tricks, scores, options, rejections and findings."""

import random

import pytest
from oh_hell_table import SimTable

from referee import CardError, InvalidInput, Match, Rejected, catalogue
from referee.games.oh_hell import hand_sizes, points, trump_turned

NAMES = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus"]

# A hand-worked match of three players, two hands. Hand 1 (Ann deals, trump hearts) and hand 2 (Bob deals,
# the last hand: no trump). The cards of each seat, in the order they are played.
HAND_1 = {"1": ["KS", "2D", "10H"], "2": ["2H", "5D", "3C"], "0": ["AS", "9C", "4H"]}
HAND_2 = {"2": ["4C", "7D"], "0": ["AS", "KH"], "1": ["2C", "8D"]}


def new(players: int = 3, **options) -> Match:
    return Match.create("oh_hell", NAMES[:players], options)


def play(match: Match, seat: int, card: str, **extra):
    return match.play({"type": "play", "seat": seat, "card": card, **extra})


def bid(match: Match, seat: int, tricks: int, **extra):
    return match.play({"type": "bid", "seat": seat, "bid": tricks, **extra})


def rejection(match: Match, command: dict) -> Rejected:
    seq = match.seq
    with pytest.raises(Rejected) as info:
        match.play(command)
    assert match.seq == seq, "a rejected event is not recorded"
    return info.value


def first_hand(match: Match, known: bool = False, bids=(1, 1, 1)) -> None:
    """Deal hand 1 (Ann deals, 9H turned) and bid Bob, Cid, Ann."""
    command = {"type": "deal", "dealer": 0, "trump": "9H"}
    if known:
        command["hands"] = HAND_1
    match.play(command)
    for seat, tricks in zip((1, 2, 0), bids, strict=True):
        bid(match, seat, tricks)


def play_first_hand(match: Match) -> None:
    for seat, card in [(1, "KS"), (2, "2H"), (0, "AS"),   # Cid trumps the spade lead
                       (2, "5D"), (0, "9C"), (1, "2D"),   # Ann discards a club: the 5 of the suit led wins
                       (2, "3C"), (0, "4H"), (1, "10H")]:  # Bob over-trumps Ann
        play(match, seat, card)


def play_second_hand(match: Match, bids=(1, 0, 1)) -> None:
    match.play({"type": "deal"})
    for seat, tricks in zip((2, 0, 1), bids, strict=True):
        bid(match, seat, tricks)
    for seat, card in [(2, "4C"), (0, "AS"), (1, "2C"),   # no trump: Ann's ace of spades takes nothing
                       (2, "7D"), (0, "KH"), (1, "8D")]:
        play(match, seat, card)


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


# --- rejected plays ------------------------------------------------------------------------------

def test_the_turned_up_trump_card_cannot_be_played():
    match = new(sequence=[3, 2])
    first_hand(match)
    error = rejection(match, {"type": "play", "seat": 1, "card": "9H", "force": True})
    assert (error.code, error.forceable) == ("trump_card_on_table", False)


def test_a_card_already_played_in_the_hand_is_rejected():
    match = new(sequence=[3, 2])
    first_hand(match)
    play(match, 1, "KS")
    error = rejection(match, {"type": "play", "seat": 2, "card": "KS", "force": True})
    assert (error.code, error.forceable) == ("card_already_played", False)
    assert "trick 1 of hand 1" in error.message


def test_a_card_is_played_again_in_the_next_hand():
    match = new(sequence=[3, 2])
    first_hand(match)
    play_first_hand(match)
    play_second_hand(match)   # Ann plays AS again
    assert match.view()["findings"] == []


def test_a_card_in_another_players_known_hand_is_rejected():
    match = new(sequence=[3, 2])
    match.play({"type": "deal", "dealer": 0, "trump": "9H", "hands": {"0": HAND_1["0"]}})
    for seat in (1, 2, 0):
        bid(match, seat, 1)
    error = rejection(match, {"type": "play", "seat": 1, "card": "AS", "force": True})
    assert (error.code, error.forceable) == ("card_in_other_hand", False)
    assert "dealt to Ann" in error.message


@pytest.mark.parametrize("card", ["X", "KZ", "K", 7])
def test_a_card_that_is_not_in_the_deck_is_refused(card):
    match = new(sequence=[3, 2])
    first_hand(match)
    with pytest.raises(CardError):
        match.play({"type": "play", "seat": 1, "card": card})


def test_a_deal_during_a_hand_and_a_play_without_a_deal_are_rejected():
    match = new(sequence=[3, 2])
    assert rejection(match, {"type": "play", "seat": 1, "card": "KS"}).code == "no_deal"
    first_hand(match)
    assert rejection(match, {"type": "deal"}).code == "deal_in_progress"


def test_the_next_dealer_is_left_of_the_last():
    match = new(sequence=[3, 2])
    first_hand(match)
    play_first_hand(match)
    assert match.expected() == {"type": "deal", "dealer": 1, "deal": 2, "cards": 2, "turn_trump": False}
    error = rejection(match, {"type": "deal", "dealer": 2})
    assert (error.code, error.forceable) == ("wrong_dealer", True)
    event, warnings, _ = match.play({"type": "deal", "dealer": 2, "force": True})
    assert event["dealer"] == 2 and warnings[0]["code"] == "wrong_dealer"
    assert match.expected()["seat"] == 0


def test_the_first_dealer_may_be_drawn_by_lot():
    match = new(sequence=[1, 1])
    match.play({"type": "deal", "trump": "2C"}, lot=lambda bound: bound - 1)
    assert match.view()["deal"]["dealer"] == 2
    assert match.expected()["seat"] == 0


# --- known hands ---------------------------------------------------------------------------------

@pytest.mark.parametrize("hands, code", [
    ({"0": ["AS", "9C"]}, "bad_hands"),
    ({"0": ["AS", "9C", "4H"], "1": ["AS", "2D", "10H"]}, "impossible_hands"),
    ({"0": ["AS", "9C", "9H"]}, "impossible_hands"),
    ({"7": ["AS", "9C", "4H"]}, "bad_seat"),
    (["AS"], "bad_hands"),
])
def test_known_hands_must_be_possible(hands, code):
    with pytest.raises(InvalidInput) as info:
        new(sequence=[3, 2]).play({"type": "deal", "dealer": 0, "trump": "9H", "hands": hands})
    assert info.value.code == code


def test_known_hands_play_a_legal_hand_without_complaint():
    match = new(sequence=[3, 2])
    first_hand(match, known=True)
    assert match.expected()["legal"] == ["KS", "10H", "2D"]
    play(match, 1, "KS")
    assert match.expected()["legal"] == ["2H", "5D", "3C"]   # Cid has no spade: anything
    play(match, 2, "2H")
    assert match.expected()["legal"] == ["AS"]
    play(match, 0, "AS")
    assert match.view()["deal"]["known_hands"] == [0, 1, 2]


def test_known_hands_must_follow_suit():
    match = new(sequence=[3, 2])
    first_hand(match, known=True)
    play(match, 1, "KS")
    play(match, 2, "2H")
    error = rejection(match, {"type": "play", "seat": 0, "card": "9C"})
    assert (error.code, error.forceable) == ("must_follow_suit", True)
    assert error.message == "Ann must follow spades (AS), not play 9C."
    event, warnings, findings = play(match, 0, "9C", force=True)
    assert [(f.code, f.seq, f.proof_seq, f.deal, f.trick) for f in findings] == [
        ("must_follow_suit", event["seq"], event["seq"], 1, 1)]


def test_known_hands_must_trump_with_la_podrida():
    match = new(sequence=[3, 2], must_trump=True)
    first_hand(match, known=True)
    for seat, card in [(1, "KS"), (2, "2H"), (0, "AS")]:
        play(match, seat, card)
    play(match, 2, "5D")
    assert match.expected()["legal"] == ["4H"]
    error = rejection(match, {"type": "play", "seat": 0, "card": "9C"})
    assert (error.code, error.forceable) == ("must_trump", True)
    assert "must trump (4H)" in error.message


def test_a_known_hand_holds_only_its_cards():
    match = new(sequence=[3, 2])
    first_hand(match, known=True)
    error = rejection(match, {"type": "play", "seat": 1, "card": "QC"})
    assert (error.code, error.forceable) == ("card_not_in_hand", True)
    _, _, findings = play(match, 1, "QC", force=True)
    assert [f.code for f in findings] == ["card_not_in_hand"]
    assert match.view()["deal"]["known_hands"] == [0, 2]   # the table let it stand: Bob's hand is no longer known


# --- blind revokes -------------------------------------------------------------------------------

def test_a_blind_revoke_is_found_when_the_suit_shows_up():
    match = new(sequence=[3, 2])
    first_hand(match)
    play(match, 1, "KS")
    revoke, _, _ = play(match, 2, "2H")   # Cid claims no spades
    play(match, 0, "AS")
    play(match, 2, "5D")
    play(match, 0, "9C")
    _, _, findings = play(match, 1, "2D")
    assert findings == []
    _, _, findings = play(match, 2, "QS")
    assert [(f.seq, f.seat, f.code, f.deal, f.trick) for f in findings] == [
        (revoke["seq"], 2, "must_follow_suit", 1, 1)]
    assert findings[0].proof_seq == match.seq
    assert findings[0].message == ("Cid did not follow spades in trick 1 of hand 1 (played 2H on KS), "
                                   "but played QS in trick 3: a revoke.")


def test_a_blind_refusal_to_trump_is_found_when_a_trump_shows_up():
    match = new(sequence=[3, 2], must_trump=True)
    first_hand(match)
    play(match, 1, "KS")
    skipped, _, _ = play(match, 2, "5D")   # Cid neither follows nor trumps: claims no spade, no heart
    play(match, 0, "AS")
    play(match, 0, "9C")
    play(match, 1, "2C")
    _, _, findings = play(match, 2, "2H")
    assert [(f.seq, f.code, f.trick) for f in findings] == [(skipped["seq"], "must_trump", 1)]
    assert "did not trump" in findings[0].message and "2H" in findings[0].message


def test_a_discard_without_the_suit_or_a_trump_is_no_revoke():
    match = new(sequence=[2, 1], must_trump=True)
    match.play({"type": "deal", "dealer": 0, "trump": "9H"})
    for seat in (1, 2, 0):
        bid(match, seat, 0)
    for seat, card in [(1, "KS"), (2, "3H"), (0, "AS"),   # Cid trumps, as he must
                       (2, "5D"), (0, "9C"), (1, "2D")]:  # Ann has neither diamonds nor hearts
        play(match, seat, card)
    assert [trick["winner"] for trick in match.view()["deal"]["tricks"]] == [2, 2]
    assert match.view()["findings"] == []


def test_a_revoke_in_a_no_trump_hand_is_found_too():
    match = new(sequence=[1, 2])
    match.play({"type": "deal", "dealer": 0, "trump": "2C"})
    for seat in (1, 2, 0):
        bid(match, seat, 0)
    for seat, card in [(1, "3C"), (2, "4C"), (0, "5C")]:
        play(match, seat, card)
    match.play({"type": "deal"})
    for seat in (2, 0, 1):
        bid(match, seat, 1)
    play(match, 2, "AH")
    revoke, _, _ = play(match, 0, "KS")   # Ann does not follow hearts
    play(match, 1, "2H")
    play(match, 2, "3D")
    _, _, findings = play(match, 0, "4H")
    assert [(f.seq, f.code, f.deal) for f in findings] == [(revoke["seq"], "must_follow_suit", 2)]


def test_undo_takes_back_a_play_and_its_finding():
    match = new(sequence=[3, 2])
    first_hand(match)
    play(match, 1, "KS")
    play(match, 2, "2H")
    play(match, 0, "AS")
    play(match, 2, "QS")
    assert len(match.view()["findings"]) == 1
    match.play({"type": "undo"})
    assert match.view()["findings"] == []
    assert match.expected()["seat"] == 2


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
