"""Corrections on the page, at 360x740 in the three languages: an entry of the log tapped offers Correct, Remove and
Insert before; a mistyped card of an earlier trick corrected, a penalty's points corrected and then the stray penalty
removed, a forgotten card inserted; the table and the server show the corrected match, the log says it in words."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest_browser import LOCALES
from playwright.sync_api import TimeoutError as PlaywrightTimeout

pytestmark = pytest.mark.browser

SEATS = ["S", "W", "N", "E"]
I18N = Path(__file__).resolve().parents[2] / "webui" / "static" / "i18n"


def words(lang: str):
    table = json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))

    def t(key: str, **params) -> str:
        text = table[key]
        for name, value in params.items():
            text = text.replace(f"{{{name}}}", str(value))
        return text
    return t


def open_entry(phone, seq: int) -> None:
    """Taps the entry and waits for its sheet. The log is drawn again when the page has read it, and a tap on an
    entry just drawn is ignored as the page says (taps.js): on a busy machine that redraw can come after the page
    looked still, so an ignored tap is tapped again, as a person would."""
    for _ in range(3):
        phone.click(f'#panel-log button.correct-open[data-seq="{seq}"]')
        try:
            phone.page.wait_for_selector("#correction #correct-change", timeout=5000)
            return
        except PlaywrightTimeout:
            assert phone.text("#last-word") == words(phone.page.evaluate("document.documentElement.lang"))(
                "tap.ignored"), "the tap was neither taken nor ignored"
    raise AssertionError(f"entry {seq}'s sheet did not open")


def recorded(phone, server_api, match_id: str, seq: int) -> dict:
    """Waits until the server's log holds event `seq` and the page has sent everything; the log."""
    phone.settled()
    phone.page.wait_for_function(f"() => document.querySelector('#panel-log li[data-seq=\"{seq}\"]')")
    return server_api(f"/api/matches/{match_id}/events")["events"]


def in_each_language(phone, seen) -> None:
    """`seen(lang, t)` with the page in each language, switched in place with the sheet open, as a table does."""
    for lang in phone.languages(sorted(LOCALES)):
        seen(lang, words(lang))


