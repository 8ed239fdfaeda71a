"""Dureń, hand-worked: attacks, beating, taking, drawing, the turn, the end, the nine exchange, the series."""

from decimal import Decimal

import pytest

from referee import InvalidInput, Match, Rejected
from referee.cards import Card
from referee.games.duren import beats, pairs_in

ALA, BARTEK = 0, 1

# A whole deal, dealer Ala, trump hearts (10H face up). Every card below is a real card of one deal:
# Bartek attacks first; Ala draws the face-up 10H with the last card of the stock in round 3.
DEAL_ONE = [
    (BARTEK, "9S 9D JS JD QC", {"9S": "10S", "9D": "10D", "JS": "QS", "JD": "QD", "QC": "KC"}),
    (ALA, "9C", {"9C": "10C"}),
    (BARTEK, "KS", {"KS": "AS"}),
    (ALA, "JC", {}),
    (ALA, "KD", {"KD": "AD"}),
    (BARTEK, "JC JH AC", {"JH": "QH", "JC": "10H", "AC": "AH"}),
]

# A deal that ends in a draw, dealer Bartek, 9C face up: Bartek attacks with his last five cards and Ala
# beats them all with hers.
DEAL_DRAWN = [
    (ALA, "9S 9D 10S 10D JS", {"9S": "QS", "9D": "QD", "10S": "KS", "10D": "KD", "JS": "AS"}),
    (BARTEK, "JD", {"JD": "AD"}),
    (ALA, "9H", {"9H": "10H"}),
    (BARTEK, "JH JC QH QC 9C", {"JH": "KH", "QH": "AH", "JC": "KC", "QC": "AC", "9C": "10C"}),
]


def start(trump: str = "10H", dealer: int = ALA, deck: int = 24, **deal) -> Match:
    match = Match.create("duren", ["Ala", "Bartek"], {"deck": deck}, stake="1")
    match.play({"type": "deal", "dealer": dealer, "trump": trump, **deal})
    return match


def attack(match: Match, seat: int, cards: str, **extra):
    return match.play({"type": "attack", "seat": seat, "cards": cards.split(), **extra})


def defend(match: Match, seat: int, beaten: dict, **extra):
    return match.play({"type": "defend", "seat": seat,
                       "beats": [{"card": card, "with": other} for card, other in beaten.items()], **extra})


def play_rounds(match: Match, rounds) -> None:
    for seat, cards, beaten in rounds:
        attack(match, seat, cards)
        defend(match, 1 - seat, beaten)


def rejected(match: Match, command: dict) -> Rejected:
    seq = match.seq
    with pytest.raises(Rejected) as caught:
        match.play(command)
    assert match.seq == seq, "a rejected event is not recorded"
    return caught.value


def deal_of(match: Match) -> dict:
    return match.view()["deal"]


def sizes(match: Match) -> tuple[int, int, int]:
    deal = deal_of(match)
    return deal["hand_sizes"]["0"], deal["hand_sizes"]["1"], deal["stock"]


# --- the game and the deal ---------------------------------------------------------------------------

def test_the_catalogue_offers_duren_for_two_with_a_24_or_36_card_deck():
    from referee import catalogue

    entry = next(game for game in catalogue() if game["game"] == "duren")
    assert (entry["min_players"], entry["max_players"], entry["suited"]) == (2, 2, True)
    assert entry["options"] == [{"name": "deck", "type": "integer", "default": 24, "choices": [24, 36],
                                 "description": entry["options"][0]["description"]}]
    assert set(entry["events"]) == {"deal", "exchange", "attack", "defend", "end"}
    with pytest.raises(InvalidInput):
        Match.create("duren", ["Ala", "Bartek", "Cezary"])
    with pytest.raises(InvalidInput):
        Match.create("duren", ["Ala", "Bartek"], {"deck": 52})


@pytest.mark.parametrize("deck, stock", [(24, 14), (36, 26)])
def test_a_deal_gives_five_each_and_the_stock_holds_the_rest_with_the_face_up_card(deck, stock):
    match = start("QS", dealer=ALA, deck=deck)
    deal = deal_of(match)
    assert (deal["trump"], deal["trump_suit"], deal["face_up"]) == ("QS", "S", "QS")
    assert sizes(match) == (5, 5, stock)
    assert match.expected()["type"] == "attack"
    assert match.expected()["seat"] == BARTEK, "the non-dealer attacks first"


