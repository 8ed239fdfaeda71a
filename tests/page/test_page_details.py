"""The smaller points a table of four found: the start form, the stake's words, the screen kept on, a trick
completed without network, places and words in each language, disclosures that look like disclosures."""

from __future__ import annotations

import pytest
from conftest_browser import PHONES

pytestmark = pytest.mark.browser

FAKE_WAKE_LOCK = """
window.wakeRequests = [];
Object.defineProperty(navigator, "wakeLock", {configurable: true, value: {request: async (type) => {
    window.wakeRequests.push(type);
    const sentinel = new EventTarget();
    sentinel.release = async () => sentinel.dispatchEvent(new Event("release"));
    window.wakeSentinel = sentinel;
    return sentinel;
}}});
"""


@pytest.mark.parametrize(("locale", "size"), [("pl-PL", "360x740"), ("ru-RU", "390x844")])
def test_three_players_start_oh_hell_with_the_fourth_row_left_empty(new_phone, server_api, locale, size):
    phone = new_phone(locale=locale, viewport=PHONES[size])
    page = phone.open("/").page
    page.check('input[name="game"][value="oh_hell"]')
    assert page.locator(".player-row").count() == 4
    for index, name in enumerate(["Ala", "Bob", "Cyd"]):
        page.fill(f"#player-{index}", name)
    page.click("#start")
    page.wait_for_selector("#log-deal")
    state = server_api(f"/api/matches/{page.url.split('?m=')[1]}")
    assert [p["name"] for p in state["players"]] == ["Ala", "Bob", "Cyd"]
    phone.screenshot(f"oh-hell-three-{size}-{locale[:2]}", full_page=False)


def test_a_start_with_too_few_names_says_which_rows_have_none(phone):
    page = phone.open("/").page
    page.check('input[name="game"][value="oh_hell"]')
    page.fill("#player-0", "Ala")
    page.fill("#player-2", "Cyd")
    page.click("#start")
    assert "Player 2, Player 4 has none" in phone.text("#refusal")
    assert "?m=" not in page.url


def test_the_stake_is_explained_for_the_game_chosen(phone):
    page = phone.open("/").page
    assert "k-th player out" in phone.text("#stake-hint")
    page.check('input[name="game"][value="duren"]')
    assert phone.text("#stake-hint").startswith("The stake P: each deal lost pays P to its winner")
    assert "Ogórek" not in phone.text("#stake-hint")


def test_the_screen_stays_on_while_scoring_and_the_lock_is_taken_again(new_phone):
    phone = new_phone()
    phone.add_init_script(FAKE_WAKE_LOCK)
    phone.start_match(["S", "W", "N", "E"], dealer=0)
    phone.page.wait_for_function("() => window.wakeRequests.length === 1")
    assert phone.page.evaluate("window.wakeRequests") == ["screen"]
    assert phone.page.evaluate("document.documentElement.hasAttribute('data-awake')")
    phone.page.evaluate("window.wakeSentinel.release()")  # the browser lets it go while the page is hidden
    phone.page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")  # and the page comes back
    phone.page.wait_for_function("() => window.wakeRequests.length === 2")
    assert phone.page.evaluate("document.documentElement.hasAttribute('data-awake')")


def test_offline_a_completed_trick_goes_on_to_the_next_one(phone, server_api):
    match_id = phone.start_match(["S", "W", "N"], dealer=0)
    phone.click("#log-deal")
    phone.wait_turn(1)
    phone.context.set_offline(True)
    for card in ("K", "2", "A"):  # W, N, S: S's ace leads the next trick
        phone.tap_card(card)
    phone.page.wait_for_selector('.seat.to-act[data-seat="0"]')
    assert phone.page.locator(".in-front .card").count() == 0  # trick 1 is complete: nothing lies in front
    phone.tap_card("5")  # S leads trick 2
    phone.page.wait_for_selector('.seat[data-seat="0"] .in-front .card.pending[data-card="5"]')
    assert phone.page.locator(".in-front .card").count() == 1  # only trick 2's card
    phone.page.wait_for_selector('.seat.to-act[data-seat="1"]')
    phone.screenshot("offline-next-trick", full_page=False)
    phone.context.set_offline(False)
    phone.settled()
    events = server_api(f"/api/matches/{match_id}/events")["events"]
    assert [(e["seat"], e["card"]) for e in events if e["type"] == "play"] == [(1, "K"), (2, "2"), (0, "A"), (0, "5")]


@pytest.mark.parametrize("size", list(PHONES))
def test_russian_words_for_durens_stock_and_tabs_on_one_line(new_phone, size):
    phone = new_phone(locale="ru-RU", viewport=PHONES[size])
    phone.start_match(["Аня", "Боря"], game="duren", dealer=0)
    heights = phone.page.eval_on_selector_all(".tab", "els => els.map(el => el.getBoundingClientRect().height)")
    assert len(set(heights)) == 1 and heights[0] < 50  # «Телефоны» does not break
    phone.tap_card("QS")
    phone.click("#log-deal")
    phone.page.wait_for_selector(".attack-step")
    assert "колода" in phone.text("#deal-info") and "прикуп" not in phone.text("main")
    assert phone.text("#log-attack") == "Выберите карты атаки"  # not «Атака 0 карт»
    assert phone.page.locator("#log-attack").bounding_box()["height"] < 50  # on one line, as in Polish and English
    assert phone.text("#trump .label") == "КОЗЫРЬ" or phone.text("#trump .label").lower() == "козырь"
    phone.screenshot(f"duren-ru-{size}", full_page=False)


def test_disclosures_show_a_marker_and_places_are_english_ordinals(new_phone, server_api):
    phone = new_phone()
    match_id = phone.start_match(["Ala", "Bob"], game="duren", dealer=0)
    def marker() -> str:
        return phone.page.evaluate(  # found and read in one step: never a summary the page has just drawn again
            "() => getComputedStyle(document.querySelector('.known-hands summary'), '::before').content")

    assert marker() == '"▸"'
    phone.click(".known-hands summary")
    assert marker() == '"▾"'
    phone.tap_card("9S")
    phone.click("#log-deal")
    phone.page.wait_for_selector(".attack-step")
    phone.click("#end")
    phone.click("#end-confirm")
    phone.page.wait_for_selector("#finished")
    assert phone.page.locator(".places li").all_inner_texts() == ["1st: Ala", "1st: Bob"]
    assert server_api(f"/api/matches/{match_id}")["status"] == "finished"


def test_a_seat_is_read_with_its_figures_and_cards_not_only_its_name(phone):
    phone.start_match(["S", "W", "N"], dealer=0)
    phone.click("#log-deal")
    phone.play(1, "K")
    phone.wait_turn(2)
    seat = phone.page.get_by_role("button", name="W 0 minus points king")
    assert seat.count() == 1 and seat.get_attribute("data-seat") == "1"
