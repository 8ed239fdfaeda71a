"""The referee speaks on the page: refusals that record nothing, findings with their proof, undo, let it stand."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

SEATS = ["S", "W", "N", "E"]


def start_ogorek(phone) -> str:
    match_id = phone.start_match(SEATS, dealer=0)
    phone.click("#log-deal")
    return match_id


def test_a_play_out_of_turn_shows_the_rule_and_records_nothing(phone, server_api):
    match_id = start_ogorek(phone)
    phone.play(1, "K")
    phone.wait_turn(2)
    phone.click('.seat[data-seat="3"] button')  # E plays before N
    phone.tap_card("9")
    refusal = phone.page.locator("#refusal")
    refusal.wait_for()
    assert refusal.locator("h2").inner_text() == "Not this player's turn"
    assert "It is N's turn, not E's." in refusal.inner_text()
    assert "Not recorded: E played 9" in refusal.inner_text()
    assert phone.page.locator("#let-it-stand").count() == 0  # a play out of turn cannot be let stand
    assert refusal.get_attribute("role") == "alert"
    phone.screenshot("refused-out-of-turn")
    state = server_api(f"/api/matches/{match_id}")
    assert state["seq"] == 2 and state["expected"]["seat"] == 2
    phone.wait_turn(2)


def test_a_blind_play_proven_illegal_later_shows_a_banner_with_the_proof(phone, server_api):
    match_id = start_ogorek(phone)
    # the seed deal, but W plays 6 on N's 10 in trick 5 and keeps the 4: the 4 proves the 6 was not the lowest
    plays = "1K 22 33 0A  09 1K 25 37  17 2Q 3Q 02  39 09 13 2Q  210 38 06 16  25 39 07 14".split()
    for play in plays:
        phone.play(int(play[0]), play[1:])
    banner = phone.page.locator(".verdict.finding")
    banner.wait_for()
    text = banner.inner_text()  # told once, in short, by the thumb (the whole finding is kept in the scores)
    assert "Illegal play by W" in text
    assert "W played 6 on 10 in trick 5 as their lowest card, but later played 4." in text
    assert banner.locator(".proof").text_content() == "Proven by a later play: W played 4."  # kept, shown in the scores
    phone.screenshot("finding-banner")
    findings = server_api(f"/api/matches/{match_id}")["findings"]
    assert [(f["seq"], f["seat"], f["code"], f["proof_seq"]) for f in findings] == [(21, 1, "must_play_lowest", 25)]
    phone.tab("scores")
    kept = phone.text(".findings")
    assert "Illegal play by W" in kept
    assert "deal 1, trick 5 · Must play the lowest card" in kept
    assert "Proven by a later play: " in kept  # the proof's words once this phone has read the log, else its number


def test_undo_takes_back_the_last_play_in_one_tap_and_says_which(phone, server_api):
    match_id = start_ogorek(phone)
    phone.play(1, "K")
    phone.wait_turn(2)
    assert phone.text("#undo") == "↶ Undo: W played K"
    phone.click("#undo")
    notice = phone.page.locator(".verdict.notice")
    notice.wait_for()
    assert "Undone: W played K" in notice.inner_text()
    phone.wait_turn(1)
    assert phone.page.locator(".in-front .card").count() == 0
    events = server_api(f"/api/matches/{match_id}/events")["events"]
    assert [(e["seq"], e["type"], e["undone_by"]) for e in events] == [
        (1, "deal", None), (2, "play", 3), (3, "undo", None)]
    phone.tab("log")
    phone.page.wait_for_selector(".log-entry.undone")
    assert phone.text(".log-entry.undone .what") == "W played K"
    phone.screenshot("undo-in-log")


def test_the_table_can_let_a_bid_the_hook_forbids_stand(phone, server_api):
    match_id = phone.start_match(["Ala", "Bob", "Cyd"], game="oh_hell", dealer=0, options={"hook": True})
    phone.click('.suit-tab[data-suit="H"]')
    phone.tap_card("9H")
    phone.screenshot("oh-hell-deal-step")
    phone.click("#log-deal")
    for seat in (1, 2):
        phone.wait_turn(seat)
        phone.click('.bids button[data-bid="0"]')
    phone.wait_turn(0)
    assert "The hook: Ala may not bid 1." in phone.text(".bid-step")
    phone.click('.bids button[data-bid="1"]')
    phone.page.locator("#refusal").wait_for()
    assert phone.page.locator("#refusal h2").inner_text() == (
        "The hook: the dealer's bid may not make the bids total the hand size")
    assert server_api(f"/api/matches/{match_id}")["seq"] == 3
    phone.screenshot("refused-hook")
    phone.click("#let-it-stand")
    banner = phone.page.locator(".verdict.finding")
    banner.wait_for()
    assert "Illegal play by Ala" in banner.inner_text()
    phone.tab("scores")
    assert "Let stand by the table." in phone.text(".findings")
    state = server_api(f"/api/matches/{match_id}")
    assert state["deal"]["bids"] == [1, 0, 0]
    assert [(f["seq"], f["code"]) for f in state["findings"]] == [(4, "hook")]


def test_with_a_known_hand_a_forbidden_play_is_refused_at_once_and_can_be_let_stand(phone, server_api):
    match_id = phone.start_match(SEATS, dealer=0)
    phone.click(".known-hands summary")
    phone.click('.known-hands button[data-seat="1"]')
    for card in ["K", "K", "7", "6", "4", "3"]:  # W's hand in the rule text's example
        phone.click(f'.known-hands .keypad button[data-card="{card}"]')
    assert phone.page.locator('.known-hands .keypad button[data-card="A"]').is_disabled()  # six cards: full
    phone.screenshot("known-hand")
    phone.click("#log-deal")
    for seat, card in [(1, "K"), (2, "2"), (3, "3"), (0, "A"), (0, "9")]:
        phone.play(seat, card)
    phone.wait_turn(1)
    assert phone.page.locator(".action .keypad button.dim").count() == 0  # the hand is not shown: no key apart
    phone.click("#show-hands")
    phone.page.wait_for_selector('.action .keypad button[data-card="6"].dim')  # W must climb to 9: K
    phone.click("#show-hands")  # hidden again
    phone.page.wait_for_selector(".action .keypad button.dim", state="detached")
    phone.tap_card("6")
    refusal = phone.page.locator("#refusal")
    refusal.wait_for()
    assert refusal.locator("h2").inner_text() == "Must play the highest card so far or higher"
    assert "W holds 9 or higher and must play it, not 6." in refusal.inner_text()  # not which card
    assert server_api(f"/api/matches/{match_id}")["seq"] == 6
    phone.click("#let-it-stand")
    banner = phone.page.locator(".verdict.finding")
    banner.wait_for()
    assert "Illegal play by W" in banner.inner_text()
    phone.tab("scores")
    assert "Let stand by the table." in phone.text(".findings")
    event = server_api(f"/api/matches/{match_id}/events")["events"][6]  # read as a follower: the hand is secret
    assert event["card"] == "6" and "illegal" not in event and "force" not in event  # what the hand proved stays hidden
    assert server_api(f"/api/matches/{match_id}")["findings"] == []
