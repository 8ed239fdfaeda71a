"""Each game's deal step keeps its controls where the finger is: when the table switches between Polish, Russian and
English, when a tap brings a note (the lot's choice, another dealer, a hand begun), whatever the length of the
players' names; and it opens with Deal above the bottom bar on both phones."""

from __future__ import annotations

import base64
import json
import random
from pathlib import Path

import durak_table
import duren_table
import pytest
from conftest_browser import LOCALES, PHONES
from ogorek_helpers import SEED_PLAYERS, SEED_TRICKS
from per_game import PerGame
from test_page_games import fully_shown, on_the_screen

from referee import GAMES, Match
from referee.match import MAX_NAME_LENGTH

pytestmark = pytest.mark.browser
PLAYERS = PerGame("PLAYERS in tests/page/test_page_deal_step.py", "its players", {
    "oh_hell": ["Ala", "Bob", "Cyd"], "duren": ["Ala", "Bob"]},
    default=lambda game: SEED_PLAYERS[:min(len(SEED_PLAYERS), GAMES[game].max_players)])
"""The players of each game's deal step: the seed's four (as many as the game seats), or the game's own."""


def places(phone) -> dict:
    """The deal step's box and the box of each of its controls (by what it is, not its words), on the page."""
    return phone.page.eval_on_selector(".deal-step", """step => {
        const box = (el) => {
            const r = el.getBoundingClientRect();
            return [Math.round(r.left), Math.round(r.top + window.scrollY), Math.round(r.width), Math.round(r.height)];
        };
        const shown = [...step.querySelectorAll("button, summary")].filter((el) => el.checkVisibility());
        const controls = shown.map((el) => [
            el.id || el.dataset.seat || el.dataset.card || el.dataset.suit || el.tagName, ...box(el)]);
        return {step: box(step), controls};
    }""")


def deal_step(new_phone, server_api, game: str, size: str, later: bool = False):
    """A match of `game` at its first deal (or, `later`, Ogórek after the seed's deal), opened in Polish."""
    match = server_api.post("/api/matches", {"game": game, "players": PLAYERS[game]})
    if later:
        events = f"/api/matches/{match['id']}/events"
        server_api.post(events, {"type": "deal", "dealer": 0}, match["key"])
        for trick in SEED_TRICKS:
            for name, card in trick:
                server_api.post(events, {"type": "play", "seat": SEED_PLAYERS.index(name), "card": card}, match["key"])
    phone = new_phone(locale="pl-PL", viewport=PHONES[size])
    phone.open(f"/?m={match['id']}#key={match['key']}")
    phone.page.wait_for_selector(".deal-step")
    phone.calm()
    return phone


def by_lot(phone) -> None:
    """Ogórek's first deal as it opens: the dealer by lot, chosen by the server."""
    assert phone.page.locator("#dealer-by-lot").get_attribute("aria-pressed") == "true"


def dealer_and_a_hand_begun(phone) -> None:
    """Agurk's first deal: W chosen to deal, and W's hand begun (one card of seven): Deal waits for the rest."""
    phone.click('.dealer-choice button[data-seat="1"]')
    phone.click(".known-hands summary")
    phone.click('.known-hands .seat-buttons button[data-seat="1"]')
    phone.click('.known-hands .keypad button[data-card="K"]')
    phone.page.wait_for_selector("#hands-waiting")


def drawn_and_turned_up(phone) -> None:
    """Oh Hell's, Dureń's or Durak's first deal: the dealer drawn by lot on this phone, the queen of spades turned up,
    and where the deal names who attacks first, the second seat."""
    phone.click("#draw-dealer")
    phone.page.wait_for_selector("#deal-note .drawn")
    if phone.page.locator('.trump-pick .suit-tab[data-suit="S"]').count():  # Oh Hell's keypad: a suit, then a rank
        phone.click('.trump-pick .suit-tab[data-suit="S"]')
    phone.click('.trump-pick .keypad button[data-card="QS"]')
    if phone.page.locator(".first-attacker").count():  # Durak's first deal: who attacks first (the lowest trump)
        phone.click('.first-attacker button[data-seat="1"]')
    phone.page.wait_for_selector("#log-deal:enabled")


