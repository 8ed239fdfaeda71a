"""The evening on the page (`/?e=<id>`): standings over every match, the transfers for the whole night, the
matches and the figures, in the table's language, on both phone sizes, and followed live."""

from __future__ import annotations

import re

import pytest
from conftest_browser import FIRST, LOCALES, PHONES

pytestmark = pytest.mark.browser

WORDS = {
    "en-US": ("If we stopped now · match 2 being played", "Bob pays Ann 2.00 PLN", "Figures", "playing"),
    "pl-PL": ("Gdybyśmy skończyli teraz · partia 2 w toku", "Bob → Ann: 2,00 PLN", "Statystyki", "w toku"),
    "ru-RU": ("Если бы мы закончили сейчас · идёт партия 2", "Bob → Ann: 2,00 PLN", "Статистика", "идёт"),
}


def an_evening(server_api) -> tuple[dict, dict]:
    """An evening of two Ogórek matches: the first over (Ann wins), the second being played."""
    evening = server_api.post("/api/evenings", {"name": "Piątek", "currency": "PLN"})
    first = server_api.post("/api/matches", {"game": "ogorek", "players": ["Ann", "Bob"], "stake": "1",
                                             "evening": evening["id"]}, key=evening["key"])
    server_api.post(f"/api/matches/{first['id']}/events", {"type": "penalty", "seat": 1, "points": 22},
                    key=evening["key"])
    second = server_api.post("/api/matches", {"game": "ogorek", "players": ["bob", "ANN", "Cid"],
                                              "evening": evening["id"]}, key=evening["key"])
    return evening, second


# each size's walk starts in another language, from the phone's locale


@pytest.mark.parametrize("size", list(PHONES))
def test_the_evening_shows_standings_transfers_and_figures(new_phone, server_api, size):
    """The evening's standings, transfers, matches and figures, whole on the phone; one walk a size, the evening
    looked at in each language switched in place (the page draws it again in the new words)."""
    evening, _ = an_evening(server_api)
    phone = new_phone(locale=LOCALES[FIRST[size]], viewport=PHONES[size])
    phone.page.goto(f"/?e={evening['id']}")
    phone.page.wait_for_selector(".evening")
    locales = {locale[:2]: locale for locale in WORDS}
    for lang in phone.languages(locales):
        locale = locales[lang]
        heading, transfer, figures, playing = WORDS[locale]
        assert phone.text(".evening h1") == "Piątek", locale
        assert phone.page.locator(".evening h2").first.inner_text() == heading, locale
        assert phone.page.locator(".evening .transfer").all_inner_texts() == [transfer], locale
        assert phone.page.locator(".standings tbody th").all_inner_texts() == ["Ann", "Cid", "Bob"], locale
        assert phone.page.locator(".evening-matches li").count() == 2, locale
        assert playing in phone.page.locator(".evening-matches li").nth(1).inner_text(), locale
        assert figures in phone.text(".evening"), locale
        ann = phone.page.locator(".figures-table tbody tr").nth(0).locator("td").all_inner_texts()
        assert ann[:3] == ["2", "1", "1 · 1"], locale  # two matches, one won; first in both (the second as it stands)
        assert phone.page.locator(".evening-chart rect").count() == 3, locale
        phone.page.wait_for_function("() => document.querySelector('.evening img.qr').naturalWidth > 0")  # it loads
        overflow = phone.page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"the evening is wider than the phone ({locale})"
        inside = phone.page.eval_on_selector_all(".evening .table-scroll",
                                                 "els => els.map(el => el.scrollWidth - el.clientWidth)")
        assert inside == [0, 0], f"a table is wider than its panel and scrolls inside it ({locale})"
        phone.screenshot(f"evening-{locale}-{size}")


def test_the_evening_follows_the_table_live(phone, server_api):
    evening, second = an_evening(server_api)
    phone.page.goto(f"/?e={evening['id']}")
    phone.page.wait_for_selector(".evening .transfer")
    server_api.post(f"/api/matches/{second['id']}/events", {"type": "penalty", "seat": 2, "points": 22},
                    key=second["key"])  # Cid out: the second match stands at Bob and Ann sharing first
    phone.page.wait_for_function("() => document.querySelector('.standings tbody th').textContent === 'Ann'"
                                 " && document.querySelectorAll('.figures-table tbody tr')[2]"
                                 ".textContent.includes('22')")
    assert phone.page.locator(".figures-table tbody tr").nth(2).locator("td").nth(3).inner_text() == "22"
    assert "Piątek" in (phone.page.evaluate("() => localStorage.getItem('kibic.evenings')") or "")


