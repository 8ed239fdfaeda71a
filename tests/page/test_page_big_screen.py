"""The big screen by the table (`/?e=<id>&screen`): on a tablet or TV in landscape, the current match's seats,
cards on the table and scoresheet, the evening's standings and the referee's last word, large, and live."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

SEED_DEAL = "1K 22 33 0A  09 1K 25 37  17 2Q 3Q 02  39 09 13 2Q  210 38 06 14  25 39 07 16".split()
# W plays 6 in trick 5 as their lowest card and then shows 4 as the last card: the 4 proves the 6 illegal
PROVEN = SEED_DEAL[:16] + "210 38 06 16  25 39 07 14".split()
SCREENS = {"1280x800": {"width": 1280, "height": 800}, "1024x768": {"width": 1024, "height": 768}}


def an_evening_at_the_seed_deal(server_api, deal=SEED_DEAL) -> tuple[dict, dict]:
    evening = server_api.post("/api/evenings", {"name": "Piątek", "currency": "PLN"})
    first = server_api.post("/api/matches", {"game": "ogorek", "players": ["Ann", "Bob"], "stake": "1",
                                             "evening": evening["id"]}, key=evening["key"])
    server_api.post(f"/api/matches/{first['id']}/events", {"type": "penalty", "seat": 1, "points": 22},
                    key=evening["key"])
    match = server_api.post("/api/matches", {"game": "ogorek", "players": ["S", "W", "N", "E"],
                                             "evening": evening["id"]}, key=evening["key"])
    post = lambda event: server_api.post(f"/api/matches/{match['id']}/events", event, key=evening["key"])  # noqa: E731
    post({"type": "deal", "dealer": 0})
    for play in deal:
        post({"type": "play", "seat": int(play[0]), "card": play[1:]})
    post({"type": "deal"})  # W deals the second deal; N leads
    post({"type": "play", "seat": 2, "card": "9"})
    return evening, match


@pytest.mark.parametrize("size", list(SCREENS))
def test_the_big_screen_shows_the_match_the_sheet_and_the_standings_large(new_phone, server_api, size):
    evening, _ = an_evening_at_the_seed_deal(server_api)
    screen = new_phone(viewport=SCREENS[size])
    screen.page.goto(f"/?e={evening['id']}&screen")
    screen.page.wait_for_selector(".big-screen #scoresheet")
    assert screen.text(".big-title h1") == "Piątek"
    assert screen.page.locator(".big-seat .big-name").all_inner_texts() == ["S", "W", "N", "E"]
    assert screen.page.locator(".big-seat .big-score").all_inner_texts() == ["0", "0", "0", "9"]
    assert screen.page.locator('.big-seat[data-seat="2"] .big-cards .card').all_inner_texts() == ["9"]
    assert screen.page.locator('.big-seat[data-seat="3"]').get_attribute("class").split().count("to-act") == 1
    assert screen.page.locator("#scoresheet tbody tr").count() == 1
    assert screen.page.locator(".big-standings th").all_inner_texts() == ["Ann", "S", "W", "N", "E", "Bob"]
    assert screen.page.locator(".big-standings .transfer").all_inner_texts() == ["Bob pays Ann 2.00 PLN"]
    size_of = "el => parseFloat(getComputedStyle(el).fontSize)"
    assert screen.page.locator(".big-standings th").first.evaluate(size_of) >= 28
    assert screen.page.locator(".big-seat .big-score").first.evaluate(size_of) >= 40
    overflow = screen.page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0
    screen.screenshot(f"big-screen-{size}", full_page=False)


def test_the_big_screen_follows_the_table(new_phone, server_api):
    evening, match = an_evening_at_the_seed_deal(server_api)
    screen = new_phone(viewport=SCREENS["1280x800"])
    screen.page.goto(f"/?e={evening['id']}&screen")
    screen.page.wait_for_selector(".big-screen #scoresheet")
    assert screen.page.locator(".big-referee").count() == 0
    server_api.post(f"/api/matches/{match['id']}/events", {"type": "play", "seat": 3, "card": "10"}, key=match["key"])
    screen.page.wait_for_selector('.big-seat[data-seat="3"] .big-cards .card')
    assert screen.page.locator('.big-seat[data-seat="3"] .big-cards .card').all_inner_texts() == ["10"]
    assert "K" not in screen.text(".big-match")  # no card of a hand; none was entered, none is shown


def test_the_big_screen_says_the_referees_last_word(new_phone, server_api):
    evening, _ = an_evening_at_the_seed_deal(server_api, PROVEN)
    screen = new_phone(viewport=SCREENS["1280x800"])
    screen.page.goto(f"/?e={evening['id']}&screen")
    screen.page.wait_for_selector(".big-referee")
    assert "W" in screen.text(".big-referee") and "6" in screen.text(".big-referee")
    screen.screenshot("big-screen-referee", full_page=False)


def test_the_evening_page_links_to_its_big_screen(phone, server_api):
    evening, _ = an_evening_at_the_seed_deal(server_api)
    phone.page.goto(f"/?e={evening['id']}")
    phone.page.wait_for_selector(".evening")
    assert phone.page.locator(f'a[href="?e={evening["id"]}&screen"]').count() == 1


def test_the_big_screen_is_never_drawn_in_the_phones_small_type(new_phone, server_api):
    """Its own styles come late (held back 1.5 s here, as on a slow link): nothing is drawn before they apply, so the
    screen never shows the phone's small type first and then grows under the eyes of the room."""
    evening, _ = an_evening_at_the_seed_deal(server_api)
    screen = new_phone(viewport=SCREENS["1280x800"])

    def late(route) -> None:
        screen.page.wait_for_timeout(1500)
        route.continue_()

    screen.page.route("**/bigscreen.css", late)
    screen.page.goto(f"/?e={evening['id']}&screen")
    sizes = screen.page.evaluate("""() => new Promise((done) => {
        const seen = [];
        const look = () => {
            const th = document.querySelector('.big-standings th');
            if (th) seen.push(parseFloat(getComputedStyle(th).fontSize));
            if (seen.length >= 20) done(seen); else requestAnimationFrame(look);
        };
        look();
    })""")
    assert len(sizes) == 20 and min(sizes) >= 28, sizes