def another_dealer(phone) -> None:
    """Ogórek's second deal, after the seed's deal and its result: N chosen to deal instead of the rule's dealer."""
    phone.click('.dealer-choice button[data-seat="2"]')
    phone.page.wait_for_selector("#deal-note .warn")


def first_deal(game: str) -> tuple:
    """A game's first deal as a table begins it: where the deal names the card turned up, the dealer drawn and the
    card tapped; else a dealer chosen and a hand begun."""
    turned_up = "trump" in GAMES[game].event_fields["deal"]
    return game, False, drawn_and_turned_up if turned_up else dealer_and_a_hand_begun


STEPS = PerGame("STEPS in tests/page/test_page_deal_step.py", "how its deal step is begun", {
    "ogorek": ("ogorek", False, by_lot), "ogorek-later": ("ogorek", True, another_dealer)}, default=first_deal)
"""Each game's first deal step, begun as the table begins it (`first_deal`, unless the game has its own), and
Ogórek's second deal."""


# every step on the narrowest phone; on the other, the steps with the most in them (the suite's time)
@pytest.mark.parametrize(("step", "size"), [(step, "360x740") for step in [*sorted(GAMES), "ogorek-later"]]
                         + [("oh_hell", "390x844"), ("duren", "390x844")])
def test_the_deal_step_keeps_its_controls_in_place_when_the_language_changes(new_phone, server_api, step, size):
    """Ogórek's first deal in Polish, then Russian ("Жребием", the longest word for the lot), English and Polish
    again: the step, its buttons (the lot, the seats, Deal, the known hands) keep their boxes. So do every other
    game's deal steps: Agurk's and Ogurets' with a hand begun (its note above Deal), Oh Hell's and Dureń's with the
    dealer drawn on this phone (the lot's note) and the card turned up, and Ogórek's second deal after a result, with
    a dealer other than the rule's (its note)."""
    game, later, prepare = STEPS[step]
    phone = deal_step(new_phone, server_api, game, size, later)
    prepare(phone)
    phone.calm()
    before = places(phone)
    assert len(before["controls"]) >= 4
    for lang in ("ru", "en", "pl"):
        phone.language(lang)
        now = places(phone)
        assert now["step"] == before["step"], lang
        assert [c for c in now["controls"] if c not in before["controls"]] == [], lang
        assert now == before, lang
        phone.page.eval_on_selector("#log-deal", "el => el.scrollIntoView({block: 'center'})")
        phone.calm()
        phone.screenshot(f"deal-step-languages-{step}-{size}-{lang}", full_page=False)


# a game and how many players: four, and the most the game allows (Oh Hell's step is the tallest: its card turned up)
LONGEST = {"oh_hell-4": ("oh_hell", 4), "oh_hell-7": ("oh_hell", 7), "ogorek-8": ("ogorek", 8)}
# Oh Hell's and Ogórek's first deals are held to the same with the longest names and the most players (`LONGEST`)
FIRST_DEAL = [game for game in sorted(GAMES) if game not in {name for name, _ in LONGEST.values()}]


@pytest.mark.parametrize("size", list(PHONES))
@pytest.mark.parametrize("game", FIRST_DEAL)
def test_the_first_deal_opens_with_deal_above_the_bottom_bar(new_phone, server_api, game, size):
    """A game's first deal step (Oh Hell's and Ogórek's: with the longest names, below), opened in Polish, English and
    Russian: as the step comes, the page shows it from its heading down to Deal between the top bar and the fixed
    bottom bar (the test scrolls nothing), so that a thumb aiming at Deal finds Deal, not the bar with Undo."""
    match = server_api.post("/api/matches", {"game": game, "players": PLAYERS[game]})
    for lang, locale in LOCALES.items():
        phone = new_phone(locale=locale, viewport=PHONES[size])
        phone.open(f"/?m={match['id']}#key={match['key']}")
        phone.page.wait_for_selector(".deal-step")
        phone.calm()
        for selector in (".deal-step > h2", ".deal-step .dealer-head", "#log-deal"):
            fully_shown(phone, selector)
        phone.screenshot(f"first-deal-{game}-{size}-{lang}", full_page=False)
        phone.close()