def test_a_deal_needs_the_face_up_card_from_the_deck():
    match = Match.create("duren", ["Ala", "Bartek"])
    with pytest.raises(InvalidInput) as caught:
        match.play({"type": "deal", "dealer": 0})
    assert caught.value.code == "trump_required"
    with pytest.raises(InvalidInput) as caught:
        match.play({"type": "deal", "dealer": 0, "trump": "8S"})
    assert caught.value.code == "card_not_in_deck"


def test_the_first_dealer_can_be_drawn_by_lot():
    match = Match.create("duren", ["Ala", "Bartek"])
    match.play({"type": "deal", "trump": "KC"}, lot=lambda bound: 1)
    assert deal_of(match)["dealer"] == BARTEK
    assert match.expected()["seat"] == ALA


# --- attacks -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("cards", ["9S", "9S 9D JS", "JS 9S 9D", "9S 9D JS JD QC", "9S 9D 9C 9H QC"])
def test_attacks_of_one_three_with_a_pair_and_five_with_two_pairs_stand(cards):
    match = start()
    event, warnings, findings = attack(match, BARTEK, cards)
    assert event["cards"] == cards.split() and not warnings and not findings
    assert match.expected() == {"type": "defend", "seat": ALA, "deal": 1, "round": 1, "cards": cards.split(),
                                "trump": "H"}
    assert sizes(match) == (5, 5 - len(cards.split()), 14)


@pytest.mark.parametrize("cards, code", [
    ("9S 9D", "attack_size"),
    ("9S 9D JS JD", "attack_size"),
    ("9S 10S JS", "attack_needs_pair"),
    ("9S 9D JS QS KS", "attack_needs_two_pairs"),
    ("9S 9D 9C QS KS", "attack_needs_two_pairs"),
])
def test_attacks_of_the_wrong_size_or_without_their_pairs_are_rejected_unless_forced(cards, code):
    match = start()
    error = rejected(match, {"type": "attack", "seat": BARTEK, "cards": cards.split()})
    assert (error.code, error.forceable, error.seat) == (code, True, BARTEK)
    event, warnings, findings = attack(match, BARTEK, cards, force=True)
    assert event["illegal"]["code"] == code and event["force"] is True
    assert [w["code"] for w in warnings] == [code]
    assert [(f.seq, f.seat, f.code, f.proof_seq) for f in findings] == [(event["seq"], BARTEK, code, event["seq"])]
    assert match.view()["findings"][0]["code"] == code


def test_pairs_count_four_of_a_kind_as_two():
    cards = [Card(rank, suit) for rank, suit in [("9", "S"), ("9", "H"), ("9", "D"), ("9", "C"), ("A", "S")]]
    assert pairs_in(cards) == 2
    assert pairs_in(cards[:3]) == 1


def test_an_attack_may_not_be_larger_than_the_defenders_hand():
    match = start()
    play_rounds(match, DEAL_ONE[:5])
    assert sizes(match) == (3, 5, 0)
    assert match.expected()["sizes"] == [1, 3], "Ala holds 3: Bartek may lay 1 or 3"
    error = rejected(match, {"type": "attack", "seat": BARTEK, "cards": "JC JH AC AH 9H".split()})
    assert (error.code, error.forceable) == ("attack_too_large", True)
    assert "Ala holds (3)" in error.message


def test_no_attack_with_more_cards_than_the_attacker_holds():
    match = start()
    play_rounds(match, DEAL_ONE[:3])
    attack(match, ALA, "JC")
    defend(match, BARTEK, {})
    assert sizes(match) == (4, 6, 0)
    error = rejected(match, {"type": "attack", "seat": ALA, "cards": "9H 10H KH KD AD".split(), "force": True})
    assert (error.code, error.forceable) == ("not_enough_cards", False)


# --- beating and taking ------------------------------------------------------------------------------