def test_an_evening_is_started_on_the_page_and_its_next_match_seats_the_same_people_anew(phone, server_api):
    page = phone.open("/").page
    phone.click("#evening-new")
    page.wait_for_selector("form.evening-new")
    assert page.input_value("#evening-currency") == "EUR"
    page.fill("#evening-name", "Friday")
    phone.click("#evening-start")
    page.wait_for_selector("form.setup.for-evening")  # straight to the start form of its first match
    evening_id = re.search(r"\?e=([^&#]+)", page.url).group(1)
    page.check('input[name="game"][value="ogorek"]')
    page.locator(".player-row").last.get_by_role("button", name=re.compile("Remove")).click()
    for index, name in enumerate(["Ann", "Bob", "Cid"]):
        page.fill(f"#player-{index}", name)
    page.fill("#stake", "0,50")
    assert page.input_value("#currency") == "EUR"
    phone.screenshot("evening-next-match-first")
    phone.click("#start")
    page.wait_for_url(re.compile(r"\?m="))
    page.wait_for_selector(".tab-panel")
    match_id = re.search(r"\?m=([^&#]+)", page.url).group(1)
    assert page.locator("#bottom").is_visible()  # this phone scores the match: it holds its key
    evening = server_api(f"/api/evenings/{evening_id}")
    assert [m["id"] for m in evening["matches"]] == [match_id]
    assert evening["matches"][0]["stake"] == "0.50" and evening["currency"] == "EUR"

    phone.open("/")
    assert page.locator(".evening-entry li").all_inner_texts() == ["Friday"]
    phone.click(".evening-entry li a")
    phone.click("#next-match")
    page.wait_for_selector("form.setup.for-evening")
    assert [page.input_value(f"#player-{i}") for i in range(3)] == ["Bob", "Cid", "Ann"]
    assert page.input_value("#stake") == "0.50"
    phone.screenshot("evening-next-match-prefilled")


def test_a_phone_without_the_evening_key_only_follows(phone, server_api):
    evening, _ = an_evening(server_api)
    phone.page.goto(f"/?e={evening['id']}")
    phone.page.wait_for_selector(".evening")
    assert phone.page.locator("#next-match").count() == 0


def test_an_evening_whose_answer_was_lost_is_started_once_when_tapped_again(phone, server_api):
    """The server starts the evening but its answer never reaches the phone: the second tap sends the same
    Idempotency-Key and gets the same evening and its key back, not a second evening."""
    page = phone.open("/").page
    phone.click("#evening-new")
    page.wait_for_selector("form.evening-new")
    page.fill("#evening-name", "Sobota")
    sent = []

    def lose_the_first_answer(route):
        sent.append(route.request.headers.get("idempotency-key"))
        if len(sent) == 1:  # recorded by the server; the answer is lost on the way back
            sent.append(route.fetch().json()["id"])
            route.abort("failed")
        else:
            route.continue_()

    page.route("**/api/evenings", lose_the_first_answer)
    phone.click("#evening-start")
    page.wait_for_selector("#evening-start:enabled")  # the phone says it could not start it, and lets it be tried
    phone.calm()
    phone.click("#evening-start")
    page.wait_for_selector("form.setup.for-evening")  # this phone holds the evening's key: it may start matches
    first_key, first_id, second_key = sent
    assert first_key and len(first_key) >= 22 and second_key == first_key
    assert re.search(r"\?e=([^&#]+)", page.url).group(1) == first_id


def test_a_language_chosen_on_an_evenings_pages_draws_them_again_in_its_words(new_phone, server_api):
    """The evening, its big screen and the form of a new evening stay what they are when the table's language is
    switched (they were drawn as the start form of a match): drawn again in the new words, what was typed kept."""
    evening, _ = an_evening(server_api)
    phone = new_phone(locale="en-US")
    phone.page.goto(f"/?e={evening['id']}")
    phone.page.wait_for_selector(".evening")
    phone.language("pl")
    assert phone.page.locator(".evening").count() == 1 and phone.page.locator("form.setup").count() == 0
    assert WORDS["pl-PL"][0] in phone.text(".evening")
    screen = new_phone(locale="en-US", viewport={"width": 1280, "height": 800})
    screen.page.goto(f"/?e={evening['id']}&screen")
    screen.page.wait_for_selector(".big-screen .big-seat, .big-screen .big-name")
    before = screen.text(".big-screen")
    screen.language("ru")
    assert screen.page.locator("form.setup").count() == 0 and screen.page.locator(".big-screen").count() == 1
    after = screen.text(".big-screen")
    assert "Piątek" in after and after != before and re.search("[а-яё]", after)
    form = new_phone(locale="en-US")
    form.page.goto("/?e=new")
    form.page.fill("#evening-name", "Sobota")
    form.language("ru")
    assert form.page.input_value("#evening-name") == "Sobota"
    assert form.text("#evening-start") == "Начать вечер"
