"""Durak (RULES.md §6), worked by hand: each rule and option, the bout's flow, the draws, the durak, the money."""

from __future__ import annotations

from decimal import Decimal

import pytest

from referee import GAMES, InvalidInput, Match, Rejected

NAMES = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay"]


def new(players: int = 3, stake: str = "1", **options) -> Match:
    return Match.create("durak", NAMES[:players], options, stake=stake)


def dealt(players: int = 3, trump: str = "7H", attacker: int = 1, hands: dict | None = None, **options) -> Match:
    match = new(players, **options)
    deal = {"type": "deal", "dealer": 0, "trump": trump, "attacker": attacker}
    if hands:
        deal["hands"] = hands
    match.play(deal)
    return match


def attack(seat: int, *cards: str, force: bool = False) -> dict:
    return {"type": "attack", "seat": seat, "cards": list(cards), **({"force": True} if force else {})}


def defend(seat: int, *pairs: tuple[str, str], force: bool = False) -> dict:
    return {"type": "defend", "seat": seat, "beats": [{"card": c, "with": w} for c, w in pairs],
            **({"force": True} if force else {})}


def transfer(seat: int, *cards: str, force: bool = False) -> dict:
    return {"type": "transfer", "seat": seat, "cards": list(cards), **({"force": True} if force else {})}


def take(seat: int) -> dict:
    return {"type": "take", "seat": seat}


DONE = {"type": "done"}


def refused(match: Match, command: dict) -> Rejected:
    seq = match.seq
    with pytest.raises(Rejected) as caught:
        match.play(command)
    assert match.seq == seq
    return caught.value


def play(match: Match, *commands: dict) -> None:
    for command in commands:
        match.play(command)


def deal_view(match: Match) -> dict:
    return match.view()["deal"]


# --- the catalogue ----------------------------------------------------------------------------------------

def test_every_option_of_the_rule_book_with_its_default():
    options = {o["name"]: o["default"] for o in GAMES["durak"].catalogue()["options"]}
    assert options == {"deck": 36, "transfer": False, "throw_in": "all", "lead_same_rank": True,
                       "first_bout_five": True, "first_attack": "left_of_durak"}
    catalogue = GAMES["durak"].catalogue()
    assert (catalogue["min_players"], catalogue["max_players"]) == (2, 6)
    assert catalogue["events"] == ["attack", "deal", "defend", "done", "end", "take", "transfer"]


def test_a_24_card_deck_seats_at_most_four():
    with pytest.raises(InvalidInput) as caught:
        new(5, deck=24)
    assert caught.value.code == "bad_options"
    assert new(4, deck=24).options["deck"] == 24


# --- the deal ---------------------------------------------------------------------------------------------

def test_the_deal_deals_six_each_and_the_talon_keeps_the_turned_trump():
    view = deal_view(dealt(3))
    assert view["hand_sizes"] == {"0": 6, "1": 6, "2": 6}
    assert (view["stock"], view["trump"], view["trump_holder"]) == (18, "7H", None)
    assert (view["attacker"], view["defender"]) == (1, 2)


def test_the_whole_pack_shows_the_dealers_last_card_and_leaves_no_talon():
    view = deal_view(dealt(6, trump="9C", attacker=2))
    assert (view["stock"], view["trump_holder"], view["known"]["0"]) == (0, 0, ["9C"])
    with pytest.raises(InvalidInput):  # the turned card is the dealer's
        dealt(6, trump="9C", attacker=2, hands={"1": ["9C", "6S", "7S", "8S", "10S", "JS"]})


def test_the_first_deal_names_its_first_attacker():
    match = new(3)
    with pytest.raises(InvalidInput) as caught:
        match.play({"type": "deal", "dealer": 0, "trump": "7H"})
    assert caught.value.code == "attacker_required"


def test_with_hands_entered_the_lowest_trump_attacks_first():
    hands = {"1": ["6H", "7S", "8S", "9S", "10S", "JS"], "2": ["8H", "7C", "8C", "9C", "10C", "JC"]}
    match = new(3)
    error = refused(match, {"type": "deal", "dealer": 0, "trump": "7H", "attacker": 2, "hands": hands})
    assert (error.code, error.details["case"], error.details["card"], error.forceable) == (
        "wrong_attacker", "lowest_trump", "6H", True)
    error = refused(match, {"type": "deal", "dealer": 0, "trump": "7H", "attacker": 0, "hands": hands})
    assert error.code == "wrong_attacker"  # Ann's hand is not entered, but no trump below 6H is left for her
    event, warnings, _ = match.play({"type": "deal", "dealer": 0, "trump": "7H", "attacker": 2, "hands": hands,
                                     "force": True})
    assert [w["code"] for w in warnings] == ["wrong_attacker"] and event["force"] is True


