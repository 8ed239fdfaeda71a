"""More phones: a follower sees the table update by itself; a scorer link lets a second phone score."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.browser

FOLLOW_SECONDS = 2.5  # the page promises about two seconds; a little slack for a loaded machine


def test_a_follower_is_read_only_and_updates_by_itself(new_phone):
    scorer = new_phone()
    match_id = scorer.start_match(["S", "W", "N", "E"], dealer=0)
    scorer.tab("share")
    follow_link = scorer.page.input_value("#follow-link")
    assert follow_link == f"{scorer.base}/?m={match_id}"
    qr = scorer.page.locator("img.qr")
    assert qr.get_attribute("src") == f"api/matches/{match_id}/qr.svg"
    scorer.page.wait_for_function("() => document.querySelector('img.qr').naturalWidth > 0")  # the SVG loaded
    scorer.screenshot("phones-tab")

    follower = new_phone()
    follower.open(follow_link)
    follower.page.wait_for_selector("#mode.following")
    assert follower.page.locator(".keypad, #log-deal, #undo").count() == 0
    assert "Waiting for the first deal." in follower.text(".waiting")

    scorer.tab("table")
    scorer.click("#log-deal")
    scorer.play(1, "K")
    within = FOLLOW_SECONDS * 1000
    follower.page.wait_for_selector('.seat[data-seat="1"] .in-front .card[data-card="K"]', timeout=within)
    follower.page.wait_for_selector('.seat.to-act[data-seat="2"]', timeout=within)
    assert "Waiting for N to play." in follower.text(".waiting")
    follower.screenshot("follower")


def test_a_scorer_link_carries_the_key_to_a_second_phone_that_scores(new_phone, server_api):
    first = new_phone()
    match_id = first.start_match(["S", "W", "N", "E"], dealer=0)
    first.tab("share")
    first.click("details.scorer summary")
    link = first.page.input_value("#scorer-link")
    assert re.fullmatch(rf"{re.escape(first.base)}/\?m={match_id}#key=[\w-]+", link)

    second = new_phone()
    second.open(link)
    second.page.wait_for_selector("#mode.scoring")
    assert "#key=" not in second.page.url  # the key is kept on the phone, not in the address
    second.click('.dealer-choice button[data-seat="0"]')  # this phone was not told the first dealer: S
    second.click("#log-deal")
    second.play(1, "K")
    second.wait_turn(2)
    assert server_api(f"/api/matches/{match_id}")["seq"] == 2


def test_two_scorers_never_record_one_play_twice(new_phone, server_api):
    first = new_phone()
    match_id = first.start_match(["S", "W", "N", "E"], dealer=0)
    first.tab("share")
    first.click("details.scorer summary")
    link = first.page.input_value("#scorer-link")
    first.tab("table")
    first.click("#log-deal")
    first.wait_turn(1)

    second = new_phone()
    second.page.route(f"**/api/matches/{match_id}/stream", lambda route: route.abort("failed"))  # it polls
    second.open(link)
    second.wait_turn(1)
    second.page.route(f"**/api/matches/{match_id}", lambda route: route.abort("failed"))  # it stops looking
    first.play(1, "K")
    first.wait_turn(2)
    second.tap_card("K")  # the second phone saw W to play, and enters W's king as well
    refusal = second.page.locator("#refusal")
    refusal.wait_for()
    assert refusal.locator("h2").inner_text() == "Someone else logged something just now: look at the table again"
    second.wait_turn(2)  # the refusal brought the table as it stands
    assert second.page.locator('.seat[data-seat="1"] .in-front .card[data-card="K"]').count() == 1
    assert second.text("#undo") == "↶ Undo: W played K"
    second.screenshot("two-scorers")
    second.click("#send-again")  # sent again as it was, against the table as it is: now out of turn
    assert second.page.locator("#refusal h2").inner_text() == "Not this player's turn"
    events = server_api(f"/api/matches/{match_id}/events")["events"]
    assert [(e["type"], e.get("card")) for e in events] == [("deal", None), ("play", "K")]
