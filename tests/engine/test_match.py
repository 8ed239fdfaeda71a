"""A match is the fold of its events: undo, replay, the log, forced plays, the header."""

import gc
import random
from collections import Counter
from decimal import Decimal

import pytest
from game_tables import SIMULATORS
from ogorek_helpers import SEED_TRICKS, deal_and_finish, play, play_in_turn, seed_match

from referee import GAMES, InvalidInput, Match, Rejected


def undo(match):
    return match.play({"type": "undo"})[0]


def play_seed(match, tricks=SEED_TRICKS):
    for trick in tricks:
        for who, card in trick:
            play(match, who, card)


def test_undo_retracts_the_latest_live_event():
    match = seed_match()
    play(match, "W", "K")
    play(match, "N", "2")
    event = undo(match)
    assert event == {"type": "undo", "undoes": 3, "seq": 4, "format": 2}
    assert match.expected()["seat"] == 2
    assert [p["card"] for p in match.view()["deal"]["table"]] == ["K"]
    play(match, "N", "5")
    assert [p["card"] for p in match.view()["deal"]["table"]] == ["K", "5"]
    assert match.seq == 5


def test_repeated_undo_goes_further_back_to_the_start():
    match = seed_match()
    play(match, "W", "K")
    play(match, "N", "2")
    assert [undo(match)["undoes"] for _ in range(3)] == [3, 2, 1]
    assert match.expected() == {"type": "deal", "dealer": None, "deal": 1, "cards": 6}
    assert match.view()["deal"] is None
    with pytest.raises(Rejected) as rejected:
        undo(match)
    assert rejected.value.code == "nothing_to_undo"
    assert match.seq == 6


def test_nothing_to_undo_in_a_new_match():
    with pytest.raises(Rejected, match="nothing to undo"):
        undo(Match.create("ogorek", ["A", "B"]))


def test_an_undo_is_not_itself_undone():
    match = seed_match()
    play(match, "W", "K")
    undo(match)
    assert undo(match)["undoes"] == 1  # the deal, not the undo of the play


def test_undo_of_the_deal_ending_play_restores_the_deal():
    match = seed_match()
    play_seed(match)
    assert match.state.scores == [0, 0, 0, 9] and match.view()["deal"]["over"]
    finished = match.view()
    undo(match)
    view = match.view()
    assert view["deal"]["over"] is False
    assert view["players"][3]["score"] == 0
    assert view["history"] == []
    assert match.expected()["seat"] == 1 and match.expected()["trick"] == 6
    play(match, "W", "6")
    again = match.view()
    assert again["deal"]["result"] == finished["deal"]["result"] == {"losers": [3], "card": "9", "points": 9}
    assert again["players"] == finished["players"]
    assert again["history"] == finished["history"]
    assert again["expected"] == finished["expected"] == {"type": "deal", "dealer": 1, "deal": 2, "cards": 6}


def test_undo_of_an_elimination_brings_the_player_back():
    match = Match.create("ogorek", ["A", "B"], stake="1")
    match.play({"type": "penalty", "seat": 0, "points": 22})
    assert match.view()["status"] == "finished"
    undo(match)
    view = match.view()
    assert view["status"] == "playing"
    assert [p["out"] for p in view["players"]] == [False, False]
    assert view["settlement"] is None


def test_undo_withdraws_the_finding_the_undone_play_raised():
    match = seed_match()
    play_seed(match, SEED_TRICKS[:4])
    play_in_turn(match, ["10", "8", "6", "6"])
    play_in_turn(match, ["5", "9", "7"])
    assert len(play(match, "W", "4")[2]) == 1
    assert len(match.view()["findings"]) == 1
    undo(match)
    assert match.view()["findings"] == []


def test_the_log_keeps_undone_events_and_marks_them():
    match = seed_match()
    play(match, "W", "K")
    undo(match)
    play(match, "W", "A")
    assert match.events_view() == [
        {"type": "deal", "dealer": 0, "format": 2, "seq": 1, "undone_by": None, "corrected_by": None},
        {"type": "play", "seat": 1, "card": "K", "format": 2, "seq": 2, "undone_by": 3, "corrected_by": None},
        {"type": "undo", "undoes": 2, "format": 2, "seq": 3, "undone_by": None, "corrected_by": None},
        {"type": "play", "seat": 1, "card": "A", "format": 2, "seq": 4, "undone_by": None, "corrected_by": None},
    ]