class Recorded:
    """The engine's match of a table simulator, keeping each event it took, to be posted to the server after."""

    def __init__(self, match: Match):
        self.match, self.events = match, []

    def play(self, command: dict):
        answer = self.match.play(command)
        self.events.append(command)
        return answer

    def __getattr__(self, name: str):
        return getattr(self.match, name)


def oh_hell_but_the_last_card(players: list[str]) -> list[dict]:
    """Oh Hell's first deal (one card each, Ala deals, clubs trump, bids of nought), played but Ala's card, 4♠."""
    bids = [{"type": "bid", "seat": seat, "bid": 0} for seat in [*range(1, len(players)), 0]]
    cards = ["AS", "3S", "5S", "6S", "7S", "8S"]
    return [{"type": "deal", "dealer": 0, "trump": "2C"}, *bids,
            *({"type": "play", "seat": seat, "card": cards[seat - 1]} for seat in range(1, len(players)))]


def duren_deal(players: list[str]) -> list[dict]:
    """Dureń's first deal, shuffled and played out by the table simulator."""
    match = Recorded(Match.create("duren", players, {}))
    duren_table.play_deal(match, duren_table.Table(random.Random(5), 24, 0))
    return match.events


def durak_deal(players: list[str]) -> list[dict]:
    """Durak's first deal, shuffled and played out to its durak by the table simulator."""
    match = Recorded(Match.create("durak", players, {}))
    table = durak_table.Table(match, random.Random(5))
    table.step()
    while match.expected()["type"] != "deal":
        table.step()
    return match.events


SEVEN = ["Ala", "Bob", "Cyd", "Dan", "Ewa", "Fil", "Gosia"]
# the deal before the later deal; the card the page taps to end it (None: the page opens at the later deal); the
# table's languages, the first the page opens in
LATER_DEALS = {"oh_hell-3": ("oh_hell", SEVEN[:3], oh_hell_but_the_last_card, (0, "4S"), ["pl", "en", "ru"]),
               "oh_hell-7": ("oh_hell", SEVEN, oh_hell_but_the_last_card, (0, "4S"), ["ru", "en", "pl"]),
               "duren": ("duren", SEVEN[:2], duren_deal, None, ["pl", "en", "ru"]),
               "durak": ("durak", SEVEN[:6], durak_deal, None, ["ru", "en", "pl"])}


SIZES = {**PHONES, "740x360": {"width": 740, "height": 360}}  # and a phone turned sideways


@pytest.mark.parametrize(("case", "size"), [("oh_hell-3", "360x740"), ("oh_hell-7", "390x844"),
                                            ("oh_hell-7", "740x360"), ("duren", "360x740"),
                                            ("durak", "360x740")])
def test_a_later_deal_comes_under_the_last_deals_result_shown_whole(new_phone, server_api, case, size):
    """When a deal ends, the next deal's step comes under the deal's result, which the table reads before it deals:
    the page scrolls no further than the result's top, which stays below the top bar (Oh Hell's list of bids and
    tricks went half under it at 360x740, Dureń's line wholly), and neither the result nor the step's heading is
    under the top bar. Where the result and the step down to Deal do not fit between the bars, Deal waits below the
    bottom bar, to be scrolled to. Oh Hell's last card is tapped on the page scrolled to its bottom: on a phone turned
    sideways, the seats and the result are then above the screen, and the page scrolls back up to the result. Nothing
    moves after: the table's switch to English and Russian scrolls nothing, and the card turned up, tapped, moves no
    control."""
    game, players, before, last, langs = LATER_DEALS[case]
    match = server_api.post("/api/matches", {"game": game, "players": players})
    for event in before(players):
        server_api.post(f"/api/matches/{match['id']}/events", event, match["key"])
    phone = new_phone(locale=LOCALES[langs[0]], viewport=SIZES[size])
    phone.open(f"/?m={match['id']}#key={match['key']}")
    if last:
        seat, card = last
        phone.wait_turn(seat)
        phone.page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        phone.tap_card(card)
    phone.page.wait_for_selector(".deal-step")
    phone.calm()
    at = phone.page.evaluate("window.scrollY")
    for lang in langs:
        if lang != langs[0]:
            phone.language(lang)
        assert phone.page.evaluate("window.scrollY") == at, lang
        fully_shown(phone, ".result")
        heading = on_the_screen(phone, ".deal-step > h2")
        assert heading["top"] >= heading["header"], (lang, heading)
        phone.screenshot(f"later-deal-{case}-{size}-{lang}", full_page=False)
    taps = ['.trump-pick .keypad button[data-card="QS"]']  # the test scrolls to it where it waits below the bar
    if phone.page.locator('.trump-pick .suit-tab[data-suit="S"]').count():  # Oh Hell's keypad: a suit, then a rank
        taps.insert(0, '.trump-pick .suit-tab[data-suit="S"]')
    taps_keep_the_controls_in_place(phone, taps, [None] * len(taps))


