"""Ogórek międzynarodowy (RULES.md §1): the seed's worked example and every rule and option."""

import json

import pytest
from ogorek_helpers import (
    SEED_PLAYERS,
    SEED_TRICKS,
    deal_and_finish,
    finish_deal,
    play,
    play_in_turn,
    seed_match,
)
from record_logs import LOGS

from referee import InvalidInput, Match, Rejected, catalogue


def names(seats):
    return [SEED_PLAYERS[seat] for seat in seats]


# --- the seed's worked example ---------------------------------------------------------------------

@pytest.mark.parametrize("known_hands", [False, True])
def test_seed_example_trick_by_trick(known_hands):
    match = seed_match(known_hands)
    leaders = []
    for trick in SEED_TRICKS:
        assert match.expected()["seat"] == SEED_PLAYERS.index(trick[0][0])
        leaders.append(match.state.deal.trick.lead)
        for who, card in trick:
            assert match.expected()["seat"] == SEED_PLAYERS.index(who)
            _, warnings, findings = play(match, who, card)
            assert warnings == [] and findings == []
    assert names(leaders) == ["W", "S", "W", "E", "N", "N"]
    view = match.view()
    assert [p["score"] for p in view["players"]] == [0, 0, 0, 9]
    assert view["deal"]["result"] == {"losers": [3], "card": "9", "points": 9}
    assert view["deal"]["over"] is True
    assert [t["winner"] for t in view["deal"]["tricks"]] == [0, 1, 3, 2, 2, 3]
    assert view["findings"] == []
    assert view["status"] == "playing"
    assert match.expected() == {"type": "deal", "dealer": 1, "deal": 2, "cards": 6}


def play_seed_until_w_in_trick_5(match):
    for trick in SEED_TRICKS[:4]:
        for who, card in trick:
            play(match, who, card)
    for who, card in SEED_TRICKS[4][:3]:
        play(match, who, card)


def test_seed_with_known_hands_w_must_play_4_in_trick_5():
    match = seed_match(known_hands=True)
    play_seed_until_w_in_trick_5(match)
    assert match.expected()["legal"] == ["4"]
    with pytest.raises(Rejected) as rejected:
        play(match, "W", "6")
    assert rejected.value.code == "must_play_lowest"
    assert rejected.value.forceable is True
    assert rejected.value.seat == 1
    assert rejected.value.message == "W cannot reach 10, so must play their lowest card, and 6 is not it."
    assert rejected.value.details == {"card": "6", "top": "10", "case": "cannot_reach"}  # not the 4 that W holds
    event, warnings, findings = play(match, "W", "4")
    assert event["card"] == "4" and warnings == [] and findings == []


def test_seed_blind_w_plays_6_in_trick_5_and_is_found_when_4_shows():
    match = seed_match()
    play_seed_until_w_in_trick_5(match)
    six, warnings, findings = play(match, "W", "6")
    assert warnings == [] and findings == []
    found = play_in_turn(match, ["5", "9", "7"])
    assert found == []
    four, _, findings = play(match, "W", "4")
    assert [f.as_dict() for f in findings] == [{
        "seq": six["seq"],
        "seat": 1,
        "code": "must_play_lowest",
        "message": "W played 6 on 10 in trick 5 as their lowest card, but later played 4.",
        "proof_seq": four["seq"],
        "deal": 1,
        "trick": 5,
        "details": {"card": "6", "top": "10", "trick": 5, "later": "4", "case": "found"},
    }]
    view = match.view()
    assert view["findings"] == [findings[0].as_dict()]
    assert view["deal"]["over"] is True
    assert [p["score"] for p in view["players"]] == [0, 0, 0, 9]


def test_packets_change_nothing_the_referee_checks():
    results = []
    for packets in (2, 3):
        match = Match.create("ogorek", SEED_PLAYERS, {"packets": packets})
        match.play({"type": "deal", "dealer": 0})
        for trick in SEED_TRICKS:
            for who, card in trick:
                play(match, who, card)
        view = match.view()
        results.append((view["players"], view["deal"], view["findings"]))
    assert results[0] == results[1]