def rich_match():
    """A match with a lot of everything: known hands, blind findings, forced plays and dealers, undo, penalties."""
    match = Match.create("ogorek", ["S", "W", "N", "E"], {"limit": 30, "all_out": "lowest_total"}, "0.25", "pln")
    match.play({"type": "deal"}, lot=lambda n: 0)
    play_seed(match, SEED_TRICKS[:4])
    play_in_turn(match, ["10", "8", "6", "6", "5", "9", "7", "4"])
    match.play({"type": "penalty", "seat": 2})
    match.play({"type": "deal", "dealer": 3, "force": True,
                "hands": {"0": ["2", "3", "4", "5", "6", "K"]}})
    play(match, 0, "K")
    undo(match)
    play(match, 0, "K")
    play(match, 1, "2")
    play(match, 2, "A")
    play(match, 3, "A")
    play(match, 3, "7")
    play(match, 0, "6", force=True)  # S holds 2 3 4 5 6 and must play 2
    match.play({"type": "penalty", "seat": 1, "points": 40})
    return match


def test_replay_of_the_log_rebuilds_the_same_view():
    match = rich_match()
    view = match.view()
    assert len(view["findings"]) == 2
    assert view["players"][1]["score"] == 40
    replayed = Match.replay(match.header(), match.log)
    assert replayed.view() == view
    assert replayed.events_view() == match.events_view()
    assert replayed.expected() == match.expected()


def test_a_view_shows_its_own_copy_of_the_history_or_what_the_caller_keeps_of_it():
    match = rich_match()
    shown = match.view()
    assert shown["history"] and shown["history"] == match.state.history and shown["history"] is not match.state.history
    kept = object()  # the API's text of the history (`api.encoding.history_text`), put in the same place
    with_kept = match.view(kept)
    assert with_kept["history"] is kept
    assert list(with_kept) == list(shown)
    assert {**with_kept, "history": shown["history"]} == shown


def test_replay_of_every_prefix_of_the_log_is_the_fold():
    match = rich_match()
    for end in range(len(match.log) + 1):
        replayed = Match.replay(match.header(), match.log[:end])
        assert replayed.seq == (match.log[end - 1]["seq"] if end else 0)
        again = Match.replay(replayed.header(), replayed.log)
        assert again.view() == replayed.view()


def test_the_header_is_what_the_match_was_created_with():
    match = rich_match()
    assert match.header() == {"game": "ogorek", "players": ["S", "W", "N", "E"],
                              "options": {"packets": 2, "ace_penalty": 21, "limit": 30, "cut_penalty": 5,
                                          "all_out": "lowest_total"},
                              "stake": "0.25", "currency": "PLN"}


def test_events_follow_each_other():
    match = seed_match()
    with pytest.raises(ValueError, match="does not follow"):
        match.record({"type": "play", "seat": 1, "card": "K"}, 5)


def test_a_forced_play_is_a_finding_proved_by_itself_with_a_warning():
    match = seed_match(known_hands=True)
    play_seed(match, SEED_TRICKS[:4])
    play_in_turn(match, ["10", "8", "6"])
    event, warnings, findings = play(match, "W", "6", force=True)
    message = "W cannot reach 10, so must play their lowest card, and 6 is not it."  # W's 4 stays unnamed
    details = {"card": "6", "top": "10", "case": "cannot_reach"}
    assert event == {"type": "play", "seat": 1, "card": "6", "force": True,
                     "illegal": {"code": "must_play_lowest", "message": message, "details": details},
                     "warnings": [{"code": "must_play_lowest", "message": f"Let stand: {message}", "seat": 1,
                                   "details": details}],
                     "format": 2, "seq": event["seq"]}
    assert warnings == event["warnings"]
    assert [f.as_dict() for f in findings] == [{"seq": event["seq"], "seat": 1, "code": "must_play_lowest",
                                                "message": message, "proof_seq": event["seq"], "deal": 1,
                                                "trick": 5, "details": details}]
    assert play_in_turn(match, ["5", "9", "7", "4"]) == []
    assert match.view()["findings"] == [findings[0].as_dict()]


def test_a_forced_card_that_was_not_dealt_makes_the_hand_unknown():
    match = seed_match(known_hands=True)
    with pytest.raises(Rejected) as rejected:
        play(match, "W", "A")
    assert rejected.value.code == "card_not_in_hand"
    assert rejected.value.message == "W was dealt no A."  # the rest of the hand stays the table's secret
    assert rejected.value.details == {"card": "A"}
    _, _, findings = play(match, "W", "A", force=True)
    assert [f.code for f in findings] == ["card_not_in_hand"]
    assert match.view()["deal"]["known_hands"] == [0, 2, 3]
    play_in_turn(match, ["2", "3", "A", "9"])
    assert match.expected()["seat"] == 1
    assert "legal" not in match.expected()  # W plays blind from now on