def moved(before: dict, now: dict) -> list:
    """The controls that were on the step before and are still there, but not where they were (a control the tap
    took away, such as a card taken out of a hand, is gone, not moved)."""
    def count(controls, what):
        return sum(1 for control in controls if control[0] == what)
    return [control for control in before["controls"] if control not in now["controls"]
            and count(now["controls"], control[0]) >= count(before["controls"], control[0])]


def taps_keep_the_controls_in_place(phone, taps: list, shown: list[str], shots: str = "") -> None:
    """Each tap in turn (a selector, or a step of the test's own); after each, the note `shown[i]` is on the step
    (or none, when None), and every control that was there before the tap is where it was. With `shots`, the
    screen is saved after each tap that brings a note, the note in the middle."""
    for index, (tap, note) in enumerate(zip(taps, shown, strict=True)):
        before = places(phone)
        if callable(tap):
            tap(phone)
        else:
            phone.click(tap)
        if note:
            phone.page.locator(note).wait_for()
        phone.calm()
        now = places(phone)
        assert moved(before, now) == [], (tap, before, now)
        if shots and note:
            phone.page.eval_on_selector(note, "el => el.scrollIntoView({block: 'center'})")
            phone.screenshot(f"{shots}-{index}", full_page=False)


def hand_begun(phone) -> None:
    phone.click('.known-hands .keypad button[data-card="K"]')
    phone.page.wait_for_selector("#hands-waiting")


NOTES = {
    "oh_hell": ("oh_hell", False, ["#draw-dealer", '.dealer-choice button[data-seat="1"]', "#draw-dealer"],
                ["#deal-note .drawn", None, "#deal-note .drawn"]),
    "duren": ("duren", False, ["#draw-dealer", '.dealer-choice button[data-seat="0"]'], ["#deal-note .drawn", None]),
    "durak": ("durak", False, ["#draw-dealer", '.first-attacker button[data-seat="2"]',
                               '.dealer-choice button[data-seat="1"]'], ["#deal-note .drawn", None, None]),
    "ogorek-later": ("ogorek", True, ['.dealer-choice button[data-seat="2"]', '.dealer-choice button[data-seat="1"]'],
                     ["#deal-note .warn", None]),
    "agurk": ("agurk", False, [".known-hands summary", '.known-hands .seat-buttons button[data-seat="1"]', hand_begun,
                               ".known-hands summary", ".known-hands summary", ".known-hands .chosen-cards button"],
              [None, None, "#hands-waiting", "#deal-note .warn", "#hands-waiting", None]),
}


def test_the_notes_on_the_deal_are_tried_on_every_keypad():
    """`NOTES` and `LATER_DEALS` are cases, not a table by game; between them and `STEPS` they try every keypad the
    games have (a new one needs its cases here)."""
    keypads = {game.keypad for game in GAMES.values()}
    assert {GAMES[game].keypad for game, *_ in NOTES.values()} == keypads, "NOTES"
    assert {GAMES[game].keypad for game, *_ in [*LATER_DEALS.values(), STEPS["ogorek-later"]]} == keypads, "LATER_DEALS"


