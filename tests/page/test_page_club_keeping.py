"""Keeping a club on its page, with the club's key: the table's rule changed, a member renamed, two members who are one
person merged (asked first, in the bar at the bottom next to the thumb), the club exported as JSON and CSV; each
write recorded once however often it is tapped, what became of it said in the bar, in view; in the three languages,
switched in place (one walk a phone), on both phone sizes. (The read link shows none of it: test_page_club.)

The club is test_page_club's: Ann, Bob, Cid and Dan; Cid and Dan never sat at one table, Ann and Bob did (the walk
that merges in each language has two more such pairs: a_club_of_three_merges).

A walk taps again in each language and looks at the bar's words right after each tap (the bar says them again in
the new words when the table switches, which the rename and merge walk also looks at).
"""

from __future__ import annotations

import csv
import io
import json
import time

import pytest
from conftest_browser import FIRST, HUMAN_SECONDS, LOCALES, PHONES
from test_page_club import a_club, fits, ids, played, put_rule, read

pytestmark = pytest.mark.browser

WORDS = {  # renamed, the merge's question, merged, a merge refused, the rule saved, the rule as the table says it
    "en-US": ("Renamed: {name}.", "Merge {name} into {kept}? It cannot be undone.", "{name} is now {kept}.",
              "These two sat at one table in the same match, so they are two people",
              "The table's rule is saved.", "By net money"),
    "pl-PL": ("Nowe imię: {name}.", "Połączyć {name} z {kept}? Nie da się tego cofnąć.", "{name} to teraz {kept}.",
              "Te dwie osoby grały przy jednym stole w tej samej partii, więc to dwie różne osoby",
              "Zasada tabeli zapisana.", "Według bilansu pieniędzy"),
    "ru-RU": ("Новое имя: {name}.", "Объединить {name} с {kept}? Отменить нельзя.", "{name} теперь {kept}.",
              "Эти двое сидели за одним столом в одной партии, значит, это два разных человека",
              "Правило таблицы сохранено.", "По денежному итогу"),
}
LANGS = {locale[:2]: locale for locale in WORDS}  # the page's language -> the phone's locale
# each language's merge: a member, the new name they are given, and the member they are then merged into (a merge
# is for good, and a name once a member's seats them for good: each language has two members of its own)
MERGES = {"pl-PL": ("Dan", "Daniel", "Cid"), "en-US": ("Fay", "Fiona", "Eve"), "ru-RU": ("Hal", "Harold", "Gus")}
# two who sat at one table, whose merge each language has refused: a pair of its own, as the same write again
# within a double tap's time of its answer sends nothing (club_keeping.js), and a walk is quicker than a table
REFUSED = {"pl-PL": ("Ann", "Bob"), "en-US": ("Bob", "Ann"), "ru-RU": ("Ann", "Cid")}
# a rule each language sends and the server refuses (a better place scoring fewer points): one of its own, as the
# page says a rule refused before again without sending it
BAD_RULES = {"en-US": "1 2", "pl-PL": "1 3", "ru-RU": "2 3"}
RENAMES = {"ru-RU": "Danila", "pl-PL": "Daniel", "en-US": "Danny"}  # Dan's new name in each language


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


def opened(new_phone, server_api, locale="en-US", size="390x844", club=None):
    club = club or a_club(server_api)
    phone = new_phone(locale=locale, viewport=PHONES[size])
    phone.page.goto(f"/?c={club['id']}#key={club['key']}")
    phone.page.wait_for_selector(".club-keeping")
    return club, ids(club, server_api), phone


def a_club_of_three_merges(server_api) -> dict:
    """The club, with two more pairs who never sat at one table, Eve and Fay, Gus and Hal: each played with Ann and
    Bob, as Dan did."""
    club = a_club(server_api)
    third = server_api.post("/api/evenings", {"name": "Third", "currency": "PLN", "club": club["id"]}, key=club["key"])
    for newcomer in ("Eve", "Fay", "Gus", "Hal"):
        played(server_api, third, ["Ann", "Bob", newcomer], 0, 2)
    return club


