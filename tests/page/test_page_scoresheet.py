"""The scoresheet as on paper: a row per deal, a column per player, each deal's figure and the running total,
the dealer marked; the CSV download has the same rows, Oh Hell's bids included."""

from __future__ import annotations

import csv
import io

import pytest
from conftest_browser import PHONES

pytestmark = pytest.mark.browser


def post(server_api, match, body):
    return server_api.post(f"/api/matches/{match['id']}/events", body, match["key"])


def sheet(phone) -> list[list[str]]:
    phone.tab("scores")
    phone.page.wait_for_selector("#scoresheet")
    return [row.locator("th, td").all_inner_texts() for row in phone.page.locator("#scoresheet tbody tr").all()]


def downloaded_csv(phone) -> list[list[str]]:
    phone.tab("share")
    with phone.page.expect_download() as download:
        phone.click("#download-csv")
    return list(csv.reader(io.StringIO(download.value.path().read_text(encoding="utf-8-sig"))))


def oh_hell_two_hands(server_api) -> dict:
    match = server_api.post("/api/matches", {"game": "oh_hell", "players": ["Ala", "Bob", "Cyd"],
                                             "options": {"sequence": [1, 1, 1]}})
    for dealer, trump, bids, plays in [
        (0, "2C", [(1, 1), (2, 0), (0, 0)], [(1, "AS"), (2, "3S"), (0, "4S")]),  # Bob bids 1, takes it
        (1, "2D", [(2, 1), (0, 1), (1, 0)], [(2, "KH"), (0, "AH"), (1, "3H")]),  # Cyd misses, Ala makes it
    ]:
        post(server_api, match, {"type": "deal", "dealer": dealer, "trump": trump})
        for seat, bid in bids:
            post(server_api, match, {"type": "bid", "seat": seat, "bid": bid})
        for seat, card in plays:
            post(server_api, match, {"type": "play", "seat": seat, "card": card})
    return match


@pytest.mark.parametrize(("size", "locale"), [("360x740", "en-US"), ("390x844", "pl-PL"), ("390x844", "ru-RU")])
def test_oh_hell_sheet_has_each_hands_bid_tricks_and_score_and_the_csv_the_same(new_phone, server_api, size, locale):
    match = oh_hell_two_hands(server_api)
    phone = new_phone(locale=locale, viewport=PHONES[size])
    phone.open(f"/?m={match['id']}")
    dealer = {"en-US": "D", "pl-PL": "R", "ru-RU": "С"}[locale]
    rows = sheet(phone)
    assert [[" ".join(cell.split()) for cell in row] for row in rows] == [
        ["1", f"{dealer} 0/0 +10 10", "1/1 +11 11", "0/0 +10 10"],
        ["2", "1/1 +11 21", f"{dealer} 0/0 +10 21", "1/0 +0 10"],
    ]
    phone.screenshot(f"scoresheet-oh-hell-{size}-{locale[:2]}", full_page=False)
    lines = downloaded_csv(phone)
    assert lines[1:] == [["1", "Ala", "0", "0", "10", "10", "1", "1", "11", "11", "0", "0", "10", "10"],
                         ["2", "Bob", "1", "1", "11", "21", "0", "0", "10", "21", "1", "0", "0", "10"]]
    assert len(lines[0]) == 2 + 3 * 4


def test_ogorek_and_duren_sheets_show_each_deal_and_the_total(new_phone, server_api):
    ogorek = server_api.post("/api/matches", {"game": "ogorek", "players": ["Ala", "Bob"]})
    post(server_api, ogorek, {"type": "deal", "dealer": 0})
    for seat, card in [(1, "2"), (0, "3"), (0, "4"), (1, "5"), (1, "6"), (0, "7"), (0, "8"), (1, "9"),
                       (1, "10"), (0, "J"), (0, "Q"), (1, "K")]:
        post(server_api, ogorek, {"type": "play", "seat": seat, "card": card})
    phone = new_phone()
    phone.open(f"/?m={ogorek['id']}")
    assert [[" ".join(cell.split()) for cell in row] for row in sheet(phone)] == [["1", "D 0 0", "+13 13"]]
    assert downloaded_csv(phone)[1] == ["1", "Ala", "0", "0", "13", "13"]

    duren = server_api.post("/api/matches", {"game": "duren", "players": ["Ala", "Bob"]})
    post(server_api, duren, {"type": "deal", "dealer": 0, "trump": "9S"})
    post(server_api, duren, {"type": "end"})
    phone.open(f"/?m={duren['id']}")
    phone.tab("scores")
    assert phone.page.locator("#scoresheet").count() == 0  # no deal finished: nothing to write down yet


EIGHT = ["Kasia", "Łukasz", "Żaneta", "Marta", "Bartek", "Ania", "Przemysław", "Gosia"]


