"""axe-core (WCAG 2 A and AA) over every screen of every game: no serious or critical violation.

axe.min.js comes inside the axe-playwright-python package (nothing is loaded from elsewhere at run time)."""

from __future__ import annotations

import pytest
from conftest_browser import PHONES
from per_game import PerGame

from referee import GAMES

pytestmark = pytest.mark.browser

OPTIONS = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "experimental"]},
           "resultTypes": ["violations"]}  # experimental: label-content-name-mismatch (a key showing K named "king")


@pytest.fixture(scope="module")
def axe():
    from accessibility import Axe
    return Axe()


SCHEMES = ["light", "dark"]
"""Each screen of a walk is checked on a light phone and on a dark one (the dark theme, issue 30), the phone's
scheme switched in place (the page follows it at once): the dark check leaves a screenshot of each screen,
`dark-<screen>.png`."""


def check(phone, axe, screen: str, found: list) -> None:
    phone.calm()
    for scheme in SCHEMES:
        phone.page.emulate_media(color_scheme=scheme)
        paper = phone.page.evaluate("() => getComputedStyle(document.documentElement).backgroundColor")
        if scheme == "dark":
            if paper != "rgb(18, 20, 19)":  # the dark theme's --paper: the page checked is the dark one
                found.append(f"{screen}: not dark on a dark phone ({paper})")
            phone.screenshot("dark-" + screen.replace(" ", "-"), full_page=False)
        elif paper == "rgb(18, 20, 19)":
            found.append(f"{screen}: dark on a light phone")
        results = axe.run(phone.page, options=OPTIONS)
        for violation in results.response["violations"]:
            if violation["impact"] in ("serious", "critical"):
                targets = [node["target"] for node in violation["nodes"]][:3]
                found.append(f"{screen} ({scheme}): {violation['id']} ({violation['impact']}) {targets}")
    phone.page.emulate_media(color_scheme="light")


def tabs(phone, axe, game: str, found: list) -> None:
    for tab in ("scores", "money", "share", "log"):
        phone.tab(tab)
        phone.page.wait_for_selector(f"#panel-{tab}")
        check(phone, axe, f"{game} {tab}", found)
    phone.tab("table")


def ogorek_screens(phone, axe, found):
    phone.start_match(["S", "W", "N", "E"], dealer=0, stake="0.50")
    check(phone, axe, "ogorek deal", found)
    phone.click(".known-hands summary")
    check(phone, axe, "ogorek known hands", found)
    phone.click("#log-deal")
    phone.play(1, "K")
    phone.wait_turn(2)
    check(phone, axe, "ogorek play", found)
    phone.click('.seat[data-seat="3"] button')
    phone.tap_card("9")
    phone.page.locator("#refusal").wait_for()
    check(phone, axe, "ogorek refusal", found)
    phone.click("#penalty")
    check(phone, axe, "ogorek penalty", found)
    tabs(phone, axe, "ogorek", found)
    phone.click("#end")
    check(phone, axe, "ogorek end question", found)
    phone.click("#end-confirm")
    phone.page.wait_for_selector("#finished")
    check(phone, axe, "ogorek finished", found)


def ogurets_screens(phone, axe, found):
    phone.start_match(["S", "W", "N"], game="ogurets", dealer=0, options={"jokers": 3})
    check(phone, axe, "ogurets deal", found)
    phone.click("#log-deal")
    phone.play(1, "X")
    phone.wait_turn(2)
    check(phone, axe, "ogurets play", found)
    tabs(phone, axe, "ogurets", found)


def oh_hell_screens(phone, axe, found):
    phone.start_match(["Ala", "Bob", "Cyd"], game="oh_hell", dealer=0, options={"hook": True})
    phone.click('.suit-tab[data-suit="H"]')
    phone.tap_card("9H")
    check(phone, axe, "oh_hell deal", found)
    phone.click("#log-deal")
    phone.wait_turn(1)
    check(phone, axe, "oh_hell bid", found)
    for seat in (1, 2, 0):
        phone.wait_turn(seat)
        phone.click(f'.bids button[data-bid="{0 if seat else 0}"]')
    phone.wait_turn(1)
    phone.click("#show-hands")
    check(phone, axe, "oh_hell play", found)
    phone.click('.suit-tab[data-suit="S"]')
    phone.tap_card("AS")
    phone.wait_turn(2)
    phone.tap_card("2S")
    phone.wait_turn(0)
    phone.tap_card("3S")
    phone.page.wait_for_selector(".result")
    check(phone, axe, "oh_hell hand over", found)
    tabs(phone, axe, "oh_hell", found)


