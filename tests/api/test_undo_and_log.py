"""Undo retracts the latest live event by appending an undo; the log keeps everything, undone events marked."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.both_stores


def test_undo_retracts_the_latest_play_and_the_log_marks_it(table):
    match = table.new_match()
    table.post_event(match, {"type": "deal", "dealer": 0})
    before = table.state(match)
    table.play(match, "W", "K")

    answer = table.undo(match)

    assert answer["event"] == {"type": "undo", "undoes": 2, "seq": 3, "format": 2}
    assert answer["warnings"] == [] and answer["findings"] == []
    assert answer["state"] == {**before, "seq": 3}
    assert table.state(match) == answer["state"]
    assert table.events(match) == [
        {"seq": 1, "type": "deal", "dealer": 0, "format": 2, "undone_by": None, "corrected_by": None},
        {"seq": 2, "type": "play", "seat": 1, "card": "K", "format": 2, "undone_by": 3, "corrected_by": None},
        {"seq": 3, "type": "undo", "undoes": 2, "format": 2, "undone_by": None, "corrected_by": None},
    ]


def test_undo_again_goes_further_back_and_then_there_is_nothing_to_undo(table):
    match = table.new_match()
    table.post_event(match, {"type": "deal", "dealer": 0})
    table.play(match, "W", "K")

    assert table.undo(match)["event"]["undoes"] == 2
    assert table.undo(match)["event"]["undoes"] == 1
    refused = table.undo(match, expect=409)

    assert refused["error"]["code"] == "nothing_to_undo"
    state = table.state(match)
    assert state["deal"] is None and state["seq"] == 4
    assert state["expected"]["type"] == "deal"
    assert [e["undone_by"] for e in table.events(match)] == [4, 3, None, None]


def test_a_play_after_an_undo_takes_the_next_seq(table):
    match = table.new_match()
    table.post_event(match, {"type": "deal", "dealer": 0})
    table.play(match, "W", "K")
    table.undo(match)

    answer = table.play(match, "W", "Q")

    assert answer["event"]["seq"] == 4
    assert answer["state"]["deal"]["table"] == [{"seat": 1, "card": "Q", "seq": 4}]


def test_undoing_a_forced_play_removes_its_finding(table):
    match = table.new_match()
    hands = {"1": ["K", "K", "7", "6", "4", "3"]}
    table.post_event(match, {"type": "deal", "dealer": 0, "hands": hands})
    forced = table.play(match, "W", "A", force=True)
    assert [f["code"] for f in forced["state"]["findings"]] == ["card_not_in_hand"]

    assert table.undo(match)["state"]["findings"] == []


def test_undo_with_expect_seq(table):
    match = table.new_match()
    table.post_event(match, {"type": "deal", "dealer": 0})

    stale = table.undo(match, {"expect_seq": 0}, expect=409)
    assert stale["error"]["code"] == "seq_conflict"
    assert stale["error"]["details"]["seq"] == 1

    assert table.undo(match, {"expect_seq": 1})["event"]["undoes"] == 1


def test_the_log_records_events_as_the_referee_normalised_them(table):
    match = table.new_match()
    table.post_event(match, {"type": "deal", "dealer": 0, "hands": {"1": ["kh", "K♠", "7", "6", "4", "T"]}})
    table.play(match, "W", "k")
    table.post_event(match, {"type": "penalty", "seat": 2})

    deal, play, penalty = table.events(match, keyed=True)
    assert deal["hands"] == {"1": ["K", "K", "7", "6", "4", "10"]}
    assert play["card"] == "K"
    assert penalty == {"seq": 3, "type": "penalty", "seat": 2, "points": 5, "format": 2, "undone_by": None,
                       "corrected_by": None}
