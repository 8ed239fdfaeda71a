"""Ogórek: what the referee refuses, and why (RULES.md, common ground; §1)."""

import pytest
from ogorek_helpers import deal_and_finish, play, play_in_turn, seed_match

from referee import CardError, InvalidInput, Match, Rejected


def rejected(match, command, **kw):
    with pytest.raises(Rejected) as raised:
        match.play(command, **kw)
    return raised.value


def invalid(match, command):
    with pytest.raises(InvalidInput) as raised:
        match.play(command)
    return raised.value


def knocked_out(players=("A", "B", "C")):
    """A match in which B went out by a penalty after the first deal."""
    match = Match.create("ogorek", list(players))
    deal_and_finish(match, {0: "2", 1: "3", 2: "4"}, dealer=0)
    match.play({"type": "penalty", "seat": 1, "points": 22})
    return match


@pytest.mark.parametrize("force", [False, True])
def test_not_your_turn_is_never_forceable(force):
    match = seed_match()
    before = match.seq
    error = rejected(match, {"type": "play", "seat": 2, "card": "K", "force": force})
    assert (error.code, error.forceable, error.seat) == ("not_your_turn", False, 2)
    assert error.message == "It is W's turn, not N's."
    assert match.seq == before


@pytest.mark.parametrize("force", [False, True])
def test_a_fifth_king_is_never_forceable(force):
    match = Match.create("ogorek", ["A", "B"])
    match.play({"type": "deal", "dealer": 0})
    play_in_turn(match, ["K", "K", "K", "K"])
    error = rejected(match, {"type": "play", "seat": match.expected()["seat"], "card": "K", "force": force})
    assert (error.code, error.forceable) == ("card_already_played", False)
    assert error.message == "All 4 × K are already played in this deal; B cannot play another."


def test_the_fifth_king_counts_kings_held_in_known_hands():
    match = Match.create("ogorek", ["A", "B", "C"])
    match.play({"type": "deal", "dealer": 2, "hands": {"1": ["K", "K", "K", "2", "3", "4"]}})
    play(match, 0, "K")
    play(match, 1, "K")
    error = rejected(match, {"type": "play", "seat": 2, "card": "K"})
    assert error.code == "card_already_played"
    assert error.message == "All 4 × K are already played or in the hands entered; C cannot play another."


def test_kings_of_a_previous_deal_do_not_count():
    match = Match.create("ogorek", ["A", "B"])
    deal_and_finish(match, {0: "K", 1: "K"}, dealer=0)
    match.play({"type": "deal"})
    play_in_turn(match, ["K", "K", "K", "K"])
    assert match.seq == 18


@pytest.mark.parametrize(
    "command",
    [
        {"type": "play", "seat": 1, "card": "5"},
        {"type": "penalty", "seat": 1},
        {"type": "deal", "dealer": 1, "force": True},
        {"type": "deal", "hands": {"1": ["2", "3", "4", "5", "6", "7"]}},
    ],
)
def test_a_player_who_is_out_is_rejected(command):
    match = knocked_out()
    if command["type"] == "play":
        match.play({"type": "deal"})
    error = rejected(match, command)
    assert (error.code, error.seat) == ("player_out", 1)
    assert error.message == "B is out of the match."


def test_no_play_without_a_deal():
    match = Match.create("ogorek", ["A", "B", "C"])
    assert rejected(match, {"type": "play", "seat": 1, "card": "5"}).code == "no_deal"
    deal_and_finish(match, {0: "2", 1: "3", 2: "4"}, dealer=0)
    assert rejected(match, {"type": "play", "seat": 2, "card": "5"}).code == "no_deal"


def test_no_new_deal_while_one_is_played():
    match = seed_match()
    error = rejected(match, {"type": "deal", "force": True})
    assert error.code == "deal_in_progress"


@pytest.mark.parametrize(
    "command",
    [
        {"type": "deal"},
        {"type": "play", "seat": 0, "card": "2"},
        {"type": "penalty", "seat": 0},
        {"type": "end"},
    ],
)
def test_nothing_after_the_match_is_over(command):
    match = Match.create("ogorek", ["A", "B"])
    match.play({"type": "penalty", "seat": 1, "points": 30})
    assert match.view()["status"] == "finished"
    assert rejected(match, command).code == "match_finished"


@pytest.mark.parametrize("seat", [-1, 4, "1", True, None, 1.0, [1]])
@pytest.mark.parametrize("kind", ["play", "penalty"])
def test_bad_seats(kind, seat):
    match = seed_match()
    command = {"type": kind, "card": "K"} if kind == "play" else {"type": kind}
    if seat is not None:
        command["seat"] = seat
    error = invalid(match, command)
    assert error.code == "bad_seat"
    assert "seat must be a seat number from 0 to 3" in error.message


@pytest.mark.parametrize("dealer", [-1, 3, "0", False])
def test_bad_dealer(dealer):
    match = Match.create("ogorek", ["A", "B", "C"])
    assert invalid(match, {"type": "deal", "dealer": dealer}).code == "bad_seat"


@pytest.mark.parametrize("card", ["Z", "", "1", None, 5, "11", "X", "joker"])
def test_bad_cards(card):
    match = seed_match()
    with pytest.raises(CardError) as raised:
        play(match, "W", card)
    assert raised.value.code == "bad_card"
    assert match.seq == 1


def test_ogorek_has_no_jokers():
    match = seed_match()
    with pytest.raises(CardError, match="no joker"):
        play(match, "W", "X")


