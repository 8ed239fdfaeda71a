"""The sheet of a correction for every kind of entry, at 390x844 and 360x740 in the three languages (one walk a
size, each sheet looked at in each language switched in place): a play (its seat
and card), a penalty (seat and points), a deal (dealer, and the card turned up where the game turns one), a bid, the
swap of the nine of trumps, an attack and a defence; Remove; Insert before, with the kind of entry forgotten. Opened
from the log, from the trick history and from the scoresheet. Whatever a choice asks, the sheet's foot (the choices,
Close) keeps its place, under the thumb, and the sheet stays below the top bar."""

from __future__ import annotations

import pytest
from conftest_browser import LOCALES, PHONES
from test_page_corrections import words

pytestmark = pytest.mark.browser

SEED_DEAL = "1K 22 33 0A  09 1K 25 37  17 2Q 3Q 02  39 09 13 2Q  210 38 06 14  25 39 07 16".split()


def play(seat: int, card: str) -> dict:
    return {"type": "play", "seat": seat, "card": card}


# Ogórek: the seed deal (E takes 9 minus points), W deals the second, N leads 9, W gets a penalty, E plays 10
OGOREK = [{"type": "deal", "dealer": 0}, *[play(int(p[0]), p[1:]) for p in SEED_DEAL], {"type": "deal"}, play(2, "9"),
          {"type": "penalty", "seat": 1, "points": 5}, play(3, "10")]
# Oh Hell, three players, one card: bids 0, 1, 0; W's K♥ takes the trick; W deals the second hand (5♦ turned up)
OH_HELL = [{"type": "deal", "dealer": 0, "trump": "9S"},
           *[{"type": "bid", "seat": seat, "bid": bid} for seat, bid in [(1, 0), (2, 1), (0, 0)]],
           play(1, "KH"), play(2, "2H"), play(0, "3H"), {"type": "deal", "dealer": 1, "trump": "5D"}]
# Dureń: 10♣ turned up, W swaps the nine for it; W attacks 10♥ (S takes it), then Q♠ (S beats it with K♠)
DUREN = [{"type": "deal", "dealer": 0, "trump": "10C"}, {"type": "exchange", "seat": 1},
         {"type": "attack", "seat": 1, "cards": ["10H"]}, {"type": "defend", "seat": 0, "beats": []},
         {"type": "attack", "seat": 1, "cards": ["QS"]},
         {"type": "defend", "seat": 0, "beats": [{"card": "QS", "with": "KS"}]}]


def a_match(server_api, game: str, players: list[str], events: list[dict], options: dict | None = None) -> dict:
    match = server_api.post("/api/matches", {"game": game, "players": players, "options": options or {}})
    for event in events:
        server_api.post(f"/api/matches/{match['id']}/events", event, match["key"])
    return match


def scorer(new_phone, match: dict, lang: str = "en", size: str = "360x740"):
    phone = new_phone(locale=LOCALES[lang], viewport=PHONES[size])
    phone.open(f"/?m={match['id']}#key={match['key']}")
    phone.page.wait_for_selector("#mode.scoring")
    return phone


def open_entry(phone, seq: int) -> None:
    if phone.page.locator("#correction").count():
        phone.click("#correct-close")
    phone.click(f'#panel-log button.correct-open[data-seq="{seq}"]')
    phone.page.wait_for_selector(f'#correction[aria-label$="#{seq}"] #correct-change', timeout=15000)


def on_screen(phone, selector: str) -> tuple[int, int, int, int]:
    box = phone.page.locator(selector).bounding_box()
    return round(box["x"]), round(box["y"]), round(box["width"]), round(box["height"])


LANGS = sorted(LOCALES)


