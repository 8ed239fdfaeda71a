from collections import Counter

import pytest

from referee.cards import JOKER, Card, CardError, copies_in_deck, deck, parse_card


@pytest.mark.parametrize(
    "text, card",
    [
        ("10H", Card("10", "H")),
        ("TH", Card("10", "H")),
        ("th", Card("10", "H")),
        ("QS", Card("Q", "S")),
        ("qs", Card("Q", "S")),
        ("2C", Card("2", "C")),
        ("AD", Card("A", "D")),
        ("10♥", Card("10", "H")),
        ("K♠", Card("K", "S")),
        ("J♦", Card("J", "D")),
        ("9♣", Card("9", "C")),
        ("Q♡", Card("Q", "H")),
        ("A♥\ufe0f", Card("A", "H")),  # the emoji form of the heart, as phones type it
        (" 7d ", Card("7", "D")),
        ("X", Card(JOKER)),
        ("x", Card(JOKER)),
        ("joker", Card(JOKER)),
    ],
)
def test_suited_notation(text, card):
    assert parse_card(text, suited=True) == card


@pytest.mark.parametrize(
    "text, rank",
    [
        ("A", "A"),
        ("a", "A"),
        ("K", "K"),
        ("q", "Q"),
        ("J", "J"),
        ("10", "10"),
        ("T", "10"),
        ("t", "10"),
        ("2", "2"),
        ("9", "9"),
        ("KH", "K"),  # a suit written where suits do not matter is dropped
        ("10♠", "10"),
        ("X", JOKER),
    ],
)
def test_rank_only_notation(text, rank):
    assert parse_card(text, suited=False) == Card(rank)


def test_a_card_prints_in_canonical_notation():
    assert str(parse_card("t♥", suited=True)) == "10H"
    assert str(parse_card("th", suited=False)) == "10"
    assert str(parse_card("x", suited=True)) == "X"


@pytest.mark.parametrize(
    "text, words",
    [
        ("", "is not a card"),
        ("   ", "is not a card"),
        ("1", "is not a card"),
        ("11", "is not a card"),
        ("0", "is not a card"),
        ("B", "is not a card"),
        ("H", "is not a card"),
        ("HS", "is not a card"),
        ("H10", "is not a card"),
        ("KK", "is not a card"),
        ("10HH", "is not a card"),
        ("1O", "is not a card"),
        ("KZ", "is not a card"),
        ("XH", "is not a card"),
        ("D", "is not a card"),  # Polish dama is Q in the API's notation
        ("K", "needs a suit"),
        ("10", "needs a suit"),
        ("T", "needs a suit"),
    ],
)
def test_bad_suited_input_is_a_card_error(text, words):
    with pytest.raises(CardError) as raised:
        parse_card(text, suited=True)
    assert words in str(raised.value)
    assert raised.value.code == "bad_card"


@pytest.mark.parametrize("text", ["", "1", "11", "Z", "KZ", "H", "10HH", "KING"])
def test_bad_rank_only_input_is_a_card_error(text):
    with pytest.raises(CardError, match="is not a card") as raised:
        parse_card(text, suited=False)
    assert "2-10, J, Q, K or A" in str(raised.value)


def test_rank_only_error_does_not_ask_for_a_suit():
    with pytest.raises(CardError) as raised:
        parse_card("Z", suited=False)
    assert "suit" not in str(raised.value)


@pytest.mark.parametrize("value", [None, 10, 1.5, ["K"], {"rank": "K"}, True, b"KH"])
def test_a_card_that_is_not_text_is_a_card_error(value):
    with pytest.raises(CardError, match="written as text"):
        parse_card(value, suited=False)


def test_card_error_is_a_value_error_naming_the_input():
    with pytest.raises(ValueError, match="'1O'"):
        parse_card("1O", suited=True)


@pytest.mark.parametrize(
    "size, lowest, jokers",
    [(24, "9", 0), (36, "6", 0), (52, "2", 0), (55, "2", 3)],
)
def test_decks(size, lowest, jokers):
    cards = deck(size)
    assert len(cards) == size
    plain = [card for card in cards if not card.is_joker]
    assert len(plain) == size - jokers
    assert len(set(plain)) == len(plain), "each suited card once"
    ranks = Counter(card.rank for card in plain)
    assert set(ranks.values()) == {4}
    assert min(ranks, key=["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"].index) == lowest
    assert "A" in ranks and "K" in ranks
    assert {card.suit for card in plain} == {"S", "H", "D", "C"}
    assert sum(card.is_joker for card in cards) == jokers


def test_deck_of_24_is_nine_to_ace():
    assert sorted({card.rank for card in deck(24)}) == sorted(["9", "10", "J", "Q", "K", "A"])


def test_deck_of_36_adds_six_to_eight():
    assert {card.rank for card in deck(36)} - {card.rank for card in deck(24)} == {"6", "7", "8"}


@pytest.mark.parametrize("size", [0, 32, 53, 54])
def test_no_such_deck(size):
    with pytest.raises(ValueError, match=f"no deck of {size} cards"):
        deck(size)


def test_copies_rank_only():
    copies = copies_in_deck(52, suited=False)
    assert copies[Card("K")] == 4
    assert copies[Card("2")] == 4
    assert copies[Card(JOKER)] == 0
    assert sum(copies.values()) == 52
    assert copies_in_deck(55, suited=False)[Card(JOKER)] == 3


def test_copies_suited():
    copies = copies_in_deck(24, suited=True)
    assert copies[Card("K", "H")] == 1
    assert copies[Card("8", "H")] == 0
    assert sum(copies.values()) == 24


def test_a_decks_copies_are_counted_once():
    """The referee asks at every play; every game played with the same deck shares the one count."""
    assert copies_in_deck(52, suited=False) is copies_in_deck(52, suited=False)
    assert copies_in_deck(52, suited=False) is not copies_in_deck(52, suited=True)