def test_the_catalogue_lists_every_option_with_its_default():
    entry = next(game for game in catalogue() if game["game"] == "ogorek")
    assert (entry["min_players"], entry["max_players"], entry["suited"]) == (2, 8, False)
    assert {option["name"]: option["default"] for option in entry["options"]} == {
        "packets": 2, "ace_penalty": 21, "limit": 21, "cut_penalty": 5, "all_out": "share"}
    assert entry["events"] == ["deal", "end", "penalty", "play"]


# --- play: equal or higher than the highest so far, else the lowest ---------------------------------

def judge(table, hand, card):
    """Seat len(table) holds `hand` (known) after seats 0.. have played `table` blind; it plays `card`."""
    match = Match.create("ogorek", ["A", "B", "C", "D"])
    seat = len(table)
    match.play({"type": "deal", "dealer": 3, "hands": {str(seat): hand}})
    play_in_turn(match, table)
    legal = match.expected()["legal"]
    try:
        play(match, seat, card)
    except Rejected as rejected:
        assert rejected.forceable
        return legal, rejected.code
    return legal, None


H = ["8", "8", "7", "6", "4", "4"]


@pytest.mark.parametrize(
    "table, hand, card, legal, code",
    [
        ([], H, "7", ["4", "6", "7", "8"], None),  # the lead is free
        (["10", "6"], H, "4", ["4"], None),
        (["10", "6"], H, "8", ["4"], "must_play_lowest"),  # 8 beats the previous 6, not the highest 10
        (["10", "6"], H, "6", ["4"], "must_play_lowest"),
        (["6", "10"], H, "8", ["4"], "must_play_lowest"),
        (["7"], H, "7", ["7", "8"], None),  # equal is enough
        (["7"], H, "8", ["7", "8"], None),
        (["7"], H, "4", ["7", "8"], "must_play_higher"),
        (["7"], H, "6", ["7", "8"], "must_play_higher"),
        (["10", "2"], ["10", "A", "3", "2", "5", "5"], "10", ["10", "A"], None),
        (["10", "2"], ["10", "A", "3", "2", "5", "5"], "A", ["10", "A"], None),
        (["10", "2"], ["10", "A", "3", "2", "5", "5"], "2", ["10", "A"], "must_play_higher"),
        (["A"], ["A", "2", "3", "4", "5", "6"], "A", ["A"], None),
        (["A"], ["A", "2", "3", "4", "5", "6"], "2", ["A"], "must_play_higher"),
        (["A", "A", "2"], ["K", "Q", "J", "10", "9", "3"], "3", ["3"], None),
        (["A", "A", "2"], ["K", "Q", "J", "10", "9", "3"], "K", ["3"], "must_play_lowest"),
        (["9"], H, "K", ["4"], "card_not_in_hand"),
    ],
)
def test_equal_or_higher_than_the_highest_so_far_else_the_lowest(table, hand, card, legal, code):
    assert judge(table, hand, card) == (legal, code)


def test_must_play_higher_names_the_top_card_and_no_card_of_the_hand():
    with pytest.raises(Rejected, match=r"^C holds 7 or higher and must play it, not 4\.$"):
        match = Match.create("ogorek", ["A", "B", "C", "D"])
        match.play({"type": "deal", "dealer": 3, "hands": {"2": H}})
        play_in_turn(match, ["5", "7"])
        play(match, 2, "4")


@pytest.mark.parametrize(
    "cards, leader",
    [
        (["K", "K", "2", "3"], 1),  # equal highest: the latest leads
        (["5", "5", "5", "5"], 3),
        (["2", "A", "A", "3"], 2),
        (["9", "10", "8", "10"], 3),
        (["A", "2", "3", "4"], 0),
        (["3", "4", "4", "2"], 2),
        (["J", "Q", "K", "A"], 3),
    ],
)
def test_the_latest_of_equal_highest_cards_leads_the_next_trick(cards, leader):
    match = Match.create("ogorek", ["A", "B", "C", "D"])
    match.play({"type": "deal", "dealer": 3})
    play_in_turn(match, cards)
    assert match.view()["deal"]["tricks"][0]["winner"] == leader
    assert match.state.deal.trick.lead == leader
    assert match.expected()["seat"] == leader


# --- the sixth trick and the penalty values -------------------------------------------------------

