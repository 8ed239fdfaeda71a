"""A whole match of Oh Hell over the API, dealt from a seeded shuffled deck, every answer held to openapi.yaml.

Four players, hands of 3, 13 and 2 cards, with the hook. Hand 1 is blind: a revoke is accepted and found
by a later card of the same player. Hand 2 deals all 52 cards, so no trump is turned, and the hands are
known: a revoke is refused, then forced in and found at once. Hand 3 is the last, without trump. Bids,
tricks, the trump, the totals and the winners the API shows are held against the table's own count.
"""

from __future__ import annotations

import random

import pytest
from api_match import ApiMatch, check_pool
from oh_hell_table import SimTable

from referee import InvalidInput

PLAYERS = ["Ann", "Bob", "Cid", "Dan"]
ANN, BOB, CID, DAN = range(4)
SEED = 3


def test_a_match_of_oh_hell_with_the_hook_from_the_first_hand_to_the_winners(table):
    match = ApiMatch(table, "oh_hell", PLAYERS, options={"sequence": [3, 13, 2], "hook": True},
                     stake="0.50", currency="EUR")
    sim = SimTable(match, random.Random(SEED), known=0.0, first_dealer=ANN)
    state = match.view()
    assert state["expected"] == {"type": "deal", "dealer": None, "deal": 1, "cards": 3, "turn_trump": True}
    assert [(p["score"], p["bid"], p["tricks"]) for p in state["players"]] == [(0, None, None)] * 4

    revoke = first_hand(match, sim)
    assert_totals(match, sim)

    forced = second_hand(match, sim)
    assert_totals(match, sim)

    with pytest.raises(InvalidInput) as caught:
        match.play({"type": "deal", "trump": "2C"})
    assert caught.value.code == "no_trump_in_hand" and "last hand" in caught.value.message
    sim.deal()
    assert match.view()["deal"]["trump_card"] is None and match.view()["deal"]["trump"] is None
    sim.play_out()
    assert_totals(match, sim)

    state = match.refresh()
    assert state["status"] == "finished" and state["expected"] is None
    assert [(f["seq"], f["proof_seq"] > f["seq"]) for f in state["findings"]] == [(revoke, True), (forced, False)]
    best = max(sim.totals)
    assert [p["place"] == 1 for p in state["players"]] == [total == best for total in sim.totals]
    for player in state["players"]:  # places by totals, equal totals sharing the first of their places
        assert player["place"] == 1 + sum(total > sim.totals[player["seat"]] for total in sim.totals)
    assert [h["deal"] for h in state["history"]] == [1, 2, 3]
    check_pool(match.settlement(), "0.50")
    assert match.settlement() == state["settlement"]


def test_the_players_may_end_the_match_after_any_hand(table):
    match = ApiMatch(table, "oh_hell", PLAYERS[:3], stake="1")
    match.play({"type": "deal", "dealer": ANN, "trump": "7D"})
    assert match.view()["expected"]["allowed"] == [0, 1]
    for seat, tricks in ((BOB, 1), (CID, 0), (ANN, 0)):
        match.play({"type": "bid", "seat": seat, "bid": tricks})
    for seat, card in ((BOB, "5C"), (CID, "2D"), (ANN, "AC")):  # Cid trumps the club lead
        match.play({"type": "play", "seat": seat, "card": card})
    assert match.view()["deal"]["tricks"][0]["winner"] == CID
    assert [p["score"] for p in match.view()["players"]] == [10, 0, 0]
    assert match.view()["expected"]["type"] == "deal"

    event, _, _ = match.play({"type": "end"})
    state = match.view()
    assert event == {"type": "end", "seq": 8, "format": 2}
    assert state["status"] == "finished" and state["expected"] is None
    assert [p["place"] for p in state["players"]] == [1, 2, 2]
    # Bob and Cid share places 2 and 3: each pays the average of 2 and 4 stakes into the pool, Ann takes it
    assert [p["net"] for p in state["settlement"]["players"]] == ["6.00", "-3.00", "-3.00"]