# --- leading and throwing in ------------------------------------------------------------------------------

def test_only_the_attacker_leads_one_card_or_several_of_a_rank():
    match = dealt(3)
    assert refused(match, attack(2, "9S")).code == "not_your_turn"
    error = refused(match, attack(1, "9S", "10S"))
    assert (error.code, error.forceable) == ("lead_one_rank", True)
    match.play(attack(1, "9S", "9D"))
    assert deal_view(match)["bout"]["attacks"] == [{"card": "9S", "seat": 1, "beaten_by": None},
                                                   {"card": "9D", "seat": 1, "beaten_by": None}]


def test_a_table_that_leads_one_card():
    match = dealt(3, lead_same_rank=False)
    assert refused(match, attack(1, "9S", "9D")).details["case"] == "one_card"
    match.play(attack(1, "9S"))
    match.play(attack(1, "9D"))  # a throw-in may carry the same rank straight after


def test_throw_ins_from_any_seat_but_the_defenders_of_the_ranks_on_the_table():
    match = dealt(4)
    play(match, attack(1, "9S"), defend(2, ("9S", "JS")))
    match.play(attack(3, "JD"))  # the beating card's rank
    match.play(attack(0, "9C"))
    assert refused(match, attack(2, "9H")).details["case"] == "defender"
    error = refused(match, attack(3, "QD"))
    assert (error.code, error.details["ranks"]) == ("throw_in_rank", ["9", "J"])
    _, warnings, findings = match.play(attack(3, "QD", force=True))
    assert [f.code for f in findings] == ["throw_in_rank"] and warnings


def test_neighbours_only_the_attacker_and_the_defenders_left_throw_in():
    match = dealt(4, throw_in="neighbours")
    match.play(attack(1, "9S"))
    assert deal_view(match)["defender"] == 2
    assert match.expected()["throw_in"] == [1, 3]
    assert refused(match, attack(0, "9C")).details["case"] == "neighbours"
    match.play(attack(3, "9C"))


def test_the_first_bout_holds_five_later_bouts_six():
    match = dealt(3)
    play(match, attack(1, "9S", "9D", "9C"), attack(0, "9H"))
    assert match.expected()["room"] == 1
    play(match, attack(0, "6S", force=True))  # a rank not on the table, let stand
    error = refused(match, attack(0, "6D"))
    assert (error.code, error.details["limit"], error.forceable) == ("bout_limit", 5, True)
    match = dealt(3, first_bout_five=False)
    play(match, attack(1, "9S", "9D", "9C"), attack(0, "9H"), defend(2, ("9S", "JS")), attack(0, "JD"))
    assert match.expected()["room"] == 1


def test_never_more_attacking_cards_than_the_defender_held():
    match = dealt(3)
    play(match, attack(1, "9S"), take(2), DONE)  # Cid takes: 7 cards; Ann attacks Bob next
    assert deal_view(match)["attacker"] == 0
    play(match, attack(0, "10S"), defend(1, ("10S", "QS")), DONE)  # beaten: Bob attacks Cid
    play(match, attack(1, "8S", "8D"), attack(0, "8C", "8H"))
    assert match.expected()["room"] == 2  # six a bout, and Cid holds 7
    error = refused(match, attack(0, "QD"))
    assert error.code == "throw_in_rank"


# --- beating ------------------------------------------------------------------------------------------------

def test_a_beat_of_the_wrong_suit_or_rank_is_refused_a_trump_beats_a_plain_card():
    match = dealt(3)
    match.play(attack(1, "9S", "9D"))
    assert refused(match, defend(2, ("9S", "8S"))).code == "beat_too_low"
    assert refused(match, defend(2, ("9S", "JC"))).code == "beat_wrong_suit"
    assert refused(match, defend(1, ("9S", "JS"))).code == "not_your_turn"
    match.play(defend(2, ("9S", "6H")))  # the lowest trump beats the nine
    assert refused(match, defend(2, ("9S", "JS"))).details["case"] == "beaten"
    assert refused(match, defend(2, ("9C", "JC"))).details["case"] == "absent"
    match.play(defend(2, ("9D", "QD")))
    assert match.expected()["type"] == "done"


def test_a_trump_is_beaten_only_by_a_higher_trump():
    match = dealt(3)
    match.play(attack(1, "8H"))
    assert refused(match, defend(2, ("8H", "AS"))).details["case"] == "trump"
    assert refused(match, defend(2, ("8H", "6H"))).code == "beat_too_low"
    match.play(defend(2, ("8H", "9H")))


# --- the bout's end ---------------------------------------------------------------------------------------

def test_done_needs_every_card_beaten_or_taken():
    match = dealt(3)
    assert refused(match, DONE).details["case"] == "no_bout"
    match.play(attack(1, "9S"))
    assert refused(match, DONE).code == "bout_unbeaten"