@pytest.mark.parametrize(("step", "size"), [(step, "360x740") for step in NOTES] + [("agurk", "390x844")])
def test_a_note_on_the_deal_comes_in_its_own_place_and_moves_nothing(new_phone, server_api, step, size):
    """A tap that brings a note to the deal step (the lot's choice after "Draw by lot", a dealer other than the rule's
    after a tap on a seat, a hand begun and not finished: in the known hands, or in the deal's note while they are
    closed) or takes it away moves no control of the step: Deal, the seats, the card turned up and the known hands'
    keys stay where the finger found them."""
    game, later, taps, notes = NOTES[step]
    phone = deal_step(new_phone, server_api, game, size, later)
    taps_keep_the_controls_in_place(phone, taps, notes, shots=f"deal-note-{step}-{size}")


LONG_NAMES = ["Aleksandra Wiśniewska-Brzęczyszczykiewicz"[:MAX_NAME_LENGTH], "Александра Константиновна Преображенская",
              "Maximilian Alexander Featherstonehaugh-W", "Wojciech Grzegorz Szczepańczyk-Zieliński"[:MAX_NAME_LENGTH]]


def cut_whole(phone, selector: str) -> list[tuple[bool, str]]:
    """Each name cut to its room in the element: whether it is cut (the screen shows its first letters and "…", all
    within its room, and screen readers read the whole name), and its title."""
    return phone.page.eval_on_selector_all(f"{selector} .name-cut", """els => els.map(el => {
        const shown = el.querySelector('[aria-hidden="true"]')?.textContent ?? el.textContent;
        const read = el.querySelector(".visually-hidden")?.textContent;
        const part = shown.endsWith("\u2026") && shown.length < el.title.length
            && el.title.startsWith(shown.slice(0, -1));
        return [part && read === el.title && el.scrollWidth <= el.clientWidth, el.title];
    })""")


def within(phone, selector: str) -> bool:
    """Whether the element's words fit the lines kept for them, nothing hidden below."""
    return phone.page.eval_on_selector(selector, "el => el.scrollHeight <= el.clientHeight + 1")


@pytest.mark.parametrize(("game", "size"), [("oh_hell", "360x740"), ("ogorek-later", "360x740")])
def test_the_longest_names_are_cut_in_the_deal_steps_sentences_and_move_nothing(new_phone, server_api, game, size):
    """Players' names as long as the referee allows (40 characters), in each language: the lot's note, the note on a
    dealer other than the rule's and the instructions name the dealer cut with an ellipsis (the whole name in its
    title), within the lines kept for them, so that Deal and the step's other controls stay where they were."""
    assert all(len(name) == MAX_NAME_LENGTH for name in LONG_NAMES)
    players = LONG_NAMES[:3] if game == "oh_hell" else LONG_NAMES
    match = server_api.post("/api/matches", {"game": game.removesuffix("-later"), "players": players})
    if game == "ogorek-later":
        events = f"/api/matches/{match['id']}/events"
        server_api.post(events, {"type": "deal", "dealer": 0}, match["key"])
        for trick in SEED_TRICKS:
            for name, card in trick:
                server_api.post(events, {"type": "play", "seat": SEED_PLAYERS.index(name), "card": card}, match["key"])
    for lang, locale in LOCALES.items():
        phone = new_phone(locale=locale, viewport=PHONES[size])
        phone.open(f"/?m={match['id']}#key={match['key']}")
        phone.page.wait_for_selector(".deal-step")
        phone.calm()
        if game == "oh_hell":
            taps = ["#draw-dealer", '.dealer-choice button[data-seat="1"]', '.dealer-choice button[data-seat="2"]']
            notes = ["#deal-note .drawn", None, None]
        else:
            taps = ['.dealer-choice button[data-seat="2"]', '.dealer-choice button[data-seat="3"]']
            notes = ["#deal-note .warn", "#deal-note .warn"]
        for tap, note in zip(taps, notes, strict=True):
            taps_keep_the_controls_in_place(phone, [tap], [note])
            dealer = int(phone.page.get_attribute('.dealer-choice button[aria-pressed="true"]', "data-seat"))
            assert cut_whole(phone, ".deal-step > .instructions") == [[True, players[dealer]]], (lang, tap)
            assert within(phone, ".deal-step > .instructions") and within(phone, "#deal-note"), (lang, tap)
            if note:
                assert [title for _, title in cut_whole(phone, "#deal-note")] in (
                    [players[dealer]], [players[1]]), (lang, tap)  # the lot's choice, or the rule's dealer (W)
        fully_shown(phone, "#log-deal")
        phone.screenshot(f"deal-long-names-{game}-{size}-{lang}", full_page=False)
        phone.close()



