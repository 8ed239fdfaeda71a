"""A member's matches over time on their page: the chart of their place in each match (1st at the top), the chart of
the rating each match left them with, and the latest matches as a table that says in words what the charts draw;
in the three languages on both phone sizes, read with the club's key or its read link.

The club is test_page_club's: Ann is 1st of 3 in A, 3rd of 3 in B (the first evening) and 3rd of 3 in C (the
second), -4.00 PLN in each she lost and +6.00 PLN in the one she won.
"""

from __future__ import annotations

import pytest
from conftest_browser import PHONES
from test_page_club import a_club, fits, ids, read

pytestmark = pytest.mark.browser

WORDS = {  # the two headings, the latest match's game, place and money, and the places chart's text alternative
    "en-US": ("Places over time", "Rating over time", "Ogórek", "3rd of 3", "-4.00", "latest 3 matches"),
    "pl-PL": ("Miejsca w czasie", "Ranking w czasie", "Ogórek", "3. z 3", "-4,00", "ostatnich partii (3)"),
    "ru-RU": ("Места во времени", "Рейтинг во времени", "Огурек", "3-е из 3", "-4,00", "последних партий (3)"),
}


def heights(phone, chart: str) -> list[float]:
    return [float(circle.get_attribute("cy")) for circle in phone.page.locator(f"{chart} circle").all()]


@pytest.mark.parametrize("size", list(PHONES))
def test_a_members_page_charts_places_and_rating_match_after_match(new_phone, server_api, size):
    """A member's page, in each language switched in place (the member read again in its words)."""
    club = a_club(server_api)
    member = ids(club, server_api)
    ordinal = read(server_api, club)["ratings"][member["Ann"]]["ogorek"]["ordinal"]
    phone = new_phone(locale="en-US", viewport=PHONES[size])
    phone.page.goto(f"/?c={club['id']}#key={club['key']}")
    phone.page.wait_for_selector(".club")
    phone.page.goto(f"/?c={club['id']}&member={member['Ann']}")
    phone.page.wait_for_selector(".member-history")
    for locale in WORDS:
        places, rating, game, place, money, alternative = WORDS[locale]
        phone.language(locale[:2])
        phone.page.wait_for_function("(heading) => [...document.querySelectorAll('.member-history h2')]"
                                     ".some((h) => h.textContent === heading)", arg=places)  # read again, drawn
        phone.calm()
        headings = phone.page.locator(".member-history h2").all_inner_texts()
        assert headings == [places, rating], locale
        # places in time: 1st, then 3rd twice, the 1st drawn higher
        first, second, third = heights(phone, ".places-chart")
        assert first < second == third, locale
        assert alternative in phone.page.locator(".places-chart").get_attribute("aria-label"), locale
        assert phone.page.locator(".places-chart title").count() == 1, locale
        # the rating after each match: up after the win, down after each 3rd place
        up, down, lower = heights(phone, ".rating-chart")
        assert up < down < lower, locale  # the SVG's y grows downwards
        rows = phone.page.locator(".member-matches tbody tr")
        assert rows.count() == 3, locale
        latest = [text.replace("\u00a0", " ").replace("\u2011", "-")
                  for text in rows.first.locator("td").all_inner_texts()]
        assert latest[1] == game and latest[2] == place and latest[4] == money, (locale, latest)
        shown = float(latest[3].replace(",", "."))
        assert abs(shown - ordinal) < 0.05, (locale, latest, ordinal)
        phone.page.locator(".member-history").scroll_into_view_if_needed()
        phone.screenshot(f"club-history-{locale}-{size}")
        fits(phone)


def test_the_read_link_shows_the_history_too(new_phone, server_api):
    club = a_club(server_api)
    member = ids(club, server_api)
    phone = new_phone()
    phone.page.goto(club["read_link"])
    phone.page.wait_for_selector(".club")
    phone.click(f"#member-{member['Dan']}")
    phone.page.wait_for_selector(".member-history")
    assert heights(phone, ".places-chart") and phone.page.locator(".member-matches tbody tr").count() == 1
    assert phone.page.locator(".member-matches tbody td").all_inner_texts()[2] == "2nd\u00a0of\u00a03"
