"""The page draws a game it has never heard of from the catalogue alone: Sprint (tests/support/throwaway_game.py),
registered in a gunicorn of this test's own, is offered on the start form, dealt, and played on the keypad of its
kind ("ranks"), a key for each rank its rules list; the ace it leads is judged as the family's ace led. Its words
are missing (a real game brings them: docs/adding-a-game.md): the page takes its title from the catalogue, and
where it asks for a word by the game's name (the deal's instructions, the result) it shows the key; nothing else
is amiss (no script error)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest_browser import PHONES, Phone, ServerApi
from gunicorn_server import gunicorn

pytestmark = pytest.mark.browser
SUPPORT = Path(__file__).resolve().parents[1] / "support"  # throwaway_game.py


@pytest.fixture(scope="module")
def sprint_server(tmp_path_factory):
    """Kibic with Sprint registered, on a database of its own."""
    env = {"REFEREE_DB": str(tmp_path_factory.mktemp("sprint") / "referee.db"), "PYTHONPATH": str(SUPPORT)}
    with gunicorn("throwaway_game:create_app()", env, workers=1) as base:
        yield base


@pytest.mark.parametrize("size", list(PHONES))
def test_the_page_offers_deals_and_plays_a_game_from_the_catalogue_alone(chromium, sprint_server, size):
    server = ServerApi(sprint_server)
    phone = Phone(chromium, sprint_server, viewport=PHONES[size])
    try:
        rules = next(game for game in server("/api/games")["games"] if game["game"] == "sprint")["rules"]
        match_id = phone.start_match(["S", "W", "N"], game="sprint", dealer=0, options={"deals": 2})
        phone.click("#log-deal")
        phone.wait_turn(1)
        keys = phone.page.eval_on_selector_all(".action .keypad button", "els => els.map(el => el.dataset.card)")
        assert keys == rules["ranks"]
        phone.screenshot(f"throwaway-game-keypad-{size}", full_page=False)
        phone.tap_card("A")
        phone.wait_turn(2)
        state = server(f"/api/matches/{match_id}")
        assert state["expected"]["rule"] == "lowest" and state["deal"]["table"] == [{"seat": 1, "card": "A",
                                                                                     "seq": 2}]
        phone.screenshot(f"throwaway-game-ace-led-{size}", full_page=False)
        assert phone.problems == []
    finally:
        phone.close()