@pytest.mark.parametrize("card, other, good", [
    ("9S", "10S", True),
    ("KS", "AS", True),
    ("10S", "9S", False),
    ("9S", "AD", False),
    ("AS", "9H", True),
    ("9H", "10H", True),
    ("10H", "9H", False),
    ("9H", "AS", False),
])
def test_a_card_is_beaten_by_a_higher_one_of_its_suit_or_by_a_trump(card, other, good):
    def read(text):
        return Card(text[:-1], text[-1])

    assert beats(read(card), read(other), "H") is good


@pytest.mark.parametrize("card, other, code", [
    ("QS", "JS", "beat_too_low"),
    ("QS", "KD", "beat_wrong_suit"),
    ("JH", "9H", "beat_too_low"),
    ("JH", "AS", "beat_wrong_suit"),
])
def test_a_wrong_beat_is_rejected_unless_forced(card, other, code):
    match = start()
    attack(match, BARTEK, card)
    error = rejected(match, {"type": "defend", "seat": ALA, "beats": [{"card": card, "with": other}]})
    assert (error.code, error.forceable, error.seat) == (code, True, ALA)
    event, warnings, findings = defend(match, ALA, {card: other}, force=True)
    assert event["illegal"]["code"] == code
    assert [f.code for f in findings] == [code] and findings[0].proof_seq == event["seq"]
    assert sorted(deal_of(match)["discarded"]) == sorted([card, other])


def test_beaten_pairs_are_discarded_and_the_rest_is_taken_and_known():
    match = start()
    attack(match, BARTEK, "9S 9D JS JD QC")
    event, _, _ = defend(match, ALA, {"9S": "10S", "JD": "KH"})
    deal = deal_of(match)
    assert deal["discarded"] == ["9S", "10S", "KH", "JD"] and deal["discards"] == 4
    assert deal["known"] == {"0": ["JS", "9D", "QC"], "1": []}
    assert deal["rounds"][0]["taken"] == ["9D", "JS", "QC"]
    assert sizes(match) == (5 - 2 + 3, 5, 14 - 5), "Ala holds 6 and draws none; Bartek draws 5"


def test_an_empty_defence_takes_every_card():
    match = start()
    attack(match, BARTEK, "9S 9D JS")
    defend(match, ALA, {})
    assert sizes(match) == (8, 5, 11)
    assert deal_of(match)["known"]["0"] == ["9S", "JS", "9D"]


@pytest.mark.parametrize("beats_given", [None, "9S", [{"card": "9S"}], [{"card": "9S", "with": "10S"}] * 2])
def test_a_defence_names_each_beaten_card_once(beats_given):
    match = start()
    attack(match, BARTEK, "9S")
    with pytest.raises(InvalidInput):
        match.play({"type": "defend", "seat": ALA, "beats": beats_given})


def test_only_a_card_laid_in_the_attack_can_be_beaten():
    match = start()
    attack(match, BARTEK, "9S")
    error = rejected(match, {"type": "defend", "seat": ALA, "beats": [{"card": "9D", "with": "10D"}]})
    assert (error.code, error.forceable) == ("not_on_table", False)


# --- drawing -----------------------------------------------------------------------------------------

def test_the_attacker_draws_first_and_the_last_card_of_the_stock_is_the_face_up_card():
    match = start("10H")
    play_rounds(match, [DEAL_ONE[0]])
    assert sizes(match) == (5, 5, 4)
    attack(match, ALA, "9C 9H 10C")
    defend(match, BARTEK, {"9C": "JC", "9H": "JH", "10C": "AC"})
    deal = deal_of(match)
    assert sizes(match) == (5, 3, 0), "Ala, the attacker, draws three; Bartek gets the last card"
    assert (deal["face_up"], deal["face_up_holder"]) == (None, BARTEK)
    assert deal["known"]["1"] == ["10H"]


def test_the_face_up_card_cannot_be_played_while_it_lies_under_the_stock():
    match = start("10H")
    error = rejected(match, {"type": "attack", "seat": BARTEK, "cards": ["10H"], "force": True})
    assert (error.code, error.forceable) == ("card_under_stock", False)
    play_rounds(match, DEAL_ONE[:3])
    attack(match, ALA, "JC")
    error = rejected(match, {"type": "defend", "seat": BARTEK, "beats": [{"card": "JC", "with": "10H"}]})
    assert error.code == "card_in_other_hand" and "Ala drew it as the last card" in error.message
    defend(match, BARTEK, {})
    attack(match, ALA, "10H")