def test_a_beaten_bout_is_discarded_the_defender_attacks_next_and_its_cards_are_gone():
    match = dealt(3)
    play(match, attack(1, "9S"), defend(2, ("9S", "JS")), DONE)
    view = deal_view(match)
    assert (view["discarded"], view["attacker"], view["defender"], view["stock"]) == (["9S", "JS"], 2, 0, 16)
    assert refused(match, attack(2, "JS")).code == "card_discarded"


def test_i_take_with_throw_ins_after_it_and_the_taken_cards_are_known():
    match = dealt(4)
    play(match, attack(1, "9S"), defend(2, ("9S", "JS")), attack(3, "9D"), take(2))
    assert refused(match, defend(2, ("9D", "QD"))).code == "defender_took"
    assert refused(match, take(2)).code == "defender_took"
    play(match, attack(0, "JD"), DONE)
    view = deal_view(match)
    assert view["hand_sizes"]["2"] == 6 - 1 + 4 and view["known"]["2"] == ["9S", "JS", "9D", "JD"]
    assert (view["attacker"], view["defender"]) == (3, 0)  # the defender's left attacks next
    error = refused(match, attack(3, "9D"))
    assert (error.code, error.details["holder"], error.details["case"]) == ("card_in_other_hand", 2, "taken")


def test_a_beaten_bout_may_still_be_taken():
    match = dealt(3)
    play(match, attack(1, "9S"), defend(2, ("9S", "JS")), take(2), DONE)
    assert deal_view(match)["hand_sizes"]["2"] == 7


def test_the_draws_leader_first_then_clockwise_the_defender_last_who_draws_the_turned_trump():
    match = dealt(5, trump="7H")  # 36 - 30: six in the talon
    play(match, attack(1, "9S", "9H", "9D"), defend(2, ("9S", "JS"), ("9H", "JH"), ("9D", "JD")),
         attack(0, "JC"), defend(2, ("JC", "QC")), DONE)
    view = deal_view(match)
    # Bob (the leader) draws 3, then Dan, Eve, Ann (1), Cid (the defender) last: 2 of the 4 he needs
    assert view["hand_sizes"] == {"0": 6, "1": 6, "2": 4, "3": 6, "4": 6}
    assert (view["stock"], view["trump_holder"], view["known"]["2"]) == (0, 2, ["7H"])
    match.play(attack(2, "7H"))  # Cid attacks next, with the trump he drew


def test_the_turned_trump_lies_under_the_talon_until_it_is_drawn():
    match = dealt(3)
    error = refused(match, attack(1, "7H", force=True))
    assert (error.code, error.forceable) == ("card_under_stock", False)


def test_entered_hands_are_checked_card_by_card():
    hand = ["9S", "9D", "10S", "JS", "QS", "KS"]
    match = dealt(3, hands={"1": hand})
    error = refused(match, attack(1, "9C", force=True))
    assert (error.code, error.details["case"]) == ("card_not_held", "known")
    match.play(attack(1, "9S"))
    assert refused(match, defend(2, ("9S", "10S"))).code == "card_in_other_hand"


# --- transfers ----------------------------------------------------------------------------------------------

def test_transfers_need_the_option():
    match = dealt(3)
    match.play(attack(1, "9S"))
    assert refused(match, transfer(2, "9D")).code == "no_transfer"


def test_a_transfer_passes_the_bout_on_again_and_again():
    match = dealt(4, transfer=True)
    match.play(attack(1, "9S"))
    assert match.expected()["transfer"] is True
    match.play(transfer(2, "9D"))
    view = deal_view(match)
    assert (view["bout"]["defender"], view["bout"]["attacker"], view["bout"]["leader"]) == (3, 2, 1)
    match.play(transfer(3, "9C"))
    assert deal_view(match)["bout"]["defender"] == 0
    error = refused(match, transfer(0, "10H"))
    assert error.code == "transfer_rank"
    play(match, defend(0, ("9S", "10S")))
    assert refused(match, transfer(0, "9H")).code == "transfer_too_late"
    play(match, take(0), DONE)
    view = deal_view(match)
    assert view["hand_sizes"] == {"0": 6 - 1 + 4, "1": 6, "2": 6, "3": 6}
    assert view["attacker"] == 1  # the last defender's left


def test_a_transfer_the_next_player_could_not_hold_is_refused():
    match = dealt(2, trump="KH", transfer=True, deck=24)
    play(match, attack(1, "9S"), take(0), DONE)  # Ann takes: 7; Bob draws back to 6 and attacks again
    play(match, attack(1, "10S"), defend(0, ("10S", "QS")), DONE)  # beaten: Ann attacks
    play(match, attack(0, "JS", "JD", "JC"))  # Ann keeps 3
    error = refused(match, transfer(1, "JH"))
    assert (error.code, error.details["defender"], error.details["held"], error.details["size"]) == (
        "transfer_too_large", 0, 3, 4)


