"""Dureń's steps while an entry waits to be sent and when its answer comes: nothing moves under a finger when the
table switches language, the page shows the step the server's answer brings at once, and the cards picked for an
attack outlive the swap of the nine of trumps."""

from __future__ import annotations

import pytest
from conftest_browser import PHONES
from test_page_games import TABLE, entry_shown, places, to_act

pytestmark = pytest.mark.browser

LOCALES = {"pl": "pl-PL", "en": "en-US", "ru": "ru-RU"}
DEFENCE = (".defend-step h2", ".defend-step > .hint", ".defend-step .beat-row",
           ".defend-step .keypad .keyrow:first-child", ".defend-step .keypad .keyrow:last-child", "#log-defence")


def duren_match(new_phone, server_api, size: str, lang: str = "en", attack: list[str] | None = None):
    """A Dureń match dealt over the API (Ala deals, the queen of spades turned up: Bob attacks), Bob's attack
    logged when given, opened by a phone with the match's key."""
    match = server_api.post("/api/matches", {"game": "duren", "players": ["Ala", "Bob"]})
    events = f"/api/matches/{match['id']}/events"
    server_api.post(events, {"type": "deal", "dealer": 0, "trump": "QS"}, match["key"])
    if attack:
        server_api.post(events, {"type": "attack", "seat": 1, "cards": attack}, match["key"])
    phone = new_phone(locale=LOCALES[lang], viewport=PHONES[size])
    phone.open(f"/?m={match['id']}#key={match['key']}")
    phone.page.wait_for_selector(".defend-step" if attack else ".attack-step")
    phone.calm()
    return phone, match


def switch_language(phone, lang: str) -> None:
    phone.click(f'#langs button[data-lang="{lang}"]')
    phone.page.wait_for_function("([lang, tab]) => document.documentElement.lang === lang"
                                 " && document.querySelector('#tab-table').textContent === tab",
                                 arg=[lang, TABLE[lang]])
    phone.calm()


def clipped(phone, selector: str) -> bool:
    """Whether the element's text is cut off by the room it has."""
    return phone.page.eval_on_selector(selector, "el => el.scrollHeight > el.clientHeight + 1")


@pytest.mark.parametrize("size", list(PHONES))
def test_a_defence_waiting_to_be_sent_keeps_its_place_when_the_language_changes(new_phone, server_api, size):
    """Ala's defence (10♥ beats 9♥) waits to be sent while the table switches between Polish, Russian and English:
    the step's hint says the rule in each language in whole, in the same room, so that the rows, the keys and the
    log button stay where the finger is, while the defence is entered and while it waits."""
    phone, match = duren_match(new_phone, server_api, size, attack=["9H"])
    phone.tap_card("10H")
    phone.calm()
    live = places(phone, DEFENCE)
    for lang in ("pl", "ru", "en"):
        switch_language(phone, lang)
        assert not clipped(phone, ".defend-step > .hint"), lang
        assert places(phone, DEFENCE) == live, lang
    phone.context.set_offline(True)
    phone.click("#log-defence")
    phone.page.wait_for_selector(".defend-step.waiting-step[inert]")
    phone.page.wait_for_selector("#pending")
    phone.calm()
    before = places(phone, DEFENCE)
    assert before == live
    entered = entry_shown(phone, ".defend-step")
    for lang in ("ru", "pl", "en", "ru"):
        switch_language(phone, lang)
        assert phone.page.locator(".defend-step.waiting-step[inert]").count() == 1
        assert not clipped(phone, ".defend-step > .hint"), lang
        assert places(phone, DEFENCE) == before, lang  # the words change, not where the keys are
        assert entry_shown(phone, ".defend-step")["keys"] == entered["keys"]
        phone.screenshot(f"duren-defence-waiting-languages-{size}-{lang}", full_page=False)
    assert to_act(phone) == ("0", "отбивается")
    phone.context.set_offline(False)
    phone.page.wait_for_selector(".attack-step h2:text('Атакует Ala')")
    phone.settled()
    events = server_api(f"/api/matches/{match['id']}/events")["events"]
    assert [e["type"] for e in events] == ["deal", "attack", "defend"]
