"""Oh Hell refereeing (RULES.md §4): plays that cannot be, known hands checked exactly, blind revokes found."""

import pytest
from oh_hell_table import HAND_1, bid, first_hand, new, play, play_first_hand, play_second_hand, rejection

from referee import CardError, InvalidInput, Match

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
    assert error.message == "Ann holds spades and must follow suit, not play 9C."  # not which spade
    assert error.details == {"card": "9C", "led": "S"}
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
    assert error.message == "Ann cannot follow diamonds, holds a trump and must trump, not play 9C."
    assert error.details == {"card": "9C", "led": "D", "trump": "H"}


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


def test_a_blind_refusal_to_trump_is_found_once_the_player_is_proven_void_in_the_suit_led():
    """Holding a trump proves a refusal to trump only once the player is known to have had none of the suit led:
    until then the play may as well be a revoke (issue 29)."""
    match = new(sequence=[3, 2], must_trump=True)
    first_hand(match)
    play(match, 1, "KS")
    skipped, _, _ = play(match, 2, "5D")   # Cid neither follows nor trumps: claims no spade, no heart
    play(match, 0, "AS")
    play(match, 0, "9C")
    play(match, 1, "2C")
    _, _, findings = play(match, 2, "2H")
    assert findings == []  # Cid held a trump, but may have held a spade too
    _, _, findings = play(match, 2, "JD")  # Cid's last card, no spade: Cid could not follow, and held 2H
    assert [(f.seq, f.code, f.trick) for f in findings] == [(skipped["seq"], "must_trump", 1)]
    assert findings[0].message == ("Cid could not follow spades in trick 1 of hand 1 and did not trump (played 5D "
                                   "on KS), but played the trump 2H in trick 2.")


def test_with_must_trump_a_revoke_is_named_a_revoke_even_after_a_trump_showed():
    """The issue's table: 3 players, `sequence [3]`, trump 2S. B's 3C on AH claims no heart and no trump; B's
    5S shows a trump, and B's 4H then proves that B could follow hearts: a revoke, named `must_follow_suit`."""
    match = Match.create("oh_hell", ["A", "B", "C"], {"sequence": [3], "must_trump": True,
                                                      "no_trump_last_hand": False})
    match.play({"type": "deal", "dealer": 2, "trump": "2S"})
    for seat in (0, 1, 2):
        bid(match, seat, 1)
    skipped, _, _ = play(match, 0, "AH")
    skipped, _, _ = play(match, 1, "3C")
    play(match, 2, "6H")
    play(match, 0, "AD")
    _, _, findings = play(match, 1, "5S")
    assert findings == []  # a trump: B may have been void in hearts, or not
    play(match, 2, "7D")
    _, _, findings = play(match, 1, "4H")
    assert [(f.seq, f.code, f.trick, f.proof_seq) for f in findings] == [
        (skipped["seq"], "must_follow_suit", 1, match.seq)]
    assert findings[0].message == ("B did not follow hearts in trick 1 of hand 1 (played 3C on AH), but played 4H "
                                   "in trick 3: a revoke.")
    play(match, 2, "8H")
    play(match, 0, "KC")
    assert [f["code"] for f in match.view()["findings"]] == ["must_follow_suit"]


def test_with_hands_entered_for_three_seats_the_fourth_is_known_and_its_revoke_refused():
    """4 players, 13 cards, three hands entered: D's hand is what is left. D must hold 2H 3H 4H, so D's 5S on AH
    is refused at once, as a revoke, and the table may let it stand."""
    deck = [f"{rank}{suit}" for suit in "SHDC" for rank in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q",
                                                            "K", "A")]
    d_hand = ["2H", "3H", "4H", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS", "AS"]
    rest = [card for card in deck if card not in d_hand]
    hands = {"0": rest[0:13], "1": rest[13:26], "2": rest[26:39]}
    assert "AH" in hands["0"]
    match = Match.create("oh_hell", ["A", "B", "C", "D"], {"sequence": [13]})
    match.play({"type": "deal", "dealer": 3, "hands": hands})
    for seat in (0, 1, 2, 3):
        bid(match, seat, 3)
    play(match, 0, "AH")
    play(match, 1, "2D")  # B holds the diamonds and C the clubs: no heart, both free to discard
    play(match, 2, "2C")
    error = rejection(match, {"type": "play", "seat": 3, "card": "5S"})
    assert (error.code, error.forceable) == ("must_follow_suit", True)
    assert error.message == "D holds hearts and must follow suit, not play 5S."
    _, warnings, findings = play(match, 3, "5S", force=True)
    assert [f.code for f in findings] == ["must_follow_suit"] and warnings


def test_blind_a_revoke_is_found_by_another_players_card_that_leaves_no_hand_without_the_suit():
    """Not only the player's own later cards prove a claim (issue 29). A holds twelve spades and AH, B the
    diamonds; C and D share the rest: 12 hearts, 13 clubs and 2S. Both discard clubs on AH, each claiming no
    heart; each claim alone could be true, but every club shown leaves fewer cards of other suits for the other
    one: C's 4C in trick 2 leaves D's claim no hand, and is its proof."""
    spades = [f"{rank}S" for rank in ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")]
    diamonds = [f"{rank}D" for rank in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")]
    match = Match.create("oh_hell", ["A", "B", "C", "D"], {"sequence": [13]})
    match.play({"type": "deal", "dealer": 3, "hands": {"0": spades + ["AH"], "1": diamonds}})
    for seat in (0, 1, 2, 3):
        bid(match, seat, 3)
    play(match, 0, "AH")
    play(match, 1, "2D")
    play(match, 2, "2C")
    revoke, _, findings = play(match, 3, "3C")
    assert findings == []
    play(match, 0, "KS")
    play(match, 1, "3D")
    proof, _, findings = play(match, 2, "4C")
    assert [(f.seq, f.seat, f.code, f.trick, f.proof_seq) for f in findings] == [
        (revoke["seq"], 3, "must_follow_suit", 1, proof["seq"])]
    assert findings[0].details["case"] == "counted"
    assert findings[0].message == ("D did not follow hearts in trick 1 of hand 1 (played 3C on AH), but too few "
                                   "cards of other suits are left unseen to fill the rest of D's hand: a revoke.")


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