@pytest.mark.parametrize(
    "last, ace_penalty, scores",
    [
        ({0: "K", 1: "K", 2: "5", 3: "9"}, 21, [13, 13, 0, 0]),  # a tie: each pays
        ({0: "7", 1: "7", 2: "7", 3: "7"}, 21, [7, 7, 7, 7]),
        ({0: "2", 1: "3", 2: "J", 3: "10"}, 21, [0, 0, 11, 0]),
        ({0: "Q", 1: "3", 2: "J", 3: "10"}, 21, [12, 0, 0, 0]),
        ({0: "2", 1: "3", 2: "4", 3: "10"}, 21, [0, 0, 0, 10]),
        ({0: "A", 1: "K", 2: "Q", 3: "J"}, 21, [21, 0, 0, 0]),
        ({0: "A", 1: "K", 2: "Q", 3: "J"}, 1, [1, 0, 0, 0]),  # the ace variant: still highest in play
        ({0: "A", 1: "A", 2: "2", 3: "J"}, 1, [1, 1, 0, 0]),
        ({0: "A", 1: "A", 2: "2", 3: "J"}, 21, [21, 21, 0, 0]),
    ],
)
def test_sixth_trick_highest_last_card_pays_its_value(last, ace_penalty, scores):
    match = Match.create("ogorek", ["A", "B", "C", "D"], {"ace_penalty": ace_penalty})
    assert deal_and_finish(match, last, dealer=0) == []
    assert match.state.scores == scores
    result = match.view()["deal"]["result"]
    assert result["losers"] == [seat for seat, score in enumerate(scores) if score]
    assert result["points"] == max(scores)


def test_two_players_play_six_tricks_of_two_cards():
    match = Match.create("ogorek", ["A", "B"])
    deal_and_finish(match, {0: "3", 1: "J"}, dealer=1)
    assert match.state.scores == [0, 11]
    assert match.view()["history"] == [{"deal": 1, "dealer": 1, "scores": [0, 11], "lives": [None, None]}]
    assert match.expected()["dealer"] == 0


# --- limit and penalties ------------------------------------------------------------------------------

@pytest.mark.parametrize(
    "limit, before, last, total, out",
    [
        (21, 12, "9", 21, False),  # the limit itself is still in
        (21, 12, "10", 22, True),
        (21, 0, "A", 21, False),
        (21, 1, "A", 22, True),
        (30, 12, "10", 22, False),
        (30, 17, "K", 30, False),
        (30, 18, "K", 31, True),
        (1, 0, "5", 5, True),
    ],
)
def test_out_only_when_minus_points_exceed_the_limit(limit, before, last, total, out):
    match = Match.create("ogorek", ["A", "B", "C"], {"limit": limit})
    if before:
        match.play({"type": "penalty", "seat": 0, "points": before})
    deal_and_finish(match, {0: last, 1: "2", 2: "3"}, dealer=2)
    assert match.state.scores[0] == total
    assert match.view()["players"][0]["out"] is out


@pytest.mark.parametrize("options, points", [({}, 5), ({"cut_penalty": 7}, 7), ({"cut_penalty": 30}, 30)])
def test_penalty_without_points_is_the_cut_penalty(options, points):
    match = Match.create("ogorek", ["A", "B", "C"], options)
    event, _, _ = match.play({"type": "penalty", "seat": 1})
    assert event == {"type": "penalty", "seat": 1, "points": points, "seq": 1, "format": 2}
    assert match.state.scores == [0, points, 0]


@pytest.mark.parametrize(("command", "recorded"), [
    ({"points": 3}, {}),
    ({"points": 3, "reason": None}, {}),
    ({"points": 3, "reason": "  "}, {}),
    ({"reason": "cut the deck"}, {"reason": "cut the deck"}),
    ({"points": 3, "reason": " swore at the dealer "}, {"reason": "swore at the dealer"}),
])
def test_a_penalty_records_its_reason_only_when_one_is_given(command, recorded):
    match = Match.create("ogorek", ["A", "B", "C"])
    event, _, _ = match.play({"type": "penalty", "seat": 1, **command})
    assert {key: value for key, value in event.items() if key == "reason"} == recorded


def test_penalty_with_its_own_points_and_reason():
    match = Match.create("ogorek", ["A", "B", "C"])
    event, _, _ = match.play({"type": "penalty", "seat": 2, "points": 3, "reason": "looked at the stock"})
    assert (event["points"], event["reason"]) == (3, "looked at the stock")
    assert match.state.scores == [0, 0, 3]


