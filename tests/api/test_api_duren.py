"""A series of Dureń over the API: real shuffled deals, every answer held to openapi.yaml.

The first deal is played step by step: the deal, the nine of trumps swapped for the face-up card,
refusals of what cannot be, an attack without its pair refused and then forced in (a finding), a defence
undone and logged again. Then the deal and two more are played out at random from the real hands, the
referee's hand sizes, stock and discards held against the table at every step, and `end` closes the
series with its places and money.
"""

from __future__ import annotations

import itertools
import random

import pytest
from api_match import ApiMatch
from duren_table import Table, check_against, play_deal, play_out

from referee import InvalidInput
from referee.cards import Card

ALA, BARTEK = 0, 1
DEALS = 3


def nine_in_hand_and_three_ranks(table: Table) -> bool:
    """The deal lets someone swap the nine of trumps, and Bartek holds three cards of different ranks."""
    nine = Card("9", table.trump)
    return any(nine in hand for hand in table.hands) and len({card.rank for card in table.hands[BARTEK]}) >= 3


def test_a_series_of_duren_from_the_first_deal_to_the_end(table):
    seed = next(seed for seed in itertools.count()
                if nine_in_hand_and_three_ranks(Table(random.Random(seed), 24, ALA)))
    rng = random.Random(seed)
    match = ApiMatch(table, "duren", ["Ala", "Bartek"], stake="2", currency="PLN")
    state = match.view()
    assert state["options"] == {"deck": 24}
    assert [(p["points"], p["hand_size"]) for p in state["players"]] == [(0, None), (0, None)]
    assert state["expected"] == {"type": "deal", "dealer": None, "deal": 1, "cards": 5}

    cards = Table(rng, 24, ALA)
    first_deal(match, cards)
    play_out(match, cards)
    points = [0, 0]
    score(points, cards)
    assert_series(match, points)

    dealer = match.view()["expected"]["dealer"]
    wrong = match.rejection({"type": "deal", "dealer": 1 - dealer, "trump": "9S"})
    assert (wrong.code, wrong.seat, wrong.forceable) == ("wrong_dealer", 1 - dealer, True)
    for _ in range(DEALS - 1):
        cards = Table(rng, 24, match.view()["expected"]["dealer"])
        play_deal(match, cards)
        score(points, cards)
        assert_series(match, points)

    event, _, _ = match.play({"type": "end"})
    state = match.refresh()
    assert event["type"] == "end" and state["status"] == "finished" and state["expected"] is None
    assert [p["hand_size"] for p in state["players"]] == [None, None]
    assert [p["place"] for p in state["players"]] == [1 + (points[1 - seat] > points[seat]) for seat in (0, 1)]
    assert [f["code"] for f in state["findings"]] == ["attack_needs_pair"]
    money = match.settlement()
    assert money == state["settlement"] and money["final"] is True
    for seat in (ALA, BARTEK):  # every deal lost pays the stake to its winner
        player = money["players"][seat]
        assert (player["paid"], player["received"]) == (f"{2 * points[1 - seat]}.00", f"{2 * points[seat]}.00")
    balance = 2 * (points[ALA] - points[BARTEK])
    assert money["transfers"] == ([] if balance == 0 else [{"from": int(balance > 0), "to": int(balance < 0),
                                                            "amount": f"{abs(balance)}.00"}])


