"""Durak on the phone: a bout from the lead to "bout over" for two, four and six players in each language (switched
in place), in one step whose controls stay where the thumb found them, and an evening of Durak for five refereed on
the page, from the deal to the evening's settlement, with the cards a table simulator plays."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path

import durak_table
import pytest
from conftest_browser import HUMAN_SECONDS, LOCALES, PHONES

pytestmark = pytest.mark.browser

I18N = Path(__file__).resolve().parents[2] / "webui" / "static" / "i18n"
NAMES = ["Ala", "Bob", "Cyd", "Dan", "Ewa", "Fil"]
# each player count in each language, each language looked at on one phone size: each player count on both sizes
BOUTS = {2: {"pl": "390x844", "en": "360x740", "ru": "390x844"},
         4: {"pl": "360x740", "en": "390x844", "ru": "360x740"},
         6: {"pl": "360x740", "en": "390x844", "ru": "360x740"}}
FIRST = {2: "ru", 4: "en", 6: "pl"}  # the language each walk's phone starts in, from its locale, on its case's size


def words(lang: str) -> dict:
    return json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))


def controls(phone) -> dict:
    """Where each control of the bout step is on the screen: the seats, the places, the keys, the buttons."""
    return phone.page.eval_on_selector(".bout-step", """step => {
        const out = {};
        for (const el of step.querySelectorAll("button, .place")) {
            const r = el.getBoundingClientRect();
            const place = el.closest(".place");
            const name = (el.classList.contains("record") && "record") || el.id
                || (el.dataset.seat !== undefined && `seat-${el.dataset.seat}`)
                || (el.dataset.card && `key-${el.dataset.card}`)
                || (place && `place-${[...step.querySelectorAll(".place")].indexOf(place)}`);
            if (name && !(name in out)) out[name] = [r.left, r.top, r.width, r.height].map(Math.round);
        }
        return out;
    }""")


def between_the_bars(phone) -> dict:
    return phone.page.evaluate("""() => {
        const step = document.querySelector(".bout-step").getBoundingClientRect();
        const last = document.querySelector(".bout-buttons").getBoundingClientRect();
        const header = document.querySelector(".bar").getBoundingClientRect().bottom;
        const bar = document.getElementById("bottom").getBoundingClientRect().top;
        return {top: step.top, bottom: last.bottom, header, bar};
    }""")


def deal_in_reach(phone) -> None:
    """Scrolls Deal above the bottom bar where it waits below it, as a thumb does: six players' first deal (the
    dealer's and the first attacker's seats, two rows each) is taller than the room between the bars of 360x740."""
    if phone.page.evaluate("""() => document.getElementById("log-deal").getBoundingClientRect().bottom
                                    > document.getElementById("bottom").getBoundingClientRect().top"""):
        phone.page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        phone.calm()


def views(phone, sizes: dict[str, str]) -> Iterator[str]:
    """Each language of `sizes`, the page turned to its size (`sizes[lang]`) and switched to it in place before it is
    yielded: the one shown first, then the others of the size shown, then those of the other size (a turn fewer)."""
    shown = phone.page.evaluate("() => document.documentElement.lang")
    size = next(name for name, viewport in PHONES.items() if viewport == phone.page.viewport_size)
    for lang in sorted(sizes, key=lambda lang: (sizes[lang] != size, lang != shown)):
        phone.resize(PHONES[sizes[lang]])
        phone.language(lang)
        yield lang


def wait_recorded(phone, server_api, match: dict, seq: int) -> None:
    """Waits until the phone's entry is recorded, one past `seq` (else says what the bottom bar said of the tap)."""
    for _ in range(100):
        phone.settled()
        if server_api(f"/api/matches/{match['id']}")["seq"] > seq:
            phone.settled()
            return
        phone.page.wait_for_timeout(50)
    raise AssertionError(f"nothing recorded: {phone.text('#last-word')}")


