"""The page itself says every verdict of every game in Polish, English and Russian: words.js, run in the
browser over real verdicts of random tables, fills every placeholder with names, the language's card letters
and suit signs, and never falls back on the server's English message."""

from __future__ import annotations

import pytest
from test_verdict_words import BUDGET, collected

pytestmark = pytest.mark.browser

NAMES = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal"]


def one_of_each() -> list[dict]:
    seen, picked = set(), []
    for game in BUDGET:
        for kind, code, seat, details in collected(game):
            shape = (code, details.get("case"), tuple(sorted(details)))
            if shape not in seen:
                seen.add(shape)
                picked.append({"game": game, "kind": kind, "code": code, "seat": seat, "details": details})
    return picked


def test_every_verdict_is_said_in_each_language_by_the_page(phone):
    phone.open("/")
    verdicts = one_of_each()
    assert len(verdicts) > 45
    said = phone.page.evaluate("""async ({verdicts, names}) => {
        const i18n = await import("./static/js/i18n.js");
        const words = await import("./static/js/words.js");
        const out = {};
        for (const lang of ["pl", "en", "ru"]) {
            await i18n.setLanguage(lang);
            out[lang] = verdicts.map((v) => words.verdictText(v.code, v.details, v.seat, names));
        }
        return out;
    }""", {"verdicts": verdicts, "names": NAMES})
    for lang, texts in said.items():
        for verdict, text in zip(verdicts, texts, strict=True):
            assert text and "{" not in text and "undefined" not in text and "null" not in text, (lang, verdict, text)
    letters = {"A": "Т", "K": "К", "Q": "Д", "J": "В"}
    suits = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
    checked = 0
    for verdict, text in zip(verdicts, said["ru"], strict=True):
        card = verdict["details"].get("card")
        if card and card != "X":
            rank, suit = (card[:-1], card[-1]) if card[-1] in suits else (card, "")
            assert letters.get(rank, rank) + suits.get(suit, "") in text, (verdict, text)
            checked += 1
    assert checked > 10
