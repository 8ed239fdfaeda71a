"""Each game's deal step keeps its controls where the finger is when the table switches between Polish, Russian
and English: the lot's button, the seats, the card turned up and Deal stay in their places on both phones."""

from __future__ import annotations

import pytest
from conftest_browser import PHONES
from ogorek_helpers import SEED_PLAYERS, SEED_TRICKS
from test_page_games import switch_language

pytestmark = pytest.mark.browser
PLAYERS = {"ogorek": SEED_PLAYERS, "agurk": SEED_PLAYERS, "oh_hell": ["Ala", "Bob", "Cyd"], "duren": ["Ala", "Bob"]}


def places(phone) -> dict:
    """The deal step's box and the box of each of its controls (by what it is, not its words), on the page."""
    return phone.page.eval_on_selector(".deal-step", """step => {
        const box = (el) => {
            const r = el.getBoundingClientRect();
            return [Math.round(r.left), Math.round(r.top + window.scrollY), Math.round(r.width), Math.round(r.height)];
        };
        const shown = [...step.querySelectorAll("button, summary")].filter((el) => el.checkVisibility());
        const controls = shown.map((el) => [
            el.id || el.dataset.seat || el.dataset.card || el.dataset.suit || el.tagName, ...box(el)]);
        return {step: box(step), controls};
    }""")


def deal_step(new_phone, server_api, game: str, size: str, later: bool = False):
    """A match of `game` at its first deal (or, `later`, Ogórek after the seed's deal), opened in Polish."""
    match = server_api.post("/api/matches", {"game": game, "players": PLAYERS[game]})
    if later:
        events = f"/api/matches/{match['id']}/events"
        server_api.post(events, {"type": "deal", "dealer": 0}, match["key"])
        for trick in SEED_TRICKS:
            for name, card in trick:
                server_api.post(events, {"type": "play", "seat": SEED_PLAYERS.index(name), "card": card}, match["key"])
    phone = new_phone(locale="pl-PL", viewport=PHONES[size])
    phone.open(f"/?m={match['id']}#key={match['key']}")
    phone.page.wait_for_selector(".deal-step")
    phone.calm()
    return phone


def by_lot(phone) -> None:
    """Ogórek's first deal as it opens: the dealer by lot, chosen by the server."""
    assert phone.page.locator("#dealer-by-lot").get_attribute("aria-pressed") == "true"


def dealer_and_a_hand_begun(phone) -> None:
    """Agurk's first deal: W chosen to deal, and W's hand begun (one card of seven): Deal waits for the rest."""
    phone.click('.dealer-choice button[data-seat="1"]')
    phone.click(".known-hands summary")
    phone.click('.known-hands .seat-buttons button[data-seat="1"]')
    phone.click('.known-hands .keypad button[data-card="K"]')
    phone.page.wait_for_selector(".deal-step > .hint.warn")


def drawn_and_turned_up(phone) -> None:
    """Oh Hell's or Dureń's first deal: the dealer drawn by lot on this phone, and the queen of spades turned up."""
    phone.click("#draw-dealer")
    phone.page.wait_for_selector(".deal-step > .drawn")
    if phone.page.locator('.trump-pick .suit-tab[data-suit="S"]').count():  # Oh Hell's keypad: a suit, then a rank
        phone.click('.trump-pick .suit-tab[data-suit="S"]')
    phone.click('.trump-pick .keypad button[data-card="QS"]')
    phone.page.wait_for_selector("#log-deal:enabled")


def another_dealer(phone) -> None:
    """Ogórek's second deal, after the seed's deal and its result: N chosen to deal instead of the rule's dealer."""
    phone.click('.dealer-choice button[data-seat="2"]')
    phone.page.wait_for_selector(".deal-step > .hint.warn")


STEPS = {"ogorek": ("ogorek", False, by_lot), "agurk": ("agurk", False, dealer_and_a_hand_begun),
         "oh_hell": ("oh_hell", False, drawn_and_turned_up), "duren": ("duren", False, drawn_and_turned_up),
         "ogorek-later": ("ogorek", True, another_dealer)}


@pytest.mark.parametrize("size", list(PHONES))
@pytest.mark.parametrize("step", list(STEPS))
def test_the_deal_step_keeps_its_controls_in_place_when_the_language_changes(new_phone, server_api, step, size):
    """Ogórek's first deal in Polish, then Russian ("Жребием", the longest word for the lot), English and Polish
    again: the step, its buttons (the lot, the seats, Deal, the known hands) keep their boxes. So do the other games'
    deal steps: Agurk's with a hand begun (its note above Deal), Oh Hell's and Dureń's with the dealer drawn on this
    phone (the lot's note) and the card turned up, and Ogórek's second deal after a result, with a dealer other than
    the rule's (its note)."""
    game, later, prepare = STEPS[step]
    phone = deal_step(new_phone, server_api, game, size, later)
    prepare(phone)
    phone.calm()
    before = places(phone)
    assert len(before["controls"]) >= 4
    for lang in ("ru", "en", "pl"):
        switch_language(phone, lang)
        now = places(phone)
        assert now["step"] == before["step"], lang
        assert [c for c in now["controls"] if c not in before["controls"]] == [], lang
        assert now == before, lang
        phone.page.eval_on_selector("#log-deal", "el => el.scrollIntoView({block: 'center'})")
        phone.calm()
        phone.screenshot(f"deal-step-languages-{step}-{size}-{lang}", full_page=False)