@pytest.mark.parametrize("size", list(PHONES))
def test_rename_then_merge_once_each_asked_and_said_by_the_thumb(new_phone, server_api, size):
    """One walk a size; in each language, switched in place: a member renamed, then merged into another (asked
    first), each write sent once for a double tap and said in the language's words by the thumb; a merge of two who
    played together refused, said in view (and said again in the next language's words once the table switches);
    the page whole and as wide as the phone."""
    club, member, phone = opened(new_phone, server_api, LOCALES[FIRST[size]], size, a_club_of_three_merges(server_api))
    sent = []
    phone.page.on("request", lambda asked: asked.method == "POST" and sent.append(asked.url.rsplit("/", 1)[-1]))
    for done, lang in enumerate(phone.languages(LANGS)):  # done: the merges of the languages before
        locale = LANGS[lang]
        other, name, kept = MERGES[locale]
        renamed, question, merged, refused = (said.format(name=name, kept=kept) for said in WORDS[locale][:4])
        if done:  # the last language's refusal, still in the bar, is said again in this one's words
            assert phone.text("#club-keeping-said") == refused
        sent.clear()
        phone.page.select_option("#rename-member", member[other])
        phone.page.fill("#rename-name", name)
        double_tap(phone, "#rename-save")
        phone.page.wait_for_selector(f"#club-keeping-said >> text={renamed}")
        in_view(phone, "#club-keeping-said")
        assert {m["id"]: m["name"] for m in read(server_api, club)["members"]}[member[other]] == name, locale
        assert sent == ["rename"], "a double tap sends the rename once"
        assert name in phone.page.locator(".club-members li a").all_inner_texts(), locale
        # a merge is asked first, by the thumb; a double tap on its answer merges once
        phone.page.select_option("#merge-keep", member[kept])
        phone.page.select_option("#merge-other", member[other])
        phone.click("#merge-ask")
        phone.page.wait_for_selector("#club-bar[role=alertdialog]")
        assert phone.text("#club-bar h2") == question
        in_view(phone, "#merge-yes")
        in_view(phone, "#merge-no")
        phone.screenshot(f"club-merge-asked-{locale}-{size}", full_page=False)
        double_tap(phone, "#merge-yes")
        phone.page.wait_for_selector(f"#club-keeping-said >> text={merged}")
        phone.calm()  # the page done with both taps: whatever they sent is out and answered
        assert sent == ["rename", "merge"], "a double tap on the answer merges once"
        members = read(server_api, club)["members"]
        assert [m["name"] for m in members].count(kept) == 1 and name not in [m["name"] for m in members], locale
        assert {other, name} <= set(next(m for m in members if m["id"] == member[kept])["aliases"]), locale
        assert phone.page.locator(".club-members li").count() == len(member) - done - 1, locale
        # two who played together are two people: refused, and said in view
        phone.page.select_option("#merge-keep", member[REFUSED[locale][0]])
        phone.page.select_option("#merge-other", member[REFUSED[locale][1]])
        phone.click("#merge-ask")
        phone.click("#merge-yes")
        phone.page.wait_for_selector("#club-keeping-said.refused")
        in_view(phone, "#club-keeping-said")
        assert phone.text("#club-keeping-said") == refused
        assert len(read(server_api, club)["members"]) == len(member) - done - 1, locale
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


def test_the_rule_is_changed_on_the_page_and_a_bad_one_refused_in_view(new_phone, server_api):
    """In each language, switched in place: a bad rule refused, said in view; the rule by money saved, said in the
    language's words; each double tap sent once; the table's rule said in the language's words. The club's rule is
    put back between languages, as the club had it (the page reads the club again when the table switches)."""
    club, _, phone = opened(new_phone, server_api, "en-US", "360x740")
    sent = []
    phone.page.on("request", lambda asked: asked.method == "PUT" and sent.append(asked.url.rsplit("/", 1)[-1]))
    money_saved = -HUMAN_SECONDS * 1000  # when the page said the rule by money saved, on its clock (ms)
    for lang in phone.languages(LANGS):
        locale = LANGS[lang]
        saved, by_money = WORDS[locale][4], WORDS[locale][5]
        sent.clear()
        # the form drawn again may show the rule last tapped, not the one put back: a double tap's second tap that
        # comes to the button still waiting for the club read again is kept as typed (club_keeping.js `ruled`)
        phone.page.select_option("#club-rule-by", "points")
        phone.page.fill("#club-rule-points", BAD_RULES[locale])
        double_tap(phone, "#club-rule-save")
        phone.page.wait_for_selector("#club-keeping-said.refused")
        in_view(phone, "#club-keeping-said")
        assert read(server_api, club)["rule"] == {"by": "points", "points": [3, 2, 1]}, locale
        phone.page.select_option("#club-rule-by", "money")
        # the same write again within a double tap's time of its answer is taken for a double tap's second tap and
        # sent nowhere (club_keeping.js, on the page's clock: `later` moves the taps' own alone): the table saves
        # the rule by money again, in the next language, no sooner than a person would
        phone.page.wait_for_function("(at) => performance.now() >= at", arg=money_saved + HUMAN_SECONDS * 1000,
                                     polling=50)
        double_tap(phone, "#club-rule-save")
        phone.page.wait_for_selector(f"#club-keeping-said >> text={saved}")
        money_saved = phone.page.evaluate("() => performance.now()")
        assert read(server_api, club)["rule"] == {"by": "money"}, locale
        assert sent == ["rule", "rule"], "each double tap sends the rule once"
        assert phone.page.locator("#club-rule-by").input_value() == "money"
        assert phone.page.locator(f".club .hint >> text={by_money}").count() == 1
        put_rule(server_api, club, {"by": "points", "points": [3, 2, 1]})  # as it was, for the next language


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



def test_a_late_second_tap_and_an_empty_name_send_nothing(new_phone, server_api):
    """A second tap that comes a second after the first was answered (a busy phone) finds the form as it was sent,
    the member already so named: said again, nothing sent. A name left empty is refused on the phone, in view. In
    each language, switched in place, Dan given a name of his own (the name he has would send nothing)."""
    club, member, phone = opened(new_phone, server_api, "ru-RU", "360x740")
    sent = []
    phone.page.on("request", lambda asked: asked.method in ("POST", "PUT")
                  and sent.append(asked.url.rsplit("/", 1)[-1]))
    for lang in phone.languages(LANGS):
        locale = LANGS[lang]
        name = RENAMES[locale]
        renamed = WORDS[locale][0].format(name=name)
        sent.clear()
        phone.page.select_option("#rename-member", member["Dan"])
        phone.page.fill("#rename-name", name)
        phone.click("#rename-save")
        phone.page.wait_for_selector(f"#club-keeping-said >> text={renamed}")
        assert phone.page.locator("#rename-name").input_value() == name
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
        phone.calm()  # the page done with every tap: whatever they sent is out and answered
        assert sent == ["rename"], "nothing sent that would change nothing or could not be taken"
        assert {m["id"]: m["name"] for m in read(server_api, club)["members"]}[member["Dan"]] == name, locale


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