class Sheets:
    """The sheets of one walk, each looked at in the three languages, switched in place on the phone as a table
    does: each screenshot named, its question asked in the language shown, and the sheet's foot where it was each
    time."""

    def __init__(self, phone, size: str):
        self.phone, self.size = phone, size
        self.feet: dict[str, dict[str, tuple]] = {lang: {} for lang in LANGS}

    def walk(self, phone) -> None:
        """The next game's phone, in the language the last one ended in."""
        phone.language(self.phone.page.evaluate("() => document.documentElement.lang"))
        self.phone = phone

    def shot(self, name: str, asks: tuple | None = None, says: tuple | None = None) -> None:
        """In each language: the question asked (`asks`: a key of the words and its values), what a control says
        (`says`: its selector and the words, given the language's), the sheet whole between the bars, its foot by
        the thumb; a screenshot."""
        phone = self.phone
        for lang in phone.languages(LANGS):
            t = words(lang)
            if asks:
                assert phone.text("#correction .correct-ask") == t(asks[0], **asks[1]), (name, lang)
            if says:
                assert phone.page.locator(says[0]).inner_text() == says[1](t), (name, lang)
            sheet = phone.page.locator("#correction").bounding_box()
            bar = phone.page.locator("header.bar").bounding_box()
            assert sheet["y"] >= bar["y"] + bar["height"] - 1, (name, lang)  # never over the top bar
            assert sheet["y"] + sheet["height"] <= PHONES[self.size]["height"] + 1, (name, lang)  # whole on the screen
            for part in ("#correct-close", "#correct-change", "#correction-answer"):
                box = phone.page.locator(part).bounding_box()
                assert box["y"] + box["height"] <= PHONES[self.size]["height"], (name, lang, part)  # by the thumb
            self.feet[lang][name] = (on_screen(phone, "#correct-close"), on_screen(phone, "#correct-change"),
                                     on_screen(phone, "#correct-insert"))
            phone.screenshot(f"sheet-{self.size}-{lang}-{name}", full_page=False)

    def view(self, name: str) -> None:
        """A screen that is not a sheet (the scoresheet, the trick history) shot in each language."""
        for lang in self.phone.languages(LANGS):
            self.phone.screenshot(f"sheet-{self.size}-{lang}-{name}", full_page=False)


