"""Keeping a club on its page, with the club's key: the table's rule changed, a member renamed, two members who are one
person merged (asked first, in the bar at the bottom next to the thumb), the club exported as JSON and CSV; each
write recorded once however often it is tapped, what became of it said in the bar, in view; in the three languages
on both phone sizes. (The read link shows none of it: test_page_club.)

The club is test_page_club's: Ann, Bob, Cid and Dan; Cid and Dan never sat at one table, Ann and Bob did.
"""

from __future__ import annotations

import csv
import io
import json
import time

import pytest
from conftest_browser import PHONES
from test_page_club import a_club, fits, ids, read

pytestmark = pytest.mark.browser

WORDS = {  # renamed, the merge's question, merged, a merge refused, the rule saved, the rule as the table says it
    "en-US": ("Renamed: Daniel.", "Merge Daniel into Cid? It cannot be undone.", "Daniel is now Cid.",
              "These two sat at one table in the same match, so they are two people",
              "The table's rule is saved.", "By net money"),
    "pl-PL": ("Nowe imię: Daniel.", "Połączyć Daniel z Cid? Nie da się tego cofnąć.", "Daniel to teraz Cid.",
              "Te dwie osoby grały przy jednym stole w tej samej partii, więc to dwie różne osoby",
              "Zasada tabeli zapisana.", "Według bilansu pieniędzy"),
    "ru-RU": ("Новое имя: Daniel.", "Объединить Daniel с Cid? Отменить нельзя.", "Daniel теперь Cid.",
              "Эти двое сидели за одним столом в одной партии, значит, это два разных человека",
              "Правило таблицы сохранено.", "По денежному итогу"),
}


def in_view(phone, selector: str) -> None:
    """Wholly on the screen, in its lower part, where the thumb is."""
    box = phone.page.locator(selector).bounding_box()
    height = phone.page.viewport_size["height"]
    assert box is not None and box["y"] >= height / 2 and box["y"] + box["height"] <= height, (selector, box, height)


def double_tap(phone, selector: str) -> None:
    phone.page.locator(selector).scroll_into_view_if_needed()
    phone.calm()
    box = phone.page.locator(selector).bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    phone.page.mouse.click(x, y)
    phone.page.mouse.click(x, y)


def opened(new_phone, server_api, locale="en-US", size="390x844"):
    club = a_club(server_api)
    phone = new_phone(locale=locale, viewport=PHONES[size])
    phone.page.goto(f"/?c={club['id']}#key={club['key']}")
    phone.page.wait_for_selector(".club-keeping")
    return club, ids(club, server_api), phone


@pytest.mark.parametrize("locale", list(WORDS))
@pytest.mark.parametrize("size", list(PHONES))
def test_rename_then_merge_once_each_asked_and_said_by_the_thumb(new_phone, server_api, locale, size):
    club, member, phone = opened(new_phone, server_api, locale, size)
    renamed, question, merged, refused, _, _ = WORDS[locale]
    sent = []
    phone.page.on("request", lambda asked: asked.method == "POST" and sent.append(asked.url.rsplit("/", 1)[-1]))
    phone.page.select_option("#rename-member", member["Dan"])
    phone.page.fill("#rename-name", "Daniel")
    double_tap(phone, "#rename-save")
    phone.page.wait_for_selector(f"#club-keeping-said >> text={renamed}")
    in_view(phone, "#club-keeping-said")
    assert {m["id"]: m["name"] for m in read(server_api, club)["members"]}[member["Dan"]] == "Daniel"
    assert sent == ["rename"], "a double tap sends the rename once"
    assert "Daniel" in phone.page.locator(".club-members li a").all_inner_texts()
    # a merge is asked first, by the thumb; a double tap on its answer merges once
    phone.page.select_option("#merge-keep", member["Cid"])
    phone.page.select_option("#merge-other", member["Dan"])
    phone.click("#merge-ask")
    phone.page.wait_for_selector("#club-bar[role=alertdialog]")
    assert phone.text("#club-bar h2") == question
    in_view(phone, "#merge-yes")
    in_view(phone, "#merge-no")
    phone.screenshot(f"club-merge-asked-{locale}-{size}", full_page=False)
    double_tap(phone, "#merge-yes")
    phone.page.wait_for_selector(f"#club-keeping-said >> text={merged}")
    time.sleep(0.5)
    assert sent == ["rename", "merge"], "a double tap on the answer merges once"
    members = read(server_api, club)["members"]
    assert [m["name"] for m in members].count("Cid") == 1 and "Daniel" not in [m["name"] for m in members]
    assert {"Dan", "Daniel"} <= set(next(m for m in members if m["id"] == member["Cid"])["aliases"])
    assert phone.page.locator(".club-members li").count() == 3
    # two who played together are two people: refused, and said in view
    phone.page.select_option("#merge-keep", member["Ann"])
    phone.page.select_option("#merge-other", member["Bob"])
    phone.click("#merge-ask")
    phone.click("#merge-yes")
    phone.page.wait_for_selector("#club-keeping-said.refused")
    in_view(phone, "#club-keeping-said")
    assert phone.text("#club-keeping-said") == refused
    assert len(read(server_api, club)["members"]) == 3
    phone.screenshot(f"club-keeping-{locale}-{size}")
    fits(phone)


def test_a_merge_not_confirmed_changes_nothing(new_phone, server_api):
    club, member, phone = opened(new_phone, server_api)
    phone.page.select_option("#merge-keep", member["Cid"])
    phone.page.select_option("#merge-other", member["Dan"])
    phone.click("#merge-ask")
    phone.click("#merge-no")
    phone.page.wait_for_selector("#club-bar", state="detached")
    assert len(read(server_api, club)["members"]) == 4


