"""Dureń's steps while an entry waits to be sent and when its answer comes: nothing moves under a finger when the
table switches language, the page shows the step the server's answer brings at once, and the cards picked for an
attack outlive the swap of the nine of trumps. One walk a size, in each of its languages (`WALKS`), switched in place
as a table does: the steps and the bottom bar are drawn again in the new words, but what the referee said right after
an entry (a refusal, a finding, a notice) is dropped by a switch, so an entry whose answer is looked at is taken back
and made again in the next language."""

from __future__ import annotations

import re

import pytest
from conftest_browser import LOCALES, PHONES
from test_page_games import entry_shown, places, to_act

pytestmark = pytest.mark.browser
# each size's languages, its walk starting in the first (the phone's locale) and switching to the others in place
WALKS = {"360x740": ("pl", "ru"), "390x844": ("en",)}
SEQ_CONFLICT = {
    "en": "Nothing of it was recorded: send it again only if it still stands after what was logged.",
    "pl": "Nic z tego nie zapisano: wyślij ponownie tylko wtedy, gdy po tamtym wpisie nadal jest aktualne.",
    "ru": "Ничего из этого не записано: отправьте снова, только если после той записи это ещё верно."}

DEFENCE = (".defend-step h2", ".defend-step > .hint", ".defend-step .beat-row",
           ".defend-step .keypad .keyrow:first-child", ".defend-step .keypad .keyrow:last-child", "#log-defence")


def duren_match(new_phone, server_api, size: str, lang: str = "en", attack: list[str] | None = None):
    """A Dureń match dealt over the API (Ala deals, the queen of spades turned up: Bob attacks), Bob's attack
    logged when given, opened by a phone with the match's key."""
    match = server_api.post("/api/matches", {"game": "duren", "players": ["Ala", "Bob"]})
    events = f"/api/matches/{match['id']}/events"
    server_api.post(events, {"type": "deal", "dealer": 0, "trump": "QS"}, match["key"])
    if attack:
        server_api.post(events, {"type": "attack", "seat": 1, "cards": attack}, match["key"])
    phone = new_phone(locale=LOCALES[lang], viewport=PHONES[size])
    phone.open(f"/?m={match['id']}#key={match['key']}")
    phone.page.wait_for_selector(".defend-step" if attack else ".attack-step")
    phone.calm()
    return phone, match


def again_in(phone, server_api, match, lang: str, undone: int, step: str) -> None:
    """Another phone takes back the last `undone` entries, the page shows `step` again, and the table switches to
    `lang`: the same entry is made again in its words."""
    for _ in range(undone):
        server_api.post(f"/api/matches/{match['id']}/undo", {}, match["key"])
    phone.page.wait_for_selector(step)
    phone.language(lang)


def clipped(phone, selector: str) -> bool:
    """Whether the element's text is cut off by the room it has."""
    return phone.page.eval_on_selector(selector, "el => el.scrollHeight > el.clientHeight + 1")


@pytest.mark.parametrize("size", list(PHONES))
def test_a_defence_waiting_to_be_sent_keeps_its_place_when_the_language_changes(new_phone, server_api, size):
    """Ala's defence (10♥ beats 9♥) waits to be sent while the table switches between Polish, Russian and English:
    the step's hint says the rule in each language in whole, in the same room, so that the rows, the keys and the
    log button stay where the finger is, while the defence is entered and while it waits."""
    phone, match = duren_match(new_phone, server_api, size, attack=["9H"])
    phone.tap_card("10H")
    phone.calm()
    live = places(phone, DEFENCE)
    for lang in ("pl", "ru", "en"):
        phone.language(lang)
        assert not clipped(phone, ".defend-step > .hint"), lang
        assert places(phone, DEFENCE) == live, lang
    phone.context.set_offline(True)
    phone.click("#log-defence")
    phone.page.wait_for_selector(".defend-step.waiting-step[inert]")
    phone.page.wait_for_selector("#pending")
    phone.calm()
    before = places(phone, DEFENCE)
    assert before == live
    entered = entry_shown(phone, ".defend-step")
    for lang in ("ru", "pl", "en", "ru"):
        phone.language(lang)
        assert phone.page.locator(".defend-step.waiting-step[inert]").count() == 1
        assert not clipped(phone, ".defend-step > .hint"), lang
        assert places(phone, DEFENCE) == before, lang  # the words change, not where the keys are
        assert entry_shown(phone, ".defend-step")["keys"] == entered["keys"]
        phone.screenshot(f"duren-defence-waiting-languages-{size}-{lang}", full_page=False)
    assert to_act(phone) == ("0", "отбивается")
    phone.context.set_offline(False)
    phone.page.wait_for_selector(".attack-step h2:text('Атакует Ala')")
    phone.settled()
    events = server_api(f"/api/matches/{match['id']}/events")["events"]
    assert [e["type"] for e in events] == ["deal", "attack", "defend"]


