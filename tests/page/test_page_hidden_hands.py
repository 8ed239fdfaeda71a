"""Hidden cards stay hidden on the page: an entered hand shows only when the scorer asks for it, and a link
cannot take the scorer's key away."""

from __future__ import annotations

import json

import pytest
from conftest_browser import PHONES

pytestmark = pytest.mark.browser

BOB = ["AS", "KH", "5D"]  # Bob's hand, entered for the referee
HELD = {"KH": "K♥", "5D": "5♦"}  # what Bob still holds after leading the ace


def oh_hell_with_bobs_hand(server_api) -> dict:
    match = server_api.post("/api/matches", {"game": "oh_hell", "players": ["Ala", "Bob", "Cyd"],
                                             "options": {"sequence": [3, 3]}})
    events = f"/api/matches/{match['id']}/events"
    server_api.post(events, {"type": "deal", "dealer": 0, "trump": "2C", "hands": {"1": BOB}}, match["key"])
    for seat, bid in ((1, 1), (2, 1), (0, 0)):
        server_api.post(events, {"type": "bid", "seat": seat, "bid": bid}, match["key"])
    for seat, card in ((1, "AS"), (2, "3S"), (0, "4S")):
        server_api.post(events, {"type": "play", "seat": seat, "card": card}, match["key"])
    return match


def key_classes(phone, suit: str) -> dict[str, str]:
    phone.click(f'.action .suit-tab[data-suit="{suit}"]')
    return dict(phone.page.eval_on_selector_all(
        ".action .keypad .ranks button", "els => els.map(el => [el.dataset.card, el.className])"))


def downloaded_log(phone) -> dict:
    phone.tab("share")
    with phone.page.expect_download() as download:
        phone.click("#download-json")
    log = json.loads(download.value.path().read_text(encoding="utf-8"))
    phone.tab("table")
    return log


@pytest.mark.parametrize("size", list(PHONES))
def test_an_entered_hand_shows_only_when_the_scorer_asks(new_phone, server_api, size):
    match = oh_hell_with_bobs_hand(server_api)
    phone = new_phone(viewport=PHONES[size])
    phone.open(f"/?m={match['id']}#key={match['key']}")
    phone.wait_turn(1)  # Bob took the trick with the ace and leads
    assert phone.page.locator("#show-hands").get_attribute("aria-pressed") == "false"
    text = phone.page.evaluate("document.body.innerText")
    assert not [card for card in HELD.values() if card in text]
    assert phone.page.locator('main [data-card="KH"]:not(.key), main [data-card="5D"]:not(.key)').count() == 0
    hearts, diamonds = key_classes(phone, "H"), key_classes(phone, "D")
    assert hearts["KH"] == hearts["QH"] == hearts["3H"] and diamonds["5D"] == diamonds["6D"]  # no key apart
    phone.screenshot(f"hands-hidden-{size}", full_page=False)
    hidden_log = downloaded_log(phone)
    assert "hands" not in hidden_log["events"][0]
    assert "legal" not in hidden_log["match"]["expected"]

    phone.click("#show-hands")
    shown = phone.page.locator("#shown-hands")
    shown.wait_for()
    assert shown.locator('.card[data-card="KH"]').count() == 1 and shown.locator('.card[data-card="5D"]').count() == 1
    assert shown.locator('.card[data-card="AS"]').count() == 0  # played already
    hearts = key_classes(phone, "H")
    assert "dim" not in hearts["KH"] and "dim" in hearts["QH"]  # what Bob may lead: his cards
    phone.screenshot(f"hands-shown-{size}", full_page=False)
    assert downloaded_log(phone)["events"][0]["hands"] == {"1": BOB}

    phone.page.reload()  # the choice is remembered on this phone, for this match
    phone.page.wait_for_selector("#shown-hands")
    assert phone.page.locator("#show-hands").get_attribute("aria-pressed") == "true"

    follower = new_phone(viewport=PHONES[size])
    follower.open(f"/?m={match['id']}")
    follower.page.wait_for_selector("#mode.following")
    assert follower.page.locator("#show-hands, #shown-hands").count() == 0
    assert not [card for card in HELD.values() if card in follower.page.evaluate("document.body.innerText")]
    follower.tab("share")
    with follower.page.expect_download() as download:
        follower.click("#download-json")
    assert "hands" not in json.loads(download.value.path().read_text(encoding="utf-8"))["events"][0]


@pytest.mark.parametrize(("lang", "locale", "words"), [
    ("en", "en-US", "not this match's key"), ("pl", "pl-PL", "nie pasuje do tej partii"),
    ("ru", "ru-RU", "не от этой партии")])
def test_a_crafted_link_does_not_take_the_scorers_key_away(new_phone, server_api, lang, locale, words):
    phone = new_phone(locale=locale, viewport=PHONES["390x844" if lang == "ru" else "360x740"])
    match_id = phone.start_match(["S", "W", "N", "E"], dealer=0)
    key = phone.page.evaluate(f"JSON.parse(localStorage.getItem('kibic.key.{match_id}'))")
    phone.open(f"/?m={match_id}#key=junk-key-from-someone-else")
    notice = phone.page.locator(".verdict.notice")
    notice.wait_for()
    assert words in notice.inner_text()
    assert "#key=" not in phone.page.url
    phone.screenshot(f"crafted-link-{lang}", full_page=False)
    assert phone.page.evaluate(f"JSON.parse(localStorage.getItem('kibic.key.{match_id}'))") == key
    phone.page.wait_for_selector("#mode.scoring")
    phone.click("#log-deal")  # the next tap is recorded: the phone still scores
    phone.wait_turn(1)
    assert [e["type"] for e in server_api(f"/api/matches/{match_id}/events")["events"]] == ["deal"]