@pytest.mark.parametrize("size", list(PHONES))
def test_every_sheet_of_a_correction_asks_in_the_tables_language_by_the_thumb(new_phone, server_api, size):
    """One walk over every kind of sheet on a phone of each size; each sheet is looked at in Polish, English and
    Russian, the table's language switched with the sheet open (it stays open, asking the same in the new words)."""
    # Ogórek: a play, a penalty, a deal, Remove, Insert before (a card or a penalty)
    phone = scorer(new_phone, a_match(server_api, "ogorek", ["S", "W", "N", "E"], OGOREK), "en", size)
    sheets = Sheets(phone, size)
    phone.tab("log")
    open_entry(phone, 29)
    phone.click("#correct-change")
    assert phone.page.locator('#correction .seat-buttons button[data-seat="3"][aria-pressed="true"]').count() == 1
    sheets.shot("play", asks=("correct.ask_card", {"seq": 29, "name": "E"}))
    phone.click("#correct-remove")
    sheets.shot("remove", asks=("correct.ask_remove", {"seq": 29}))
    phone.click("#correct-insert")
    assert phone.page.locator("#correct-kind-play[aria-pressed='true']").count() == 1
    sheets.shot("insert-play", says=("#correct-kind-play", lambda t: t("correct.kind.play")))
    phone.click("#correct-kind-penalty")
    sheets.shot("insert-penalty", asks=("correct.ask_insert_penalty", {"seq": 29, "name": "N"}))
    open_entry(phone, 28)
    phone.click("#correct-change")
    assert phone.page.input_value("#correct-points") == "5"
    sheets.shot("penalty")
    open_entry(phone, 26)
    phone.click("#correct-change")
    assert phone.page.locator('#correction .seat-buttons button[data-seat="1"][aria-pressed="true"]').count() == 1
    sheets.shot("deal", asks=("correct.ask_deal", {"seq": 26}))
    phone.click("#correct-close")
    # from the scoresheet: deal 1's entries; from the trick history: N's 9
    phone.tab("scores")
    phone.page.locator("#scoresheet").scroll_into_view_if_needed()
    sheets.view("scoresheet")
    phone.click('#scoresheet tr[data-deal="1"] td[data-seat="3"]')
    phone.page.wait_for_selector('#correction .correct-pick[data-seq="1"]')
    sheets.shot("pick", asks=("correct.ask_pick", {"n": 1}))
    phone.click("#correct-close")
    phone.page.wait_for_selector("#panel-scores")
    phone.tab("table")
    phone.click("#trick-history > summary")
    phone.page.wait_for_selector('#trick-history .trick-play[data-seq="27"]')
    phone.page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    sheets.view("tricks")
    phone.click('#trick-history .trick-play[data-seq="27"]')
    phone.page.wait_for_selector('#correction[aria-label$="#27"]')
    sheets.shot("from-tricks", says=("#correct-close", lambda t: t("correct.close_back", tab=t("tab.table"))))

    # Oh Hell: a bid, a deal with the card turned up, a card of rank and suit, Insert before a bid
    sheets.walk(scorer(new_phone, a_match(server_api, "oh_hell", ["S", "W", "N"], OH_HELL), "en", size))
    phone = sheets.phone
    phone.tab("log")
    open_entry(phone, 2)
    phone.click("#correct-change")
    assert phone.page.locator("#correction .keypad.bids button").count() == 2  # 0 or 1: one card in the hand
    sheets.shot("bid", asks=("correct.ask_bid", {"seq": 2, "name": "W"}))
    phone.click("#correct-insert")
    assert phone.page.locator("#correct-kind-bid[aria-pressed='true']").count() == 1
    sheets.shot("insert-bid", says=("#correct-kind-bid", lambda t: t("correct.kind.bid")))
    open_entry(phone, 1)
    phone.click("#correct-change")
    assert phone.page.locator('#correction .keypad button[data-card="9S"][aria-pressed="true"]').count() == 1
    sheets.shot("deal-trump", asks=("correct.ask_deal_trump", {"seq": 1}))
    open_entry(phone, 5)
    phone.click("#correct-change")
    sheets.shot("play-suited")

    # Dureń: the swap of the nine of trumps, an attack, a defence, the deal's face-up card
    sheets.walk(scorer(new_phone, a_match(server_api, "duren", ["S", "W"], DUREN), "en", size))
    phone = sheets.phone
    phone.tab("log")
    open_entry(phone, 2)
    phone.click("#correct-change")
    sheets.shot("exchange", asks=("correct.ask_exchange", {"seq": 2}))
    open_entry(phone, 5)
    phone.click("#correct-change")
    assert phone.page.locator('#correction .keypad button[data-card="QS"][aria-pressed="true"]').count() == 1
    sheets.shot("attack")
    open_entry(phone, 6)
    phone.click("#correct-change")
    assert phone.page.locator('#correction .beat-target[data-attack="QS"] .card[data-card="KS"]').count() == 1
    sheets.shot("defend")
    open_entry(phone, 1)
    phone.click("#correct-change")
    sheets.shot("deal-face-up")
    phone.click("#correct-insert")
    assert phone.page.locator("#correct-kind-attack").count() == 1  # a round's halves and the swap may be forgotten
    sheets.shot("insert-duren")
    phone.click("#correct-close")
    phone.tab("table")
    phone.click("#trick-history > summary")
    phone.page.wait_for_selector('#trick-history .trick-play[data-seq="6"]')
    phone.page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    sheets.view("rounds")

    # the sheet's foot never moved, whatever was asked above it, in any language
    for lang, feet in sheets.feet.items():
        assert len(feet) == 17 and len(set(feet.values())) == 1, (lang, feet)