@pytest.mark.parametrize(("players", "locale"), [(5, "ru-RU"), (8, "pl-PL")])
def test_five_to_eight_players_fit_the_sheet_on_a_360_px_phone_names_whole(new_phone, server_api, players, locale):
    """Ogórek for five and for eight, deals played by the table simulator: at 360x740 the sheet does not
    scroll sideways, every player's name is in its column whole (written upwards), and every deal's total is shown."""
    import random

    from game_tables import SIMULATORS
    from test_page_deal_step import Recorded

    from referee.match import Match

    table = Recorded(Match.create("ogorek", EIGHT[:players], {}))
    simulator = SIMULATORS["ogorek"](table, random.Random(3))
    for _ in range(3):
        simulator.step()
        while table.match.expected()["type"] != "deal":
            simulator.step()
    match = server_api.post("/api/matches", {"game": "ogorek", "players": EIGHT[:players]})
    for event in table.events:
        post(server_api, match, event)
    phone = new_phone(locale=locale, viewport=PHONES["360x740"])
    phone.open(f"/?m={match['id']}#key={match['key']}")
    phone.tab("scores")
    phone.page.wait_for_selector("#scoresheet.compact")
    wide, room = phone.page.eval_on_selector(".table-scroll", "el => [el.scrollWidth, el.clientWidth]")
    assert wide <= room
    cut = phone.page.eval_on_selector_all("#scoresheet .sheet-name", """els => els.map(el =>
        [el.textContent, el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1])""")
    assert cut == [[name, False] for name in EIGHT[:players]]
    history = server_api(f"/api/matches/{match['id']}")["history"]
    assert len(history) >= 2 and len(sheet(phone)) == len(history)
    phone.page.eval_on_selector("#scoresheet", "el => { el.scrollIntoView(); window.scrollBy(0, -120); }")
    phone.screenshot(f"scoresheet-{players}-players-360x740-{locale[:2]}", full_page=False)


def five_with_a_cut_deck(server_api) -> tuple[dict, dict, int]:
    """An evening's Ogórek for five, two deals played by the table simulator and, between them, the cut-deck
    penalty (the `cut_penalty`, 5) for the player with the fewest minus points: the evening, the match, that seat."""
    import random

    from game_tables import SIMULATORS
    from test_page_deal_step import Recorded

    from referee.match import Match

    table = Recorded(Match.create("ogorek", EIGHT[:5], {}))
    simulator = SIMULATORS["ogorek"](table, random.Random(3))
    for deal in range(2):
        simulator.step()
        while table.match.expected()["type"] != "deal":
            simulator.step()
        if not deal:
            seat = min(range(5), key=lambda s: table.match.state.scores[s])
            table.play({"type": "penalty", "seat": seat, "reason": "cut the deck"})
    evening = server_api.post("/api/evenings", {"name": "Piątek", "currency": "PLN"})
    match = server_api.post("/api/matches", {"game": "ogorek", "players": EIGHT[:5], "evening": evening["id"]},
                            key=evening["key"])
    for event in table.events:
        server_api.post(f"/api/matches/{match['id']}/events", event, key=evening["key"])
    return evening, match, seat


PENALTY_WORD = {"en-US": "Penalty", "pl-PL": "Kara", "ru-RU": "Штраф"}


@pytest.mark.parametrize("locale", list(PENALTY_WORD))
def test_a_penalty_has_its_own_mark_in_the_sheet_with_its_reason(new_phone, server_api, locale):
    """Issue 30: the cut deck's five minus points are marked as a penalty in the next deal's row (its own "+5",
    the reason in its title), the deal's own figure beside it, on a 360 px phone with five players."""
    evening, match, seat = five_with_a_cut_deck(server_api)
    history = server_api(f"/api/matches/{match['id']}")["history"]
    gained = history[1]["scores"][seat] - history[0]["scores"][seat]
    phone = new_phone(locale=locale, viewport=PHONES["360x740"])
    phone.open(f"/?m={match['id']}#key={match['key']}")
    phone.tab("scores")
    phone.page.wait_for_selector("#scoresheet.compact")
    marks = phone.page.locator("#scoresheet .penalty-mark")
    assert marks.count() == 1
    cell = phone.page.locator(f'#scoresheet tbody tr[data-deal="2"] td[data-seat="{seat}"]')
    mark = cell.locator(".penalty-mark")
    assert mark.count() == 1
    assert mark.get_attribute("title") == f"{PENALTY_WORD[locale]} +5: cut the deck"
    assert mark.inner_text().split()[0] == "+5"
    own = gained - 5
    assert cell.locator(".figure").inner_text() == (f"+{own}" if own else "0")
    assert cell.locator(".total").inner_text() == str(history[1]["scores"][seat])
    wide, room = phone.page.eval_on_selector(".table-scroll", "el => [el.scrollWidth, el.clientWidth]")
    assert wide <= room
    box, column = mark.bounding_box(), cell.bounding_box()
    assert column["x"] <= box["x"] and box["x"] + box["width"] <= column["x"] + column["width"] + 0.5
    assert downloaded_csv(phone)[2][2 + 2 * seat:4 + 2 * seat] == [str(gained), str(history[1]["scores"][seat])]
    phone.tab("scores")
    phone.page.eval_on_selector("#scoresheet", "el => { el.scrollIntoView(); window.scrollBy(0, -120); }")
    phone.screenshot(f"scoresheet-penalty-5-players-360x740-{locale[:2]}", full_page=False)


def test_the_big_screen_marks_the_penalty_in_its_sheet(new_phone, server_api):
    evening, match, seat = five_with_a_cut_deck(server_api)
    screen = new_phone(viewport={"width": 1280, "height": 720})
    screen.page.goto(f"/?e={evening['id']}&screen")
    screen.page.wait_for_selector(".big-screen #scoresheet")
    mark = screen.page.locator(f'.big-screen #scoresheet tbody tr[data-deal="2"] td[data-seat="{seat}"] .penalty-mark')
    assert mark.count() == 1 and mark.get_attribute("title") == "Penalty +5: cut the deck"
    assert mark.is_visible()
    screen.screenshot("big-screen-penalty-1280x720", full_page=False)