class HeldReads:
    """The phone's reads of the match (its state, its log, its stream) held back until `release()`: meanwhile the
    page has nothing but the answers to its entries to draw the table from."""

    def __init__(self, phone, match_id: str):
        self.phone = phone
        self.holding = True
        self.held = []
        self.reads = re.compile(rf"/api/matches/{re.escape(match_id)}(/events|/stream)?$")
        phone.page.route(self.matched, self.hold)

    def matched(self, url: str) -> bool:
        return bool(self.reads.search(url.split("?")[0]))

    def hold(self, route) -> None:
        if self.holding and route.request.method == "GET":
            self.held.append(route)
            self.phone.held += route.request.resource_type == "fetch"  # (not the stream)
        else:
            route.continue_()

    def release(self) -> None:
        self.holding = False
        for route in self.held:
            route.continue_()
        self.phone.held -= sum(route.request.resource_type == "fetch" for route in self.held)
        self.held = []
        self.phone.page.unroute(self.matched, self.hold)


@pytest.mark.parametrize("size", list(WALKS))
def test_an_attack_let_stand_shows_the_defence_at_once_with_its_finding(new_phone, server_api, size):
    """Bob attacks with two cards, the referee refuses, and the table lets it stand: the answer records it with a
    finding. The page shows Ala's defence against both cards as the answer comes, not the attack step emptied while
    the page reads the log for the finding's proof; the finding is said once the log is read. In each language: the
    attack taken back by this phone's Undo and let stand again in the next (taken back by another phone, the same
    attack would be said recorded again)."""
    phone, match = duren_match(new_phone, server_api, size, WALKS[size][0])
    for lang in WALKS[size]:
        if lang != WALKS[size][0]:
            phone.click("#undo")
            phone.page.wait_for_selector(".attack-step")
            phone.language(lang)
        phone.tap_card("9H")
        phone.tap_card("10C")
        phone.click("#log-attack")
        phone.page.locator("#let-it-stand").wait_for()
        reads = HeldReads(phone, match["id"])
        phone.click("#let-it-stand")
        phone.page.wait_for_selector(".defend-step:not(.waiting-step)", timeout=3000)
        phone.calm()
        assert phone.page.locator(".attack-step").count() == 0, lang
        assert phone.page.locator(".defend-step .beat-row").count() == 2, lang
        assert to_act(phone)[0] == "0", lang
        assert reads.held, lang  # the log is still being read
        phone.screenshot(f"duren-let-stand-answered-{size}-{lang}", full_page=False)
        reads.release()
        phone.page.locator(".verdict.finding").wait_for()
        phone.settled()
        phone.screenshot(f"duren-let-stand-finding-{size}-{lang}", full_page=False)
        state = server_api(f"/api/matches/{match['id']}")
        assert [f["code"] for f in state["findings"]] == ["attack_size"] and state["expected"]["type"] == "defend"


@pytest.mark.parametrize("size", list(WALKS))
def test_a_defence_refused_as_another_phone_logged_one_shows_the_next_attack_at_once(new_phone, server_api, size):
    """Ala's defence waits to be sent (no network) while another phone logs hers (J♥ beats 9♥). Back online, the
    server refuses this phone's as the log has moved on: the page shows at once the step the refusal's state
    brings (Ala attacks, every card was beaten), with the refusal, not the defence step emptied and open while the
    log is read again. In each language: the other phone's defence taken back and both defences made again."""
    phone, match = duren_match(new_phone, server_api, size, WALKS[size][0], attack=["9H"])
    for lang in WALKS[size]:
        if lang != WALKS[size][0]:
            again_in(phone, server_api, match, lang, 1, ".defend-step")
        phone.tap_card("10H")
        phone.context.set_offline(True)
        phone.click("#log-defence")
        phone.page.wait_for_selector(".defend-step.waiting-step[inert]")
        server_api.post(f"/api/matches/{match['id']}/events",
                        {"type": "defend", "seat": 0, "beats": [{"card": "9H", "with": "JH"}]}, match["key"])
        reads = HeldReads(phone, match["id"])
        phone.context.set_offline(False)
        phone.page.locator("#refusal").wait_for(timeout=3000)
        phone.page.wait_for_selector(".attack-step:not(.waiting-step)", timeout=3000)
        phone.calm()
        assert phone.page.locator(".defend-step").count() == 0, lang
        assert to_act(phone)[0] == "0", lang
        assert phone.page.locator("#pending").count() == 0, lang
        assert phone.text("#refusal .server-says") == SEQ_CONFLICT[lang]  # the page's words, not the server's English
        phone.screenshot(f"duren-defence-conflict-{size}-{lang}", full_page=False)
        reads.release()
        # the log read again: Undo names the other phone's defence, the latest entry
        phone.page.wait_for_function("() => document.querySelector('#undo').textContent.includes('9♥/')")
        events = server_api(f"/api/matches/{match['id']}/events")["events"]
        assert [(e["type"], e.get("beats")) for e in events][-1] == ("defend", [{"card": "9H", "with": "JH"}]), lang


