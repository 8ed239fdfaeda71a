"""The seed's example deal (seeds/000: S W N E, S deals), played over the API, blind and with known hands."""

from __future__ import annotations

import re
from pathlib import Path

from ogorek_helpers import SEED_HANDS as SEED_PLAYER_HANDS
from ogorek_helpers import SEED_PLAYERS, SEED_TRICKS

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "api.md"

# The seed's hands, by seat number as the API takes them
SEED_HANDS = {str(SEED_PLAYERS.index(name)): cards for name, cards in SEED_PLAYER_HANDS.items()}


def play_tricks(table, match, tricks):
    answer = None
    for trick in tricks:
        for seat, card in trick:
            answer = table.play(match, seat, card)
    return answer


def test_the_seed_deal_gives_e_nine_minus_points(table):
    match = table.new_match(stake="0.50", currency="PLN")
    table.post_event(match, {"type": "deal", "dealer": 0})
    last = play_tricks(table, match, SEED_TRICKS)

    state = last["state"]
    assert state["seq"] == 25
    assert [p["score"] for p in state["players"]] == [0, 0, 0, 9]
    assert state["deal"]["result"] == {"losers": [3], "card": "9", "points": 9}
    assert [t["winner"] for t in state["deal"]["tricks"]] == [0, 1, 3, 2, 2, 3]
    assert state["findings"] == []
    assert state["expected"]["type"] == "deal" and state["expected"]["dealer"] == 1
    assert table.state(match) == state


def test_each_trick_is_led_by_the_winner_of_the_last(table):
    match = table.new_match()
    table.post_event(match, {"type": "deal", "dealer": 0})
    for trick in SEED_TRICKS:
        leader = trick[0][0]
        assert table.state(match)["expected"]["seat"] == "SWNE".index(leader)
        play_tricks(table, match, [trick])


def test_blind_w_plays_6_in_trick_5_and_4_in_trick_6_a_finding_names_trick_5(table):
    match = table.new_match()
    table.post_event(match, {"type": "deal", "dealer": 0})
    play_tricks(table, match, SEED_TRICKS[:4])
    played_6 = play_tricks(table, match, [[("N", "10"), ("E", "8"), ("S", "6"), ("W", "6")]])
    assert played_6["findings"] == []

    proof = play_tricks(table, match, [[("N", "5"), ("E", "9"), ("S", "7"), ("W", "4")]])

    [finding] = proof["findings"]
    assert finding["seq"] == played_6["event"]["seq"]
    assert finding["proof_seq"] == proof["event"]["seq"]
    assert (finding["seat"], finding["code"], finding["deal"], finding["trick"]) == (1, "must_play_lowest", 1, 5)
    assert "W" in finding["message"] and "4" in finding["message"]
    assert table.state(match)["findings"] == [finding]


def test_known_hands_reject_w_playing_6_in_trick_5_unless_forced(table):
    match = table.new_match()
    table.post_event(match, {"type": "deal", "dealer": 0, "hands": SEED_HANDS})
    play_tricks(table, match, SEED_TRICKS[:4])
    play_tricks(table, match, [[("N", "10"), ("E", "8"), ("S", "6")]])

    refused = table.play(match, "W", "6", expect=409)
    assert refused["error"]["code"] == "must_play_lowest"
    assert refused["error"]["details"] == {"seat": 1, "forceable": True, "card": "6", "top": "10",
                                          "case": "cannot_reach"}
    assert table.state(match)["seq"] == 20

    forced = table.play(match, "W", "6", force=True)
    [finding] = forced["findings"]
    assert finding["seq"] == finding["proof_seq"] == forced["event"]["seq"] == 21
    assert forced["event"]["illegal"]["code"] == "must_play_lowest"
    assert [w["code"] for w in forced["warnings"]] == ["must_play_lowest"]


def test_the_api_guides_curl_session_plays_the_seed_deal_and_shows_what_the_api_answers(table):
    guide = GUIDE.read_text(encoding="utf-8")
    plays = re.findall(r"^play (.*)$", guide, re.M)
    plays = [tuple(p.split()[1:3]) for line in plays for p in ("play " + line).split(";")]
    seed = [(str("SWNE".index(seat)), card) for trick in SEED_TRICKS for seat, card in trick]
    assert plays[0] == ("2", "K") and plays[1:25] == seed

    match = table.new_match(stake="0.50", currency="PLN")
    table.post_event(match, {"type": "deal", "dealer": 0})
    assert str(table.play(match, "N", "K", expect=409)["error"]) in guide
    state = play_tricks(table, match, SEED_TRICKS)["state"]
    shown = f"{state['deal']['result']} {[(p['name'], p['score']) for p in state['players']]} {state['expected']}"
    assert shown in guide
