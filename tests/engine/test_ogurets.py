"""Ogurets (RULES.md §2), deal by deal as worked out at the table: ranks, the top-card rule, tricks, lives."""

from decimal import Decimal

import pytest

from referee import InvalidInput, Match, Rejected, catalogue
from referee.cards import Card
from referee.games.climbing import card_points

NAMES = ["S", "W", "N", "E", "P", "R", "T"]
SWEEPER = ["K", "K", "K", "K", "Q", "Q", "Q"]
LOW_CARDS = [rank for rank in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J") for _ in range(4)]


def new_match(players: int = 2, stake: str | None = None, **options) -> Match:
    return Match.create("ogurets", NAMES[:players], options, stake)


def play(match: Match, *cards: str, force: bool = False) -> list:
    """Play `cards` in turn order; returns the findings they raised."""
    findings = []
    for card in cards:
        command = {"type": "play", "seat": match.expected()["seat"], "card": card}
        if force:
            command["force"] = True
        findings.extend(match.play(command)[2])
    return findings


def reject(match: Match, card: str, seat: int | None = None) -> Rejected:
    seat = match.expected()["seat"] if seat is None else seat
    with pytest.raises(Rejected) as caught:
        match.decide({"type": "play", "seat": seat, "card": card})
    return caught.value


def sweep(match: Match, dealer: int | None = None) -> None:
    """A blind deal where the first leader takes every trick with K K K K Q Q Q; the others shed low cards."""
    command = {"type": "deal"} if dealer is None else {"type": "deal", "dealer": dealer}
    match.play(command)
    seats = match.view()["deal"]["seats"]
    hands = {seats[0]: list(SWEEPER)}
    for i, seat in enumerate(seats[1:]):
        hands[seat] = LOW_CARDS[7 * i:7 * i + 7]
    for _ in range(7):
        for _ in seats:
            seat = match.expected()["seat"]
            assert match.play({"type": "play", "seat": seat, "card": hands[seat].pop(0)})[2] == []
    assert match.view()["deal"]["over"]


# --- the catalogue and the options ---------------------------------------------------------------

def test_catalogue_describes_the_game_and_every_option_in_a_sentence():
    entry = next(game for game in catalogue() if game["game"] == "ogurets")
    assert (entry["min_players"], entry["max_players"], entry["suited"]) == (2, 7, False)
    assert entry["description"].endswith(".")
    options = {option["name"]: option for option in entry["options"]}
    assert {name: option["default"] for name, option in options.items()} == {
        "jokers": 0, "top_card_rule": True, "joker_overtakes_king": False, "threshold": 21, "lives": 2}
    assert options["jokers"]["choices"] == [0, 3]
    for option in options.values():
        assert len(option["description"]) > 20 and option["description"].endswith(".")


@pytest.mark.parametrize("options", [{"jokers": 1}, {"jokers": True}, {"top_card_rule": "yes"}, {"threshold": 0},
                                     {"lives": 0}, {"lives": 11}, {"packets": 2}])
def test_bad_options_are_refused(options):
    with pytest.raises(InvalidInput) as caught:
        new_match(**options)
    assert caught.value.code == "bad_options"


@pytest.mark.parametrize("players", [1, 8])
def test_two_to_seven_players(players):
    with pytest.raises(InvalidInput):
        Match.create("ogurets", [f"P{i}" for i in range(players)])


def test_every_player_starts_with_the_lives_of_the_options():
    match = new_match(3, lives=3)
    assert [p["lives"] for p in match.view()["players"]] == [3, 3, 3]
    assert [(p["score"], p["points"], p["tricks_taken"]) for p in match.view()["players"]] == [(0, 0, 0)] * 3
    assert match.view()["deal"] is None


@pytest.mark.parametrize("card, points", [("A", 14), ("2", 2), ("10", 10), ("J", 11), ("Q", 12), ("K", 13),
                                          ("X", 15)])
def test_card_points(card, points):
    assert card_points(Card(card)) == points


# --- ranks ---------------------------------------------------------------------------------------

def test_the_ace_is_the_lowest_card_yet_worth_14():
    match = new_match()
    match.play({"type": "deal", "dealer": 0, "hands": {"0": ["A", "A", "A", "2", "2", "2", "2"]}})
    play(match, "3")
    assert match.expected()["legal"] == ["A"]  # S cannot reach 3: the ace is their lowest
    refused = reject(match, "2")
    assert (refused.code, refused.forceable) == ("must_play_lowest", True)
    assert refused.message == "S cannot reach 3, so must play their lowest card, and 2 is not it."  # the ace unnamed
    play(match, "A")
    assert match.view()["players"][1]["points"] == 17  # W's 3 took the ace: 3 + 14
    play(match, "A")  # W leads the fourth ace: every card reaches it
    assert match.expected()["legal"] == ["A", "2"]
    play(match, "2")
    players = match.view()["players"]
    assert (players[0]["points"], players[0]["tricks_taken"]) == (16, 1)
    assert match.expected()["seat"] == 0


# --- the top-card rule -----------------------------------------------------------------------------

def test_a_king_on_top_makes_every_later_player_play_their_lowest():
    match = new_match(4)
    match.play({"type": "deal", "dealer": 0, "hands": {"3": ["K", "K", "9", "5", "J", "Q", "6"],
                                                       "0": ["K", "8", "9", "4", "J", "Q", "6"]}})
    play(match, "5", "K")  # W leads 5, N tops it with a king
    assert match.expected() == {
        "type": "play", "seat": 3, "deal": 1, "trick": 1, "rule": "lowest", "top": "K", "legal": ["5"],
        "exhausted": []}
    refused = reject(match, "K")
    assert refused.code == "must_play_lowest"
    assert refused.message == "K tops the trick, so E must play their lowest card, and K is not it."
    play(match, "5")
    assert reject(match, "9").code == "must_play_lowest"  # S, last in the trick, too
    play(match, "4")
    assert match.expected()["seat"] == 2  # N's king took the trick
    assert match.view()["players"][2]["points"] == 5 + 13 + 5 + 4


def test_with_jokers_the_king_still_locks_the_trick_and_a_joker_follows_it_only_as_the_lowest_card():
    """RULES.md §2 (revised): a king as the highest card on the table locks the trick, with or without jokers."""
    match = new_match(3, jokers=3)
    match.play({"type": "deal", "dealer": 0, "hands": {"2": ["X", "K", "2", "5", "J", "Q", "6"],
                                                       "0": ["X", "3", "K", "K", "J", "Q", "A"]}})
    play(match, "K")
    assert (match.expected()["rule"], match.expected()["top"], match.expected()["legal"]) == ("lowest", "K", ["2"])
    refused = reject(match, "X")
    assert refused.code == "must_play_lowest"
    assert refused.message == "K tops the trick, so N must play their lowest card, and X is not it."
    play(match, "2")
    assert match.expected()["legal"] == ["A"]
    assert reject(match, "X").code == "must_play_lowest"
    play(match, "A")
    assert match.expected()["seat"] == 1  # W's king took the trick
    play(match, "X")  # a joker led is the highest card: N must play a joker or the lowest card
    assert (match.expected()["rule"], match.expected()["top"], match.expected()["legal"]) == ("reach", "X", ["X"])


def test_with_jokers_a_blind_joker_on_a_king_is_refused_while_too_few_jokers_are_left_to_be_all_the_hand():
    match = new_match(3, jokers=3)
    match.play({"type": "deal", "dealer": 0})
    play(match, "K")
    refused = reject(match, "X")  # N's joker on the king: all N's other six cards would be jokers
    assert (refused.code, refused.details["case"]) == ("must_play_lowest", "top_card")
    assert match.view()["options"]["joker_overtakes_king"] is False


def test_with_jokers_overtaking_the_king_a_king_can_be_overtaken_and_the_joker_locks_the_trick():
    match = new_match(3, jokers=3, joker_overtakes_king=True)
    match.play({"type": "deal", "dealer": 0, "hands": {"2": ["X", "K", "2", "5", "J", "Q", "6"],
                                                       "0": ["X", "3", "9", "4", "J", "Q", "7"]}})
    play(match, "K")
    assert match.expected()["rule"] == "reach"
    assert match.expected()["legal"] == ["K", "X"]
    refused = reject(match, "2")
    assert refused.code == "must_play_higher"
    play(match, "X")
    assert (match.expected()["rule"], match.expected()["top"], match.expected()["legal"]) == ("lowest", "X", ["3"])
    assert reject(match, "X").code == "must_play_lowest"
    play(match, "3")
    assert match.expected()["seat"] == 2
    assert match.view()["players"][2]["points"] == 13 + 15 + 3


def test_a_fourth_joker_is_refused_and_a_joker_without_jokers_is_no_card():
    match = new_match(4, jokers=3)
    match.play({"type": "deal", "dealer": 0})
    play(match, "X", "X", "X")
    refused = reject(match, "X")
    assert (refused.code, refused.forceable) == ("card_already_played", False)
    plain = new_match(2)
    plain.play({"type": "deal", "dealer": 0})
    with pytest.raises(InvalidInput) as caught:
        plain.decide({"type": "play", "seat": 1, "card": "X"})
    assert caught.value.code == "bad_card"


def test_without_the_top_card_rule_a_king_must_be_reached():
    match = new_match(top_card_rule=False)
    match.play({"type": "deal", "dealer": 0, "hands": {"0": ["K", "2", "5", "8", "J", "Q", "6"]}})
    play(match, "K")
    assert (match.expected()["rule"], match.expected()["legal"]) == ("reach", ["K"])
    refused = reject(match, "2")
    assert refused.code == "must_play_higher"
    assert refused.message == "S holds K or higher and must play it, not 2."
    play(match, "K")
    assert match.expected()["seat"] == 0  # the later of the equal kings takes the trick


# --- tricks ----------------------------------------------------------------------------------------

def test_the_latest_of_equal_highest_cards_takes_the_trick_and_leads():
    match = new_match(4)
    match.play({"type": "deal", "dealer": 0})
    play(match, "7", "9", "9", "3")  # W, N, E, S: E's nine came after N's
    trick = match.view()["deal"]["tricks"][0]
    assert trick["winner"] == 3
    assert match.expected()["seat"] == 3
    assert match.view()["deal"]["taken"]["3"] == {"tricks": [1], "cards": ["7", "9", "9", "3"], "points": 28}
    assert [p["tricks_taken"] for p in match.view()["players"]] == [0, 0, 0, 1]


def test_the_counts_a_view_shows_come_back_with_an_undo():
    """Cards left, tricks taken and the ranks gone are kept as the cards are played: an undo of the trick's last card
    shows them as before it, and playing it again as after it."""
    match = new_match(4)
    match.play({"type": "deal", "dealer": 0})
    play(match, "7", "7", "7")
    before = match.view()
    play(match, "7")
    after = match.view()
    assert after["deal"]["cards_left"] == {"1": 6, "2": 6, "3": 6, "0": 6}
    assert after["deal"]["taken"]["0"]["tricks"] == [1] and after["expected"]["exhausted"] == ["7"]
    assert [p["tricks_taken"] for p in after["players"]] == [1, 0, 0, 0]

    match.play({"type": "undo"})
    assert counts(match.view()) == counts(before)
    assert before["expected"]["exhausted"] == [] and before["deal"]["cards_left"]["0"] == 7

    play(match, "7")
    assert counts(match.view()) == counts(after)


def counts(view: dict) -> tuple:
    return (view["deal"]["cards_left"], view["deal"]["taken"], view["expected"]["exhausted"],
            [(p["points"], p["tricks_taken"]) for p in view["players"]])


# --- known hands -------------------------------------------------------------------------------------

def test_known_hands_refuse_a_card_not_dealt_and_a_card_below_the_top():
    match = new_match()
    match.play({"type": "deal", "dealer": 0, "hands": {"0": ["2", "5", "8", "9", "J", "Q", "6"]}})
    play(match, "7")
    not_held = reject(match, "K")
    assert (not_held.code, not_held.forceable) == ("card_not_in_hand", True)
    below = reject(match, "5")
    assert below.code == "must_play_higher"
    assert below.message == "S holds 7 or higher and must play it, not 5."
    assert below.details == {"card": "5", "top": "7"}


def test_a_play_forced_through_is_a_finding_proved_by_itself():
    match = new_match()
    match.play({"type": "deal", "dealer": 0, "hands": {"0": ["2", "5", "8", "9", "J", "Q", "6"]}})
    play(match, "7")
    event, warnings, findings = match.play({"type": "play", "seat": 0, "card": "5", "force": True})
    assert event["illegal"]["code"] == "must_play_higher"
    assert warnings[0]["code"] == "must_play_higher"
    assert [(f.seq, f.proof_seq, f.code, f.trick) for f in findings] == [(event["seq"], event["seq"],
                                                                         "must_play_higher", 1)]


def test_the_hands_given_must_fit_the_deck():
    match = new_match(2)
    with pytest.raises(InvalidInput) as caught:
        match.decide({"type": "deal", "dealer": 0, "hands": {"0": ["X", "2", "3", "4", "5", "6", "7"]}})
    assert caught.value.code == "bad_card"  # no jokers in this deck
    with pytest.raises(InvalidInput) as caught:
        match.decide({"type": "deal", "dealer": 0, "hands": {"0": ["2", "2", "2", "2", "2", "6", "7"]}})
    assert caught.value.code == "impossible_hands"
    with pytest.raises(InvalidInput) as caught:
        match.decide({"type": "deal", "dealer": 0, "hands": {"0": ["2", "3", "4", "5", "6", "7"]}})
    assert caught.value.code == "bad_hands"


# --- blind plays and their findings ----------------------------------------------------------------

def test_a_blind_card_below_the_top_is_found_when_a_lower_card_follows():
    match = new_match()
    match.play({"type": "deal", "dealer": 0})
    assert play(match, "9", "5") == []  # S says: I cannot reach 9, and 5 is my lowest
    findings = play(match, "2", "3")
    assert [(f.seat, f.code, f.seq, f.proof_seq, f.trick) for f in findings] == [(0, "must_play_lowest", 3, 5, 1)]
    assert findings[0].message == "S played 5 on 9 in trick 1 as their lowest card, but later played 3."


def test_a_blind_card_below_the_top_is_found_when_a_reaching_card_follows():
    match = new_match()
    match.play({"type": "deal", "dealer": 0})
    play(match, "9", "5", "2")
    findings = play(match, "J")
    assert [(f.code, f.seq) for f in findings] == [("must_play_higher", 3)]
    assert "held J (played later), which reaches 9" in findings[0].message


@pytest.mark.parametrize("top_card_rule, found", [(True, []), (False, ["must_play_higher"])])
def test_under_a_king_holding_a_king_is_no_fault_only_with_the_top_card_rule(top_card_rule, found):
    match = new_match(top_card_rule=top_card_rule)
    match.play({"type": "deal", "dealer": 0})
    play(match, "K", "8", "2")  # W leads K, S plays 8, W leads 2
    assert [f.code for f in play(match, "K")] == found


def test_under_a_joker_a_lower_card_later_is_found():
    match = new_match(jokers=3)
    match.play({"type": "deal", "dealer": 0})
    assert play(match, "X", "8", "2", "K") == []  # the joker locks the trick: the later king is no fault
    findings = play(match, "3", "4")
    assert [(f.code, f.seq) for f in findings] == [("must_play_lowest", 3)]
    assert "X in trick 1 as their lowest card" in findings[0].message


# --- refused because it cannot be -------------------------------------------------------------------

def test_a_rank_a_fifth_time_is_refused():
    match = new_match(4)
    match.play({"type": "deal", "dealer": 0})
    play(match, "7", "7", "7", "7")
    refused = reject(match, "7")
    assert (refused.code, refused.forceable) == ("card_already_played", False)
    assert match.expected()["exhausted"] == ["7"]


def test_out_of_turn_is_refused_and_cannot_be_forced():
    match = new_match(3)
    match.play({"type": "deal", "dealer": 0})
    with pytest.raises(Rejected) as caught:
        match.decide({"type": "play", "seat": 2, "card": "5", "force": True})
    assert (caught.value.code, caught.value.forceable) == ("not_your_turn", False)
    assert "W's turn" in caught.value.message


# --- scoring, lives and the end of the match -------------------------------------------------------

def take_one_trick_deal(match: Match, high: str) -> None:
    """Two players, S deals: W takes one trick, S's `high` under W's jack; S takes the other six (40 points)."""
    match.play({"type": "deal", "dealer": 0, "hands": {"1": ["J", "2", "2", "2", "2", "3", "3"],
                                                       "0": [high, "4", "4", "4", "4", "5", "5"]}})
    for lead, follow in [("2", "4"), (high, "J"), ("2", "4"), ("4", "2"), ("4", "2"), ("5", "3"), ("5", "3")]:
        assert play(match, lead, follow) == []


@pytest.mark.parametrize("high, threshold, points, lives", [
    ("10", 21, 21, 1),  # exactly 21 costs a life
    ("9", 21, 20, 2),  # 20 does not
    ("9", 20, 20, 1),
    ("10", 22, 21, 2),
])
def test_a_life_is_lost_at_the_threshold_or_more(high, threshold, points, lives):
    match = new_match(2, threshold=threshold)
    take_one_trick_deal(match, high)
    players = match.view()["players"]
    assert (players[1]["points"], players[1]["score"], players[1]["lives"]) == (points, points, lives)
    assert (players[0]["points"], players[0]["lives"], players[0]["tricks_taken"]) == (40, 1, 6)
    result = match.view()["deal"]["result"]
    assert result == {"points": {"1": points, "0": 40}, "lost_life": [0, 1] if lives == 1 else [0], "out": []}
    assert match.view()["history"] == [{"deal": 1, "dealer": 0, "scores": [40, points], "lives": [1, lives]}]
    assert match.expected() == {"type": "deal", "dealer": 1, "deal": 2, "cards": 7}


def test_points_count_per_deal():
    match = new_match(2, lives=3)
    take_one_trick_deal(match, "10")
    match.play({"type": "deal"})
    assert [(p["score"], p["points"], p["tricks_taken"]) for p in match.view()["players"]] == [(0, 0, 0)] * 2
    assert match.view()["deal"]["taken"] == {seat: {"tricks": [], "cards": [], "points": 0} for seat in ("0", "1")}
    assert [p["lives"] for p in match.view()["players"]] == [2, 2]


def test_everyone_out_at_once_the_fewest_points_in_that_deal_win():
    match = new_match(2, stake="1", lives=1)
    take_one_trick_deal(match, "10")  # W 21, S 40: both lose their only life
    view = match.view()
    assert view["status"] == "finished"
    assert view["deal"]["result"]["out"] == [0, 1]
    assert [(p["seat"], p["out"], p["place"]) for p in view["players"]] == [(0, True, 2), (1, True, 1)]
    assert view["settlement"]["transfers"] == [{"from": 0, "to": 1, "amount": "2.00"}]
    assert match.expected() is None


def test_everyone_out_at_once_equal_fewest_points_share_the_win_and_the_rest_the_places_after():
    match = new_match(3, stake="1", lives=1)
    match.play({"type": "deal", "dealer": 0})
    # every trick is three cards of one rank, so its last player takes it: E 4+5+8, W 3+6, N 2+7 (times three)
    for rank in ("4", "2", "3", "5", "7", "6", "8"):
        assert play(match, rank, rank, rank) == []
    view = match.view()
    assert [p["points"] for p in view["players"]] == [51, 27, 27]
    assert [p["place"] for p in view["players"]] == [3, 1, 1]
    money = {p["seat"]: p["net"] for p in view["settlement"]["players"]}
    assert money == {0: "-4.00", 1: "2.00", 2: "2.00"}
    assert sum(Decimal(net) for net in money.values()) == 0


def test_the_last_two_players_play_until_one_loses_their_last_life():
    match = new_match(2, stake="0.50")
    sweep(match, dealer=0)  # S deals, W leads and takes every trick
    sweep(match)  # W deals, S leads and takes every trick
    assert [p["lives"] for p in match.view()["players"]] == [1, 1]
    assert match.view()["status"] == "playing"
    sweep(match)  # S deals, W leads, takes every trick and loses their last life
    view = match.view()
    assert view["status"] == "finished"
    assert [(p["lives"], p["out"], p["place"]) for p in view["players"]] == [(1, False, 1), (0, True, 2)]
    assert view["settlement"]["transfers"] == [{"from": 1, "to": 0, "amount": "1.00"}]
    with pytest.raises(Rejected) as caught:
        match.decide({"type": "deal"})
    assert caught.value.code == "match_finished"


def test_the_dealer_rotates_clockwise_skipping_players_who_are_out():
    match = new_match(4, lives=1)
    sweep(match, dealer=0)  # W leads, takes everything, and is out
    assert [p["out"] for p in match.view()["players"]] == [False, True, False, False]
    assert match.expected()["dealer"] == 2
    for dealer, code in [(1, "player_out"), (3, "wrong_dealer")]:
        with pytest.raises(Rejected) as caught:
            match.decide({"type": "deal", "dealer": dealer})
        assert caught.value.code == code
    with pytest.raises(Rejected) as caught:
        match.decide({"type": "deal", "dealer": 2, "hands": {"1": LOW_CARDS[:7]}})
    assert caught.value.code == "player_out"
    match.play({"type": "deal"})
    with pytest.raises(Rejected) as caught:
        match.decide({"type": "play", "seat": 1, "card": "5"})
    assert caught.value.code == "player_out"
    assert caught.value.message == "W is out of the match."
    match.play({"type": "undo"})
    sweep(match)  # the rule's dealer: N; E leads and is out
    assert (match.view()["dealer"], match.view()["deal"]["seats"]) == (2, [3, 0, 2])
    assert match.expected()["dealer"] == 0
    sweep(match)  # S deals, N leads and is out: S is the last player left
    view = match.view()
    assert [p["place"] for p in view["players"]] == [1, 4, 2, 3]
    assert [h["lives"] for h in view["history"]] == [[1, 0, 1, 1], [1, 0, 1, 0], [1, 0, 0, 0]]
