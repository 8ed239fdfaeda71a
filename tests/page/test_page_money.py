"""The money on the page: "if we stopped now" during the match, and who pays whom when it is over."""

from __future__ import annotations

import re

import pytest
from conftest_browser import LOCALES, PHONES
from test_page_thumb import words

from referee import GAMES

pytestmark = pytest.mark.browser


def penalty(phone, seat: int, points: int) -> None:
    phone.tab("table")
    phone.click("#penalty")
    phone.click(f'.penalty-step button[data-seat="{seat}"]')
    phone.page.fill("#penalty-points", str(points))
    phone.page.fill("#penalty-reason", "cut the deck")
    phone.click("#log-penalty")
    phone.page.wait_for_selector(f'.seat[data-seat="{seat}"] :is(.badge.out, .badge.place)')  # out, or last out


def transfers(phone) -> list[str]:
    phone.page.wait_for_selector(".settlement")
    return phone.page.locator(".transfer").all_inner_texts()


def test_the_settlement_shows_the_transfers_now_and_at_the_end(phone, server_api):
    match_id = phone.start_match(["Ala", "Bob", "Cyd"], stake="0.50", options={"limit": 5})
    phone.tab("money")
    assert phone.text(".settlement h2") == "If we stopped now"
    assert phone.text(".settlement").count("Nobody owes anybody anything.") == 1

    penalty(phone, 2, 6)  # Cyd cuts the deck and is over the limit of 5: out, third
    assert "out · 3rd" in phone.text('.seat[data-seat="2"]')
    phone.tab("money")
    assert transfers(phone) == ["Cyd pays Ala 1.00 EUR", "Cyd pays Bob 1.00 EUR"]
    phone.screenshot("money-if-we-stopped-now")

    penalty(phone, 1, 6)  # Bob too: Ala is the last one in and wins the pool
    phone.page.wait_for_selector("#finished")
    assert phone.page.locator(".places li").all_inner_texts() == ["1st: Ala", "2nd: Bob", "3rd: Cyd"]
    phone.tab("money")
    assert phone.text(".settlement h2") == "Final settlement"
    assert transfers(phone) == ["Bob pays Ala 1.00 EUR", "Cyd pays Ala 2.00 EUR"]
    rows = phone.page.locator(".money-table tbody tr")
    assert rows.nth(0).locator("td").all_inner_texts() == ["1", "0.00", "3.00", "3.00"]
    assert rows.nth(2).locator("td").all_inner_texts() == ["3", "2.00", "0.00", "-2.00"]
    phone.screenshot("money-final")
    phone.tab("log")
    phone.page.wait_for_selector(".log-entry")
    assert phone.page.locator(".log-entry .what").all_inner_texts() == [
        "Bob: 6 minus points (cut the deck)", "Cyd: 6 minus points (cut the deck)"]
    money = server_api(f"/api/matches/{match_id}/settlement")
    assert money["final"] is True and money["transfers"] == [
        {"from": 1, "to": 0, "amount": "1.00"}, {"from": 2, "to": 0, "amount": "2.00"}]


PENALTY_GAMES = [name for name, game in GAMES.items() if "penalty" in game.event_types]


@pytest.mark.parametrize("game", PENALTY_GAMES)
@pytest.mark.parametrize(("size", "first"), [("360x740", "ru"), ("390x844", "en")])
def test_a_penalty_records_the_reason_the_field_shows(new_phone, server_api, game, size, first):
    """The reason field starts empty, with no grey words that look written in; the usual reason is a tap that writes
    it into the field, and the penalty recorded carries the reason as the field showed it. A penalty a language,
    switched in place: the field keeps the words it was given when the language changes (what it shows is what is
    recorded), so each language's reason is written by its own tap into a new penalty's field."""
    match = server_api.post("/api/matches", {"game": game, "players": ["Ala", "Bob", "Cyd"]})
    server_api.post(f"/api/matches/{match['id']}/events", {"type": "deal", "dealer": 0}, match["key"])
    phone = new_phone(locale=LOCALES[first], viewport=PHONES[size])
    phone.open(f"/?m={match['id']}#key={match['key']}")
    phone.page.wait_for_selector("#mode.scoring")
    field = phone.page.locator("#penalty-reason")
    recorded = []
    for lang in phone.languages(LOCALES):
        phone.click("#penalty")
        assert field.input_value() == "" and not field.get_attribute("placeholder"), lang
        phone.click("#penalty-reason-cut")
        shown = field.input_value()
        assert shown == words(lang, "penalty.cut") == phone.text("#penalty-reason-cut")
        phone.screenshot(f"penalty-reason-{game}-{size}-{lang}", full_page=False)
        phone.click('.penalty-step button[data-seat="1"]')
        phone.click("#log-penalty")
        phone.settled()
        recorded.append((1, shown))
        penalties = [e for e in server_api(f"/api/matches/{match['id']}/events")["events"] if e["type"] == "penalty"]
        assert [(e["seat"], e["reason"]) for e in penalties] == recorded  # the languages before's, then this one's


def worded(lang: str, key: str, text: str) -> bool:
    """Whether `text` is the words of `key` in `lang`, whatever its parameters."""
    return re.fullmatch(re.sub(r"\\\{\w+\\\}", ".+", re.escape(words(lang, key))), text) is not None


@pytest.mark.parametrize("game", list(GAMES))
def test_the_money_shows_a_pool_and_places_only_where_the_game_settles_by_them(new_phone, server_api, game):
    """Ogórek, Ogurets and Oh Hell pay by place into a pool; Dureń and Durak pay the stake for each deal lost: their
    money says the stake a deal, with no pool and no column of places (the settlement's `by` says which), in each
    language (switched in place)."""
    players = ["Ala", "Bob", "Cyd"][:max(GAMES[game].min_players, min(3, GAMES[game].max_players))]
    match = server_api.post("/api/matches", {"game": game, "players": players, "stake": "0.50", "currency": "PLN"})
    by = server_api(f"/api/matches/{match['id']}/settlement")["by"]
    phone = new_phone(locale=LOCALES["en"], viewport=PHONES["360x740"])
    phone.open(f"/?m={match['id']}#key={match['key']}")
    phone.page.wait_for_selector("#mode.scoring")
    phone.tab("money")
    phone.page.wait_for_selector(".money-table")
    for lang in LOCALES:
        phone.language(lang)
        hint = phone.text(".settlement > h2 + .hint")
        headings = phone.page.locator(".money-table thead th").all_inner_texts()
        cells = phone.page.locator(".money-table tbody tr").first.locator("td").count()
        if by == "pool":
            assert worded(lang, "money.stake_pool", hint), lang
            assert words(lang, "money.place") in headings and cells == 4, lang
        else:
            assert worded(lang, "money.stake_deal", hint) and "0" in hint, lang
            assert words(lang, "money.place") not in headings and cells == 3, lang
        phone.screenshot(f"money-by-{by}-{game}-{lang}", full_page=False)