@pytest.mark.parametrize("size", ["360x740"])  # a cut name's room is 7em on any phone: the narrowest has least else
def test_a_long_name_in_the_known_hands_moves_no_key(new_phone, server_api, size):
    """Agurk's known hands, opened at the first deal, in each language: the hand of a player with a short name, then
    the hand of one with a name as long as the referee allows. The line above the keypad names the player cut with
    an ellipsis (the whole name in its title), so that it stays one line and the keypad below stays where it was."""
    players = ["Ala", *LONG_NAMES[:3]]
    match = server_api.post("/api/matches", {"game": "agurk", "players": players})
    hand = '.known-hands .seat-buttons button[data-seat="{}"]'
    for lang, locale in LOCALES.items():
        phone = new_phone(locale=locale, viewport=PHONES[size])
        phone.open(f"/?m={match['id']}#key={match['key']}")
        phone.page.wait_for_selector(".deal-step")
        phone.calm()
        taps_keep_the_controls_in_place(phone, [".known-hands summary", hand.format(0), hand.format(1)],
                                        [None, ".hand-entry", ".hand-entry"])
        assert cut_whole(phone, ".hand-entry > .label") == [[True, players[1]]], lang
        phone.page.eval_on_selector(".hand-entry", "el => el.scrollIntoView({block: 'center'})")
        phone.screenshot(f"known-hands-long-name-{size}-{lang}", full_page=False)
        phone.close()


INKED = """async (png) => {  // each column of the picture: whether a pixel of it is dark (a letter's)
    const image = await createImageBitmap(new Blob([Uint8Array.from(atob(png), (c) => c.charCodeAt(0))]));
    const canvas = new OffscreenCanvas(image.width, image.height), pen = canvas.getContext("2d");
    pen.drawImage(image, 0, 0);
    const pixels = pen.getImageData(0, 0, image.width, image.height).data;
    const dark = (x, y) => {
        const i = 4 * (y * image.width + x);
        return pixels[i] + pixels[i + 1] + pixels[i + 2] < 3 * 150;
    };
    const rows = Array.from({length: image.height}, (_, y) => y);
    return Array.from({length: image.width}, (_, x) => rows.some((y) => dark(x, y)));
}"""


def gap_after(phone, sentence: str, name: str) -> int:
    """The blank (px) on the screen between the end of the element `name` (its last letter, or its "…") and the next
    letter of the sentence on its line, as the screen shows them."""
    phone.page.eval_on_selector(sentence, "el => el.scrollIntoView({block: 'center'})")
    line = phone.page.eval_on_selector(sentence, """(sentence, name) => {
        const r = sentence.querySelector(name).getBoundingClientRect(), room = sentence.getBoundingClientRect();
        return {x: r.left, y: r.top, width: room.right - r.left, height: r.height, end: r.width};
    }""", name)
    png = phone.page.screenshot(clip={key: line[key] for key in ("x", "y", "width", "height")})
    inked = phone.page.evaluate(INKED, base64.b64encode(png).decode())
    end = round(line["end"])
    last = max(x for x in range(end) if inked[x])
    first = min(x for x in range(end, len(inked)) if inked[x])
    return first - last


def cut_name_gaps(phone, sentence: str) -> tuple[int, int]:
    """The blank after the cut name in the sentence, and the blank after a "…" put in the name's place as plain text:
    what is left between an ellipsis and the words after it when nothing is cut."""
    cut = f"{sentence} .name-cut"
    assert [is_cut for is_cut, _ in cut_whole(phone, sentence)] == [True], sentence
    shown = gap_after(phone, sentence, ".name-cut")
    phone.page.eval_on_selector(cut, """el => {
        const dots = Object.assign(document.createElement("span"), {className: "plain-dots", textContent: "\u2026"});
        el.replaceWith(dots);
    }""")
    plain = gap_after(phone, sentence, ".plain-dots")
    return shown, plain