def test_penalty_between_deals_puts_a_player_out_at_once():
    match = Match.create("ogorek", ["A", "B", "C"])
    deal_and_finish(match, {0: "2", 1: "3", 2: "9"}, dealer=0)
    match.play({"type": "penalty", "seat": 1, "points": 22})
    assert match.state.out == [False, True, False]
    assert match.view()["players"][1]["place"] == 3
    # B would deal next: B is skipped, and plays no more
    assert match.expected()["dealer"] == 2
    match.play({"type": "deal"})
    assert match.state.deal.seats == [0, 2]


def test_penalty_during_a_deal_counts_after_the_deal():
    match = Match.create("ogorek", ["A", "B", "C"])
    match.play({"type": "deal", "dealer": 0})
    play_in_turn(match, ["2", "2"])
    match.play({"type": "penalty", "seat": 1, "points": 22})
    assert match.state.scores[1] == 22
    assert match.state.out == [False, False, False]
    assert match.expected()["seat"] == 0  # the deal goes on, B still in it
    play_in_turn(match, ["2"])
    for rank in ["3", "4", "5", "6"]:
        play_in_turn(match, [rank] * 3)
    assert match.expected()["seat"] == 2
    play_in_turn(match, ["7", "8", "9"])  # C, A, B: B shows the highest
    assert match.state.out == [False, True, False]
    assert match.state.scores == [0, 31, 0]


def test_penalty_before_the_first_deal_counts_at_once():
    match = Match.create("ogorek", ["A", "B", "C"])
    match.play({"type": "penalty", "seat": 0, "points": 25})
    assert match.state.out == [True, False, False]
    match.play({"type": "deal"}, lot=lambda n: 0)
    assert match.state.deal.dealer == 1


def test_the_history_lists_each_penalty_in_the_entry_whose_scores_count_it():
    """Issue 30: a penalty between deals is counted in the next deal's entry, one during a deal in that deal's;
    the entry lists it with its seq, seat, points and reason (when given), and its figures stay the same."""
    match = Match.create("ogorek", ["A", "B", "C"])
    deal_and_finish(match, {0: "2", 1: "3", 2: "9"}, dealer=0)
    cut, _, _ = match.play({"type": "penalty", "seat": 1, "reason": "cut the deck"})
    match.play({"type": "deal"})
    play_in_turn(match, ["2"])
    during, _, _ = match.play({"type": "penalty", "seat": 2, "points": 2})
    play_in_turn(match, ["2", "2"])
    for rank in ["3", "4", "5", "6"]:
        play_in_turn(match, [rank] * 3)
    play_in_turn(match, ["7", "8", "9"])
    deal_and_finish(match, {0: "3", 1: "4", 2: "2"})
    history = match.view()["history"]
    assert [entry["scores"] for entry in history] == [[0, 0, 9], [0, 5, 20], [0, 9, 20]]
    assert [entry.get("penalties") for entry in history] == [
        None,
        [{"seq": cut["seq"], "seat": 1, "points": 5, "reason": "cut the deck"},
         {"seq": during["seq"], "seat": 2, "points": 2}],
        None,
    ]
    assert [p["score"] for p in match.view()["players"]] == [0, 9, 20]
    match.play({"type": "undo"})  # the last card of the last deal, folded again: the penalties stay where they were
    assert len(match.view()["history"]) == 2 and match.view()["history"][1]["penalties"][0]["reason"] == "cut the deck"


def test_a_recorded_match_keeps_every_figure_of_its_history_and_lists_its_penalties_where_they_counted():
    """The recorded log 002 (penalties at seq 1 and 30, recorded before the history listed them) replays to the
    same entries, figure by figure, totals included, each penalty in the entry of the deal that followed it."""
    log = json.loads((LOGS / "ogorek" / "002-table.json").read_text(encoding="utf-8"))
    view = Match.replay(log["header"], log["events"]).view()
    stored = log["final"]["history"]
    assert [{k: v for k, v in entry.items() if k != "penalties"} for entry in view["history"]] == stored
    assert [p["score"] for p in view["players"]] == [p["score"] for p in log["final"]["players"]]
    listed = {penalty["seq"]: entry["deal"] for entry in view["history"] for penalty in entry.get("penalties", [])}
    undone = {event["undoes"] for event in log["events"] if event["type"] == "undo"}
    deals = [event for event in log["events"] if event["type"] == "deal" and event["seq"] not in undone]
    following = {seq: next(n for n, deal in enumerate(deals, 1) if deal["seq"] > seq) for seq in (1, 30)}
    assert listed == following


