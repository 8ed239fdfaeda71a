"""The seed's whole Ogórek deal, tapped in on the page: E shows the highest last card and takes 9 minus points."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

# the rule text's example: S, W, N, E clockwise, S deals; seat and card of every play, trick by trick
SEED_DEAL = "1K 22 33 0A  09 1K 25 37  17 2Q 3Q 02  39 09 13 2Q  210 38 06 14  25 39 07 16".split()


def test_the_seed_deal_tapped_in_ends_with_e_at_9_minus_points(phone, server_api):
    match_id = phone.start_match(["S", "W", "N", "E"], dealer=0, stake="0.50")
    phone.screenshot("ogorek-deal-step")
    phone.click("#log-deal")
    for number, play in enumerate(SEED_DEAL, start=1):
        phone.play(int(play[0]), play[1:])
        if number == 12:  # in Ogórek nobody takes a trick: the latest of the equal highest leads the next
            assert phone.text(".last-trick") == "Trick 3: W 7 · N Q · E Q · S 2 → E leads"
        if number == 14:
            phone.screenshot("ogorek-trick-4")
    phone.page.wait_for_selector(".result")
    assert phone.text(".result") == "E showed the highest last card, 9: +9 minus points."
    assert phone.text('.seat[data-seat="3"] .seat-figures') == "9 minus points"
    assert phone.text(".last-trick") == "Last cards: N 5 · E 9 · S 7 · W 6"
    assert phone.text('.seat[data-seat="1"] .seat-figures') == "0 minus points"
    assert phone.page.locator('.seat[data-seat="1"] .in-front .card').get_attribute("data-card") == "6"
    assert phone.text("#log-deal") == "Deal"  # the next deal is W's: the page offers it
    assert phone.page.locator('.dealer-choice button[data-seat="1"]').get_attribute("aria-pressed") == "true"
    phone.screenshot("ogorek-deal-over")

    state = server_api(f"/api/matches/{match_id}")
    assert [(p["name"], p["score"]) for p in state["players"]] == [("S", 0), ("W", 0), ("N", 0), ("E", 9)]
    assert state["seq"] == 25  # the deal and 24 plays, each recorded once
    assert state["findings"] == []

    phone.tab("scores")
    assert phone.page.locator("svg.chart polyline").count() == 4
    assert phone.text('.scoreboard tr[data-seat="3"] td.num') == "9"
    phone.screenshot("ogorek-scores")