ATTACK = (".attack-step h2", ".attack-step .chosen-cards", ".attack-step .keypad .keyrow:last-child", "#log-attack")
NINE_UNPICKED = {"en": "After the swap 9♠ lies face up under the stock: taken out of the attack.",
                 "pl": "Po wymianie 9♠ leży odkryta pod talonem: zdjęta z ataku.",
                 "ru": "После обмена 9♠ лежит открытой под колодой: убрана из атаки."}
NINE_UNPICKED_SHORT = {"en": "9♠ taken out of the attack (under the stock)", "pl": "9♠ zdjęta z ataku (pod talonem)",
                       "ru": "9♠ убрана из атаки (под колодой)"}


@pytest.mark.parametrize("size", list(WALKS))
def test_the_cards_picked_for_an_attack_outlive_the_swap_of_the_nine(new_phone, server_api, size):
    """Bob's attack is picked (9♥ 9♦ J♣), then the table remembers the swap of the nine of trumps and taps Bob's:
    the picks stay while the swap waits to be sent and after it is recorded, and the attack is logged with them.
    Nothing of the step moves meanwhile, in any of the size's languages (the step drawn again in the new words)."""
    langs = WALKS[size]
    phone, match = duren_match(new_phone, server_api, size, langs[0])
    for card in ("9H", "9D", "JC"):
        phone.tap_card(card)
    phone.calm()
    before, picked = {}, {}
    for lang in phone.languages(langs):
        before[lang] = places(phone, ATTACK)
        picked[lang] = entry_shown(phone, ".attack-step")
        assert picked[lang]["keys"] == ["9H", "9D", "JC"], lang
    phone.context.set_offline(True)  # the swap waits to be sent: the picks are drawn with it
    phone.click('.attack-step .exchange button[data-exchange="1"]')
    phone.page.wait_for_selector(".attack-step.waiting-step[inert]")
    phone.calm()
    for lang in phone.languages(langs):
        assert entry_shown(phone, ".attack-step") == {**picked[lang], "swap": ["1"]}, lang
        assert places(phone, ATTACK) == before[lang], lang
    phone.context.set_offline(False)
    phone.page.wait_for_selector(".attack-step .exchange-done")
    phone.settled()
    phone.calm()
    # nothing said as the swap is recorded (no pick was taken out): looked at before a switch, which drops what was said
    assert phone.page.locator(".verdict.notice").count() == 0
    for lang in phone.languages(langs):
        assert entry_shown(phone, ".attack-step") == picked[lang], lang  # the same cards, the same log button, open
        assert places(phone, ATTACK) == before[lang], lang
        phone.screenshot(f"duren-picks-after-swap-{size}-{lang}", full_page=False)
    phone.click("#log-attack")
    phone.page.wait_for_selector(".defend-step")
    phone.settled()
    events = server_api(f"/api/matches/{match['id']}/events")["events"]
    assert [(e["type"], e.get("cards")) for e in events] == [
        ("deal", None), ("exchange", None), ("attack", ["9H", "9D", "JC"])]


@pytest.mark.parametrize("size", list(WALKS))
def test_the_nine_picked_for_an_attack_is_taken_out_by_its_swap_and_said(new_phone, server_api, size):
    """Bob's attack is picked with the nine of trumps (9♠ 9♥), then Bob swaps it for the queen turned up: the nine
    lies face up under the stock, so it leaves the picks and the referee says so in the table's language, over the
    table and in the bottom bar; 9♥ stays, and the nine's key is out of reach. In each language: the attack and the
    swap taken back by another phone, picked and swapped again in the next."""
    phone, match = duren_match(new_phone, server_api, size, WALKS[size][0])
    for lang in WALKS[size]:
        if lang != WALKS[size][0]:
            again_in(phone, server_api, match, lang, 2, '.attack-step .exchange button[data-exchange="1"]')
        phone.tap_card("9S")
        phone.tap_card("9H")
        phone.calm()
        before = places(phone, ATTACK)
        phone.click('.attack-step .exchange button[data-exchange="1"]')
        phone.page.wait_for_selector(".attack-step .exchange-done")
        phone.settled()
        notice = phone.page.locator(".verdict.notice")
        notice.wait_for()
        assert notice.locator(".notice-text").inner_text() == NINE_UNPICKED[lang]
        assert phone.text("#last-word") == NINE_UNPICKED_SHORT[lang]  # said where the finger is, too
        assert not phone.page.eval_on_selector("#last-word", "el => el.scrollWidth > el.clientWidth"), lang  # whole
        phone.calm()
        shown = entry_shown(phone, ".attack-step")
        assert (shown["picked"], shown["keys"]) == (["9♥"], ["9H"]), lang
        assert phone.page.locator('.attack-step .keypad button[data-card="9S"]').is_disabled(), lang
        assert places(phone, ATTACK) == before, lang
        phone.screenshot(f"duren-nine-unpicked-{size}-{lang}", full_page=False)
        phone.click("#log-attack")
        phone.page.wait_for_selector(".defend-step")
        phone.settled()
        events = server_api(f"/api/matches/{match['id']}/events")["events"]
        assert [(e["type"], e.get("cards")) for e in events][-1] == ("attack", ["9H"]), lang
