"""Agurk on the page, which names no game: the keypad, the seats, the result and the scoresheet all come from
the catalogue's rules of the match and its state."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser


def to_play(phone, server_api, match_id: str) -> int:
    """The seat the referee expects, once every tap of the phone is recorded."""
    phone.settled()
    return server_api(f"/api/matches/{match_id}")["expected"]["seat"]


def test_a_deal_of_agurk_is_played_and_scored_on_the_page(phone, server_api):
    match_id = phone.start_match(["S", "W", "N"], game="agurk", dealer=0, stake="1")
    phone.click("#log-deal")
    phone.wait_turn(1)
    keys = phone.page.locator(".action .keypad button")
    assert [k.get_attribute("data-card") for k in keys.all()] == [
        "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]  # the ace highest
    assert phone.text("#deal-info") == "Deal 1 · S deals · trick 1 of 7"
    phone.play(1, "A")  # W leads an ace: everyone else plays their lowest card
    phone.wait_turn(2)
    assert "A tops the trick: their lowest card." in phone.text(".play-step")
    phone.screenshot("agurk-ace-led")
    for card in ("2", "2"):
        phone.play(to_play(phone, server_api, match_id), card)
    for rank in ("3", "4", "5", "6", "7"):
        for _ in range(3):
            phone.play(to_play(phone, server_api, match_id), rank)
    last = {}
    for card in ("K", "8", "9"):  # the last trick: its leader plays the king and scores 13
        seat = to_play(phone, server_api, match_id)
        last[card] = seat
        phone.play(seat, card)
    phone.page.wait_for_selector(".result")
    names = ["S", "W", "N"]
    assert phone.text(".result") == (f"{names[last['K']]} played the highest card of the last trick, K: +13 points.\n\n"
                                     "Nobody drew a cucumber.")
    seat = phone.page.locator(f'.seat[data-seat="{last["K"]}"] .seat-figures')
    assert seat.inner_text() == "lives 2 · 13 minus points"
    phone.screenshot("agurk-deal-over")
    phone.tab("scores")
    header = phone.page.locator(".scoreboard thead th").all_inner_texts()
    assert header == ["Player", "Lives", "Minus points"]
    assert phone.page.locator("#scoresheet").is_visible()
    assert phone.page.locator(".chart .limit").count() == 1  # the limit of 21, dashed
    phone.screenshot("agurk-scores")
    state = server_api(f"/api/matches/{match_id}")
    assert [p["score"] for p in state["players"]] == [13 if seat == last["K"] else 0 for seat in range(3)]
