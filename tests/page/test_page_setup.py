"""Starting a match on the page: the game, the players clockwise, every option with its default, stake, dealer."""

from __future__ import annotations

import pytest

from referee import GAMES

pytestmark = pytest.mark.browser


def test_the_start_form_seats_the_players_clockwise_and_sends_every_choice(phone, server_api):
    page = phone.open("/").page
    assert page.locator(".game-choice").count() == len(GAMES)
    assert "Six cards each" in phone.text('.game-choice:has(input[value="ogorek"]) .game-description')
    assert phone.text("#option-limit-about") == (
        "A player whose minus points exceed this is out (the limit itself is still in). Default: 21.")
    assert phone.text("#option-packets-about").endswith("Default: 2 (Małopolska).")
    for index, name in enumerate(["Ann", "Ben", "Cat", "Dan"]):
        page.fill(f"#player-{index}", name)
    page.click("#add-player")
    page.fill("#player-4", "Eve")
    page.get_by_role("button", name="Move Eve up").click()
    page.get_by_role("button", name="Move Eve up").click()
    page.get_by_role("button", name="Remove Ben").click()
    assert [page.input_value(f"#player-{i}") for i in range(4)] == ["Ann", "Eve", "Cat", "Dan"]
    page.select_option("#option-packets", "3")
    page.select_option("#option-ace_penalty", "1")
    page.fill("#option-limit", "30")
    page.select_option("#option-all_out", "lowest_total")
    page.fill("#stake", "0,50")
    page.fill("#currency", "pln")
    phone.screenshot("start-form")
    page.click("#start")
    page.wait_for_selector("#log-deal")
    match_id = page.url.split("?m=")[1]
    state = server_api(f"/api/matches/{match_id}")
    assert [p["name"] for p in state["players"]] == ["Ann", "Eve", "Cat", "Dan"]
    assert state["options"] == {"packets": 3, "ace_penalty": 1, "limit": 30, "cut_penalty": 5,
                                "all_out": "lowest_total"}
    assert (state["stake"], state["currency"]) == ("0.50", "PLN")

    assert page.locator("#dealer-by-lot").get_attribute("aria-pressed") == "true"
    assert "in packets of 3" in phone.text(".instructions")
    phone.click("#log-deal")  # no dealer named: the server draws one
    notice = page.locator(".verdict.notice")
    notice.wait_for()
    dealer = server_api(f"/api/matches/{match_id}/events")["events"][0]["dealer"]
    assert notice.inner_text().startswith(f"The lot chose {state['players'][dealer]['name']} to deal.")
    assert page.locator(f'.seat[data-seat="{dealer}"] .badge.dealer').count() == 1


def test_a_refused_start_says_why_in_plain_words(phone):
    page = phone.open("/").page
    page.fill("#player-0", "Ann")
    page.fill("#player-1", "ann")
    page.fill("#player-2", "Cat")
    page.fill("#player-3", "Dan")
    page.click("#start")
    page.locator("#refusal").wait_for()
    assert "each name different" in phone.text("#refusal h2")
    assert "Two players have the same name, or names that look the same (Ann and ann)" in phone.text("#refusal")
    assert "?m=" not in page.url
    # the thumb that tapped Start, at the bottom of a long form, sees it there too
    assert phone.text("#start-said") == phone.text("#refusal h2")
    said = page.locator("#start-said").bounding_box()
    assert page.evaluate("window.scrollY") > 0  # the form is longer than the phone: the refusal's top is out of view
    assert 0 <= said["y"] and said["y"] + said["height"] <= phone.viewport["height"]
    phone.screenshot("setup-refused", full_page=False)
    page.fill("#player-1", "Bob")
    page.click("#start")
    page.wait_for_url("**/?m=*")


def test_oh_hell_takes_a_list_of_hand_sizes_and_its_switches(phone, server_api):
    page = phone.open("/").page
    page.check('input[name="game"][value="oh_hell"]')
    assert page.locator(".player-row").count() == 4
    page.get_by_role("button", name="Remove Player 4").click()
    for index, name in enumerate(["Ann", "Ben", "Cat"]):
        page.fill(f"#player-{index}", name)
    page.select_option("#option-sequence", "__list")
    page.fill(".sequence-list", "2, 1")
    page.check("#option-hook")
    page.click("#start")
    page.wait_for_selector("#log-deal")
    state = server_api(f"/api/matches/{page.url.split('?m=')[1]}")
    assert state["options"]["sequence"] == [2, 1] and state["options"]["hook"] is True
    assert state["options"]["must_trump"] is False
    assert "Hand 1 of 2" in phone.text(".deal-step h2")  # the hand to deal, in the words of the deal info
    assert phone.text("#deal-info") == ""  # nothing dealt yet
    assert "deals 2 cards to each player" in phone.text(".instructions")


def test_starting_without_network_says_nothing_was_sent(phone):
    page = phone.open("/").page
    for index, name in enumerate(["Ann", "Ben", "Cat", "Dan"]):
        page.fill(f"#player-{index}", name)
    phone.context.set_offline(True)
    page.click("#start")
    page.locator("#refusal").wait_for()
    assert phone.text("#refusal h2").startswith("No connection to the server: nothing was sent.")
    phone.context.set_offline(False)
    assert page.locator("#start").is_enabled()  # the form is kept: start again
    page.click("#start")
    page.wait_for_url("**/?m=*")