@pytest.mark.parametrize("size", ["360x740"])  # a name's room is 7em wherever it is: the phone's width changes nothing
def test_a_cut_name_sits_against_the_words_after_it(new_phone, server_api, size):
    """A name cut with an ellipsis in a sentence, in Polish, English and Russian: the words after it (the known hand's
    ", 0 z 7" or "'s hand", the instructions' "rozdaje", the hands Deal waits for) follow the "…" as they would follow
    a "…" typed in the sentence, with no blank left where the cut letters were (there was: "Aleksandr… , 0 z 7")."""
    players = ["Ala", *LONG_NAMES[:3]]
    match = server_api.post("/api/matches", {"game": "agurk", "players": players})
    phone = new_phone(locale="pl-PL", viewport=PHONES[size])
    phone.open(f"/?m={match['id']}#key={match['key']}")
    phone.page.wait_for_selector(".deal-step")
    phone.calm()
    for tap in ('.dealer-choice button[data-seat="2"]', ".known-hands summary",
                '.known-hands .seat-buttons button[data-seat="1"]', '.known-hands .keypad button[data-card="K"]'):
        phone.click(tap)
    phone.page.wait_for_selector("#hands-waiting")
    # the sentences that name a player cut: who deals, whose hand, the hands Deal waits for
    sentences = (".deal-step > .instructions", ".hand-entry > .label", "#hands-waiting")
    for lang in LOCALES:
        if lang != "pl":
            phone.language(lang)
        for where in (".deal-step > .instructions", ".known-hands"):
            phone.page.eval_on_selector(where, "el => el.scrollIntoView({block: 'center'})")
            phone.screenshot(f"cut-name-{where.split('.')[-1]}-{size}-{lang}", full_page=False)
        gaps = {sentence: cut_name_gaps(phone, sentence) for sentence in sentences}
        assert all(shown <= plain + 1 for shown, plain in gaps.values()), (lang, gaps)


MORE_LONG_NAMES = [name[:MAX_NAME_LENGTH] for name in (
    "Кристина Владимировна Черноморская-Белова", "Bartholomew Montgomery Worthington-Smythe",
    "Małgorzata Katarzyna Przybyszewska-Nowak", "Анастасия Александровна Ростовцева-Орлова")]
SHORT_NAMES = ["Ala", "Bob", "Cyd", "Dan", "Ewa", "Fil", "Gosia", "Hela"]
DEALERS = ".dealer-choice .seat-buttons"  # the known hands below Deal have seat buttons of their own


def seat_choice(phone, step: str, group: str) -> dict:
    """The seat buttons of a step (who deals, whose penalty): the box of each on the page, whether it lies within the
    step, whether its name is cut, its titles and how many lines its name takes; the height of the buttons' group, and
    how far below the step's top Deal is (at the deal)."""
    return phone.page.eval_on_selector(step, """(step, group) => {
        const box = (el) => {
            const r = el.getBoundingClientRect();
            return [Math.round(r.left), Math.round(r.top + window.scrollY), Math.round(r.width), Math.round(r.height)];
        };
        const lines = (el) => {  // the lines the words are laid out on (a line cut short is one line)
            const range = document.createRange();
            range.selectNodeContents(el);
            return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
        };
        const room = step.getBoundingClientRect();
        const seats = [...step.querySelectorAll(`${group} button`)].map((el) => {
            const name = el.querySelector(".name-cut"), r = el.getBoundingClientRect();
            return {box: box(el), within: r.left >= room.left && r.right <= room.right,
                    cut: name.scrollWidth > name.clientWidth, title: el.title, name: name.title, lines: lines(name)};
        });
        const deal = step.querySelector("#log-deal");
        return {seats, group: box(step.querySelector(group))[3],
                deal: deal && Math.round(deal.getBoundingClientRect().top - room.top)};
    }""", group)