# --- dealers -------------------------------------------------------------------------------------------

def test_dealer_rotates_clockwise_skipping_players_who_are_out():
    match = Match.create("ogorek", ["A", "B", "C", "D"])
    deal_and_finish(match, {0: "2", 1: "3", 2: "4", 3: "5"}, dealer=0)
    match.play({"type": "penalty", "seat": 1, "points": 22})
    dealers = []
    for _ in range(4):
        dealers.append(match.expected()["dealer"])
        deal_and_finish(match, {0: "2", 2: "3", 3: "4"})
        assert match.state.deal.dealer == dealers[-1]
    assert dealers == [2, 3, 0, 2]
    assert match.state.deal.seats == [3, 0, 2]  # the player left of the dealer leads


def test_a_deal_that_names_the_wrong_dealer_is_rejected():
    match = Match.create("ogorek", ["A", "B", "C"])
    deal_and_finish(match, {0: "2", 1: "3", 2: "4"}, dealer=0)
    with pytest.raises(Rejected) as rejected:
        match.play({"type": "deal", "dealer": 2})
    assert rejected.value.code == "wrong_dealer"
    assert rejected.value.forceable is True
    assert rejected.value.message == "B deals now (clockwise from A), not C."
    assert match.seq == 19  # the first deal and its 18 plays; nothing more recorded


def test_a_forced_wrong_dealer_is_recorded_with_a_warning_and_rotation_goes_on_from_it():
    match = Match.create("ogorek", ["A", "B", "C"])
    deal_and_finish(match, {0: "2", 1: "3", 2: "4"}, dealer=0)
    event, warnings, findings = match.play({"type": "deal", "dealer": 2, "force": True})
    assert event["dealer"] == 2
    assert [w["code"] for w in warnings] == ["wrong_dealer"]
    assert event["warnings"] == warnings
    assert findings == []
    assert match.expected()["seat"] == 0
    finish_deal(match, {0: "2", 1: "3", 2: "4"})
    assert match.expected()["dealer"] == 0


@pytest.mark.parametrize("force", [False, True])
def test_naming_the_right_dealer_is_fine(force):
    match = Match.create("ogorek", ["A", "B", "C"])
    deal_and_finish(match, {0: "2", 1: "3", 2: "4"}, dealer=0)
    event, warnings, _ = match.play({"type": "deal", "dealer": 1, "force": force})
    assert event == {"type": "deal", "dealer": 1, "seq": 20, "format": 2}  # nothing was forced
    assert warnings == []


@pytest.mark.parametrize("drawn, dealer, leader", [(0, 0, 1), (1, 1, 2), (2, 2, 0)])
def test_first_dealer_by_lot(drawn, dealer, leader):
    match = Match.create("ogorek", ["A", "B", "C"])
    bounds = []

    def lot(bound):
        bounds.append(bound)
        return drawn

    event, _, _ = match.play({"type": "deal"}, lot=lot)
    assert bounds == [3]
    assert event["dealer"] == dealer
    assert match.expected()["seat"] == leader
    # the draw is stored: replaying the log needs no lot
    assert Match.replay(match.header(), match.log).view() == match.view()


def test_first_dealer_needs_a_name_or_a_lot():
    match = Match.create("ogorek", ["A", "B", "C"])
    with pytest.raises(InvalidInput) as error:
        match.play({"type": "deal"})
    assert error.value.code == "dealer_required"


def test_any_first_dealer_may_be_named():
    match = Match.create("ogorek", ["A", "B", "C"])
    assert match.play({"type": "deal", "dealer": 2})[0]["dealer"] == 2


# --- elimination, places and the end of the match ------------------------------------------------------

def places(match):
    return [p["place"] for p in match.view()["players"]]


