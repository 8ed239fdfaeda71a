"""A night of several matches from one form: the evening's next match is started from the start form, prefilled
from its last match (the game, its options, the stake, the people moved one seat on), with a fifth person added,
the options and the first dealer chosen; from a match one tap leads to its evening and, once it is over, to the
next match; the evening's heading says where it stands, never "final" between matches."""

from __future__ import annotations

import re

import pytest
from conftest_browser import LOCALES, PHONE, PHONES
from test_page_thumb import words

from referee import GAMES

pytestmark = pytest.mark.browser

CASES = [(size, lang) for size in PHONES for lang in LOCALES]


def an_evening_on_this_phone(phone, server_api) -> tuple[dict, dict]:
    """An evening (its key on this phone) with one Ogórek match of four, played to its end over the API."""
    evening = server_api.post("/api/evenings", {"name": "Piątek", "currency": "PLN"})
    match = server_api.post("/api/matches", {"game": "ogorek", "players": ["Kasia", "Łukasz", "Żaneta", "Marta"],
                                             "stake": "0.50", "options": {"limit": 31}, "evening": evening["id"]},
                            key=evening["key"])
    phone.open("/")
    phone.page.evaluate("([id, key]) => localStorage.setItem(`kibic.evening_key.${id}`, JSON.stringify(key))",
                        [evening["id"], evening["key"]])
    return evening, match


def each_language(phone, shown) -> None:
    """`shown(lang)` with the page in each language, switched in place (the language chosen is kept by the phone,
    so that the pages that come next open in the last of them)."""
    for lang in phone.languages(LOCALES):
        shown(lang)


@pytest.mark.parametrize("size", list(PHONES))
def test_the_next_match_of_an_evening_takes_a_fifth_person_options_and_the_first_dealer(new_phone, server_api, size):
    """Each screen of the way from a finished match to the next one and to the evening is looked at in each
    language, switched in place."""
    phone = new_phone(locale=LOCALES["en"], viewport=PHONES[size])
    evening, first = an_evening_on_this_phone(phone, server_api)
    page = phone.page
    for seat in (1, 2):  # Łukasz and Żaneta out: the first match is over
        server_api.post(f"/api/matches/{first['id']}/events", {"type": "penalty", "seat": seat, "points": 40},
                        key=evening["key"])
    server_api.post(f"/api/matches/{first['id']}/events", {"type": "end"}, key=evening["key"])
    phone.open(f"/?m={first['id']}")
    page.wait_for_selector("#finished")
    assert page.locator("#to-evening").count() == 1  # a tap to the evening, in the status line
    each_language(phone, lambda lang: phone.screenshot(f"night-finished-{size}-{lang}", full_page=False))
    phone.click("#next-match")  # and a tap to the next match
    page.wait_for_selector("form.setup.for-evening")
    assert page.locator("#to-evening").count() == 1
    assert page.is_checked('input[name="game"][value="ogorek"]')
    assert [page.input_value(f"#player-{i}") for i in range(4)] == ["Łukasz", "Żaneta", "Marta", "Kasia"]
    assert page.input_value("#option-limit") == "31"
    assert page.input_value("#stake") == "0.50"
    assert page.input_value("#currency") == "PLN"
    phone.click("#add-player")  # a friend who came late
    page.fill("#player-4", "Bartek")
    page.fill("#option-limit", "41")
    page.check("#dealer-choose")
    page.select_option("#dealer-seat", "2")  # Marta deals first
    each_language(phone, lambda lang: phone.screenshot(f"night-next-form-{size}-{lang}"))
    assert page.input_value("#player-4") == "Bartek" and page.input_value("#option-limit") == "41"
    phone.click("#start")
    page.wait_for_url(re.compile(r"\?m="))
    page.wait_for_selector("#mode.scoring")
    match_id = re.search(r"\?m=([^&#]+)", page.url).group(1)
    state = server_api(f"/api/matches/{match_id}")
    assert [p["name"] for p in state["players"]] == ["Łukasz", "Żaneta", "Marta", "Kasia", "Bartek"]
    assert state["options"]["limit"] == 41 and state["stake"] == "0.50" and state["evening"] == evening["id"]
    page.wait_for_selector('.deal-step .seat-buttons button[data-seat="2"][aria-pressed="true"]')
    phone.click("#to-evening")  # one tap to the evening
    page.wait_for_selector(".evening")
    assert page.locator(".evening-matches li").count() == 2

    def the_evening(lang: str) -> None:
        heading = page.locator(".evening h2").first.inner_text()
        assert heading == words(lang, "evening.standing_playing", n=2), lang
        assert heading != words(lang, "money.final"), lang
        phone.screenshot(f"night-evening-{size}-{lang}")
    each_language(phone, the_evening)