# --- the turn ----------------------------------------------------------------------------------------

def test_the_defender_attacks_next_after_beating_everything():
    match = start()
    play_rounds(match, [DEAL_ONE[0]])
    assert match.expected()["seat"] == ALA
    error = rejected(match, {"type": "attack", "seat": BARTEK, "cards": ["9C"]})
    assert (error.code, error.forceable) == ("not_your_turn", False)


def test_the_same_player_attacks_again_after_a_take():
    match = start()
    attack(match, BARTEK, "9S 9D JS")
    defend(match, ALA, {"9S": "10S"})
    assert match.expected()["type"] == "attack" and match.expected()["seat"] == BARTEK


@pytest.mark.parametrize("command", [
    {"type": "attack", "seat": BARTEK, "cards": ["JC"]},
    {"type": "attack", "seat": ALA, "cards": ["JC"]},
    {"type": "defend", "seat": BARTEK, "beats": []},
])
def test_while_an_attack_lies_on_the_table_only_its_defence_comes(command):
    match = start()
    attack(match, BARTEK, "9S")
    assert rejected(match, command).code == "not_your_turn"


def test_a_defence_with_nothing_on_the_table_is_out_of_turn():
    match = start()
    assert rejected(match, {"type": "defend", "seat": ALA, "beats": []}).code == "not_your_turn"


# --- the cards' places -------------------------------------------------------------------------------

def test_a_discarded_card_cannot_come_back():
    match = start()
    play_rounds(match, [DEAL_ONE[0]])
    error = rejected(match, {"type": "attack", "seat": ALA, "cards": ["10S"], "force": True})
    assert (error.code, error.forceable) == ("card_discarded", False)


def test_a_card_on_the_table_cannot_beat():
    match = start()
    attack(match, BARTEK, "9S 9D JS")
    error = rejected(match, {"type": "defend", "seat": ALA, "beats": [{"card": "9S", "with": "JS"}]})
    assert error.code == "card_on_table"


def test_a_picked_up_card_cannot_be_played_by_the_other_player():
    match = start()
    play_rounds(match, DEAL_ONE[:4])
    error = rejected(match, {"type": "attack", "seat": ALA, "cards": ["JC"], "force": True})
    assert (error.code, error.forceable) == ("card_in_other_hand", False)
    assert "Bartek picked it up" in error.message


def test_once_the_stock_is_gone_a_fully_known_hand_places_every_unseen_card_in_the_other():
    match = start()
    play_rounds(match, DEAL_ONE[:4])
    attack(match, ALA, "KD KH AH")
    defend(match, BARTEK, {})
    deal = deal_of(match)
    assert sizes(match) == (1, 9, 0)
    assert deal["known"] == {"0": ["10H"], "1": ["9H", "JH", "QH", "KH", "AH", "KD", "AD", "JC", "AC"]}
    assert rejected(match, {"type": "attack", "seat": ALA, "cards": ["AD"]}).code == "card_in_other_hand"


def test_a_card_outside_the_deck_is_refused():
    match = start(deck=24)
    with pytest.raises(InvalidInput) as caught:
        attack(match, BARTEK, "8S")
    assert caught.value.code == "card_not_in_deck"
    match = start(deck=36)
    attack(match, BARTEK, "6S")
    defend(match, ALA, {"6S": "8S"})
    assert deal_of(match)["discarded"] == ["6S", "8S"]


def test_a_named_card_is_read_once():
    match = start()
    with pytest.raises(InvalidInput) as caught:
        attack(match, BARTEK, "9S 9S JS")
    assert caught.value.code == "bad_cards"


def test_dealt_hands_when_given_are_held_to():
    match = start(hands={"0": ["9S", "10S", "JS", "QS", "KS"]})
    attack(match, BARTEK, "AS")
    error = rejected(match, {"type": "defend", "seat": ALA, "beats": [{"card": "AS", "with": "9H"}]})
    assert error.code == "card_not_held" and "Ala's hand is known" in error.message
    defend(match, ALA, {})
    assert deal_of(match)["known"]["0"] == ["9S", "10S", "JS", "QS", "KS", "AS"]
    with pytest.raises(InvalidInput):
        start(hands={"0": ["9S", "10S", "JS", "QS", "10H"]})