@pytest.mark.parametrize("players", list(BOUTS))
def test_a_bout_from_the_lead_to_bout_over_keeps_every_control_in_place(new_phone, server_api, players):
    """The first deal (the dealer, the card turned up, who attacks first), then a bout as a table plays it: the lead,
    a beat, a throw-in by another seat (by the attacker when there are two), "takes" and "bout over", then the next
    lead. Every control of the step (the seats, the six places, the keys, the buttons) is where it was at the lead
    through every step, the whole step lies between the bars, the buttons say what they record in the table's
    language, and the hand sizes the referee keeps are the ones the seats show. One walk a player count, each step
    looked at in Polish, English and Russian switched in place, each language on its own phone size (`BOUTS`, the
    page turned in place): each language's controls stay where they were at its lead on its size."""
    sizes = BOUTS[players]
    said = {lang: words(lang) for lang in sizes}
    one = {lang: {kind: said[lang][f"bout.{kind}.one"].replace("{n}", "1") for kind in ("lead", "beat", "throw")}
           for lang in sizes}
    match = server_api.post("/api/matches", {"game": "durak", "players": NAMES[:players],
                                             "options": {"transfer": True}})
    phone = new_phone(locale=LOCALES[FIRST[players]], viewport=PHONES[sizes[FIRST[players]]])
    phone.open(f"/?m={match['id']}#key={match['key']}")
    phone.page.wait_for_selector(".deal-step")
    phone.calm()
    phone.click('.dealer-choice button[data-seat="0"]')
    phone.click('.trump-pick .keypad button[data-card="QH"]')  # under the talon, or the dealer's last card
    phone.click('.first-attacker button[data-seat="1"]')
    for lang in views(phone, sizes):
        phone.screenshot(f"durak-{players}-{lang}-{sizes[lang]}-deal", full_page=False)
    # the bout step comes on the smaller phone, which the page scrolls to bring it whole between the bars: the page
    # scrolls a step into view when it comes, not when the phone turns, and the larger phone has room to spare
    phone.resize(PHONES["360x740"])
    deal_in_reach(phone)
    phone.click("#log-deal")
    phone.page.wait_for_selector(".bout-step")
    phone.settled()
    phone.calm()
    defender, thrower = (0, 1) if players == 2 else (2, 3)
    at_lead = {}
    for lang in views(phone, sizes):
        at_lead[lang] = controls(phone)
        assert len([name for name in at_lead[lang] if name.startswith("seat-")]) == players, lang
        assert len([name for name in at_lead[lang] if name.startswith("place-")]) == 6, lang
        shown = between_the_bars(phone)
        assert shown["header"] <= shown["top"] and shown["bottom"] <= shown["bar"], (lang, shown)
        phone.screenshot(f"durak-{players}-{lang}-{sizes[lang]}-lead", full_page=False)

    def step(taps: list[str], button: str | None = None, says: str | None = None) -> Iterator[str]:
        """The taps, then the button that records them, saying `says` (what it records: "lead"...) in each language;
        after the answer, nothing has moved in any language, each yielded in turn for what is looked at then."""
        seq = server_api(f"/api/matches/{match['id']}")["seq"]
        for tap in taps:
            phone.click(tap)
        if button:
            for lang in views(phone, sizes):
                assert phone.text(button) == one[lang][says], lang
            phone.click(button)
        wait_recorded(phone, server_api, match, seq)
        for lang in views(phone, sizes):
            assert controls(phone) == at_lead[lang], lang
            yield lang

    for lang in step(['.bout-step .keypad button[data-card="9S"]'], ".bout-step .record", "lead"):
        assert phone.page.locator(f'.bout-seats button[data-seat="{defender}"][aria-pressed="true"]').count() == 1, lang
    for lang in step(['.bout-step .keypad button[data-card="JS"]'], ".bout-step .record", "beat"):
        phone.screenshot(f"durak-{players}-{lang}-{sizes[lang]}-beaten", full_page=False)
    for lang in step([f'.bout-seats button[data-seat="{thrower}"]', '.bout-step .keypad button[data-card="9D"]'],
                     ".bout-step .record", "throw"):
        phone.screenshot(f"durak-{players}-{lang}-{sizes[lang]}-thrown-in", full_page=False)
    for lang in step(["#log-take"]):
        taking = said[lang]["bout.hint_taking"].replace("{room}", "").split("{name}")[-1][:12]
        assert taking in phone.text("#bout-hint"), lang
    for lang in step(["#log-done"]):
        phone.page.wait_for_selector(".last-trick")
        phone.screenshot(f"durak-{players}-{lang}-{sizes[lang]}-next-lead", full_page=False)
        figures = phone.text(f'.seat[data-seat="{defender}"] .seat-figures')
        eight = said[lang][f"seat.cards.{'other' if lang == 'en' else 'many'}"].replace("{n}", "8")  # "8 kart"
        assert eight in figures, lang

    state = server_api(f"/api/matches/{match['id']}")
    hands = state["deal"]["hand_sizes"]
    assert hands[str(defender)] == 6 - 1 + 3  # beat with one card, then took the bout's three
    laid = {1: 1 + (thrower == 1), thrower: 1 + (thrower == 1)}  # the lead and the throw-in
    talon = 36 > 6 * players  # they draw back up to six; with the whole pack dealt, nobody draws
    assert {int(seat): held for seat, held in hands.items() if int(seat) != defender} == {
        seat: 6 if talon else 6 - laid.get(seat, 0) for seat in range(players) if seat != defender}
    assert state["expected"]["type"] == "attack"
    events = [event["type"] for event in server_api(f"/api/matches/{match['id']}/events")["events"]]
    assert events == ["deal", "attack", "defend", "attack", "take", "done"]