@pytest.mark.parametrize("size", list(PHONES))
def test_between_matches_the_evening_says_after_how_many(new_phone, server_api, size):
    phone = new_phone(locale=LOCALES["en"], viewport=PHONES[size])
    evening, first = an_evening_on_this_phone(phone, server_api)
    server_api.post(f"/api/matches/{first['id']}/events", {"type": "end"}, key=evening["key"])
    phone.page.goto(f"/?e={evening['id']}")
    phone.page.wait_for_selector(".evening")

    def after_one(lang: str) -> None:
        heading = phone.page.locator(".evening h2").first.inner_text()
        assert heading != words(lang, "money.final"), lang
        assert heading == words(lang, "evening.standing_after.one", n=1), lang
        next_match = phone.page.locator("#next-match").bounding_box()
        assert next_match["y"] + next_match["height"] <= PHONES[size]["height"], lang  # at the top: no scrolling
    each_language(phone, after_one)


def test_a_game_tapped_by_mistake_keeps_every_name(new_phone):
    """Four names, Dureń (two players) tapped by mistake, then Ogórek again: the four names are all there, on each
    phone in each language (switched in place)."""
    phone = new_phone(locale=LOCALES["en"], viewport=PHONE)
    page = phone.open("/").page
    for size, lang in CASES:
        phone.resize(PHONES[size])
        phone.language(lang)
        page.check('input[name="game"][value="ogorek"]')
        for index, name in enumerate(["Kasia", "Łukasz", "Żaneta", "Marta"]):
            page.fill(f"#player-{index}", name)
        page.check('input[name="game"][value="duren"]')
        assert page.locator(".player-row").count() == 2, (size, lang)
        page.check('input[name="game"][value="ogorek"]')
        assert [page.input_value(f"#player-{i}") for i in range(4)] == ["Kasia", "Łukasz", "Żaneta", "Marta"], (
            size, lang)
        page.fill("#player-0", "")


FIVE_NAMES = ["Agnieszka", "Bartłomiej", "Katarzyna", "Małgorzata", "Przemysław"]


@pytest.mark.parametrize("game", [name for name, game in GAMES.items() if game.max_players >= len(FIVE_NAMES)])
def test_a_finished_match_of_five_shows_each_name_whole_beside_its_place(new_phone, server_api, game):
    """Five seats in two columns at the end of a match, on each phone in each language (switched in place): the
    place is its number on the badge, so that each name (ten letters) is whole, never cut to a letter or two and
    "…"; the place's words are the badge's title."""
    match = server_api.post("/api/matches", {"game": game, "players": FIVE_NAMES})
    server_api.post(f"/api/matches/{match['id']}/events", {"type": "end"}, match["key"])
    state = server_api(f"/api/matches/{match['id']}")
    phone = new_phone(locale=LOCALES["en"], viewport=PHONES["360x740"])
    phone.open(f"/?m={match['id']}#key={match['key']}")
    phone.page.wait_for_selector("#finished")
    for size in PHONES:
        phone.resize(PHONES[size])
        for lang in LOCALES:
            phone.language(lang)
            phone.screenshot(f"finished-five-{game}-{size}-{lang}", full_page=False)
            names = phone.page.eval_on_selector_all(".seats .seat .name", """els => els.map(el => ({
                text: el.textContent, whole: el.scrollWidth <= el.clientWidth + 0.5 }))""")
            assert [n["text"] for n in names] == FIVE_NAMES, (size, lang)
            assert [n["text"] for n in names if not n["whole"]] == [], (size, lang)
            for player in state["players"]:
                badge = phone.page.locator(f'.seat[data-seat="{player["seat"]}"] .badge.place')
                assert str(player["place"]) in badge.inner_text(), (size, lang)
                assert str(player["place"]) in badge.get_attribute("title"), (size, lang)
