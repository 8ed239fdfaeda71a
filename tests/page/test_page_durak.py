"""Durak on the phone: a bout from the lead to "bout over" for two, four and six players in each language, in one
step whose controls stay where the thumb found them, and an evening of Durak for five refereed on the page, from the
deal to the evening's settlement, with the cards a table simulator plays."""

from __future__ import annotations

import json
import random
import time
from decimal import Decimal
from pathlib import Path

import durak_table
import pytest
from conftest_browser import HUMAN_SECONDS, PHONES

pytestmark = pytest.mark.browser

I18N = Path(__file__).resolve().parents[2] / "webui" / "static" / "i18n"
LOCALES = {"pl": "pl-PL", "en": "en-US", "ru": "ru-RU"}
NAMES = ["Ala", "Bob", "Cyd", "Dan", "Ewa", "Fil"]
BOUTS = [(2, "pl", "390x844"), (2, "en", "360x740"), (2, "ru", "390x844"),
         (4, "pl", "360x740"), (4, "en", "390x844"), (4, "ru", "360x740"),
         (6, "pl", "360x740"), (6, "en", "390x844"), (6, "ru", "360x740")]


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


def wait_recorded(phone, server_api, match: dict, seq: int) -> None:
    """Waits until the phone's entry is recorded, one past `seq` (else says what the bottom bar said of the tap)."""
    for _ in range(100):
        phone.settled()
        if server_api(f"/api/matches/{match['id']}")["seq"] > seq:
            phone.settled()
            return
        phone.page.wait_for_timeout(50)
    raise AssertionError(f"nothing recorded: {phone.text('#last-word')}")


@pytest.mark.parametrize(("players", "lang", "size"), BOUTS)
def test_a_bout_from_the_lead_to_bout_over_keeps_every_control_in_place(new_phone, server_api, players, lang, size):
    """The first deal (the dealer, the card turned up, who attacks first), then a bout as a table plays it: the lead,
    a beat, a throw-in by another seat (by the attacker when there are two), "takes" and "bout over", then the next
    lead. Every control of the step (the seats, the six places, the keys, the buttons) is where it was at the lead
    through every step, the whole step lies between the bars, the buttons say what they record in the table's
    language, and the hand sizes the referee keeps are the ones the seats show."""
    said = words(lang)
    match = server_api.post("/api/matches", {"game": "durak", "players": NAMES[:players],
                                             "options": {"transfer": True}})
    phone = new_phone(locale=LOCALES[lang], viewport=PHONES[size])
    phone.open(f"/?m={match['id']}#key={match['key']}")
    phone.page.wait_for_selector(".deal-step")
    phone.calm()
    phone.click('.dealer-choice button[data-seat="0"]')
    phone.click('.trump-pick .keypad button[data-card="QH"]')  # under the talon, or the dealer's last card
    phone.click('.first-attacker button[data-seat="1"]')
    phone.screenshot(f"durak-{players}-{lang}-{size}-deal", full_page=False)
    deal_in_reach(phone)
    phone.click("#log-deal")
    phone.page.wait_for_selector(".bout-step")
    phone.settled()
    phone.calm()
    defender, thrower = (0, 1) if players == 2 else (2, 3)
    at_lead = controls(phone)
    assert len([name for name in at_lead if name.startswith("seat-")]) == players
    assert len([name for name in at_lead if name.startswith("place-")]) == 6
    shown = between_the_bars(phone)
    assert shown["header"] <= shown["top"] and shown["bottom"] <= shown["bar"], shown
    phone.screenshot(f"durak-{players}-{lang}-{size}-lead", full_page=False)

    def step(taps: list[str], button: str | None = None, says: str | None = None) -> None:
        """The taps, then the button that records them, saying `says`; after the answer, nothing has moved."""
        seq = server_api(f"/api/matches/{match['id']}")["seq"]
        for tap in taps:
            phone.click(tap)
        if button:
            assert phone.text(button) == says
            phone.click(button)
        wait_recorded(phone, server_api, match, seq)
        phone.calm()
        assert controls(phone) == at_lead

    one = {kind: said[f"bout.{kind}.one"].replace("{n}", "1") for kind in ("lead", "beat", "throw")}
    step(['.bout-step .keypad button[data-card="9S"]'], ".bout-step .record", one["lead"])
    assert phone.page.locator(f'.bout-seats button[data-seat="{defender}"][aria-pressed="true"]').count() == 1
    step(['.bout-step .keypad button[data-card="JS"]'], ".bout-step .record", one["beat"])
    phone.screenshot(f"durak-{players}-{lang}-{size}-beaten", full_page=False)
    step([f'.bout-seats button[data-seat="{thrower}"]', '.bout-step .keypad button[data-card="9D"]'],
         ".bout-step .record", one["throw"])
    phone.screenshot(f"durak-{players}-{lang}-{size}-thrown-in", full_page=False)
    step(["#log-take"])
    taking = said["bout.hint_taking"].replace("{room}", "").split("{name}")[-1][:12]
    assert taking in phone.text("#bout-hint")
    step(["#log-done"])
    phone.page.wait_for_selector(".last-trick")
    phone.screenshot(f"durak-{players}-{lang}-{size}-next-lead", full_page=False)

    state = server_api(f"/api/matches/{match['id']}")
    sizes = state["deal"]["hand_sizes"]
    assert sizes[str(defender)] == 6 - 1 + 3  # beat with one card, then took the bout's three
    laid = {1: 1 + (thrower == 1), thrower: 1 + (thrower == 1)}  # the lead and the throw-in
    talon = 36 > 6 * players  # they draw back up to six; with the whole pack dealt, nobody draws
    assert {int(seat): size for seat, size in sizes.items() if int(seat) != defender} == {
        seat: 6 if talon else 6 - laid.get(seat, 0) for seat in range(players) if seat != defender}
    assert state["expected"]["type"] == "attack"
    figures = phone.text(f'.seat[data-seat="{defender}"] .seat-figures')
    eight = said[f"seat.cards.{'other' if lang == 'en' else 'many'}"].replace("{n}", "8")  # "8 kart", "8 карт"
    assert eight in figures
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