@pytest.mark.parametrize("locale", list(WORDS))
def test_the_rule_is_changed_on_the_page_and_a_bad_one_refused_in_view(new_phone, server_api, locale):
    club, _, phone = opened(new_phone, server_api, locale, "360x740")
    saved, by_money = WORDS[locale][4], WORDS[locale][5]
    sent = []
    phone.page.on("request", lambda asked: asked.method == "PUT" and sent.append(asked.url.rsplit("/", 1)[-1]))
    phone.page.fill("#club-rule-points", "1 2")
    double_tap(phone, "#club-rule-save")
    phone.page.wait_for_selector("#club-keeping-said.refused")
    in_view(phone, "#club-keeping-said")
    assert read(server_api, club)["rule"] == {"by": "points", "points": [3, 2, 1]}
    phone.page.select_option("#club-rule-by", "money")
    double_tap(phone, "#club-rule-save")
    phone.page.wait_for_selector(f"#club-keeping-said >> text={saved}")
    assert read(server_api, club)["rule"] == {"by": "money"}
    assert sent == ["rule", "rule"], "each double tap sends the rule once"
    assert phone.page.locator("#club-rule-by").input_value() == "money"
    assert phone.page.locator(f".club .hint >> text={by_money}").count() == 1


@pytest.mark.parametrize("kind", ["json", "csv"])
def test_the_club_is_exported_from_the_page(new_phone, server_api, kind):
    club, member, phone = opened(new_phone, server_api)
    phone.page.locator(f"#club-export-{kind}").scroll_into_view_if_needed()
    with phone.page.expect_download() as waiting:
        phone.click(f"#club-export-{kind}")
    download = waiting.value
    assert download.suggested_filename == f"kibic-club-{club['id']}.{kind}"
    text = open(download.path(), encoding="utf-8").read()
    if kind == "json":
        assert {m["name"] for m in json.loads(text)["members"]} == {"Ann", "Bob", "Cid", "Dan"}
    else:
        assert {row["name"] for row in csv.DictReader(io.StringIO(text))} == {"Ann", "Bob", "Cid", "Dan"}
    phone.page.wait_for_selector("#club-keeping-said")
    in_view(phone, "#club-keeping-said")



@pytest.mark.parametrize("locale", list(WORDS))
def test_a_late_second_tap_and_an_empty_name_send_nothing(new_phone, server_api, locale):
    """A second tap that comes a second after the first was answered (a busy phone) finds the form as it was sent,
    the member already so named: said again, nothing sent. A name left empty is refused on the phone, in view."""
    club, member, phone = opened(new_phone, server_api, locale, "360x740")
    renamed = WORDS[locale][0]
    sent = []
    phone.page.on("request", lambda asked: asked.method in ("POST", "PUT")
                  and sent.append(asked.url.rsplit("/", 1)[-1]))
    phone.page.select_option("#rename-member", member["Dan"])
    phone.page.fill("#rename-name", "Daniel")
    phone.click("#rename-save")
    phone.page.wait_for_selector(f"#club-keeping-said >> text={renamed}")
    assert phone.page.locator("#rename-name").input_value() == "Daniel"
    assert phone.page.locator("#rename-member").input_value() == member["Dan"]
    phone.later(1.0)  # not a double tap
    phone.click("#rename-save")
    phone.page.wait_for_selector(f"#club-keeping-said >> text={renamed}")
    phone.page.locator("#club-rule-save").scroll_into_view_if_needed()
    phone.calm()
    phone.click("#club-rule-save")  # the rule the club has: saved as it is
    phone.page.wait_for_selector(f"#club-keeping-said >> text={WORDS[locale][4]}")
    phone.page.fill("#rename-name", "  ")
    phone.click("#rename-save")
    phone.page.wait_for_selector("#club-keeping-said.refused")
    in_view(phone, "#club-keeping-said")
    assert phone.text("#club-keeping-said") != renamed
    time.sleep(0.3)
    assert sent == ["rename"], "nothing sent that would change nothing or could not be taken"
    assert {m["id"]: m["name"] for m in read(server_api, club)["members"]}[member["Dan"]] == "Daniel"


def test_a_refused_rule_stays_typed_and_a_late_tap_is_refused_again_unsent(new_phone, server_api):
    """A rule the server refused stays in the form as typed, said refused; tapped again a second later (the late
    second tap of a busy phone), the phone says the same refusal and sends nothing."""
    club, _, phone = opened(new_phone, server_api, "pl-PL", "360x740")
    sent = []
    phone.page.on("request", lambda asked: asked.method == "PUT" and sent.append(asked.url.rsplit("/", 1)[-1]))
    phone.page.fill("#club-rule-points", "1 2")
    phone.click("#club-rule-save")
    phone.page.wait_for_selector("#club-keeping-said.refused")
    refusal = phone.text("#club-keeping-said")
    assert phone.page.locator("#club-rule-points").input_value() == "1 2"
    phone.later(1.0)  # not a double tap
    phone.click("#club-rule-save")
    time.sleep(0.3)
    assert phone.text("#club-keeping-said") == refusal
    assert phone.page.locator("#club-keeping-said.refused").count() == 1
    in_view(phone, "#club-keeping-said")
    assert sent == ["rule"], "the same rule refused again on the phone"
    assert read(server_api, club)["rule"] == {"by": "points", "points": [3, 2, 1]}
