"""A club on the page (`/?c=<id>#key=<key>`, or its read link): the season's table, the members and the ledger with
"mark paid", in the table's language on both phone sizes; a payment marked once however often it is tapped; nothing
of the club without its key; a member's page with their figures, the chart of their balance and the head to head.

The club of these tests (stakes of 1 PLN, Ogórek; a penalty of 22 puts a player out):

    evening 1   A: Ann 1st +6, Bob 2nd -2, Cid 3rd -4
                B: Cid 1st +6, Bob 2nd -2, Ann 3rd -4      nets: Ann +2, Bob -4, Cid +2
    evening 2   C: Bob 1st +6, Dan 2nd -2, Ann 3rd -4      nets: Bob +6, Dan -2, Ann -4

so the table by 3-2-1 is Bob 7, Ann 5, Cid 4, Dan 2, and the ledger still holds Ann and Dan owing 2 each, to Bob
and to Cid (which to which is the ledger's choice).
"""

from __future__ import annotations

import json
import re
import time
import urllib.request

import pytest
from conftest_browser import PHONES

pytestmark = pytest.mark.browser

WORDS = {  # the table's heading, its rule, a debt of the ledger, "mark paid" and the members' heading
    "en-US": ("The season's table", "Points per place: 3 · 2 · 1", r"^(Ann|Dan) pays (Bob|Cid) 2\.00 PLN$",
              "Mark paid", "Members"),
    "pl-PL": ("Tabela sezonu", "Punkty za miejsca: 3 · 2 · 1", r"^(Ann|Dan) → (Bob|Cid): 2,00 PLN$",
              "Zapłacone", "Członkowie"),
    "ru-RU": ("Таблица сезона", "Очки за места: 3 · 2 · 1", r"^(Ann|Dan) → (Bob|Cid): 2,00 PLN$",
              "Оплачено", "Участники"),
}


