"""The page's words assume no gender: Polish and Russian put a verb's gender in its past tense ("wziął"/"wzięła",
"взял"/"взяла"), so no sentence about a player may use a gendered past form, whatever the player's name. Each word
of each sentence in Polish and Russian is matched against the endings of the past tense; the few words that match
and are not about a player (a noun, a verb whose subject is the phone, the page, the lot or "nobody") are listed
with their sentence, so that a new gendered word fails here. And names stand where the language need not decline
them: a payment is "Kasia → Łukasz", not "Kasia płaci Łukasz"."""

from __future__ import annotations

import re

import pytest
from test_page_words import words

PAST = {
    "pl": re.compile(r"\b\w+(?:ł|ła|łem|łam|łeś|łaś)\b"),
    "ru": re.compile(r"\b\w+(?:ил|ал|ял|ел|ул|ыл|ила|ала|яла|ела|ула|ыла)(?:ся|сь)?\b", re.IGNORECASE),
}
NOT_ABOUT_A_PLAYER = {
    "pl": {
        "Stół": "a noun: the table", "stół": "a noun: the table", "dół": "a noun: down", "reguła": "a noun: a rule",
        "działa": "present tense: it works",
        "poprosiła": "the page asked", "wysłała": "the page sent", "zaczęła": "the bidding began",
        "zmieniła": "the page changed", "została": "a card remained", "dotarł": "the body arrived",
        "przyszedł": "the request came", "zmienił": "the table changed", "został": "an entry remained",
        "mógł": "the server could", "miał": "the phone had", "wskazał": "the lot chose", "zapisał": "someone logged",
        "stracił": "nobody lost", "dostał": "nobody drew", "równała": "the sum equals",
        "widział": "the table saw",
    },
    "ru": {
        "Журнал": "a noun: the log", "журнал": "a noun: the log", "Правила": "a noun: the rules",
        "правил": "a noun: of the rules", "Предел": "a noun: the limit", "предел": "a noun: the limit",
        "предела": "a noun: of the limit", "Сначала": "an adverb: first", "сначала": "an adverb: first",
        "начала": "a noun: of the beginning", "отправила": "the page sent", "попросила": "the page asked",
        "выпал": "the lot fell", "получил": "nobody drew", "потерял": "nobody lost", "остался": "the last one left",
        "сделал": "someone logged", "видел": "the table saw", "была": "a card was",
        "началась": "the game began", "изменилась": "the page changed", "кончилась": "the stock ran out",
    },
}


@pytest.mark.parametrize("lang", sorted(PAST))
def test_no_word_about_a_player_has_a_gendered_past_form(lang):
    found = {(key, word) for key, text in words(lang).items() for word in PAST[lang].findall(text)}
    gendered = sorted((key, word) for key, word in found if word not in NOT_ABOUT_A_PLAYER[lang])
    assert gendered == []
    unused = set(NOT_ABOUT_A_PLAYER[lang]) - {word for _, word in found}
    assert unused == set(), "the list names words no sentence has any longer"


@pytest.mark.parametrize("lang", sorted(PAST))
def test_a_payment_names_the_players_without_declining_them(lang):
    assert words(lang)["money.pays"] == "{from} → {to}: {amount}"



PRONOUNS = {"pl": re.compile(r"\b(?:jego|jej|niego|niej|nim|go|mu|on|ona)\b", re.IGNORECASE),
            "ru": re.compile(r"\b(?:его|её|ее|ему|ей|он|она|него|неё|нему|ней)\b", re.IGNORECASE)}
# a sentence is about a player when it names one ({name}, {names}), speaks of a player or is a seat's badge
ABOUT_A_PLAYER = {"pl": re.compile(r"\{names?\}|\bgracz\w*|^table\.|^seat\."),
                  "ru": re.compile(r"\{names?\}|\bигрок\w*|^table\.|^seat\.")}
# sentences about a player whose pronoun stands for a thing: the card turned up, the card to play
PRONOUN_FOR_A_THING = {
    "pl": {"deal.oh_hell.one", "deal.oh_hell.few", "deal.oh_hell.many", "deal.oh_hell.other", "deal.duren",
           "deal.durak"},
    "ru": {"deal.oh_hell.one", "deal.oh_hell.few", "deal.oh_hell.many", "deal.oh_hell.other", "deal.duren",
           "deal.durak", "say.must_play_higher", "say.must_play_lowest.top_card", "say.must_play_lowest.cannot_reach",
           "say.must_play_lowest.ace_led"},
}


@pytest.mark.parametrize("lang", sorted(PRONOUNS))
def test_no_pronoun_stands_for_a_player(lang):
    """"jego ruch" ("his move"), "его заказ" ("his bid"): a pronoun for a player has a gender. Every sentence about a
    player is searched for one; the listed sentences' pronouns stand for a card."""
    about = {key: text for key, text in words(lang).items()
             if ABOUT_A_PLAYER[lang].search(text) or ABOUT_A_PLAYER[lang].search(key)}
    found = {key for key, text in about.items() if PRONOUNS[lang].search(text)}
    assert sorted(found - PRONOUN_FOR_A_THING[lang]) == []
    assert PRONOUN_FOR_A_THING[lang] - found == set(), "the list names sentences with no such pronoun any longer"