def first_hand(match: ApiMatch, sim: SimTable) -> int:
    """Ann deals 3 cards and turns a trump; bids, the hook, an undo, and a blind revoke found later."""
    with pytest.raises(InvalidInput) as caught:
        match.play({"type": "deal", "dealer": ANN})
    assert caught.value.code == "trump_required"
    event = sim.deal()
    state = match.view()
    deal = state["deal"]
    assert event["trump"] == deal["trump_card"] and deal["trump"] == deal["trump_card"][-1] == sim.trump
    assert (deal["number"], deal["hands"], deal["cards"], deal["dealer"], deal["phase"]) == (1, 3, 3, ANN, "bidding")
    assert deal["seats"] == [BOB, CID, DAN, ANN] and deal["bids"] == [None] * 4
    assert state["expected"] == {"type": "bid", "seat": BOB, "seats": [BOB, CID, DAN, ANN], "deal": 1,
                                 "allowed": [0, 1, 2, 3], "forbidden": None}

    assert match.rejection({"type": "play", "seat": BOB, "card": sim.hands[BOB][0]}).code == "bids_missing"
    assert match.rejection({"type": "bid", "seat": CID, "bid": 1}).code == "not_your_turn"
    assert match.rejection({"type": "bid", "seat": BOB, "bid": 4}).code == "bid_out_of_range"
    for seat, tricks in ((BOB, 1), (CID, 0), (DAN, 1)):
        bid(match, sim, seat, tricks)
    assert match.view()["expected"]["allowed"] == [0, 2, 3] and match.view()["expected"]["forbidden"] == 1

    hook = match.rejection({"type": "bid", "seat": ANN, "bid": 1})
    assert (hook.code, hook.seat, hook.forceable) == ("hook", ANN, True)
    event, warnings, [finding] = match.play({"type": "bid", "seat": ANN, "bid": 1, "force": True})
    assert [w["code"] for w in warnings] == ["hook"] and event["illegal"]["code"] == "hook"
    assert (finding["seq"], finding["proof_seq"], finding["deal"], finding["trick"]) == (event["seq"],) * 2 + (1, None)
    assert match.undo()["undoes"] == event["seq"]
    assert match.view()["findings"] == [] and match.view()["deal"]["bids"] == [None, 1, 0, 1]
    bid(match, sim, ANN, 2)
    assert [p["bid"] for p in match.view()["players"]] == [2, 1, 0, 1]
    assert match.view()["deal"]["phase"] == "playing"

    trump_card = match.view()["deal"]["trump_card"]
    assert match.rejection({"type": "play", "seat": BOB, "card": trump_card}).code == "trump_card_on_table"
    revoke = None
    while not match.view()["deal"]["over"]:
        seat, wrong = sim.illegal_choices()
        if revoke is None and wrong:
            revoke = sim.play(wrong[0])["seq"]
            assert match.view()["findings"] == [], "blind, a revoke cannot be told at once"
        else:
            sim.play()
        assert_tricks(match, sim)
    assert revoke is not None, "the seed gives a chance to revoke in the first hand"
    [finding] = match.view()["findings"]
    revoked, proof = match.events()[revoke - 1], match.events()[finding["proof_seq"] - 1]
    assert (finding["seq"], finding["seat"], finding["code"]) == (revoke, revoked["seat"], "must_follow_suit")
    assert proof["seat"] == revoked["seat"] and proof["seq"] > revoke, "proven by a later card of the same player"
    return revoke


def second_hand(match: ApiMatch, sim: SimTable) -> int:
    """Bob deals all 52 cards: no trump is turned. The hands are known: a revoke is refused, then forced."""
    expected = match.view()["expected"]
    assert expected == {"type": "deal", "dealer": BOB, "deal": 2, "cards": 13, "turn_trump": False}
    with pytest.raises(InvalidInput) as caught:
        match.play({"type": "deal", "trump": "2C"})
    assert caught.value.code == "no_trump_in_hand"
    sim.known = 1.0
    event = sim.deal()
    assert event["trump"] is None and match.view()["deal"]["known_hands"] == [ANN, BOB, CID, DAN]
    while match.view()["expected"]["type"] == "bid":
        sim.bid()
    sim.known = 0.0
    forced = None
    while not match.view()["deal"]["over"]:
        seat, wrong = sim.illegal_choices()
        if forced is None and wrong:
            refused = match.rejection({"type": "play", "seat": seat, "card": wrong[0]})
            assert (refused.code, refused.forceable) == ("must_follow_suit", True)
            forced = sim.play(wrong[0], force=True)["seq"]
            finding = match.view()["findings"][-1]
            assert (finding["seq"], finding["proof_seq"], finding["code"]) == (forced, forced, "must_follow_suit")
        else:
            assert sorted(match.view()["expected"]["legal"]) == sorted(sim.choices()[1])
            sim.play()
        assert_tricks(match, sim)
    assert forced is not None
    return forced


def bid(match: ApiMatch, sim: SimTable, seat: int, tricks: int) -> None:
    match.play({"type": "bid", "seat": seat, "bid": tricks})
    sim.bids[seat] = tricks


def assert_tricks(match: ApiMatch, sim: SimTable) -> None:
    """The tricks each player has taken in this hand, as the table counts them."""
    state = match.view()
    assert state["deal"]["taken"] == [p["tricks"] for p in state["players"]] == sim.taken


def assert_totals(match: ApiMatch, sim: SimTable) -> None:
    """After a hand: what each bid and took, what it scored, and the running totals."""
    state = match.view()
    deal = state["deal"]
    assert deal["over"] and deal["phase"] == "over" and deal["turn"] is None
    assert deal["result"] == [{"seat": seat, "bid": sim.bids[seat], "taken": sim.taken[seat],
                               "points": points} for seat, points in enumerate(hand_points(sim))]
    assert [p["score"] for p in state["players"]] == state["history"][-1]["scores"] == sim.totals


def hand_points(sim: SimTable) -> list[int]:
    """What each seat scored in the hand just played: 10 + tricks for an exact bid, else nothing."""
    return [10 + sim.taken[seat] if sim.bids[seat] == sim.taken[seat] else 0 for seat in range(4)]