# --- the nine of trumps ------------------------------------------------------------------------------

def test_the_nine_of_trumps_is_swapped_for_the_face_up_card():
    match = start("QS")
    assert match.expected()["exchange"] == {"nine": "9S", "face_up": "QS", "seats": [0, 1]}
    event, _, _ = match.play({"type": "exchange", "seat": ALA})
    assert event == {"type": "exchange", "seat": ALA, "nine": "9S", "face_up": "QS", "seq": 2, "format": 2}
    deal = deal_of(match)
    assert (deal["face_up"], deal["trump"], deal["exchange"]["seat"]) == ("9S", "QS", ALA)
    assert deal["known"]["0"] == ["QS"] and sizes(match) == (5, 5, 14)
    assert match.expected()["exchange"] is None
    assert rejected(match, {"type": "exchange", "seat": BARTEK}).code == "no_exchange"
    assert rejected(match, {"type": "attack", "seat": BARTEK, "cards": ["9S"]}).code == "card_under_stock"
    assert rejected(match, {"type": "attack", "seat": BARTEK, "cards": ["QS"]}).code == "card_in_other_hand"


def test_no_exchange_when_the_face_up_card_is_the_nine():
    match = start("9C", deck=36)
    assert match.expected()["exchange"] is None
    error = rejected(match, {"type": "exchange", "seat": BARTEK, "force": True})
    assert (error.code, error.forceable) == ("no_exchange", False)


def test_in_the_36_card_deck_the_swap_is_still_for_the_nine():
    match = start("6D", deck=36)
    event, _, _ = match.play({"type": "exchange", "seat": BARTEK})
    assert (event["nine"], event["face_up"]) == ("9D", "6D")


def test_the_exchange_comes_before_the_first_attack():
    match = start("QS")
    attack(match, BARTEK, "9H")
    error = rejected(match, {"type": "exchange", "seat": ALA})
    assert (error.code, error.forceable) == ("exchange_too_late", True)
    event, warnings, findings = match.play({"type": "exchange", "seat": ALA, "force": True})
    assert [f.code for f in findings] == ["exchange_too_late"] and warnings


def test_no_exchange_without_the_nine():
    match = start("QS", hands={"1": ["9S", "10S", "JS", "KS", "AS"]})
    assert match.expected()["exchange"]["seats"] == [BARTEK]
    assert rejected(match, {"type": "exchange", "seat": ALA}).code == "card_in_other_hand"
    match = start("QS")
    attack(match, BARTEK, "9S")
    defend(match, ALA, {"9S": "10S"})
    error = rejected(match, {"type": "exchange", "seat": ALA, "force": True})
    assert (error.code, error.forceable) == ("card_discarded", False)


# --- the end of a deal and the series ----------------------------------------------------------------

def test_the_player_left_holding_cards_loses_and_deals_next():
    match = start()
    play_rounds(match, DEAL_ONE)
    deal = deal_of(match)
    assert deal["over"] and deal["result"] == {"winner": ALA, "loser": BARTEK, "draw": False}
    assert sizes(match) == (0, 2, 0)
    assert [p["score"] for p in match.view()["players"]] == [1, 0]
    assert match.expected() == {"type": "deal", "dealer": BARTEK, "deal": 2, "cards": 5}
    error = rejected(match, {"type": "deal", "dealer": ALA, "trump": "9S"})
    assert (error.code, error.forceable) == ("wrong_dealer", True) and "Bartek lost the last deal" in error.message
    match.play({"type": "deal", "trump": "9S"})
    assert deal_of(match)["dealer"] == BARTEK and match.expected()["seat"] == ALA


def test_a_deal_where_both_hands_empty_together_is_a_draw_and_the_other_player_deals():
    match = start("9C", dealer=BARTEK)
    play_rounds(match, DEAL_DRAWN)
    deal = deal_of(match)
    assert deal["result"] == {"winner": None, "loser": None, "draw": True}
    assert [p["score"] for p in match.view()["players"]] == [0, 0]
    assert match.expected()["dealer"] == ALA
    event, warnings, _ = match.play({"type": "deal", "dealer": BARTEK, "trump": "9S", "force": True})
    assert event["dealer"] == BARTEK and warnings[0]["code"] == "wrong_dealer"