def duren_screens(phone, axe, found):
    phone.start_match(["Ala", "Bob"], game="duren", dealer=0)
    phone.tap_card("QS")
    check(phone, axe, "duren deal", found)
    phone.click("#log-deal")
    phone.page.wait_for_selector(".attack-step")
    phone.calm()
    check(phone, axe, "duren attack", found)
    phone.tap_card("9H")
    phone.click("#log-attack")
    phone.page.wait_for_selector(".defend-step")
    check(phone, axe, "duren defence", found)
    phone.tap_card("10H")
    phone.click("#log-defence")
    phone.page.wait_for_selector(".attack-step")
    tabs(phone, axe, "duren", found)


def agurk_screens(phone, axe, found):
    phone.start_match(["S", "W", "N"], game="agurk", dealer=0, stake="1")
    check(phone, axe, "agurk deal", found)
    phone.click("#log-deal")
    phone.play(1, "A")
    phone.wait_turn(2)
    check(phone, axe, "agurk ace led", found)
    tabs(phone, axe, "agurk", found)


def durak_screens(phone, axe, found):
    phone.start_match(["Ala", "Bob", "Cyd", "Dan", "Ewa"], game="durak", dealer=0, options={"transfer": True})
    phone.tap_card("7H")
    phone.click('.first-attacker button[data-seat="1"]')
    check(phone, axe, "durak deal", found)
    phone.click("#log-deal")
    phone.page.wait_for_selector(".bout-step")
    check(phone, axe, "durak lead", found)
    phone.tap_card("9S")
    phone.click(".bout-step .record")
    phone.page.wait_for_selector("#log-take:enabled")
    phone.calm()
    check(phone, axe, "durak defence", found)
    phone.click('.bout-seats button[data-seat="3"]')
    phone.tap_card("9D")
    check(phone, axe, "durak throw-in", found)
    phone.click(".bout-step .record")
    phone.page.wait_for_selector('.bout-places [data-attack="9D"]')
    phone.click("#log-take")
    phone.page.wait_for_selector("#log-done:enabled")
    phone.click("#log-done")
    phone.page.wait_for_selector(".last-trick")
    tabs(phone, axe, "durak", found)


SCREENS = PerGame("SCREENS in tests/page/test_page_axe.py", "its walk through the screens of the game, with the "
                  "table's language and the phone it is checked in", {
                      "ogorek": (ogorek_screens, "en-US", "360x740"),
                      "ogurets": (ogurets_screens, "pl-PL", "390x844"),
                      "oh_hell": (oh_hell_screens, "ru-RU", "360x740"),
                      "duren": (duren_screens, "pl-PL", "390x844"),
                      "agurk": (agurk_screens, "ru-RU", "390x844"),
                      "durak": (durak_screens, "ru-RU", "360x740"),
                  })


@pytest.mark.parametrize("game", sorted(GAMES))
def test_no_serious_violation_on_any_screen_of_the_game(new_phone, axe, game):
    walk, lang, size = SCREENS[game]
    phone = new_phone(locale=lang, viewport=PHONES[size])
    found: list[str] = []
    phone.open("/")
    check(phone, axe, "start form", found)
    walk(phone, axe, found)
    follower = new_phone(locale=lang, viewport=PHONES[size])
    follower.open(phone.page.url.split("#")[0])
    follower.page.wait_for_selector("#mode.following")
    check(follower, axe, f"{game} follower", found)
    assert found == []


def test_no_serious_violation_on_a_club_and_a_members_page(new_phone, server_api, axe):
    from test_page_club import a_club, ids

    club = a_club(server_api)
    member = ids(club, server_api)
    found: list[str] = []
    phone = new_phone(locale="pl-PL", viewport=PHONES["360x740"])
    phone.page.goto(f"/?c={club['id']}")
    phone.page.wait_for_selector(".club-locked")
    check(phone, axe, "club without its key", found)
    phone.page.goto(f"/?c={club['id']}#key={club['key']}")
    phone.page.wait_for_selector(".mark-paid")
    check(phone, axe, "club", found)
    phone.page.select_option("#merge-other", member["Bob"])
    phone.click("#merge-ask")  # the keeping of the club, its merge asked in the bar by the thumb
    phone.page.wait_for_selector("#club-bar[role=alertdialog]")
    check(phone, axe, "club keeping, a merge asked", found)
    phone.click("#merge-no")
    phone.click(f"#member-{member['Ann']}")
    phone.page.wait_for_selector(".member-history")  # the member's places and rating over time too
    phone.page.select_option("#head-to-head-with", member["Bob"])
    phone.page.wait_for_selector(".head-to-head-total")
    check(phone, axe, "club member", found)
    assert found == []
