"""Every question is asked where the thumb is: "End the match?", "Undo one more?" and a double tap's question come in
the bottom bar, in view whatever is scrolled (never under the top bar), answered in one tap, and no key moves; the
same rank tapped for the next seat soon after is recorded without a question and said; a second identical record
says that it was recorded again. One walk a size, each language looked at switched in place as a table does (the
question and the bar's words are said again in the new words), each size starting in another language."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest_browser import LOCALES, PHONES
from test_page_layout import box_of, plays, post_play, tap_twice, tap_twice_at

pytestmark = pytest.mark.browser

CATALOGUES = Path(__file__).resolve().parents[2] / "webui" / "static" / "i18n"


def words(lang: str, key: str, **params) -> str:
    """The page's words for `key` in `lang` (English's where it has none), with the parameters put in."""
    read = lambda name: json.loads((CATALOGUES / f"{name}.json").read_text())  # noqa: E731
    catalogue = {**read("en"), **read(lang)}
    return re.sub(r"\{(\w+)\}", lambda m: str(params.get(m.group(1), m.group(0))), catalogue[key])


FIVE = ["S", "W", "N", "E", "F"]


def scorer_on_a_match(new_phone, server_api, size: str, lang: str):
    """Five at the table (an Ogórek match started over the API, S deals, W leads), scored on a phone with its key."""
    match = server_api.post("/api/matches", {"game": "ogorek", "players": FIVE})
    server_api.post(f"/api/matches/{match['id']}/events", {"type": "deal", "dealer": 0}, match["key"])
    phone = new_phone(locale=LOCALES[lang], viewport=PHONES[size])
    phone.open(f"/?m={match['id']}#key={match['key']}")
    phone.page.wait_for_selector("#mode.scoring")
    return phone, match


def scroll_to_the_keypad(phone) -> None:
    """As while the cards are tapped: the keypad down at the thumb, the seats scrolled under the top bar."""
    phone.page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    phone.calm()


def in_view(phone, selector: str) -> dict:
    """The element's box on the screen, and whether it is whole below the top bar and above the screen's bottom."""
    return phone.page.eval_on_selector(selector, """el => {
        const r = el.getBoundingClientRect();
        const top = document.querySelector('header.bar').getBoundingClientRect().bottom;
        return {top: r.top, bottom: r.bottom, whole: r.top >= top - 0.5 && r.bottom <= window.innerHeight + 0.5};
    }""")


def keys(phone) -> list:
    return box_of(phone, ".action .keypad button")


@pytest.mark.parametrize(("size", "first"), [("360x740", "pl"), ("390x844", "ru")])
def test_a_double_tap_asks_in_view_by_the_thumb_and_one_tap_answers(new_phone, server_api, size, first):
    """F's 3 tapped twice 80 ms apart (a bounce): S's 3 is asked, whole in view and down by the thumb, no key moved,
    in each language (the question asked again in the new words); one tap records it."""
    phone, match = scorer_on_a_match(new_phone, server_api, size, first)
    for seat, card in [(1, "K"), (2, "2"), (3, "3")]:
        post_play(server_api, match, seat, card)
    phone.wait_turn(4)
    before = {}
    for lang in phone.languages(LOCALES):
        scroll_to_the_keypad(phone)
        phone.screenshot(f"thumb-scrolled-{size}-{lang}", full_page=False)
        before[lang] = keys(phone)
    tap_twice(phone, "3", 80)  # a bounce (taps.js: BOUNCE_MS): asks
    question = phone.page.locator(".verdict.question")
    question.wait_for()
    phone.settled()
    for lang in phone.languages(LOCALES):
        assert phone.text(".verdict.question h2") == words(lang, "double.play", name="S", card="3")
        assert in_view(phone, ".verdict.question")["whole"], lang
        assert in_view(phone, "#question-yes")["top"] > PHONES[size]["height"] / 2, lang  # down by the thumb
        assert keys(phone) == before[lang], lang  # no key moved
        phone.screenshot(f"thumb-double-tap-{size}-{lang}", full_page=False)
    assert plays(server_api, match) == [(1, "K"), (2, "2"), (3, "3"), (4, "3")]
    phone.click("#question-yes")  # one tap answers
    phone.wait_turn(1)
    assert plays(server_api, match) == [(1, "K"), (2, "2"), (3, "3"), (4, "3"), (0, "3")]
    assert question.count() == 0


@pytest.mark.parametrize("size", list(PHONES))
def test_end_the_match_and_undo_one_more_ask_in_view(new_phone, server_api, size):
    """Undo, and a second Undo 0.5 s later (by the page's clock): "Undo one more?" in view by the thumb, not under
    the finger; then End, whose question comes the same way; each in every language, switched in place."""
    first = next(iter(LOCALES))
    phone, match = scorer_on_a_match(new_phone, server_api, size, first)
    post_play(server_api, match, 1, "K")
    for lang in phone.languages(LOCALES):
        phone.wait_turn(2)
        phone.tap_card("2")
        phone.wait_turn(3)
        scroll_to_the_keypad(phone)
        undo = phone.page.locator("#undo").bounding_box()
        finger = (undo["x"] + undo["width"] / 2, undo["y"] + undo["height"] / 2)
        said = tap_twice_at(phone, finger, 500)  # within a second: "Undo one more?"
        assert phone.page.locator(".verdict.question").count() == 1, f"{lang}: no question; the bar said {said!r}"
        phone.settled()
        assert in_view(phone, ".verdict.question")["whole"], lang
        assert phone.text(".verdict.question h2") == words(lang, "double.undo")
        assert phone.text("#question-yes") == words(lang, "double.undo_yes")  # a yes that undoes, in its words
        box = phone.page.locator("#question-yes").bounding_box()
        assert not (box["y"] <= finger[1] <= box["y"] + box["height"]), lang  # not where the finger was
        assert box["y"] > PHONES[size]["height"] / 2, lang  # but down by the thumb
        phone.screenshot(f"thumb-undo-more-{size}-{lang}", full_page=False)
        phone.click("#question-no")
        assert phone.page.locator(".verdict.question").count() == 0
        assert plays(server_api, match) == [(1, "K")], lang  # one Undo: the 2 taken back, the K kept
    phone.wait_turn(2)
    for lang in phone.languages(LOCALES):
        scroll_to_the_keypad(phone)
        phone.page.locator("#end").scroll_into_view_if_needed()
        phone.calm()
        before = keys(phone)
        phone.click("#end")
        phone.page.locator("#end-confirm").wait_for()
        phone.calm()
        assert in_view(phone, ".verdict.question")["whole"], lang
        assert in_view(phone, "#end-confirm")["top"] > PHONES[size]["height"] / 2, lang
        assert keys(phone) == before, lang  # the question moved no key
        phone.screenshot(f"thumb-end-{size}-{lang}", full_page=False)
        phone.click("#question-no")  # not yet: the table looks at it in another language first
        assert server_api(f"/api/matches/{match['id']}")["status"] != "finished", lang
    phone.click("#end")
    phone.page.locator("#end-confirm").wait_for()
    phone.click("#end-confirm")
    phone.page.wait_for_selector("#finished")
    assert server_api(f"/api/matches/{match['id']}")["status"] == "finished"


@pytest.mark.parametrize(("size", "first"), [("360x740", "ru"), ("390x844", "en")])
def test_the_same_rank_for_the_next_seat_is_recorded_at_once_and_said(new_phone, server_api, size, first):
    """10 by F, and 0.25 s later 10 by S, the next to play: both recorded, no question, and the bar says so in each
    language (said again in the new words)."""
    phone, match = scorer_on_a_match(new_phone, server_api, size, first)
    for seat, card in [(1, "K"), (2, "2"), (3, "3")]:
        post_play(server_api, match, seat, card)
    phone.wait_turn(4)
    scroll_to_the_keypad(phone)
    tap_twice(phone, "10", 250)  # quick, but no bounce (taps.js: BOUNCE_MS, DOUBLE_MS)
    phone.wait_turn(1)
    assert phone.page.locator(".verdict.question").count() == 0
    assert plays(server_api, match) == [(1, "K"), (2, "2"), (3, "3"), (4, "10"), (0, "10")]
    for lang in phone.languages(LOCALES):
        play = words(lang, "event.play", name="S", card="10")
        assert phone.text("#last-word") == words(lang, "word.recorded_next", what=play)
        phone.screenshot(f"thumb-next-seat-{size}-{lang}", full_page=False)


@pytest.mark.parametrize(("size", "first"), [("360x740", "en"), ("390x844", "pl")])
def test_a_second_identical_record_says_it_was_recorded_again(new_phone, server_api, size, first):
    """S takes the trick with an ace and leads an ace, the table's language switched between the two: the bar's words
    change, though the play's words are the same, in each language (the bar's words before and after looked at in
    each, switched in place); taken back by another phone and tapped again, it is said as recorded."""
    phone, match = scorer_on_a_match(new_phone, server_api, size, first)
    for seat, card in [(1, "K"), (2, "2"), (3, "3"), (4, "4")]:
        post_play(server_api, match, seat, card)
    phone.play(0, "A")
    phone.wait_turn(0)  # S took the trick and leads
    # the bar's words before, in each language; the second ace is tapped in another language than the first's (the
    # same entry is recorded again whatever the language each was said in)
    said = {lang: phone.text("#last-word") for lang in phone.languages(LOCALES)}
    assert phone.page.evaluate("() => document.documentElement.lang") != first
    phone.tap_card("A")
    phone.wait_turn(1)
    for lang in phone.languages(LOCALES):
        assert phone.text("#last-word") != said[lang], lang
        play = words(lang, "event.play", name="S", card=words(lang, "rank.A"))
        assert phone.text("#last-word") == words(lang, "word.recorded_again", n=2, what=play)
        phone.screenshot(f"thumb-again-{size}-{lang}", full_page=False)
    # another phone takes the second ace back and the ace is tapped again: not twice in a row in the log (the undo
    # between), so said as recorded
    server_api.post(f"/api/matches/{match['id']}/undo", {}, match["key"])
    phone.wait_turn(0)
    phone.tap_card("A")
    phone.wait_turn(1)
    lang = phone.page.evaluate("() => document.documentElement.lang")
    play = words(lang, "event.play", name="S", card=words(lang, "rank.A"))
    assert phone.text("#last-word") == words(lang, "announce.recorded", what=play)
