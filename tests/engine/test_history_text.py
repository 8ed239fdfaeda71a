"""The history in the state is encoded once per deal, and always reads as the match's own history."""

from __future__ import annotations

import json

import pytest
from ogorek_helpers import SEED_TRICKS, deal_and_finish

import api.encoding
from api.encoding import Encoded, HistoryText, history_text
from referee import Match

LAST_CARDS = [{0: "2", 1: "3", 2: "4"}, {0: "5", 1: "3", 2: "2"}, {0: "3", 1: "4", 2: "2"}]


def played(deals: int) -> Match:
    match = Match.create("ogorek", ["A", "B", "C"], {"limit": 100})
    for number in range(deals):
        deal_and_finish(match, LAST_CARDS[number % len(LAST_CARDS)], **({"dealer": 0} if number == 0 else {}))
    return match


@pytest.fixture
def encoded(monkeypatch) -> list[object]:
    """What `history_text` encodes, entry by entry."""
    seen: list[object] = []
    dumps = json.dumps

    def counting(value, **kwargs):
        seen.append(value)
        return dumps(value, **kwargs)

    monkeypatch.setattr(api.encoding.json, "dumps", counting)
    return seen


def test_the_text_reads_as_the_history(encoded):
    match = played(3)
    assert json.loads(history_text(match).text) == match.view()["history"]
    assert len(match.view()["history"]) == 3


def test_each_entry_is_encoded_once(encoded):
    match = played(2)
    history_text(match)
    history_text(match)
    assert encoded == match.state.history

    deal_and_finish(match, LAST_CARDS[2])
    text = history_text(match).text

    assert encoded == match.state.history
    assert json.loads(text) == match.view()["history"]


def test_after_an_undo_the_text_follows_the_folded_history(encoded):
    match = played(3)
    history_text(match)
    match.play({"type": "undo"})  # the last play of deal 3: its entry goes
    assert json.loads(history_text(match).text) == match.view()["history"]
    assert len(match.view()["history"]) == 2

    match.play({"type": "play", "seat": match.expected()["seat"], "card": "2"})
    assert json.loads(history_text(match).text) == match.view()["history"]


def test_a_new_history_of_the_same_length_is_not_taken_for_the_old_one():
    text = HistoryText()
    first = [{"deal": 1, "scores": [1], "lives": [None]}]
    assert json.loads(text.of(first)) == first
    second = [{"deal": 1, "scores": [7], "lives": [None]}]
    assert json.loads(text.of(second)) == second


@pytest.mark.parametrize("value, expected", [
    ({"a": Encoded("[1,2]"), "b": "x"}, {"a": [1, 2], "b": "x"}),
    ([Encoded("{}"), Encoded("[]"), "t"], [{}, [], "t"]),
    ({"name": '"[3]"', "h": Encoded("[3]")}, {"name": '"[3]"', "h": [3]}),
    ({"name": "Łucja", "h": Encoded('{"ą":1}'), "i": Encoded("4")}, {"name": "Łucja", "h": {"ą": 1}, "i": 4}),
    ({"big": 2**70, "h": Encoded("[3]"), 1: "seat"}, {"big": 2**70, "h": [3], "1": "seat"}),
])
def test_the_provider_puts_encoded_text_in_place(app, value, expected):
    assert json.loads(app.json.dumps(value)) == expected
    with app.app_context():
        assert json.loads(app.json.response(value).get_data()) == expected


def test_the_state_over_http_carries_the_history(table):
    match = table.new_match()
    table.post_event(match, {"type": "deal", "dealer": 0})
    for trick in SEED_TRICKS:
        for seat, card in trick:
            answer = table.play(match, seat, card)

    expected = [{"deal": 1, "dealer": 0, "scores": [0, 0, 0, 9], "lives": [None] * 4}]
    assert answer["state"]["history"] == expected
    assert table.state(match)["history"] == expected
    assert table.undo(match)["state"]["history"] == []
