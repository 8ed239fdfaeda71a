"""Corrections on the page, sent and recorded: a bid the hook then refuses, let stand when the table insists and
recorded with its finding; a double tap on a key of the sheet that records one correction; a deal's dealer
corrected with the hands entered kept; a penalty's seat and points, a forgotten penalty, the end removed; a
defence, an attack, the swap of the nine of trumps, the card turned up; a card corrected from the trick history
and a deal opened from the scoresheet; followers and the big screen showing the corrected table, live; Durak's deal
(who attacks first kept), a transfer, and a forgotten throw-in."""

from __future__ import annotations

import json
import time
import urllib.request

import pytest
from conftest_browser import PHONES
from test_page_big_screen import SCREENS, an_evening_at_the_seed_deal
from test_page_correction_sheets import DUREN, OGOREK, OH_HELL, a_match, open_entry, scorer
from test_page_corrections import words

pytestmark = pytest.mark.browser

W_HAND = ["K", "K", "7", "6", "4", "3"]


def events_of(server_api, match: dict, keyed: bool = False) -> list[dict]:
    if not keyed:
        return server_api(f"/api/matches/{match['id']}/events")["events"]
    request = urllib.request.Request(f"{server_api.base}/api/matches/{match['id']}/events",
                                     headers={"Authorization": f"Bearer {match['key']}"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())["events"]


def recorded(phone, server_api, match: dict, seq: int) -> list[dict]:
    """Waits until the page has sent everything and its log shows event `seq`; the server's log."""
    phone.settled()
    phone.page.wait_for_selector(f'#panel-log li[data-seq="{seq}"]', timeout=15000)
    return events_of(server_api, match)


@pytest.mark.parametrize(("lang", "size"), [("en", "360x740"), ("pl", "390x844"), ("ru", "360x740")])
def test_a_correction_the_hook_refuses_is_let_stand_when_the_table_insists_with_its_finding(new_phone, server_api,
                                                                                            lang, size):
    """W's bid was 1, typed 0: corrected, S's later 0 as the dealer makes the bids total the hand size. The referee
    refuses by a rule the table may let stand; the table insists (a double tap on Let it stand): one correction,
    S's bid flagged, and the finding kept."""
    t = words(lang)
    bids = [{"type": "bid", "seat": seat, "bid": 0} for seat in (1, 2, 0)]
    match = a_match(server_api, "oh_hell", ["S", "W", "N"], [{"type": "deal", "dealer": 0, "trump": "9S"}, *bids],
                    {"hook": True})
    phone = scorer(new_phone, match, lang, size)
    phone.tab("log")
    open_entry(phone, 2)
    phone.click("#correct-change")
    phone.click('#correction .keypad.bids button[data-bid="1"]')
    phone.page.wait_for_selector("#correction-answer.refused")
    hook = t("say.hook", name="S", bid=0, size=1)
    assert phone.text("#correction-answer") == t("say.correction_breaks_rule", seq=4, why=hook)
    assert phone.page.eval_on_selector("#correction-answer", "el => el.scrollHeight <= el.clientHeight + 1")  # whole
    force = phone.page.locator("#correct-force")
    assert force.is_enabled() and force.is_visible() and force.inner_text() == t("referee.let_it_stand")
    assert server_api(f"/api/matches/{match['id']}")["seq"] == 4  # nothing recorded
    phone.screenshot(f"correct-forced-{size}-{lang}-asked", full_page=False)

    box = force.bounding_box()
    finger = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    phone.calm()
    phone.page.mouse.click(*finger)
    phone.page.mouse.click(*finger)  # the second tap lands where Let it stand was: it is gone, out of reach
    events = recorded(phone, server_api, match, 5)
    time.sleep(0.5)
    phone.page.mouse.click(*finger)
    phone.settled()
    events = events_of(server_api, match)
    assert [e["type"] for e in events].count("correct") == 1
    correction = events[4]
    assert correction | {"corrects": 2, "force": True, "flagged": [4]} == correction
    assert correction["with"]["bid"] == 1 and correction["changed"][0]["illegal"]["code"] == "hook"
    state = server_api(f"/api/matches/{match['id']}")
    assert [(f["seq"], f["code"], f["proof_seq"]) for f in state["findings"]] == [(4, "hook", 4)]
    assert [p["bid"] for p in state["players"]] == [0, 1, 0]
    phone.page.wait_for_selector("#findings-count")
    assert not phone.page.locator("#correction-answer.refused").count()
    assert phone.page.locator("#correct-force").is_hidden()
    phone.screenshot(f"correct-forced-{size}-{lang}-recorded", full_page=False)


def test_a_double_tap_on_a_key_of_the_sheet_records_one_correction(new_phone, server_api):
    match = a_match(server_api, "ogorek", ["S", "W", "N", "E"], OGOREK)
    phone = scorer(new_phone, match, "ru", "390x844")
    phone.tab("log")
    open_entry(phone, 29)
    phone.click("#correct-change")
    box = phone.page.locator('#correction .keypad button[data-card="J"]').bounding_box()
    finger = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    phone.calm()
    phone.page.mouse.click(*finger)
    phone.page.mouse.click(*finger)  # a finger's bounce: the key is greyed, out of reach, once the first tap sent
    recorded(phone, server_api, match, 30)
    time.sleep(0.6)
    phone.page.mouse.click(*finger)  # and after the answer, a third tap: the key stays out of reach
    phone.settled()
    assert phone.page.locator("#correction .correct-body[inert]").count() == 1
    events = events_of(server_api, match)
    assert [e["type"] for e in events].count("correct") == 1 and events[29]["with"]["card"] == "J"
    phone.screenshot("correct-double-tap-390x844-ru", full_page=False)


def test_a_dealer_corrected_keeps_the_hands_entered_with_the_deal(new_phone, server_api):
    """S was typed as the dealer; W dealt. The phone does not show the hands: the correction reads them with the key
    and sends them back, so that W's hand entered for the referee stays."""
    match = a_match(server_api, "ogorek", ["S", "W", "N", "E"], [{"type": "deal", "dealer": 0, "hands": {"1": W_HAND}}])
    phone = scorer(new_phone, match)
    phone.tab("log")
    open_entry(phone, 1)
    phone.click("#correct-change")
    phone.click('#correction .seat-buttons button[data-seat="1"]')
    phone.page.wait_for_selector('#correction .seat-buttons button[data-seat="1"][aria-pressed="true"]')
    phone.click("#correct-send")
    recorded(phone, server_api, match, 2)
    correction = events_of(server_api, match, keyed=True)[1]
    assert correction["with"] | {"dealer": 1, "hands": {"1": W_HAND}} == correction["with"]
    assert "hands" not in events_of(server_api, match)[1]["with"]  # without the key, the hands stay secret
    state = server_api(f"/api/matches/{match['id']}")
    assert state["deal"]["dealer"] == 1 and state["expected"]["seat"] == 2


@pytest.mark.parametrize(("lang", "size"), [("en", "360x740"), ("ru", "390x844")])
def test_the_hands_entered_with_a_deal_corrected_where_the_phone_shows_them(new_phone, server_api, lang, size):
    """W's 3 was a 2: on a phone that shows the hands, the deal's sheet offers the known hands, as the deal step does;
    a hand begun and not complete holds the correction back."""
    match = a_match(server_api, "ogorek", ["S", "W", "N", "E"], [{"type": "deal", "dealer": 0, "hands": {"1": W_HAND}}])
    phone = scorer(new_phone, match, lang, size)
    phone.click("#show-hands")
    phone.page.wait_for_selector("#shown-hands")
    phone.tab("log")
    open_entry(phone, 1)
    phone.click("#correct-change")
    phone.click("#correction .known-hands summary")
    phone.click('#correction .known-hands .seat-buttons button[data-seat="1"]')
    chips = phone.page.locator("#correction .known-hands .chosen-cards .chip-button")
    chips.nth(0).wait_for()
    assert [chip.locator(".card").get_attribute("data-card") for chip in chips.all()] == W_HAND
    phone.click("#correction .known-hands .chosen-cards .chip-button:nth-child(6)")  # the 3 out: begun, not complete
    phone.page.wait_for_selector("#correct-send[disabled]")
    phone.screenshot(f"correct-hands-{size}-{lang}", full_page=False)
    phone.click('#correction .known-hands .keypad button[data-card="2"]')
    phone.page.wait_for_selector("#correct-send:not([disabled])")
    phone.click("#correct-send")
    recorded(phone, server_api, match, 2)
    assert events_of(server_api, match, keyed=True)[1]["with"]["hands"] == {"1": ["K", "K", "7", "6", "4", "2"]}


def test_a_penalty_corrected_a_forgotten_one_inserted_and_the_end_removed(new_phone, server_api):
    t = words("pl")
    match = a_match(server_api, "ogorek", ["S", "W", "N", "E"],
                    [{"type": "deal", "dealer": 0}, {"type": "penalty", "seat": 1, "points": 5}, {"type": "end"}])
    phone = scorer(new_phone, match, "pl", "390x844")
    phone.tab("log")
    open_entry(phone, 3)  # the end: nothing to correct, only to remove
    assert phone.page.locator("#correct-change").is_disabled()
    assert phone.text("#correction .correct-hint") == t("correct.end_nothing")
    phone.screenshot("correct-end-390x844-pl", full_page=False)
    phone.click("#correct-remove")
    phone.click("#correct-remove-yes")
    recorded(phone, server_api, match, 4)
    assert server_api(f"/api/matches/{match['id']}")["status"] == "playing"
    phone.page.wait_for_selector("#correct-remove[disabled]")  # the end no longer stands: nothing more to do with it
    assert phone.text("#correct-entry").endswith(f"({t('correct.gone')})")
    assert phone.page.locator("#correct-insert").is_disabled()

    open_entry(phone, 2)  # W's 5 were N's 3
    phone.click("#correct-change")
    phone.click('#correction .seat-buttons button[data-seat="2"]')
    phone.page.fill("#correct-points", "3")
    phone.click("#correct-points-send")
    events = recorded(phone, server_api, match, 5)
    assert events[4]["with"] | {"type": "penalty", "seat": 2, "points": 3} == events[4]["with"]

    open_entry(phone, 2)  # and E's cut of the deck was never typed
    phone.click("#correct-insert")
    phone.click("#correct-kind-penalty")
    phone.click('#correction .seat-buttons button[data-seat="3"]')
    phone.page.wait_for_selector('#correction .seat-buttons button[data-seat="3"][aria-pressed="true"]')
    assert phone.text("#correction .correct-ask") == t("correct.ask_insert_penalty", seq=2, name="E")
    phone.click("#correct-points-send")
    events = recorded(phone, server_api, match, 6)
    inserted = events[5]["insert"]
    assert events[5]["before"] == 2 and inserted | {"type": "penalty", "seat": 3, "points": 5} == inserted
    assert [p["score"] for p in server_api(f"/api/matches/{match['id']}")["players"]] == [0, 0, 3, 5]


def test_a_defence_an_attack_and_the_swap_of_the_nine_corrected(new_phone, server_api):
    match = a_match(server_api, "duren", ["S", "W"], DUREN)
    phone = scorer(new_phone, match, "ru", "360x740")
    phone.tab("log")
    open_entry(phone, 6)  # S beat Q♠ with A♠, not K♠
    phone.click("#correct-change")
    phone.click('#correction .keypad button[data-card="AS"]')
    phone.page.wait_for_selector('#correction .beat-target[data-attack="QS"] .card[data-card="AS"]')
    phone.click("#correct-send")
    events = recorded(phone, server_api, match, 7)
    assert events[6]["with"]["beats"] == [{"card": "QS", "with": "AS"}]
    open_entry(phone, 3)  # W attacked with 10♦, not 10♥
    phone.click("#correct-change")
    phone.click('#correction .keypad button[data-card="10H"]')
    phone.click('#correction .keypad button[data-card="10D"]')
    phone.page.wait_for_selector('#correction .keypad button[data-card="10D"][aria-pressed="true"]')
    phone.click("#correct-send")
    events = recorded(phone, server_api, match, 8)
    assert events[7]["with"] | {"type": "attack", "seat": 1, "cards": ["10D"]} == events[7]["with"]
    open_entry(phone, 2)  # S swapped the nine, not W
    phone.click("#correct-change")
    phone.click('#correction .seat-buttons button[data-seat="0"]')
    phone.page.wait_for_selector('#correction .seat-buttons button[data-seat="0"][aria-pressed="true"]')
    phone.click("#correct-send")
    events = recorded(phone, server_api, match, 9)
    assert events[8]["with"] | {"type": "exchange", "seat": 0, "nine": "9C"} == events[8]["with"]
    state = server_api(f"/api/matches/{match['id']}")
    assert state["deal"]["exchange"]["seat"] == 0 and state["deal"]["rounds"][0]["attack"] == ["10D"]


def test_the_card_turned_up_corrected(new_phone, server_api):
    match = a_match(server_api, "oh_hell", ["S", "W", "N"], OH_HELL)
    phone = scorer(new_phone, match, "en", "390x844")
    phone.tab("log")
    open_entry(phone, 1)
    phone.click("#correct-change")
    phone.click('#correction .suit-tabs button[data-suit="D"]')
    phone.click('#correction .keypad button[data-card="9D"]')
    phone.page.wait_for_selector('#correction .keypad button[data-card="9D"][aria-pressed="true"]')
    assert phone.text("#correction .correct-trump") == "Turned up: 9♦"
    phone.click("#correct-send")
    events = recorded(phone, server_api, match, 9)
    assert events[8]["with"] | {"type": "deal", "dealer": 0, "trump": "9D"} == events[8]["with"]


def test_a_card_corrected_from_the_trick_history_and_a_deal_opened_from_the_scoresheet(new_phone, server_api):
    t = words("en")
    match = a_match(server_api, "ogorek", ["S", "W", "N", "E"], OGOREK)
    phone = scorer(new_phone, match)
    phone.click("#trick-history > summary")
    phone.click('#trick-history .trick-play[data-seq="27"]')  # N's 9 was an 8
    phone.page.wait_for_selector('#panel-log #correction[aria-label$="#27"]')
    sheet = phone.page.locator("#correction").bounding_box()
    item = phone.page.locator('#panel-log li[data-seq="27"]').bounding_box()
    bar = phone.page.locator("header.bar").bounding_box()
    assert bar["y"] + bar["height"] <= item["y"] and item["y"] + item["height"] <= sheet["y"]  # in view, above it
    phone.click("#correct-change")
    phone.click('#correction .keypad button[data-card="8"]')
    recorded(phone, server_api, match, 30)
    phone.click("#correct-close")  # back to the table, the trick history as it was, now with N's 8
    phone.page.wait_for_selector('#trick-history[open] .trick-play[data-seq="27"] .card[data-card="8"]')
    assert phone.page.locator('.seat[data-seat="2"] .in-front .card').get_attribute("data-card") == "8"

    phone.tab("scores")
    phone.click('#scoresheet tr[data-deal="1"] td[data-seat="3"]')  # E's 9 minus points: which entry?
    phone.page.wait_for_selector("#panel-log #correction .correct-pick")
    assert phone.page.locator("#correction .correct-pick").all_inner_texts() == [f"#1 · {t('event.deal', name='S')}"]
    phone.page.locator('#panel-log li[data-seq="1"]').wait_for()
    phone.calm()  # the log drawn and scrolled to the entry: where it stays
    item = phone.page.locator('#panel-log li[data-seq="1"]').bounding_box()
    sheet = phone.page.locator("#correction").bounding_box()
    assert item["y"] + item["height"] <= sheet["y"] and item["y"] >= bar["y"] + bar["height"]
    assert phone.page.locator("#correct-change").is_disabled()
    phone.click('#correction .correct-pick[data-seq="1"]')
    phone.page.wait_for_selector('#correction[aria-label$="#1"] #correct-change:not([disabled])')
    assert phone.text("#correct-close") == t("correct.close_back", tab=t("tab.scores"))
    phone.click("#correct-close")
    phone.page.wait_for_selector("#panel-scores #scoresheet")
    assert phone.page.locator("#correction").count() == 0


def test_followers_and_the_big_screen_show_the_corrected_table_live(new_phone, server_api):
    evening, match = an_evening_at_the_seed_deal(server_api)
    server_api.post(f"/api/matches/{match['id']}/events", {"type": "penalty", "seat": 1, "points": 5}, key=match["key"])
    screen = new_phone(viewport=SCREENS["1280x800"])
    screen.page.goto(f"/?e={evening['id']}&screen")
    screen.page.wait_for_selector('.big-seat[data-seat="2"] .big-cards .card')
    follower = new_phone()
    follower.open(f"/?m={match['id']}")
    follower.page.wait_for_selector('.seat[data-seat="2"] .in-front .card[data-card="9"]')
    assert screen.page.locator('.big-seat[data-seat="1"] .big-score').inner_text() == "5"
    phone = scorer(new_phone, match, "en", "360x740")
    phone.tab("log")
    open_entry(phone, 27)  # N's 9 was a J
    phone.click("#correct-change")
    phone.click('#correction .keypad button[data-card="J"]')
    recorded(phone, server_api, match, 29)
    open_entry(phone, 28)  # and W's penalty 3, not 5
    phone.click("#correct-change")
    phone.page.fill("#correct-points", "3")
    phone.click("#correct-points-send")
    recorded(phone, server_api, match, 30)

    follower.page.wait_for_selector('.seat[data-seat="2"] .in-front .card[data-card="J"]')  # pushed by the stream
    follower.page.wait_for_function("() => document.querySelector('.seat[data-seat=\"1\"] .seat-figures').textContent"
                                    ".includes('3')")
    assert "5" not in follower.text('.seat[data-seat="1"] .seat-figures')
    screen.page.wait_for_function("() => document.querySelector('.big-seat[data-seat=\"1\"] .big-score')"
                                  ".textContent === '3'", timeout=10000)  # read again every two seconds
    assert screen.page.locator('.big-seat[data-seat="2"] .big-cards .card').all_inner_texts() == ["J"]
    follower.tab("log")
    follower.page.wait_for_selector('#panel-log li[data-seq="30"]')
    assert follower.page.locator("#panel-log button.correct-open").count() == 0  # a follower corrects nothing
    assert "corrected" in follower.page.locator('#panel-log li[data-seq="27"]').get_attribute("class")
    follower.screenshot("correct-follower-log", full_page=False)
    screen.screenshot("correct-big-screen", full_page=False)


@pytest.mark.parametrize("size", list(PHONES))
def test_the_trick_history_opens_below_everything_and_moves_nothing(new_phone, server_api, size):
    match = a_match(server_api, "ogorek", ["S", "W", "N", "E"], OGOREK)
    phone = scorer(new_phone, match, "en", size)
    keys = phone.page.eval_on_selector_all(".action .keypad button, .seats > li", """els => els.map(el => {
        const r = el.getBoundingClientRect();
        return [Math.round(r.left), Math.round(r.top + window.scrollY), Math.round(r.width), Math.round(r.height)];
    })""")
    assert phone.page.locator("#trick-history .tricks").is_hidden()  # folded: one line
    phone.click("#trick-history > summary")
    phone.page.wait_for_selector("#trick-history .tricks")
    assert phone.page.eval_on_selector_all(".action .keypad button, .seats > li", """els => els.map(el => {
        const r = el.getBoundingClientRect();
        return [Math.round(r.left), Math.round(r.top + window.scrollY), Math.round(r.width), Math.round(r.height)];
    })""") == keys  # on the page: nothing above it moved
    assert phone.page.locator("#trick-history .trick").count() == 1  # deal 2: its first trick, begun
    plays = phone.page.locator("#trick-history .trick-play")
    assert plays.locator(".trick-name").all_inner_texts() == ["N", "E"]
    assert [card.get_attribute("data-card") for card in plays.locator(".card").all()] == ["9", "10"]


def test_the_sheets_and_the_trick_history_pass_axe(new_phone, server_api):
    """axe-core (WCAG 2 A and AA, test_page_axe.py) over the trick history, the scoresheet's deals as buttons and every
    sheet of a correction: no serious or critical violation."""
    from accessibility import Axe
    from test_page_axe import check
    axe, found = Axe(), []
    phone = scorer(new_phone, a_match(server_api, "ogorek", ["S", "W", "N", "E"], OGOREK))
    phone.click("#trick-history > summary")
    check(phone, axe, "trick history", found)
    phone.tab("scores")
    check(phone, axe, "scoresheet to correct", found)
    phone.click('#scoresheet tr[data-deal="1"] button.sheet-deal')
    phone.page.wait_for_selector("#correction .correct-pick")
    check(phone, axe, "pick", found)
    phone.click("#correct-close")
    phone.tab("log")
    for seq, choice, screen in [(29, "#correct-change", "play"), (29, "#correct-insert", "insert"),
                                (28, "#correct-change", "penalty"), (26, "#correct-change", "deal"),
                                (28, "#correct-remove", "remove")]:
        open_entry(phone, seq)
        phone.click(choice)
        check(phone, axe, screen, found)
    for game, players, log, entries in [("oh_hell", ["S", "W", "N"], OH_HELL, [2, 1, 5]),
                                        ("duren", ["S", "W"], DUREN, [2, 5, 6, 1])]:
        phone = scorer(new_phone, a_match(server_api, game, players, log))
        phone.tab("log")
        for seq in entries:
            open_entry(phone, seq)
            phone.click("#correct-change")
            check(phone, axe, f"{game} #{seq}", found)
    assert found == []


# Durak for four with transfers: Bob leads 9♠, Cyd passes the bout on with 9♦, Dan takes, the bout is over
DURAK = [{"type": "deal", "dealer": 0, "trump": "QH", "attacker": 1}, {"type": "attack", "seat": 1, "cards": ["9S"]},
         {"type": "transfer", "seat": 2, "cards": ["9D"]}, {"type": "take", "seat": 3}, {"type": "done"}]


def test_a_durak_deal_a_transfer_and_a_forgotten_throw_in_corrected(new_phone, server_api):
    """A deal that names who attacks first keeps naming them when its dealer is corrected (the referee refuses a first
    deal without one), a transfer's card is corrected, and a throw-in never typed is inserted before "bout over": the
    taker holds every card of the bout."""
    t = words("ru")
    match = a_match(server_api, "durak", ["Ala", "Bob", "Cyd", "Dan"], DURAK, {"transfer": True})
    phone = scorer(new_phone, match, "ru", "360x740")
    phone.tab("log")
    open_entry(phone, 1)  # Dan dealt, not Ala
    phone.click("#correct-change")
    first_attacker = '#correction [data-area="correction-attacker"] button[aria-pressed="true"]'
    assert phone.page.get_attribute(first_attacker, "data-seat") == "1"
    phone.click('#correction .seat-buttons button[data-seat="3"]')
    phone.click("#correct-send")
    events = recorded(phone, server_api, match, 6)
    assert events[5]["with"] | {"type": "deal", "dealer": 3, "trump": "QH", "attacker": 1} == events[5]["with"]

    open_entry(phone, 3)  # Cyd passed it on with 9♣, not 9♦
    phone.click("#correct-change")
    assert phone.text("#correction .correct-ask") == t("correct.ask_transfer", seq=3, name="Cyd")
    phone.click('#correction .keypad button[data-card="9D"]')
    phone.click('#correction .keypad button[data-card="9C"]')
    phone.page.wait_for_selector('#correction .keypad button[data-card="9C"][aria-pressed="true"]')
    phone.click("#correct-send")
    events = recorded(phone, server_api, match, 7)
    assert events[6]["with"] | {"type": "transfer", "seat": 2, "cards": ["9C"]} == events[6]["with"]

    open_entry(phone, 5)  # and Ala threw in 9♥ before the bout was over
    phone.click("#correct-insert")
    phone.click("#correct-kind-attack")
    phone.click('#correction .seat-buttons button[data-seat="0"]')
    phone.click('#correction .keypad button[data-card="9H"]')
    phone.page.wait_for_selector('#correction .keypad button[data-card="9H"][aria-pressed="true"]')
    phone.click("#correct-send")
    events = recorded(phone, server_api, match, 8)
    assert events[7]["before"] == 5 and events[7]["insert"] | {"type": "attack", "seat": 0, "cards": ["9H"]} == \
        events[7]["insert"]
    deal = server_api(f"/api/matches/{match['id']}")["deal"]
    assert [(a["card"], a["seat"]) for a in deal["last_bout"]["attacks"]] == [("9S", 1), ("9C", 2), ("9H", 0)]
    assert deal["hand_sizes"]["3"] == 6 + 3 and deal["dealer"] == 3
