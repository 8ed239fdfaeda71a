"""The seats above the step take the same lines in every language: with five to seven players (the seats in two
columns), switching among Polish, English and Russian at a later deal of Oh Hell, while it is dealt, bid and played,
moves no seat and no control of the step below them."""

from __future__ import annotations

import pytest
from conftest_browser import LOCALES, PHONES, SCREENSHOTS
from test_page_deal_step import LONG_NAMES, MORE_LONG_NAMES, oh_hell_but_the_last_card

pytestmark = pytest.mark.browser

NAMES = {"short": ["Ala", "Bob", "Cyd", "Dan", "Ewa", "Fil", "Gosia"], "long": (LONG_NAMES + MORE_LONG_NAMES)[:7]}


def boxes(phone) -> dict:
    """Where each seat and each shown control of the step (buttons, the known hands' summary) is on the screen, and
    how far the page is scrolled."""
    return phone.page.evaluate("""() => {
        const box = (el) => {
            const r = el.getBoundingClientRect();
            return [r.left, r.top, r.width, r.height].map((v) => Math.round(v));
        };
        const what = (el) => el.id || el.dataset.seat || el.dataset.card || el.dataset.suit || el.dataset.bid
            || el.tagName;
        const seats = [...document.querySelectorAll(".seats > li")]
            .map((el) => ["seat " + el.dataset.seat, ...box(el)]);
        const controls = [...document.querySelectorAll(".action button, .action summary")]
            .filter((el) => el.checkVisibility()).map((el) => [what(el), ...box(el)]);
        // a seat's figures each on a line of its own, whole (a name may be cut: it is whole in its title)
        const cut = [...document.querySelectorAll(".seats .figure")].filter((el) => el.scrollWidth > el.clientWidth)
            .map((el) => el.textContent);
        return {scrolled: Math.round(window.scrollY), seats, controls, cut};
    }""")


def moved(before: dict, now: dict) -> list:
    """What is not where it was (by more than 1 px), or is not there at all."""
    if abs(before["scrolled"] - now["scrolled"]) > 1:
        return [("scrolled", before["scrolled"], now["scrolled"])]
    if [c[0] for c in before["seats"] + before["controls"]] != [c[0] for c in now["seats"] + now["controls"]]:
        return [("not the same controls", before, now)]
    return [(was, then) for was, then in zip(before["seats"] + before["controls"], now["seats"] + now["controls"],
                                             strict=True)
            if any(abs(a - b) > 1 for a, b in zip(was[1:], then[1:], strict=True))]


def later_deal(server_api, count: int, phase: str, names: str = "short") -> dict:
    """An Oh Hell match of `count` players after its first deal: at the second deal's step ("deal"), its bids (two
    bids in, "bid") or its first trick (the first card led, "play")."""
    players = NAMES[names][:count]
    match = server_api.post("/api/matches", {"game": "oh_hell", "players": players})
    events = f"/api/matches/{match['id']}/events"
    for event in [*oh_hell_but_the_last_card(players), {"type": "play", "seat": 0, "card": "4S"}]:
        server_api.post(events, event, match["key"])
    if phase == "deal":
        return match
    state = server_api(f"/api/matches/{match['id']}")
    dealer = state["expected"]["dealer"]
    server_api.post(events, {"type": "deal", "dealer": dealer, "trump": "2C"}, match["key"])
    bidders = [*range(dealer + 1, count), *range(dealer + 1)]
    for seat in bidders[:2] if phase == "bid" else bidders:
        server_api.post(events, {"type": "bid", "seat": seat, "bid": 0}, match["key"])
    if phase == "bid":
        return match
    server_api.post(events, {"type": "play", "seat": (dealer + 1) % count, "card": "AH"}, match["key"])
    return match


STEPS = {"deal": ".deal-step", "bid": ".bid-step", "play": ".play-step"}
# each step with five and seven players on the narrowest phone (where the words wrap soonest), the first trick with
# seven on the other, and the first trick with the longest names on both
CASES = [(phase, count, "short", "360x740") for phase in STEPS for count in (5, 7)] + [
    ("play", 7, "short", "390x844")] + [("play", 7, "long", size) for size in PHONES]


@pytest.mark.parametrize(("phase", "count", "names", "size"), CASES)
def test_switching_the_language_moves_no_seat_and_no_control_with_many_players(new_phone, server_api, phase, count,
                                                                               names, size):
    """Oh Hell with five and with seven players, at the second deal: its deal step, its bids and its first trick, the
    page opened in Polish and switched to English, Russian and back to Polish. Each seat (two columns of them) keeps
    its box, and so does every control of the step below: the seats' words (the dealer's and the turn's badges, the
    points, the bid and the tricks taken) take the same lines in every language. They took three lines in Polish and
    two in English, which moved Deal and the keypad by some 60 px. No figure is cut, with the longest names too."""
    match = later_deal(server_api, count, phase, names)
    phone = new_phone(locale=LOCALES["pl"], viewport=PHONES[size])
    phone.open(f"/?m={match['id']}#key={match['key']}")
    phone.page.wait_for_selector(STEPS[phase])
    phone.calm()
    shot = f"seat-languages-{phase}-{count}-{names}-{size}"
    phone.screenshot(f"{shot}-first", full_page=False)
    before = boxes(phone)
    assert len(before["seats"]) == count and len(before["controls"]) >= 3, before
    assert before["cut"] == [], before
    for lang in ("en", "ru", "pl"):
        phone.language(lang)
        phone.screenshot(f"{shot}-{lang}", full_page=False)
        now = boxes(phone)
        seats = phone.page.eval_on_selector(".seats", """el => {  // on the page: the shot scrolls nothing
            const r = el.getBoundingClientRect();
            return {x: r.left, y: r.top + window.scrollY, width: r.width, height: r.height};
        }""")
        phone.page.screenshot(path=str(SCREENSHOTS / f"{shot}-{lang}-seats.png"), full_page=True, clip=seats)
        assert moved(before, now) == [], lang
        assert now["cut"] == [], lang
