"""Each game's keypad and steps on the page: Ogurets with jokers, Oh Hell's trump and bids, Dureń's attacks."""

from __future__ import annotations

import time

import pytest
from conftest_browser import LOCALES, PHONES

from referee import GAMES

pytestmark = pytest.mark.browser


def test_ogurets_offers_the_jokers_and_greys_out_a_rank_played_four_times(phone, server_api):
    match_id = phone.start_match(["S", "W", "N", "E"], game="ogurets", dealer=0, options={"jokers": 3})
    phone.click("#log-deal")
    phone.wait_turn(1)
    keys = phone.page.locator(".action .keypad button")
    assert [k.get_attribute("data-card") for k in keys.all()] == [
        "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "X"]
    assert keys.last.inner_text() == "Joker"
    for seat in (1, 2, 3, 0):
        phone.play(seat, "A")
    phone.page.wait_for_selector('.action .keypad button[data-card="A"]:disabled')
    assert "Trick 1: W A · N A · E A · S A → S takes it" in phone.text(".last-trick")
    assert phone.text('.seat[data-seat="0"] .seat-figures') == "lives 2 · 56 points"
    phone.play(0, "X")
    phone.wait_turn(1)
    assert "Joker, or their lowest card." in phone.text(".play-step")  # RULES.md §2: a joker played on lower cards
    phone.screenshot("ogurets-joker")
    assert server_api(f"/api/matches/{match_id}")["expected"]["exhausted"] == ["A"]


def test_oh_hell_deals_with_a_trump_takes_bids_and_plays_a_hand(phone, server_api):
    match_id = phone.start_match(["Ala", "Bob", "Cyd"], game="oh_hell", dealer=2)
    assert phone.page.locator("#log-deal").is_disabled()  # the trump card first
    phone.click('.suit-tab[data-suit="S"]')
    phone.tap_card("QS")
    phone.click("#log-deal")
    for seat, bid in ((0, 1), (1, 0), (2, 0)):
        phone.wait_turn(seat)
        phone.click(f'.bids button[data-bid="{bid}"]')
    phone.wait_turn(0)
    assert phone.page.locator('.action .keypad button[data-card="QS"]').is_disabled()  # the trump card lies open
    phone.click('.suit-tab[data-suit="H"]')
    phone.tap_card("AH")
    phone.wait_turn(1)
    assert "♥ led: follow suit if you can." in phone.text(".play-step")
    phone.screenshot("oh-hell-play")
    phone.tap_card("2H")
    phone.wait_turn(2)
    phone.tap_card("3H")
    phone.page.wait_for_selector(".result")
    assert phone.page.locator(".result li").all_inner_texts() == [
        "Ala: bid 1, took 1, scores 11", "Bob: bid 0, took 0, scores 10", "Cyd: bid 0, took 0, scores 10"]
    phone.screenshot("oh-hell-hand-over")
    assert [p["score"] for p in server_api(f"/api/matches/{match_id}")["players"]] == [11, 10, 10]


def test_duren_deals_swaps_the_nine_attacks_beats_and_takes(phone, server_api):
    match_id = phone.start_match(["Ala", "Bob"], game="duren", dealer=0)
    phone.tap_card("QS")  # the face-up card: spades are trump
    phone.click("#log-deal")
    phone.page.wait_for_selector(".attack-step")
    assert "Bob attacks" in phone.text(".attack-step h2")
    assert phone.page.locator('.action .keypad button[data-card="QS"]').is_disabled()  # under the stock
    phone.click('button[data-exchange="1"]')  # Bob swaps the nine of trumps for the queen
    phone.page.wait_for_selector('.action .keypad button[data-card="9S"]:disabled')

    phone.tap_card("9H")
    phone.tap_card("10C")
    phone.click("#log-attack")
    refusal = phone.page.locator("#refusal")
    refusal.wait_for()
    assert refusal.locator("h2").inner_text() == "An attack is 1, 3 or 5 cards"
    assert phone.page.locator("#let-it-stand").is_visible()
    phone.calm()
    refusal.get_by_role("button", name="OK").click()
    assert server_api(f"/api/matches/{match_id}")["seq"] == 2

    phone.tap_card("9H")
    phone.click("#log-attack")
    phone.page.wait_for_selector(".defend-step")
    phone.tap_card("10H")
    assert phone.text("#log-defence") == "Beat 1, take 0"
    phone.screenshot("duren-defence")
    phone.click("#log-defence")
    phone.page.wait_for_selector(".attack-step h2:text('Ala attacks')")  # all beaten: the defender attacks
    for card in ("JC", "JD", "AC"):
        phone.tap_card(card)
    phone.click("#log-attack")
    phone.page.wait_for_selector(".defend-step")
    assert phone.page.locator('.action .keypad button[data-card="QS"]').count() == 1
    phone.tap_card("QC")  # beats the first card, the jack of clubs; the rest are taken
    phone.click("#log-defence")
    phone.page.wait_for_selector(".attack-step h2:text('Ala attacks')")
    assert "Bob took J♦ A♣" in phone.text(".last-trick")
    deal = server_api(f"/api/matches/{match_id}")["deal"]
    assert deal["rounds"][1]["beats"] == [{"card": "JC", "with": "QC"}]
    assert deal["rounds"][1]["taken"] == ["JD", "AC"]
    assert deal["hand_sizes"] == {"0": 5, "1": 6}
    phone.screenshot("duren-after-take")
    phone.click("#end")  # the players end the series: two taps, so that one cannot do it by mistake
    phone.click("#end-confirm")
    phone.page.wait_for_selector("#finished")
    assert phone.page.locator(".places li").all_inner_texts() == ["1st: Ala", "1st: Bob"]  # a shared place
    assert server_api(f"/api/matches/{match_id}")["status"] == "finished"


def test_oh_hell_bids_in_any_order_go_to_the_player_tapped(new_phone, server_api):
    phone = new_phone()
    match_id = phone.start_match(["Ala", "Bob", "Cyd"], game="oh_hell", dealer=0,
                                 options={"simultaneous_bids": True})
    phone.click('.suit-tab[data-suit="C"]')
    phone.tap_card("2C")
    phone.click("#log-deal")
    phone.wait_turn(1)  # the first still to bid is offered
    phone.click('.seat[data-seat="0"] button')
    phone.click('.bids button[data-bid="1"]')
    phone.wait_turn(1)
    phone.click('.bids button[data-bid="0"]')
    follower = new_phone()
    follower.open(f"/?m={match_id}")
    assert follower.text(".waiting") == "Waiting for the bids of Cyd."
    phone.wait_turn(2)
    phone.click('.bids button[data-bid="0"]')
    phone.wait_turn(1)
    assert server_api(f"/api/matches/{match_id}")["deal"]["bids"] == [1, 0, 0]


def on_the_screen(phone, selector: str) -> dict:
    """Where the control is on the screen as the page shows it (the test scrolls nothing), between the top bar's
    bottom and the fixed bottom bar's top."""
    return phone.page.eval_on_selector(selector, """el => {
        const r = el.getBoundingClientRect(), bar = document.querySelector('.fixed-bar').getBoundingClientRect();
        return {top: Math.round(r.top), bottom: Math.round(r.bottom), bar: Math.round(bar.top),
                header: Math.round(document.querySelector('.bar').getBoundingClientRect().bottom)};
    }""")


def fully_shown(phone, selector: str) -> None:
    where = on_the_screen(phone, selector)
    assert where["header"] <= where["top"] and where["bottom"] <= where["bar"], (selector, where)


SWAPS = '.attack-step .exchange button[data-exchange]'
SWAP_WORDS = {"en": "Swap the nine of trumps 9♠ for Q♠", "pl": "Wymiana dziewiątki atu 9♠ na D♠",
              "ru": "Обмен девятки козырей 9♠ на Д♠"}
TABLE = {"en": "Table", "pl": "Stół", "ru": "Стол"}  # the table's tab, once the words of the language are drawn
RECORDED = {"en": "Recorded: Ala deals · trump Q♠", "pl": "Zapisano: rozdaje Ala · atu D♠",
            "ru": "Записано: сдаёт Ala · козырь Д♠"}  # the bottom bar's word on the deal, in the table's language
UNDO_DEAL = {"en": "↶ Undo: Ala deals · trump Q♠", "pl": "↶ Cofnij: rozdaje Ala · atu D♠",
             "ru": "↶ Отменить: сдаёт Ala · козырь Д♠"}
BOTTOM = ("#last-word", "#undo")


def places(phone, selectors: tuple[str, ...]) -> tuple:
    """The page's scroll and where each control is on the screen: what a finger finds."""
    return phone.page.evaluate("window.scrollY"), [on_the_screen(phone, selector) for selector in selectors]


def lines(phone, selector: str) -> list[str]:
    """The element's text as the browser lays it out, a string per line."""
    return phone.page.eval_on_selector(selector, """el => {
        const lines = [];
        let top = null;
        const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            for (let i = 0; i < node.length; i++) {
                const range = document.createRange();
                range.setStart(node, i);
                range.setEnd(node, i + 1);
                const box = [...range.getClientRects()].find((r) => r.width > 0);
                if (box && (top === null || box.top > top + 2)) {
                    lines.push("");
                    top = box.top;
                }
                if (lines.length) lines[lines.length - 1] += node.data[i];
            }
        }
        return lines.map((line) => line.trim());
    }""")


def deal_line_reads_well(phone) -> None:
    """The deal line ("Rozdanie 1 · atu ♠ · … · odrzucone 0") fits its two lines and wraps only after a dot:
    a number is never left alone at the start of a line, away from its word."""
    shown = lines(phone, "#deal-info")
    assert 1 <= len(shown) <= 2 and all(line.endswith("·") for line in shown[:-1]), shown


def exchanges(server_api, match_id: str) -> list[tuple[int, int | None]]:
    events = server_api(f"/api/matches/{match_id}/events")["events"]
    return [(e["seat"], e["undone_by"]) for e in events if e["type"] == "exchange"]


@pytest.mark.parametrize("size", list(PHONES))
def test_durens_whole_attack_step_is_above_the_undo_bar(new_phone, server_api, size):
    """The attacker's keypad (its last row too), its log button and, right after the deal, the buttons that swap
    the nine of trumps are on the screen as the step comes, none under the fixed bar with Undo, in every language:
    the table taps them without scrolling. Choosing cards, the swap (tapped twice: recorded once), the wait for
    the server to take it, and its undo move nothing. While a swap, an attack or a defence waits to be sent, the
    seat whose turn it is stays highlighted. When the table switches language, the bottom bar says what became
    of the last tap again in the new language, in the same place; the deal line wraps only between its parts."""
    phone = new_phone(viewport=PHONES[size])
    match_id = phone.start_match(["Ala", "Bob"], game="duren", dealer=0)
    phone.tap_card("QS")
    phone.click("#log-deal")
    phone.page.wait_for_selector(".attack-step")
    phone.calm()
    phone.screenshot(f"duren-attack-step-{size}", full_page=False)
    last_row = ".attack-step .keypad .keyrow:last-child"
    swap = [f'{SWAPS}[data-exchange="{seat}"]' for seat in (0, 1)]
    assert phone.page.locator(f"{last_row} button").count() == 6
    assert phone.page.locator(SWAPS).count() == 2  # nobody knows yet who holds the nine of spades
    kept = (".attack-step h2", last_row, "#log-attack", ".attack-step .exchange")  # there before and after the swap
    step = (*kept, *swap)
    for selector in step:
        fully_shown(phone, selector)
    before = places(phone, step)
    bottom = places(phone, BOTTOM)
    assert phone.text("#last-word") == RECORDED["en"]
    deal_line_reads_well(phone)
    for lang in ("pl", "ru", "en"):
        phone.language(lang)
        assert phone.text(".attack-step .exchange-what") == SWAP_WORDS[lang]
        assert places(phone, step) == before, lang  # the words change, not where the keys are
        # what the bottom bar said about the last tap is said again in the new language, in the same place
        assert (phone.text("#last-word"), phone.text("#undo")) == (RECORDED[lang], UNDO_DEAL[lang])
        assert places(phone, BOTTOM) == bottom, lang
        deal_line_reads_well(phone)
        phone.screenshot(f"duren-swap-{size}-{lang}", full_page=False)

    offered = entry_shown(phone, ".attack-step")
    assert offered["swap"] == [] and offered["picked"] == []
    box = phone.page.locator(swap[1]).bounding_box()
    finger = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    phone.context.set_offline(True)  # the swap waits to be sent: the step stays as it was, out of reach
    phone.page.mouse.click(*finger)  # Bob swaps, and the thumb taps again at once
    time.sleep(0.12)
    phone.page.mouse.click(*finger)
    phone.page.wait_for_selector(".attack-step.waiting-step[inert]")
    phone.page.wait_for_selector("#pending")
    phone.calm()
    assert places(phone, step) == before
    assert entry_shown(phone, ".attack-step") == {**offered, "swap": ["1"]}  # Bob's swap, the one waiting
    assert to_act(phone) == ("1", "attacks")  # whose turn it is stays shown while the swap waits
    phone.screenshot(f"duren-swap-waiting-{size}", full_page=False)
    phone.context.set_offline(False)
    phone.page.wait_for_selector(".attack-step .exchange-done")
    phone.settled()
    phone.calm()
    phone.screenshot(f"duren-swapped-{size}", full_page=False)
    assert exchanges(server_api, match_id) == [(1, None)]
    assert phone.page.locator("#refusal").count() == 0
    assert phone.text(".attack-step .exchange-done") == "✓ Bob swapped 9♠ for Q♠"
    assert places(phone, kept) == (before[0], before[1][:len(kept)])
    phone.click("#undo")  # the swap taken back: its buttons come again, in their place
    phone.page.wait_for_selector(swap[1])
    phone.settled()
    phone.calm()
    assert places(phone, step) == before
    assert exchanges(server_api, match_id) == [(1, 3)]

    phone.tap_card("9H")
    phone.tap_card("9D")
    phone.calm()
    assert places(phone, step) == before
    assert phone.text("#log-attack") == "Attack with 2 cards"
    phone.screenshot(f"duren-attack-chosen-{size}", full_page=False)
    phone.tap_card("9D")
    phone.calm()
    entered = entry_shown(phone, ".attack-step")
    assert (entered["picked"], entered["keys"], entered["log"]) == (["9♥"], ["9H"], "Attack with 1 card")
    phone.context.set_offline(True)  # the attack waits to be sent: drawn as it was entered, nothing moves
    phone.click("#log-attack")
    phone.page.wait_for_selector(".attack-step.waiting-step[inert]")
    phone.calm()
    assert entry_shown(phone, ".attack-step") == entered
    assert places(phone, step) == before
    phone.screenshot(f"duren-attack-waiting-{size}", full_page=False)
    assert to_act(phone) == ("1", "attacks")
    phone.context.set_offline(False)
    phone.page.wait_for_selector(".defend-step")
    phone.calm()
    fully_shown(phone, "#log-defence")
    deal_line_reads_well(phone)
    phone.screenshot(f"duren-defend-step-{size}", full_page=False)

    phone.tap_card("10H")
    phone.calm()
    defence = (".defend-step h2", ".defend-step .beat-row", ".defend-step .keypad .keyrow:last-child", "#log-defence")
    where = places(phone, defence)
    entered = entry_shown(phone, ".defend-step")
    assert (entered["picked"], entered["keys"], entered["log"]) == (["9♥ → 10♥ Take it"], ["10H"], "Beat 1, take 0")
    phone.context.set_offline(True)  # the defence waits to be sent, and the table switches to Russian meanwhile
    phone.click("#log-defence")
    phone.page.wait_for_selector(".defend-step.waiting-step[inert]")
    phone.calm()
    # the step waiting shows the defence being sent (10♥ beats 9♥), not a blank one, and nothing moved
    assert entry_shown(phone, ".defend-step") == entered
    assert places(phone, defence) == where
    phone.screenshot(f"duren-defence-waiting-{size}", full_page=False)
    assert to_act(phone) == ("0", "defends")
    bottom = places(phone, BOTTOM)
    assert phone.text("#last-word") == "Sending: Ala beat 9♥/10♥"
    phone.language("ru")
    assert phone.text("#last-word") == "Отправка: Ala бьёт 9♥/10♥"
    assert phone.text("#undo") == "↶ Отменить: Ala бьёт 9♥/10♥ (ждёт отправки)"
    assert places(phone, BOTTOM) == bottom
    assert to_act(phone) == ("0", "отбивается")
    in_russian = {**entered, "picked": ["9♥ → 10♥ Забрать"], "log": "Побить 1, забрать 0"}
    assert entry_shown(phone, ".defend-step") == in_russian  # the same entry, in the table's language
    deal_line_reads_well(phone)
    phone.screenshot(f"duren-defence-waiting-{size}-ru", full_page=False)
    phone.context.set_offline(False)
    phone.page.wait_for_selector(".attack-step h2:text('Атакует Ala')")
    phone.page.evaluate("window.scrollTo(0, 0)")  # the top of the table, the deal line, in each language
    for lang in ("ru", "pl", "en"):
        phone.language(lang)
        deal_line_reads_well(phone)
        phone.screenshot(f"duren-table-top-{size}-{lang}", full_page=False)


def entry_shown(phone, step: str) -> dict:
    """What a Dureń step shows as entered: the cards picked (the attack's, or each attacking card's row with what
    beats it), the keys pressed, the swap tapped and the words of its log button."""
    return phone.page.eval_on_selector(step, """el => ({
        picked: [...el.querySelectorAll('.chosen-cards .card, .beat-row')]
            .map(e => e.innerText.replace(/\\s+/g, ' ').trim()),
        keys: [...el.querySelectorAll('.keypad [aria-pressed="true"]')].map(e => e.dataset.card),
        swap: [...el.querySelectorAll('.exchange [aria-pressed="true"]')].map(e => e.dataset.exchange),
        log: el.querySelector('.primary.wide').innerText,
    })""")


def to_act(phone) -> tuple[str, str]:
    """The seat drawn as the one to act, and its badge."""
    seat = phone.page.locator(".seat.to-act")
    assert seat.count() == 1, "no seat is drawn as the one to act"
    return seat.get_attribute("data-seat"), seat.locator(".badge.turn").inner_text()


def pressed_suit(phone) -> str:
    return phone.page.get_attribute('.action .suit-tab[aria-pressed="true"]', "data-suit")


# the language each size's walk opens the page in (the last lead is then looked at in each language)
SUIT_TAB_START = {"360x740": "en-US", "390x844": "pl-PL"}


@pytest.mark.parametrize("game", [name for name, game in GAMES.items() if game.keypad == "suit_rank"])
@pytest.mark.parametrize("size", list(PHONES))
def test_the_suit_tab_goes_to_the_suit_led_in_each_trick(new_phone, server_api, game, size):
    """The plays come from another phone: the tab goes to the suit led when each trick's lead comes (in the second
    trick too, from the tab the scorer tapped in the first), a tab tapped within the trick is kept, and a new trick
    keeps the tab until its lead. One walk a size; the second trick's lead looked at in each language, switched in
    place (the page drawn again keeps the tab)."""
    sizes = {"sequence": [3, 3]} if "sequence" in {o.name for o in GAMES[game].options} else {}
    match = server_api.post("/api/matches", {"game": game, "players": ["Ala", "Bob", "Cyd"], "options": sizes})
    events = f"/api/matches/{match['id']}/events"
    deal = {"type": "deal", "dealer": 0, **({"trump": "2C"} if "trump" in GAMES[game].event_fields["deal"] else {})}
    server_api.post(events, deal, match["key"])
    phone = new_phone(locale=SUIT_TAB_START[size], viewport=PHONES[size])
    phone.open(f"/?m={match['id']}#key={match['key']}")
    phone.page.wait_for_selector("#mode.scoring")
    while server_api(f"/api/matches/{match['id']}")["expected"]["type"] == "bid":
        expected = server_api(f"/api/matches/{match['id']}")["expected"]
        seat = expected.get("seat", (expected.get("seats") or [None])[0])
        server_api.post(events, {"type": "bid", "seat": seat, "bid": 0, "force": True}, match["key"])

    def play(seat: int, card: str, then: int) -> None:
        server_api.post(events, {"type": "play", "seat": seat, "card": card}, match["key"])
        phone.wait_turn(then)

    play(1, "AH", 2)
    assert pressed_suit(phone) == "H"
    phone.click('.action .suit-tab[data-suit="D"]')  # Bob has no heart
    play(2, "3H", 0)
    assert pressed_suit(phone) == "D"  # the tab tapped in the trick is kept
    play(0, "4H", 1)  # Bob takes the trick with the ace and leads the next
    assert pressed_suit(phone) == "D"  # nothing led yet: the tab stays
    play(1, "KS", 2)
    for lang in phone.languages(LOCALES):
        assert pressed_suit(phone) == "S", lang
        phone.screenshot(f"suit-tab-led-{game}-{size}-{LOCALES[lang]}", full_page=False)