def test_corrections_on_the_page(new_phone, server_api):
    """One walk; each sheet and each corrected entry of the log looked at in Polish, English and Russian."""
    phone = new_phone(locale=LOCALES["en"])
    match_id = phone.start_match(SEATS, dealer=0)
    phone.click("#log-deal")  # 1
    # trick 1: N's 2 typed as 4; trick 2 as played (seed deal of the referee's tests)
    for play in "1K 24 33 0A  09 1K 25 37".split():  # 2..9
        phone.play(int(play[0]), play[1:])
    phone.wait_turn(1)

    # the mistyped card of an earlier trick: #3, N played 4, was N's 2
    phone.tab("log")
    open_entry(phone, 3)
    sheet = phone.page.locator("#correction")
    phone.calm()
    entry = phone.page.locator('#panel-log li[data-seq="3"]')
    entry.wait_for()  # the log is drawn again when it has been read: measured once it is there
    box = entry.bounding_box()
    assert box is not None

    def menu(lang, t):
        assert sheet.locator("#correct-change").inner_text() == t("correct.change"), lang
        assert sheet.locator("#correct-remove").inner_text() == t("correct.remove"), lang
        assert sheet.locator("#correct-insert").inner_text() == t("correct.insert"), lang
        phone.screenshot(f"correct-{lang}-menu", full_page=False)
    in_each_language(phone, menu)
    phone.click("#correct-change")
    phone.page.wait_for_selector('#correction .keypad button[data-card="2"]')
    entry.wait_for()  # drawn again when the log is read again: measured once it is there
    phone.calm()
    assert entry.bounding_box() == box  # the log did not move
    in_each_language(phone, lambda lang, t: phone.screenshot(f"correct-{lang}-card", full_page=False))
    said_in = phone.page.evaluate("() => document.documentElement.lang")
    phone.click('#correction .keypad button[data-card="2"]')
    events = recorded(phone, server_api, match_id, 10)
    assert events[9] | {"type": "correct", "corrects": 3} == events[9]
    assert events[9]["with"]["card"] == "2" and events[2]["corrected_by"] == 10
    t = words(said_in)
    corrected = t("event.correct_with", seq=3, what=t("event.play", name="N", card="2"))
    phone.page.wait_for_function("(words) => document.querySelector('#correction-answer').textContent.includes(words)",
                                 arg=corrected)
    assert phone.page.locator("#correction-answer").is_visible()

    def corrected_entry(lang, t):
        assert phone.text('#panel-log li[data-seq="10"] .what') == t(
            "event.correct_with", seq=3, what=t("event.play", name="N", card="2")), lang
        phone.screenshot(f"correct-{lang}-corrected", full_page=False)
    in_each_language(phone, corrected_entry)
    phone.click("#correct-close")

    # trick 3: W 7, N Q; then a penalty typed for W (a stray entry), and E's Q never typed
    phone.tab("table")
    phone.play(1, "7")  # 11
    phone.play(2, "Q")  # 12
    phone.wait_turn(3)
    phone.click("#penalty")
    phone.click('.penalty-step .seat-buttons button[data-seat="1"]')
    phone.page.fill("#penalty-points", "1")
    phone.click("#log-penalty")  # 13
    phone.settled()

    # the forgotten card: E's Q, before the penalty; E is chosen (the player before W is offered first)
    phone.tab("log")
    open_entry(phone, 13)
    phone.click("#correct-insert")
    phone.page.wait_for_selector('#correction .seat-buttons button[data-seat="0"][aria-pressed="true"]')
    phone.click('#correction .seat-buttons button[data-seat="3"]')
    phone.page.wait_for_selector('#correction .seat-buttons button[data-seat="3"][aria-pressed="true"]')

    def insert_asked(lang, t):
        assert phone.text("#correction .correct-ask") == t("correct.ask_insert", seq=13, name="E"), lang
        phone.screenshot(f"correct-{lang}-insert", full_page=False)
    in_each_language(phone, insert_asked)
    phone.click('#correction .keypad button[data-card="Q"]')
    events = recorded(phone, server_api, match_id, 14)
    assert events[13]["before"] == 13 and events[13]["insert"] | {"seat": 3, "card": "Q"} == events[13]["insert"]

    def inserted(lang, t):
        queen = {"pl": "D", "en": "Q", "ru": "Д"}[lang]
        assert phone.text('#panel-log li[data-seq="14"] .what') == t(
            "event.correct_insert", seq=13, what=t("event.play", name="E", card=queen)), lang
    in_each_language(phone, inserted)
    phone.click("#correct-close")

    # the penalty's points: 1 → 3, then the stray penalty removed
    open_entry(phone, 13)
    phone.click("#correct-change")
    phone.page.fill("#correct-points", "3")
    phone.click("#correct-points-send")
    events = recorded(phone, server_api, match_id, 15)
    assert events[14]["corrects"] == 13 and events[14]["with"]["points"] == 3
    phone.click("#correct-close")
    open_entry(phone, 13)
    phone.click("#correct-remove")
    in_each_language(phone, lambda lang, t: assert_text(phone, "#correction .correct-ask",
                                                        t("correct.ask_remove", seq=13), lang))
    phone.click("#correct-remove-yes")
    events = recorded(phone, server_api, match_id, 16)
    assert events[15] | {"corrects": 13, "remove": True} == events[15]

    def removed(lang, t):
        assert phone.text('#panel-log li[data-seq="16"] .what') == t("event.correct_remove", seq=13), lang
        phone.screenshot(f"correct-{lang}-removed", full_page=False)
    in_each_language(phone, removed)
    phone.click("#correct-close")

    # the table: trick 3 with W's 7, N's Q and E's Q, S to play; no minus points
    state = server_api(f"/api/matches/{match_id}")
    assert state["expected"] == state["expected"] | {"type": "play", "seat": 0}
    phone.tab("table")
    phone.wait_turn(0)
    in_each_language(phone, lambda lang, t: phone.screenshot(f"correct-{lang}-table", full_page=False))
    phone.play(0, "2")  # S's 2 ends trick 3, E's Q (the later of the two) takes it: the match goes on corrected
    phone.wait_turn(3)
    assert server_api(f"/api/matches/{match_id}")["seq"] == 17


def assert_text(phone, selector: str, wanted: str, lang: str) -> None:
    assert phone.text(selector) == wanted, lang


def test_a_correction_that_breaks_a_later_entry_is_refused_in_the_sheet(phone, server_api):
    """S's A of trick 1 made a 4: W's K then takes the trick and leads the next, which S led: refused, the why next to
    the thumb in the sheet, nothing recorded."""
    match_id = phone.start_match(SEATS, dealer=0)
    phone.click("#log-deal")
    for play in "1K 22 33 0A  09 1K 25 37".split():
        phone.play(int(play[0]), play[1:])
    phone.wait_turn(1)
    phone.tab("log")
    open_entry(phone, 5)
    phone.click("#correct-change")
    phone.click('#correction .keypad button[data-card="4"]')
    phone.page.wait_for_selector("#correction-answer.refused")
    answer = phone.text("#correction-answer")
    assert answer == "After this correction entry #6 no longer fits: It is W's turn, not S's."
    assert phone.page.locator("#correction-answer").is_visible()
    assert phone.page.locator("#correct-force").is_disabled()  # a turn broken cannot be let stand
    phone.screenshot("correct-en-refused", full_page=False)
    assert server_api(f"/api/matches/{match_id}")["seq"] == 9