# --- players out, the durak, the next deal, the money -------------------------------------------------------

def first_two_bouts(first_attack: str = "left_of_durak") -> Match:
    """Four players, 24 cards: no talon. Bob empties onto Cid, Cid and Bob onto Dan: both are out."""
    match = dealt(4, trump="AH", attacker=1, deck=24, first_attack=first_attack)
    play(match, attack(1, "10S", "10C"), defend(2, ("10S", "JS"), ("10C", "JC")),
         attack(1, "JD"), defend(2, ("JD", "QD")), attack(1, "QS"), defend(2, ("QS", "KS")),
         attack(1, "KD"), defend(2, ("KD", "AD")), DONE)
    assert deal_view(match)["hand_sizes"] == {"0": 6, "1": 1, "2": 1, "3": 6}
    play(match, attack(2, "9S"), defend(3, ("9S", "10H")), attack(1, "10D"), defend(3, ("10D", "JH")))
    assert refused(match, attack(1, "QC")).code == "not_enough_cards"  # Bob threw in his last card
    match.play(DONE)
    view = deal_view(match)
    assert view["out"] == [1, 2] and (view["attacker"], view["defender"]) == (3, 0)
    assert refused(match, attack(1, "QC")).code == "out_of_deal"
    return match


def whole_pack_to_the_end(first_attack: str = "left_of_durak") -> Match:
    """Then Dan empties onto Ann, who is left holding two cards: the durak."""
    match = first_two_bouts(first_attack)
    play(match, attack(3, "QC"), defend(0, ("QC", "KC")), attack(3, "KH"), defend(0, ("KH", "AH")),
         attack(3, "AS"), defend(0, ("AS", "9H")), attack(3, "AC"), defend(0, ("AC", "QH")), DONE)
    return match


def test_the_last_player_holding_cards_is_the_durak_deals_next_and_pays_each_of_the_others():
    match = whole_pack_to_the_end()
    view = match.view()
    assert view["deal"]["result"] == {"durak": 0} and view["deal"]["out"] == [1, 2, 3]
    assert [p["score"] for p in view["players"]] == [1, 0, 0, 0]
    assert view["history"][-1]["durak"] == 0
    assert match.expected() == {"type": "deal", "dealer": 0, "deal": 2, "cards": 6, "attacker": 1}
    assert refused(match, {"type": "deal", "dealer": 2, "trump": "9S"}).code == "wrong_dealer"
    assert refused(match, {"type": "deal", "trump": "9S", "attacker": 3}).code == "wrong_attacker"
    match.play({"type": "deal", "trump": "9S"})
    assert (deal_view(match)["dealer"], deal_view(match)["attacker"]) == (0, 1)
    match.play({"type": "end"})
    money = match.settlement()
    assert [Decimal(p["net"]) for p in money["players"]] == [-3, 1, 1, 1]
    assert match.view()["players"][0]["place"] == 4


def test_onto_the_durak_the_player_to_the_durak_s_right_attacks_first():
    match = whole_pack_to_the_end(first_attack="durak")
    assert match.expected()["attacker"] == 3
    match.play({"type": "deal", "trump": "9S"})
    assert (deal_view(match)["attacker"], deal_view(match)["defender"]) == (3, 0)


def test_a_draw_when_the_last_bout_leaves_nobody_holding_cards():
    match = first_two_bouts()
    play(match, attack(3, "QC"), defend(0, ("QC", "KC")), DONE)  # beaten: Ann attacks Dan, who holds 3
    assert match.expected()["limit"] == 3  # never more than the defender holds
    play(match, attack(0, "AH"), take(3), DONE)  # Dan takes the turned trump: 4 each, and Ann attacks again
    assert deal_view(match)["hand_sizes"] == {"0": 4, "1": 0, "2": 0, "3": 4}
    play(match, attack(0, "9C", "9D"), defend(3, ("9C", "AC"), ("9D", "QH")),
         attack(0, "9H", "AS"), defend(3, ("9H", "KH"), ("AS", "AH")), DONE)
    view = match.view()
    assert view["deal"]["result"] == {"durak": None} and view["deal"]["over"] is True
    assert [p["score"] for p in view["players"]] == [0, 0, 0, 0]
    assert match.expected() == {"type": "deal", "dealer": 1, "deal": 2, "cards": 6, "attacker": None}
    with pytest.raises(InvalidInput):
        match.play({"type": "deal", "trump": "9S"})  # after a draw the table names the first attacker
    match.play({"type": "deal", "trump": "9S", "attacker": 3})
    assert all(Decimal(p["net"]) == 0 for p in match.settlement()["players"])