def test_players_out_in_the_same_deal_share_their_places():
    match = Match.create("ogorek", ["A", "B", "C", "D"], stake="1")
    match.play({"type": "penalty", "seat": 0, "points": 15})
    match.play({"type": "penalty", "seat": 2, "points": 15})
    deal_and_finish(match, {0: "9", 1: "2", 2: "9", 3: "3"}, dealer=3)
    assert match.state.out == [True, False, True, False]
    assert places(match) == [3, None, 3, None]  # A and C share 3rd and 4th
    match.play({"type": "penalty", "seat": 1, "points": 22})
    view = match.view()
    assert view["status"] == "finished"
    assert places(match) == [3, 2, 3, 1]
    assert match.expected() is None
    money = view["settlement"]
    assert [(p["paid"], p["received"]) for p in money["players"]] == [
        ("5.00", "0.00"), ("2.00", "0.00"), ("5.00", "0.00"), ("0.00", "12.00")]
    assert money["pool"] == "12.00"


@pytest.mark.parametrize(
    "all_out, totals, places_after, nets",
    [
        ("share", (15, 15), [3, 1, 1], ["-4.00", "2.00", "2.00"]),
        ("share", (15, 10), [3, 1, 1], ["-4.00", "2.00", "2.00"]),  # totals do not matter
        ("lowest_total", (15, 10), [3, 2, 1], ["-4.00", "-2.00", "6.00"]),
        ("lowest_total", (10, 15), [3, 1, 2], ["-4.00", "6.00", "-2.00"]),
        ("lowest_total", (15, 15), [3, 1, 1], ["-4.00", "2.00", "2.00"]),  # equal totals share
    ],
)
def test_everyone_left_goes_out_in_the_same_deal(all_out, totals, places_after, nets):
    match = Match.create("ogorek", ["A", "B", "C"], {"all_out": all_out}, stake="1")
    match.play({"type": "penalty", "seat": 0, "points": 22})
    match.play({"type": "penalty", "seat": 1, "points": totals[0]})
    match.play({"type": "penalty", "seat": 2, "points": totals[1]})
    deal_and_finish(match, {1: "K", 2: "K"}, dealer=1)
    view = match.view()
    assert view["status"] == "finished"
    assert places(match) == places_after
    assert [p["net"] for p in view["settlement"]["players"]] == nets


def test_two_players_tied_at_the_limit_play_on():
    match = Match.create("ogorek", ["A", "B"], stake="0.50")
    deal_and_finish(match, {0: "A", 1: "A"}, dealer=0)
    deal_and_finish(match, {0: "2", 1: "3"})
    assert match.state.scores == [21, 24] and match.state.out == [False, True]
    assert match.view()["status"] == "finished"
    assert places(match) == [1, 2]
    assert [p["net"] for p in match.view()["settlement"]["players"]] == ["1.00", "-1.00"]


def test_the_last_player_left_wins():
    match = Match.create("ogorek", ["A", "B", "C"], stake="1")
    deal_and_finish(match, {0: "A", 1: "2", 2: "3"}, dealer=0)
    deal_and_finish(match, {0: "3", 1: "2", 2: "2"})
    assert match.state.out == [True, False, False]
    assert places(match) == [3, None, None]
    match.play({"type": "penalty", "seat": 2, "points": 22})
    assert places(match) == [3, 1, 2]
    assert match.view()["settlement"]["transfers"] == [
        {"from": 0, "to": 1, "amount": "4.00"}, {"from": 2, "to": 1, "amount": "2.00"}]


def test_the_table_may_end_the_match_and_those_in_share_the_win():
    match = Match.create("ogorek", ["A", "B", "C"], stake="1")
    deal_and_finish(match, {0: "A", 1: "2", 2: "3"}, dealer=0)
    deal_and_finish(match, {0: "3", 1: "2", 2: "2"})
    match.play({"type": "end"})
    assert match.view()["status"] == "finished"
    assert places(match) == [3, 1, 1]
    assert [p["net"] for p in match.view()["settlement"]["players"]] == ["-4.00", "2.00", "2.00"]


def test_a_penalty_during_an_unfinished_deal_counts_when_the_table_ends_the_match():
    match = Match.create("ogorek", ["A", "B", "C"], stake="1")
    match.play({"type": "deal", "dealer": 0})
    match.play({"type": "penalty", "seat": 2, "points": 22})
    assert match.state.out == [False, False, False]  # the deal is finished first
    match.play({"type": "end"})
    assert places(match) == [1, 1, 3]
    assert [p["net"] for p in match.view()["settlement"]["players"]] == ["2.00", "2.00", "-4.00"]