def test_force_on_a_legal_play_records_a_plain_play():
    match = seed_match(known_hands=True)
    event, warnings, findings = play(match, "W", "K", force=True)
    assert event == {"type": "play", "seat": 1, "card": "K", "seq": 2, "format": 2}
    assert warnings == [] and findings == []


def test_expected_with_known_hands_lists_the_legal_cards_sorted():
    match = seed_match(known_hands=True)
    assert match.expected()["legal"] == ["3", "4", "6", "7", "K"]
    play(match, "W", "7")
    assert match.expected() == {"type": "play", "seat": 2, "deal": 1, "trick": 1, "rule": "reach", "top": "7",
                                "legal": ["10", "Q"], "exhausted": []}


def test_expected_names_the_ranks_that_are_all_played():
    match = Match.create("ogorek", ["A", "B"])
    match.play({"type": "deal", "dealer": 0})
    play_in_turn(match, ["9", "9", "9", "9", "2", "2"])
    assert match.expected()["exhausted"] == ["9"]


def test_settlement_before_the_end_is_marked_not_final():
    match = Match.create("ogorek", ["A", "B", "C"], stake="2", currency="EUR")
    deal_and_finish(match, {0: "A", 1: "2", 2: "3"}, dealer=0)
    deal_and_finish(match, {0: "3", 1: "2", 2: "2"})
    money = match.settlement()
    assert money["final"] is False
    assert match.view()["settlement"] is None
    assert [p["net"] for p in money["players"]] == ["-8.00", "4.00", "4.00"]


@pytest.mark.parametrize("stake, shown", [(None, "0"), ("0.50", "0.50"), (2, "2"), (" 1.5 ", "1.5"),
                                          ("0.0025", "0.0025"), ("1000000", "1000000")])
def test_stakes(stake, shown):
    match = Match.create("ogorek", ["A", "B"], stake=stake)
    assert match.header()["stake"] == shown
    assert isinstance(match.stake, Decimal)


@pytest.mark.parametrize("stake", ["abc", "-1", "0.00001", 1e-5, True, "NaN", "Infinity", "1000000.01", [1]])
def test_bad_stakes(stake):
    with pytest.raises(InvalidInput) as raised:
        Match.create("ogorek", ["A", "B"], stake=stake)
    assert raised.value.code == "bad_stake"


@pytest.mark.parametrize("currency, stored", [(None, None), ("", None), ("pln", "PLN"), (" EUR ", "EUR")])
def test_currencies(currency, stored):
    assert Match.create("ogorek", ["A", "B"], currency=currency).currency == stored


@pytest.mark.parametrize("currency", ["PL", "EURO", "zł", 5, "P1N"])
def test_bad_currencies(currency):
    with pytest.raises(InvalidInput) as raised:
        Match.create("ogorek", ["A", "B"], currency=currency)
    assert raised.value.code == "bad_currency"


@pytest.mark.parametrize("game", ["poker", None, 5, "OGOREK"])
def test_unknown_game(game):
    with pytest.raises(InvalidInput) as raised:
        Match.create(game, ["A", "B"])
    assert raised.value.code == "unknown_game"


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("events", [45, 60, 75, 200])
def test_a_match_let_go_is_freed_at_once_with_no_cycle_left_for_the_collector(game, events):
    """A server process holds up to a thousand matches, and Python's full garbage collections look at every
    object that could be part of a cycle. A match is not one: when the cache lets it go, its last reference goes
    and all of it is freed there and then. Played blind, so that its plays leave claims open (a claim once kept a
    closure over its deal, which keeps the claim), and let go at several points, in a deal and between deals."""
    left: list = []
    for _ in range(3):  # what another thread of the process lets go of meanwhile (an earlier test's app) is garbage
        left = garbage_of_a_match_let_go(game, events)  # too, but once: a cycle of the match's is left every time
        if not left:
            break
    assert not left, left


def garbage_of_a_match_let_go(game: str, events: int) -> list[tuple[str, int]]:
    """The garbage the collector finds when a match played to `events` is let go: the commonest types. What the
    test process held before is set aside (`gc.freeze`): the collections look at what was made since, the match's,
    and not at every object of the process (two full collections of it took 0.4 s a case)."""
    gc.freeze()
    try:
        match = Match.create(game, ["Ala", "Olek", "Ewa", "Jan"][:GAMES[game].max_players], {}, "1")
        table = SIMULATORS[game](match, random.Random(3))
        while match.seq < events and table.step() is not None:
            match.view()
        del table
        gc.collect()
        gc.set_debug(gc.DEBUG_SAVEALL)
        try:
            del match
            gc.collect()
            return Counter(type(thing).__name__ for thing in gc.garbage).most_common(5)
        finally:
            gc.set_debug(0)
            gc.garbage.clear()
    finally:
        gc.unfreeze()