def first_deal(match: ApiMatch, cards: Table) -> None:
    """Ala deals. The nine of trumps is swapped; refusals; a forced attack; a defence undone and logged again."""
    with pytest.raises(InvalidInput) as caught:
        match.play({"type": "deal", "dealer": ALA})
    assert caught.value.code == "trump_required"
    face_up, nine = str(cards.face_up), Card("9", cards.trump)
    match.play({"type": "deal", "dealer": ALA, "trump": face_up})
    deal = match.view()["deal"]
    assert (deal["trump"], deal["trump_suit"], deal["face_up"], deal["stock"]) == (face_up, cards.trump, face_up, 14)
    assert (deal["attacker"], deal["defender"], deal["table"], deal["round"]) == (BARTEK, ALA, [], 0)
    assert match.view()["expected"] == {"type": "attack", "seat": BARTEK, "deal": 1, "round": 1, "sizes": [1, 3, 5],
                                        "exchange": {"nine": str(nine), "face_up": face_up, "seats": [ALA, BARTEK]}}
    check_against(match, cards)

    holder = next(seat for seat in (ALA, BARTEK) if nine in cards.hands[seat])
    event, _, _ = match.play({"type": "exchange", "seat": holder})
    assert event == {"type": "exchange", "seat": holder, "nine": str(nine), "face_up": face_up, "seq": 2, "format": 2}
    cards.exchange(holder)
    deal = match.view()["deal"]
    assert deal["face_up"] == str(nine) and deal["exchange"] == {"seat": holder, "nine": str(nine), "face_up": face_up}
    assert face_up in deal["known"][str(holder)] and match.view()["expected"]["exchange"] is None
    assert match.rejection({"type": "exchange", "seat": 1 - holder}).code == "no_exchange"
    check_against(match, cards)

    assert match.rejection({"type": "attack", "seat": ALA, "cards": [str(min(cards.hands[ALA]))]}).code == (
        "not_your_turn")
    under = match.rejection({"type": "attack", "seat": BARTEK, "cards": [str(nine)], "force": True})
    assert (under.code, under.forceable) == ("card_under_stock", False)

    by_rank = {card.rank: card for card in sorted(cards.hands[BARTEK])}
    three = list(by_rank.values())[:3]
    attack = {"type": "attack", "seat": BARTEK, "cards": [str(card) for card in three]}
    refused = match.rejection(attack)
    assert (refused.code, refused.forceable) == ("attack_needs_pair", True)
    event, warnings, [finding] = match.play({**attack, "force": True})
    assert event["illegal"]["code"] == "attack_needs_pair" and [w["code"] for w in warnings] == ["attack_needs_pair"]
    assert (finding["seq"], finding["proof_seq"], finding["deal"], finding["trick"]) == (3, 3, 1, 1)
    state = match.view()
    assert state["deal"]["table"] == attack["cards"] and state["deal"]["hand_sizes"] == {"0": 5, "1": 2}
    assert state["expected"] == {"type": "defend", "seat": ALA, "deal": 1, "round": 1, "cards": attack["cards"],
                                 "trump": cards.trump}

    pairs = cards.defend(three)
    beats = [{"card": str(card), "with": str(other)} for card, other in pairs]
    defence = {"type": "defend", "seat": ALA, "beats": beats}
    match.play(defence)
    assert match.view()["deal"]["table"] == []
    assert match.undo()["undoes"] == 4
    assert match.view()["deal"]["table"] == attack["cards"] and match.view()["expected"]["type"] == "defend"
    match.play(defence)
    cards.settle(three, pairs)
    deal = match.view()["deal"]
    assert deal["rounds"][0]["taken"] == [card for card in attack["cards"] if card not in {b["card"] for b in beats}]
    assert deal["attacker"] == cards.attacker
    check_against(match, cards)


def score(points: list[int], cards: Table) -> None:
    winner = cards.winner()
    if winner is not None:
        points[winner] += 1


def assert_series(match: ApiMatch, points: list[int]) -> None:
    """The series score after a deal, and who deals next: the loser, or after a draw the one who did not deal."""
    state = match.view()
    result = state["deal"]["result"]
    assert [p["points"] for p in state["players"]] == [p["score"] for p in state["players"]] == points
    assert state["history"][-1]["scores"] == points
    dealer = result["loser"] if not result["draw"] else 1 - state["deal"]["dealer"]
    assert state["expected"] == {"type": "deal", "dealer": dealer, "deal": state["deal"]["number"] + 1, "cards": 5}
    assert state["deal"]["attacker"] is None and state["deal"]["turn"] is None