class OnThePage:
    """The match as the table simulator sees it, each of its entries made on the phone by the taps a person makes."""

    def __init__(self, phone, server_api, match: dict):
        self.phone, self.api, self.match = phone, server_api, match
        self.recorded_at = 0.0  # when the bout's record button was last tapped
        state = self.state()
        self.options, self.players = state["options"], state["players"]

    def state(self) -> dict:
        return self.api(f"/api/matches/{self.match['id']}")

    def expected(self) -> dict | None:
        return self.state()["expected"]

    def play(self, command: dict) -> None:
        phone, seq = self.phone, self.state()["seq"]
        kind = command["type"]
        if kind == "deal":
            self.press(f'.dealer-choice button[data-seat="{command["dealer"]}"]')
            phone.click(f'.trump-pick .keypad button[data-card="{command["trump"]}"]')
            if phone.page.locator(".first-attacker").count():
                phone.click(f'.first-attacker button[data-seat="{command["attacker"]}"]')
            deal_in_reach(phone)
            phone.click("#log-deal")
        elif kind in ("attack", "defend", "transfer"):
            self.press(f'.bout-seats button[data-seat="{command["seat"]}"]')
            if kind == "transfer":
                self.press("#pass-on")
            for beat in command.get("beats", []):
                phone.click(f'.bout-places button[data-attack="{beat["card"]}"]')
                phone.tap_card(beat["with"])
            for card in command.get("cards", []):
                phone.tap_card(card)
            # a person taps the record button again no sooner than HUMAN_SECONDS after its last tap (the same
            # control twice sooner is a double tap, which asks), whatever was picked between
            phone.later(self.recorded_at + HUMAN_SECONDS - time.monotonic())
            phone.click(".bout-step .record")
            self.recorded_at = time.monotonic()
        elif kind in ("take", "done"):
            phone.click(f"#log-{kind}")
        else:
            phone.click("#end")
            phone.click("#end-confirm")
        wait_recorded(phone, self.api, self.match, seq)
        assert self.state()["seq"] == seq + 1, command

    def press(self, selector: str) -> None:
        """Taps the button unless it is pressed already."""
        if self.phone.page.get_attribute(selector, "aria-pressed") != "true":
            self.phone.click(selector)


def test_an_evening_of_durak_for_five_is_refereed_on_the_page_to_its_settlement(new_phone, server_api):
    """An evening in złoty, Durak for five with transfers and a stake of 1: a whole deal as the table simulator plays
    it (leads, throw-ins from every seat, beats, transfers, takes, players going out) entered on a 360x740 phone in
    Russian, then the end of the series on the page. The referee's durak is the simulator's; the match's money shows
    the durak paying the stake to each of the four others, and the evening, one tap away, settles the night with
    those four transfers; its next match is one tap further, Durak again, for the same five."""
    evening = server_api.post("/api/evenings", {"name": "Пятница", "currency": "PLN"})
    match = server_api.post("/api/matches", {"game": "durak", "players": NAMES[:5], "stake": "1",
                                             "options": {"transfer": True}, "evening": evening["id"]},
                            key=evening["key"])
    phone = new_phone(locale="ru-RU", viewport=PHONES["360x740"])
    phone.open("/")
    phone.page.evaluate("([id, key]) => localStorage.setItem(`kibic.evening_key.${id}`, JSON.stringify(key))",
                        [evening["id"], evening["key"]])
    phone.open(f"/?m={match['id']}#key={match['key']}")
    phone.page.wait_for_selector(".deal-step")
    phone.calm()
    table = OnThePage(phone, server_api, match)
    simulator = durak_table.Table(table, random.Random(2), deals=1)  # 56 entries, four transfers among them
    simulator.play_out(limit=400)
    state = table.state()
    assert state["status"] == "finished" and state["evening"] == evening["id"]
    durak = simulator.durak
    assert durak is not None and state["deal"]["result"] == {"durak": durak}
    assert [player["score"] for player in state["players"]] == [int(seat == durak) for seat in range(5)]
    kinds = {event["type"] for event in server_api(f"/api/matches/{match['id']}/events")["events"]}
    assert {"deal", "attack", "defend", "transfer", "take", "done", "end"} <= kinds
    owed = {row["seat"]: Decimal(row["net"]) for row in state["settlement"]["players"]}
    assert owed == {seat: Decimal(-4 if seat == durak else 1) for seat in range(5)}
    phone.tab("money")
    money = phone.text("#panel-money")
    assert NAMES[durak] in money and "4" in money
    phone.screenshot("durak-5-ru-360x740-money", full_page=False)

    night = server_api(f"/api/evenings/{evening['id']}")
    assert sorted((t["from"], t["to"], Decimal(t["amount"])) for t in night["transfers"]) == sorted(
        (NAMES[durak], NAMES[seat], Decimal(1)) for seat in range(5) if seat != durak)
    phone.tab("table")
    phone.click("#to-evening")
    phone.page.wait_for_selector(".evening .transfers")
    transfers = phone.page.locator(".evening .transfer").all_inner_texts()
    assert len(transfers) == 4 and all(NAMES[durak] in line for line in transfers), transfers
    phone.screenshot("durak-5-ru-360x740-evening", full_page=False)
    phone.open(f"/?m={match['id']}")
    phone.click("#next-match")
    phone.page.wait_for_selector("form.setup.for-evening")
    assert phone.page.is_checked('input[name="game"][value="durak"]')
    assert sorted(phone.page.input_value(f"#player-{i}") for i in range(5)) == sorted(NAMES[:5])