def a_fixed_grid(seats: dict, players: list[str]) -> None:
    """Each seat within the step, its name on one line, cut, whole in the titles; four seats in one row, more in a
    grid of four columns, all as wide."""
    assert [(seat["title"], seat["name"], seat["within"], seat["cut"], seat["lines"]) for seat in seats["seats"]] == [
        (name, name, True, True, 1) for name in players], seats
    assert len({seat["box"][1] for seat in seats["seats"]}) == (1 if len(players) <= 4 else 2), seats
    assert len({seat["box"][0] for seat in seats["seats"]}) == min(len(players), 4), seats
    assert len({seat["box"][2] for seat in seats["seats"]}) == 1, seats


@pytest.mark.parametrize(("case", "size"), [(case, "360x740") for case in LONGEST] + [("oh_hell-7", "390x844")])
def test_the_longest_names_keep_the_dealers_seats_in_a_fixed_grid_at_the_first_deal(new_phone, server_api, case, size):
    """Four players, and the most the game allows, each with a name as long as the referee allows (40 characters):
    at the first deal, in Polish, English and Russian, each seat button says its name on one line, cut with an
    ellipsis (the whole name in its title); four seats take one row, more a grid of four columns; the seats take the
    room they take with short names, so that Deal is as far below the step's top as with short names, and the step,
    from its heading down to Deal, comes between the top bar and the bottom bar (the test scrolls nothing). Ogórek's
    penalty, once dealt, offers its eight seats in the same grid, within its step."""
    game, count = LONGEST[case]
    players = (LONG_NAMES + MORE_LONG_NAMES)[:count]
    assert all(len(name) == MAX_NAME_LENGTH for name in players) and len(set(players)) == count
    short = server_api.post("/api/matches", {"game": game, "players": SHORT_NAMES[:count]})
    phone = new_phone(locale="pl-PL", viewport=PHONES[size])
    phone.open(f"/?m={short['id']}#key={short['key']}")
    phone.page.wait_for_selector(".deal-step")
    phone.calm()
    usual = seat_choice(phone, ".deal-step", DEALERS)
    phone.close()
    match = server_api.post("/api/matches", {"game": game, "players": players})
    for lang, locale in LOCALES.items():
        phone = new_phone(locale=locale, viewport=PHONES[size])
        phone.open(f"/?m={match['id']}#key={match['key']}")
        phone.page.wait_for_selector(".deal-step")
        phone.calm()
        phone.screenshot(f"first-deal-longest-names-{case}-{size}-{lang}", full_page=False)
        seats = seat_choice(phone, ".deal-step", DEALERS)
        a_fixed_grid(seats, players)
        assert [seats["group"], seats["deal"]] == [usual["group"], usual["deal"]], (lang, seats, usual)
        for selector in (".deal-step > h2", ".deal-step .dealer-head", "#log-deal"):
            fully_shown(phone, selector)
        phone.close()
    if game == "ogorek":  # the penalty's seats, in the play step's width: the same grid, within the step
        server_api.post(f"/api/matches/{match['id']}/events", {"type": "deal", "dealer": 0}, match["key"])
        phone = new_phone(locale="pl-PL", viewport=PHONES[size])
        phone.open(f"/?m={match['id']}#key={match['key']}")
        phone.click("#penalty")
        phone.page.wait_for_selector(".penalty-step")
        phone.calm()
        a_fixed_grid(seat_choice(phone, ".penalty-step", ".seat-buttons"), players)
        phone.page.eval_on_selector(".penalty-step", "el => el.scrollIntoView({block: 'center'})")
        phone.screenshot(f"penalty-longest-names-{case}-{size}", full_page=False)


def test_a_deal_against_the_rule_is_offered_to_stand_as_a_deal_not_as_an_illegal_play(new_phone, server_api):
    """Ogórek's second deal dealt by another than the rule's dealer: the referee refuses it, and where the table may
    let it stand the page says it is then recorded as dealt, against the rule (a deal is not a play)."""
    i18n = Path(__file__).resolve().parents[2] / "webui" / "static" / "i18n"
    said = json.loads((i18n / "pl.json").read_text(encoding="utf-8"))
    phone = deal_step(new_phone, server_api, "ogorek", "360x740", later=True)
    another_dealer(phone)
    phone.click("#log-deal")
    phone.page.wait_for_selector("#let-it-stand")
    text = phone.text("#refusal")
    assert said["referee.forceable_hint_deal"] in text and said["referee.forceable_hint"] not in text
