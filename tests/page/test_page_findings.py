"""A finding is told once, in view, and then kept in short (a count in the status line that opens the list in the
scores); it never covers the seats, nor piles up at the top of the other tabs; a deal's result says who went out. At
390x844 and 360x740, one walk a size, in the three languages switched in place."""

from __future__ import annotations

import pytest
from conftest_browser import LOCALES, PHONES
from test_page_layout import post_play
from test_page_thumb import FIVE, in_view, words

pytestmark = pytest.mark.browser

W_HAND = ["K", "K", "7", "6", "4", "3"]


def overlaps(a: dict, b: dict) -> bool:
    return not (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
                or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"])


def nothing_over_the_seats(phone) -> None:
    li = phone.page.locator(".seats > li")
    seats = [li.nth(i).bounding_box() for i in range(li.count())]
    verdicts = phone.page.locator(".verdict")
    for i in range(verdicts.count()):
        box = verdicts.nth(i).bounding_box()
        assert box and not any(overlaps(box, seat) for seat in seats), "a message lies over the seats"


def five_at_the_table(new_phone, server_api, size, lang, hands=None):
    match = server_api.post("/api/matches", {"game": "ogorek", "players": FIVE})
    deal = {"type": "deal", "dealer": 0, **({"hands": hands} if hands else {})}
    server_api.post(f"/api/matches/{match['id']}/events", deal, match["key"])
    phone = new_phone(locale=LOCALES[lang], viewport=PHONES[size])
    phone.open(f"/?m={match['id']}#key={match['key']}")
    phone.page.wait_for_selector("#mode.scoring")
    return phone, match


# W's wrong card, one a language: the plays the other phones enter before it, the card W's scorer taps (below the
# trick's highest while W holds K: neither climbing nor W's lowest), and the next entry, N's, tapped. A player whose
# hand is not known climbs, or plays under the trick's highest a card the unseen cards leave possible as their lowest
# (their hand all below the highest, from that card up): W's three plays are all there is to find.
WRONG = [([(1, "K"), (2, "2"), (3, "3"), (4, "4"), (0, "A"), (0, "9")], "6", "10"),  # S took the first trick, leads 9
         ([(3, "J"), (4, "Q"), (4, "5"), (0, "8")], "4", "2"),  # F took the second, leads 5; S climbs to 8
         ([(3, "3"), (0, "Q")], "7", "2")]  # S took the third with 8, leads Q


@pytest.mark.parametrize(("size", "first"), [("360x740", "pl"), ("390x844", "ru")])
def test_a_finding_is_told_once_in_view_then_kept_in_short(new_phone, server_api, size, first):
    """In each language a finding of its own: a language switched in place takes away what was told in the words
    before (webui/static/js/main.js, bindLanguages), so W breaks the rule again after each switch, and the refusal,
    the finding told and the list are looked at in the new words right after it."""
    phone, match = five_at_the_table(new_phone, server_api, size, first, hands={"1": W_HAND})
    finding = phone.page.locator(".verdict.finding")
    for found, (lang, (before, wrong, after)) in enumerate(zip(phone.languages(LOCALES), WRONG, strict=True), 1):
        if found > 1:
            phone.tab("table")  # from the money, where the last language's walk ended
        for seat, card in before:
            post_play(server_api, match, seat, card)
        phone.page.wait_for_selector(f'.seat[data-seat="0"] .in-front .card[data-card="{before[-1][1]}"]')
        phone.wait_turn(1)
        phone.tap_card(wrong)  # W holds K: refused, and let stand
        phone.page.locator("#let-it-stand").wait_for()
        assert in_view(phone, "#refusal")["whole"], lang
        nothing_over_the_seats(phone)
        phone.click("#let-it-stand")
        finding.wait_for()
        phone.wait_turn(2)
        assert finding.locator("h2").inner_text() == words(lang, "finding.title", name="W")
        assert in_view(phone, ".verdict.finding")["whole"], lang
        nothing_over_the_seats(phone)
        assert phone.text("#findings-count") == f"⚠ {found}"  # W's findings so far, this language's the last
        phone.screenshot(f"finding-told-{size}-{lang}", full_page=False)
        phone.tap_card(after)  # the next entry: the finding has been told
        phone.wait_turn(3)
        assert finding.count() == 0, lang
        assert phone.text("#findings-count") == f"⚠ {found}"
        phone.screenshot(f"finding-kept-{size}-{lang}", full_page=False)
        phone.click("#findings-count")  # the list, in the scores
        phone.page.wait_for_selector("#panel-scores #findings .findings li")
        listed = phone.page.locator("#findings .findings li").all_inner_texts()  # W's all, in the words shown
        assert len(listed) == found and all(words(lang, "finding.title", name="W") in item for item in listed)
        assert phone.page.locator(".verdict").count() == 0, lang  # nothing piled at the top of the tab
        phone.tab("money")
        assert phone.page.locator(".verdict").count() == 0, lang


# every player's cards climb from trick to trick, and every card reaches the trick's top: all legal, nothing to find
TRICKS = [["2", "2", "2", "2", "3"], ["3", "3", "3", "4", "4"], ["4", "4", "5", "5", "5"], ["5", "6", "6", "6", "6"],
          ["7", "7", "7", "7", "8"], ["8", "8", "8", "9", "9"]]


@pytest.mark.parametrize(("size", "first"), [("360x740", "en"), ("390x844", "pl")])
def test_the_deals_result_says_who_went_out(new_phone, server_api, size, first):
    """The result is looked at in each language, switched in place: it is drawn again in the new words."""
    phone, match = five_at_the_table(new_phone, server_api, size, first)
    events = f"/api/matches/{match['id']}/events"
    server_api.post(events, {"type": "penalty", "seat": 1, "points": 22}, match["key"])  # counted at the deal's end
    for trick in TRICKS:
        for card in trick:
            seat = server_api(f"/api/matches/{match['id']}")["expected"]["seat"]
            server_api.post(events, {"type": "play", "seat": seat, "card": card}, match["key"])
    state = server_api(f"/api/matches/{match['id']}")
    assert not state["findings"] and state["players"][1]["out"]
    phone.page.wait_for_selector(".result")
    for lang in phone.languages(LOCALES):
        place = {"en": "5th"}.get(lang, "5")
        out = words(lang, "result.out", names=words(lang, "result.out_who", name="W", place=place))
        assert out in phone.text(".result"), lang
        phone.screenshot(f"result-out-{size}-{lang}", full_page=False)