def read(server_api, club: dict, path: str = "") -> dict:
    """The club as the API shows it to its key (server_api's GET sends no key)."""
    request = urllib.request.Request(f"{server_api.base}/api/clubs/{club['id']}{path}",
                                     headers={"Authorization": f"Bearer {club['key']}"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def played(server_api, evening: dict, players: list[str], out_first: int, out_second: int) -> None:
    match = server_api.post("/api/matches", {"game": "ogorek", "players": players, "stake": "1",
                                             "evening": evening["id"]}, key=evening["key"])
    for seat in (out_first, out_second):
        server_api.post(f"/api/matches/{match['id']}/events", {"type": "penalty", "seat": seat, "points": 22},
                        key=match["key"])


def a_club(server_api) -> dict:
    club = server_api.post("/api/clubs", {"name": "Klub piątkowy", "currency": "PLN"})
    first = server_api.post("/api/evenings", {"name": "First", "currency": "PLN", "club": club["id"]}, key=club["key"])
    played(server_api, first, ["Ann", "Bob", "Cid"], 2, 1)
    played(server_api, first, ["Bob", "Cid", "Ann"], 2, 0)
    second = server_api.post("/api/evenings", {"name": "Second", "currency": "PLN", "club": club["id"]},
                             key=club["key"])
    played(server_api, second, ["Ann", "Bob", "Dan"], 0, 2)
    return club


def ids(club: dict, server_api) -> dict[str, str]:
    return {member["name"]: member["id"] for member in read(server_api, club)["members"]}


def fits(phone) -> None:
    """Nothing wider than the phone, and no table scrolling inside its panel."""
    overflow = phone.page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, "the page is wider than the phone"
    inside = phone.page.eval_on_selector_all(".table-scroll", "els => els.map(el => el.scrollWidth - el.clientWidth)")
    assert all(width <= 0 for width in inside), f"a table is wider than its panel: {inside}"


@pytest.mark.parametrize("size", list(PHONES))
def test_the_club_shows_its_table_members_and_ledger(new_phone, server_api, size):
    """The club's page with its key, in each language switched in place (the club read again in its words)."""
    club = a_club(server_api)
    phone = new_phone(locale="en-US", viewport=PHONES[size])
    phone.page.goto(f"/?c={club['id']}#key={club['key']}")
    phone.page.wait_for_selector(".club")
    assert phone.page.url.endswith(f"/?c={club['id']}"), "the key stays out of the address"
    for locale in WORDS:
        phone.language(locale[:2])
        table, rule, owed, mark, members = WORDS[locale]
        phone.page.wait_for_function("(heading) => [...document.querySelectorAll('.club h2')]"
                                     ".some((h) => h.textContent === heading)", arg=table)  # read again, drawn
        phone.calm()
        assert phone.text(".club h1") == "Klub piątkowy"
        assert table in phone.page.locator(".club h2").all_inner_texts(), locale
        assert rule in phone.text(".club"), locale
        rows = phone.page.locator(".club-table tbody tr")
        places = ["1st", "2nd", "3rd", "4th"] if locale == "en-US" else ["1", "2", "3", "4"]
        point = "." if locale == "en-US" else ","
        assert [rows.nth(i).locator("td, th").all_inner_texts() for i in range(4)] == [
            [places[0], "Bob", "7", "1 / 3", f"1{point}67"], [places[1], "Ann", "5", "1 / 3", f"2{point}33"],
            [places[2], "Cid", "4", "1 / 2", f"2{point}00"], [places[3], "Dan", "2", "0 / 1", f"2{point}00"]], locale
        assert members in phone.page.locator(".club h2").all_inner_texts(), locale
        assert phone.page.locator(".club-members li").all_inner_texts() == ["Ann", "Bob", "Cid", "Dan"]
        transfers = phone.page.locator(".club-transfers .transfer span").all_inner_texts()
        assert len(transfers) == 2 and all(re.match(owed, text) for text in transfers), (locale, transfers)
        assert phone.page.locator(".mark-paid").all_inner_texts() == [mark, mark], locale
        assert phone.page.locator("#club-read-link").input_value().startswith(
            f"{phone.base}/?club={club['id']}#read=")
        phone.screenshot(f"club-{locale}-{size}")
        fits(phone)


def test_mark_paid_records_one_payment_however_often_it_is_tapped(new_phone, server_api):
    club = a_club(server_api)
    member = ids(club, server_api)
    names = {member_id: name for name, member_id in member.items()}
    first, second = read(server_api, club)["ledger"]["transfers"]
    phone = new_phone()
    phone.page.goto(f"/?c={club['id']}#key={club['key']}")
    phone.page.wait_for_selector(".mark-paid")
    button = f"#paid-{first['from']}-{first['to']}"
    phone.page.locator(button).scroll_into_view_if_needed()
    phone.calm()
    box = phone.page.locator(button).bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    phone.page.mouse.click(x, y)
    phone.page.mouse.click(x, y)  # a double tap: the second lands on the button, or on what is there by then
    phone.page.wait_for_selector("#club-said")
    time.sleep(0.7)  # a second request, had one gone out, would be recorded by now
    ledger = read(server_api, club)["ledger"]
    paid = [entry for entry in ledger["history"] if entry["type"] == "paid"]
    assert [(p["from"], p["to"], p["amount"], p["by"]) for p in paid] == [(first["from"], first["to"], "2.00",
                                                                           first["from"])]
    assert ledger["balances"][first["from"]] == "0.00" and ledger["balances"][first["to"]] == "0.00"
    phone.page.wait_for_selector(".mark-paid")
    assert phone.page.locator(".club-transfers .transfer span").all_inner_texts() == [
        f"{names[second['from']]} pays {names[second['to']]} 2.00 PLN"]
    assert phone.text("#club-said") == "Payment recorded."
    # the next one, tapped as a person taps: recorded too, and the ledger settled
    phone.click(f"#paid-{second['from']}-{second['to']}")
    phone.page.wait_for_selector(".club .hint >> text=Nobody owes anybody anything.")
    assert [entry["type"] for entry in read(server_api, club)["ledger"]["history"]].count("paid") == 2


def test_the_read_link_shows_the_club_without_mark_paid(new_phone, server_api):
    club = a_club(server_api)
    phone = new_phone()
    phone.page.goto(club["read_link"])
    phone.page.wait_for_selector(".club")
    assert phone.page.locator(".club-members li").count() == 4
    assert phone.page.locator(".club-transfers .transfer").count() == 2
    assert phone.page.locator(".mark-paid").count() == 0 and phone.page.locator("#club-read-link").count() == 0
    assert phone.page.locator(".club-keeping, #rename-save, #merge-ask, #club-rule-save, #club-export-csv").count() == 0
    assert "#read=" not in phone.page.url


def test_without_the_key_the_page_shows_nothing_of_the_club(new_phone, server_api):
    club = a_club(server_api)
    for address in (f"/?c={club['id']}", f"/?c={club['id']}#key=not-the-key"):
        phone = new_phone()
        phone.page.goto(address)
        phone.page.wait_for_selector(".club-locked")
        text = phone.page.locator("body").inner_text()
        assert "needs the club's key" in text
        for name in ("Klub piątkowy", "Ann", "Bob", "Cid", "Dan", "PLN"):
            assert name not in text, name
        assert phone.page.locator(".club").count() == 0


def test_a_members_page_shows_figures_rating_the_chart_and_head_to_head(new_phone, server_api):
    """A member's figures, rating, chart and head to head, in each language switched in place."""
    club = a_club(server_api)
    member = ids(club, server_api)
    phone = new_phone(locale="en-US")
    phone.page.goto(f"/?c={club['id']}#key={club['key']}")
    phone.page.wait_for_selector(".club")
    phone.click(f"#table-all-{member['Ann']}")
    phone.page.wait_for_selector(".club-member")
    assert phone.page.url.endswith(f"/?c={club['id']}&member={member['Ann']}")
    for locale in ["en-US", "pl-PL", "ru-RU"]:
        phone.language(locale[:2])
        point = "." if locale == "en-US" else ","
        phone.page.wait_for_function("(rating) => document.querySelector('[data-game=\"ogorek\"] .rating')"
                                     "?.textContent.includes(rating)", arg=f"20{point}7 ± 7{point}7")  # drawn again
        phone.calm()
        assert phone.text(".club-member h1") == "Ann"
        figures = dict(zip(phone.page.locator('[data-game="ogorek"] .member-figures th').all_inner_texts(),
                           phone.page.locator('[data-game="ogorek"] .member-figures td').all_inner_texts(),
                           strict=True))
        values = [figures[label] for label in list(figures)[:3]]
        assert values == ["3", "1", f"2{point}33"], locale  # matches, wins, average place
        assert "44" in figures.values(), locale  # minus points: out twice
        # the chart: Ann's balance 0, +2 after the first evening, -2 after the second
        points = phone.page.locator(".member-chart polyline").get_attribute("points").split()
        assert len(points) == 3 and phone.page.locator(".member-chart circle").count() == 3, locale
        heights = [float(point.split(",")[1]) for point in points]
        assert heights[1] < heights[0] < heights[2], locale  # up, then below zero
        phone.page.select_option("#head-to-head-with", member["Bob"])
        phone.page.wait_for_selector(".head-to-head-total")
        said = phone.text(".head-to-head-total")
        assert "Ann" in said and "Bob" in said and ": 3" in said, locale
        phone.screenshot(f"club-member-{locale}-360x740")
        fits(phone)
    phone.click("#back-to-club")
    phone.page.wait_for_selector(".club")


def test_a_link_with_another_key_keeps_the_key_this_phone_holds(new_phone, server_api):
    club = a_club(server_api)
    phone = new_phone()
    phone.page.goto(f"/?c={club['id']}#key={club['key']}")
    phone.page.wait_for_selector(".mark-paid")
    phone.page.goto(f"/?c={club['id']}#key=not-the-key")
    phone.page.wait_for_selector(".mark-paid")  # read with the key it holds, which stays
    assert phone.page.evaluate(f"() => JSON.parse(localStorage.getItem('kibic.club_key.{club['id']}'))") == club["key"]
    phone.page.goto(club["read_link"])  # the read link too leaves the key as it is
    phone.page.wait_for_selector(".mark-paid")


def test_the_club_changes_language_in_place(new_phone, server_api):
    club = a_club(server_api)
    phone = new_phone()
    phone.page.goto(f"/?c={club['id']}#key={club['key']}")
    phone.page.wait_for_selector(".mark-paid")
    phone.click('#langs button[data-lang="pl"]')
    phone.page.wait_for_selector(".club h2 >> text=Tabela sezonu")
    assert phone.page.locator(".mark-paid").all_inner_texts() == ["Zapłacone", "Zapłacone"]
    assert phone.page.locator("form.setup").count() == 0


def put_rule(server_api, club: dict, rule: dict) -> None:
    request = urllib.request.Request(f"{server_api.base}/api/clubs/{club['id']}/rule", data=json.dumps(rule).encode(),
                                     method="PUT", headers={"Authorization": f"Bearer {club['key']}",
                                                            "Content-Type": "application/json"})
    urllib.request.urlopen(request, timeout=10).close()


@pytest.mark.parametrize(("rule", "said", "first"), [
    ({"by": "points", "points": [5, 3, 1]}, "Points per place: 5 · 3 · 1", ["1st", "Bob", "11"]),
    ({"by": "money"}, "By net money", ["1st", "Bob", "2.00 PLN"]),
    ({"by": "rating"}, "By rating, a table per game", ["1st", "Bob", "5.9"]),
])
def test_the_table_follows_the_clubs_rule(new_phone, server_api, rule, said, first):
    club = a_club(server_api)
    put_rule(server_api, club, rule)
    phone = new_phone()
    phone.page.goto(f"/?c={club['id']}#key={club['key']}")
    phone.page.wait_for_selector(".club-table")
    assert said in phone.text(".club")
    assert phone.page.locator(".club-table tbody tr").first.locator("td, th").all_inner_texts()[:3] == first
    assert phone.page.locator(".club > h3").all_inner_texts() == (["Ogórek"] if rule["by"] == "rating" else [])


@pytest.mark.parametrize("size", [(1280, 800), (1024, 768)])
def test_the_clubs_big_screen_shows_the_table_and_what_is_owed_large(new_phone, server_api, size):
    club = a_club(server_api)
    keeper = new_phone()
    keeper.page.goto(f"/?c={club['id']}#key={club['key']}")
    link = keeper.page.locator("#club-big-screen").get_attribute("href")
    assert "screen" in link and "#read=" in link and club["key"] not in link
    screen = new_phone(viewport={"width": size[0], "height": size[1]})
    screen.page.goto(link)
    screen.page.wait_for_selector(".club-screen")
    assert screen.text(".big-title h1") == "Klub piątkowy"
    rows = screen.page.locator(".club-screen-table tbody th").all_inner_texts()
    assert rows == ["Bob", "Ann", "Cid", "Dan"]
    assert screen.page.locator(".club-screen .transfer").count() == 2
    assert screen.page.locator(".club-screen button").count() == 0
    size_px = screen.page.eval_on_selector(".club-screen-table td", "el => parseFloat(getComputedStyle(el).fontSize)")
    assert size_px >= 30
    overflow = screen.page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0
    screen.screenshot(f"club-screen-{size[0]}x{size[1]}", full_page=False)


def test_long_names_fit_the_phone(new_phone, server_api):
    club = server_api.post("/api/clubs", {"name": "Klub bardzo długich imion i nazwisk graczy", "currency": "PLN"})
    evening = server_api.post("/api/evenings", {"name": "First", "currency": "PLN", "club": club["id"]},
                              key=club["key"])
    players = ["Konstantynopolitańczykówna", "Aleksandra Wiśniewska-Brzęczyszczyk", "Bob"]
    played(server_api, evening, players, 2, 1)
    phone = new_phone(locale="pl-PL")
    phone.page.goto(f"/?c={club['id']}#key={club['key']}")
    phone.page.wait_for_selector(".mark-paid")
    phone.screenshot("club-long-names-pl-PL-360x740")
    fits(phone)
    phone.click(f"#table-all-{ids(club, server_api)[players[0]]}")
    phone.page.wait_for_selector(".club-member")
    fits(phone)