def test_a_player_may_attack_with_their_last_cards_and_wins_when_they_are_taken():
    match = start("9C", dealer=BARTEK)
    play_rounds(match, DEAL_DRAWN[:3])
    attack(match, BARTEK, "JH JC QH QC 9C")
    defend(match, ALA, {"JH": "KH"})
    assert deal_of(match)["result"] == {"winner": BARTEK, "loser": ALA, "draw": False}


def test_no_play_after_the_deal_is_over_and_no_deal_during_one():
    match = start()
    assert rejected(match, {"type": "deal", "trump": "9S"}).code == "deal_in_progress"
    play_rounds(match, DEAL_ONE)
    assert rejected(match, {"type": "attack", "seat": ALA, "cards": ["9S"]}).code == "no_deal"


def test_the_series_scores_a_point_per_deal_and_ends_when_the_players_say():
    match = start()
    play_rounds(match, DEAL_ONE)
    match.play({"type": "deal", "trump": "9C"})
    play_rounds(match, DEAL_DRAWN)
    match.play({"type": "deal", "trump": "10H"})
    play_rounds(match, DEAL_ONE)
    view = match.view()
    assert [entry["scores"] for entry in view["history"]] == [[1, 0], [1, 0], [2, 0]]
    assert [p["points"] for p in view["players"]] == [2, 0]
    match.play({"type": "end"})
    view = match.view()
    assert view["status"] == "finished" and view["expected"] is None
    assert [p["place"] for p in view["players"]] == [1, 2]
    assert {t["from"]: (t["to"], t["amount"]) for t in view["settlement"]["transfers"]} == {BARTEK: (ALA, "2.00")}
    assert rejected(match, {"type": "deal", "trump": "9S"}).code == "match_finished"


def test_equal_points_share_the_places_and_pay_nothing():
    match = start()
    play_rounds(match, DEAL_ONE)
    assert match.game.ranking(match.state) == [[ALA], [BARTEK]]
    match.play({"type": "deal", "trump": "10H"})
    play_rounds(match, [(1 - seat, cards, beaten) for seat, cards, beaten in DEAL_ONE])
    assert deal_of(match)["result"]["winner"] == BARTEK
    match.play({"type": "end"})
    assert match.game.ranking(match.state) == [[ALA, BARTEK]]
    assert [p["place"] for p in match.view()["players"]] == [1, 1]
    assert all(Decimal(p["net"]) == 0 for p in match.settlement()["players"])


def test_player_view_shows_points_and_hand_size():
    match = start()
    attack(match, BARTEK, "9S 9D JS")
    players = match.view()["players"]
    assert [(p["points"], p["hand_size"]) for p in players] == [(0, 5), (0, 2)]


def test_undo_and_replay_rebuild_the_same_deal():
    match = start()
    play_rounds(match, DEAL_ONE[:4])
    attack(match, ALA, "KD")
    match.play({"type": "undo"})
    assert match.expected()["type"] == "attack" and match.expected()["seat"] == ALA
    replayed = Match.replay(match.header(), match.log)
    assert replayed.view() == match.view()


def test_each_deal_lost_pays_the_stake_to_its_winner():
    match = start()
    play_rounds(match, DEAL_ONE)  # Ala wins; Bartek deals next
    match.play({"type": "deal", "trump": "10H"})
    play_rounds(match, [(1 - seat, cards, beaten) for seat, cards, beaten in DEAL_ONE])  # Bartek wins
    match.play({"type": "deal", "trump": "10H"})
    play_rounds(match, DEAL_ONE)  # Ala wins again
    assert [p["points"] for p in match.view()["players"]] == [2, 1]
    money = match.settlement()
    assert [(p["paid"], p["received"], p["net"]) for p in money["players"]] == [
        ("1.00", "2.00", "1.00"), ("2.00", "1.00", "-1.00")]
    assert money["transfers"] == [{"from": BARTEK, "to": ALA, "amount": "1.00"}]