@pytest.mark.parametrize(
    "hands, code",
    [
        ([], "bad_hands"),
        ("2 3 4", "bad_hands"),
        ({"0": ["2", "3", "4", "5", "6"]}, "bad_hands"),
        ({"0": ["2", "3", "4", "5", "6", "7", "8"]}, "bad_hands"),
        ({"0": "2 3 4 5 6 7"}, "bad_hands"),
        ({"0": ["K", "K", "K", "2", "3", "4"], "1": ["K", "K", "5", "6", "7", "8"]}, "impossible_hands"),
        ({"5": ["2", "3", "4", "5", "6", "7"]}, "bad_seat"),
        ({"W": ["2", "3", "4", "5", "6", "7"]}, "bad_seat"),
        ({"1": ["2", "3", "4", "5", "6", "7"], "01": ["8", "9", "10", "J", "Q", "K"]}, "bad_hands"),
    ],
)
def test_bad_hands(hands, code):
    match = Match.create("ogorek", ["A", "B", "C"])
    assert invalid(match, {"type": "deal", "dealer": 0, "hands": hands}).code == code
    assert match.seq == 0


@pytest.mark.parametrize("card", ["Z", "X"])
def test_a_bad_card_in_a_hand(card):
    match = Match.create("ogorek", ["A", "B", "C"])
    with pytest.raises(CardError):
        match.play({"type": "deal", "dealer": 0, "hands": {"0": ["2", "3", "4", "5", "6", card]}})


def test_hands_are_stored_in_canonical_notation():
    match = Match.create("ogorek", ["A", "B", "C"])
    event, _, _ = match.play({"type": "deal", "dealer": 0, "hands": {2: ["th", "kS", "A♥", "2", "3", "4"]}})
    assert event["hands"] == {"2": ["10", "K", "A", "2", "3", "4"]}


def test_plays_are_stored_in_canonical_notation():
    match = seed_match()
    assert play(match, "W", " t♠ ")[0] == {"type": "play", "seat": 1, "card": "10", "seq": 2, "format": 2}


@pytest.mark.parametrize("points", [0, -5, 1001, "5", True, 2.5, None])
def test_bad_penalty_points(points):
    match = Match.create("ogorek", ["A", "B", "C"])
    assert invalid(match, {"type": "penalty", "seat": 0, "points": points}).code == "bad_points"


@pytest.mark.parametrize("reason", [5, ["cut"], "x" * 201])
def test_bad_penalty_reason(reason):
    match = Match.create("ogorek", ["A", "B", "C"])
    assert invalid(match, {"type": "penalty", "seat": 0, "reason": reason}).code == "bad_reason"


@pytest.mark.parametrize("kind", ["bid", "attack", None, 3, "Play"])
def test_bad_event_type(kind):
    match = seed_match()
    assert invalid(match, {"type": kind, "seat": 1}).code == "bad_event_type"


@pytest.mark.parametrize("command", [None, [], "play", 5])
def test_an_event_is_an_object(command):
    match = seed_match()
    assert invalid(match, command).code == "bad_event"


@pytest.mark.parametrize(
    "options, problem",
    [
        ({"jokers": 3}, "jokers"),
        ({"Limit": 30}, "Limit"),
        ({"packets": 4}, "packets"),
        ({"packets": "2"}, "packets"),
        ({"ace_penalty": 11}, "ace_penalty"),
        ({"ace_penalty": True}, "ace_penalty"),
        ({"limit": 0}, "limit"),
        ({"limit": 1001}, "limit"),
        ({"limit": "21"}, "limit"),
        ({"limit": 21.0}, "limit"),
        ({"limit": None}, "limit"),
        ({"cut_penalty": 0}, "cut_penalty"),
        ({"cut_penalty": -1}, "cut_penalty"),
        ({"cut_penalty": 1001}, "cut_penalty"),
        ({"all_out": "winner"}, "all_out"),
        ({"all_out": None}, "all_out"),
        ({"stake": "1.00"}, "stake"),
    ],
)
def test_bad_options(options, problem):
    with pytest.raises(InvalidInput) as raised:
        Match.create("ogorek", ["A", "B", "C"], options)
    assert raised.value.code == "bad_options"
    assert list(raised.value.details["options"]) == [problem]
    assert problem in raised.value.message


@pytest.mark.parametrize("options", ["limit=30", ["limit"], 5, [], "", 0, False])
def test_options_are_an_object(options):
    with pytest.raises(InvalidInput) as raised:
        Match.create("ogorek", ["A", "B", "C"], options)
    assert raised.value.code == "bad_options"


@pytest.mark.parametrize(
    "options, resolved",
    [
        (None, {"packets": 2, "ace_penalty": 21, "limit": 21, "cut_penalty": 5, "all_out": "share"}),
        ({}, {"packets": 2, "ace_penalty": 21, "limit": 21, "cut_penalty": 5, "all_out": "share"}),
        ({"packets": 3, "ace_penalty": 1, "limit": 50, "cut_penalty": 10, "all_out": "lowest_total"},
         {"packets": 3, "ace_penalty": 1, "limit": 50, "cut_penalty": 10, "all_out": "lowest_total"}),
        ({"limit": 1}, {"packets": 2, "ace_penalty": 21, "limit": 1, "cut_penalty": 5, "all_out": "share"}),
    ],
)
def test_good_options_with_defaults_filled_in(options, resolved):
    assert Match.create("ogorek", ["A", "B", "C"], options).options == resolved


@pytest.mark.parametrize("players", [["A"], [f"P{i}" for i in range(9)], [], ["A", "a"], ["A", ""], "AB", None])
def test_bad_players(players):
    with pytest.raises(InvalidInput) as raised:
        Match.create("ogorek", players)
    assert raised.value.code == "bad_players"


@pytest.mark.parametrize("count", range(2, 9))
def test_two_to_eight_players(count):
    match = Match.create("ogorek", [f"P{i}" for i in range(count)])
    match.play({"type": "deal", "dealer": 0})
    assert len(match.state.deal.seats) == count
