"""The dark theme (issue 30): the page follows the phone's `prefers-color-scheme`, and the switch in the bar
(the phone's, light, dark; kept on the phone) overrides it both ways; every colour of the CSS is the theme's."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest_browser import FIRST, LOCALES, PHONES

pytestmark = pytest.mark.browser

CSS = Path(__file__).resolve().parents[2] / "webui" / "static" / "css"
BACKGROUND = "() => getComputedStyle(document.documentElement).backgroundColor"  # the page's paper
WORDS = {"en-US": ("Colours: as the phone", "Colours: light", "Colours: dark"),
         "pl-PL": ("Kolory: jak w telefonie", "Kolory: jasne", "Kolory: ciemne"),
         "ru-RU": ("Цвета: как в телефоне", "Цвета: светлые", "Цвета: тёмные")}


def lightness(css_colour: str) -> float:
    assert css_colour.startswith("rgb("), css_colour  # opaque: a transparent paper would read as black
    red, green, blue = (int(part) for part in re.findall(r"\d+", css_colour)[:3])
    return (0.2126 * red + 0.7152 * green + 0.0722 * blue) / 255


def test_every_colour_of_the_css_comes_from_the_theme():
    """Outside the theme's own blocks (the :root declarations) no rule names a colour of its own."""
    for path in sorted(CSS.glob("*.css")):
        text = re.sub(r"/\*.*?\*/", "", path.read_text(encoding="utf-8"), flags=re.S)
        rules = re.sub(r"(@media \(prefers-color-scheme: dark\) \{\s*)?:root[^{]*\{[^}]*\}\s*\}?", "", text)
        found = re.findall(r"#[0-9a-fA-F]{3,8}\b|rgba?\(|hsla?\(|:\s*(?:white|black)\b", rules)
        assert found == [], (path.name, found)


# each size's walk starts in another language, from the phone's locale


@pytest.mark.parametrize("size", list(PHONES))
def test_the_page_is_dark_on_a_dark_phone_and_the_switch_overrides_it_both_ways(new_phone, size):
    """On a dark phone the page is dark; the switch makes it light (kept across a reload), then dark, then the
    phone's again. One walk a size: at each step the switch and the page's paper are looked at in each language
    switched in place (the page names the switch again in the new words, the colours stay as chosen)."""
    phone = new_phone(locale=LOCALES[FIRST[size]], viewport=PHONES[size], color_scheme="dark")
    phone.open("/")
    switch = phone.page.locator("#theme")
    locales = {locale[:2]: locale for locale in WORDS}
    for lang in phone.languages(locales):
        assert lightness(phone.page.evaluate(BACKGROUND)) < 0.15, lang  # the phone's dark
        assert switch.get_attribute("aria-label") == WORDS[locales[lang]][0], lang
        box = switch.bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44 and box["x"] + box["width"] <= PHONES[size]["width"], lang
    phone.click("#theme")
    for lang in phone.languages(locales):
        assert switch.get_attribute("aria-label") == WORDS[locales[lang]][1], lang
        assert lightness(phone.page.evaluate(BACKGROUND)) > 0.85, lang  # light on a dark phone
    phone.page.reload()
    phone.page.wait_for_selector("form.setup")
    for lang in phone.languages(locales):
        assert lightness(phone.page.evaluate(BACKGROUND)) > 0.85, lang  # remembered
        assert switch.get_attribute("aria-label") == WORDS[locales[lang]][1], lang
    phone.click("#theme")
    for lang in phone.languages(locales):
        assert lightness(phone.page.evaluate(BACKGROUND)) < 0.15, lang
        assert switch.get_attribute("aria-label") == WORDS[locales[lang]][2], lang
    phone.click("#theme")  # back to the phone's: dark here
    for lang in phone.languages(locales):
        assert switch.get_attribute("aria-label") == WORDS[locales[lang]][0], lang
        assert lightness(phone.page.evaluate(BACKGROUND)) < 0.15, lang


@pytest.mark.parametrize("size", list(PHONES))
def test_the_switch_makes_a_light_phone_dark_and_keeps_it(new_phone, size):
    phone = new_phone(viewport=PHONES[size])
    phone.open("/")
    assert lightness(phone.page.evaluate(BACKGROUND)) > 0.85
    phone.click("#theme")
    phone.click("#theme")
    assert lightness(phone.page.evaluate(BACKGROUND)) < 0.15
    phone.page.reload()
    phone.page.wait_for_selector("form.setup")
    assert lightness(phone.page.evaluate(BACKGROUND)) < 0.15
    phone.screenshot(f"dark-setup-{size}", full_page=False)


def test_the_scoresheet_and_the_big_screen_are_dark_the_penalty_and_red_suits_readable(new_phone, server_api):
    """On a dark phone the sheet of five with its penalty mark, and the big screen by the table, are dark; axe finds
    no contrast under the penalty's mark, the chart or the red suits of the big screen's cards."""
    from accessibility import Axe
    from test_page_scoresheet import five_with_a_cut_deck

    evening, match, seat = five_with_a_cut_deck(server_api)
    options = {"runOnly": {"type": "rule", "values": ["color-contrast"]}, "resultTypes": ["violations"]}
    phone = new_phone(viewport=PHONES["360x740"], color_scheme="dark")
    phone.open(f"/?m={match['id']}#key={match['key']}")
    phone.tab("scores")
    phone.page.wait_for_selector("#scoresheet .penalty-mark")
    assert lightness(phone.page.evaluate(BACKGROUND)) < 0.15
    phone.calm()
    assert Axe().run(phone.page, options=options).response["violations"] == []
    phone.page.eval_on_selector("#scoresheet", "el => { el.scrollIntoView(); window.scrollBy(0, -120); }")
    phone.screenshot("dark-scoresheet-penalty-360x740", full_page=False)
    screen = new_phone(viewport={"width": 1280, "height": 720}, color_scheme="dark")
    screen.page.goto(f"/?e={evening['id']}&screen")
    screen.page.wait_for_selector(".big-screen #scoresheet .penalty-mark")
    assert lightness(screen.page.evaluate(BACKGROUND)) < 0.15
    screen.calm()
    assert Axe().run(screen.page, options=options).response["violations"] == []
    screen.screenshot("dark-big-screen-1280x720", full_page=False)


def test_red_suits_stay_red_on_dark(new_phone, server_api):
    """A red suit's card on the table is drawn in the dark theme's red, apart from the ink of a black one."""
    match = server_api.post("/api/matches", {"game": "duren", "players": ["Ala", "Bob"]})
    server_api.post(f"/api/matches/{match['id']}/events", {"type": "deal", "dealer": 0, "trump": "9S"}, match["key"])
    phone = new_phone(viewport=PHONES["390x844"], color_scheme="dark")
    phone.open(f"/?m={match['id']}#key={match['key']}")
    red = phone.page.locator(".key.red").first
    black = phone.page.locator(".key:not(.red)").first
    colour = "el => getComputedStyle(el).color"
    red_colour, black_colour = red.evaluate(colour), black.evaluate(colour)
    r, g, b = (int(part) for part in re.findall(r"\d+", red_colour)[:3])
    assert r > 200 and g < 150 and b < 150, red_colour  # red, light enough for the dark key
    assert red_colour != black_colour
    phone.screenshot("dark-duren-keys-390x844", full_page=False)
