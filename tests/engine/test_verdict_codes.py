"""One list of verdict codes (`referee.verdicts.CODES`): every code the engine gives is in it with its HTTP
status, whether `force` can let it stand, and a sentence; the API answers with that status, the contract
lists the codes, and the page has words for each. Each mistake has one code, whatever the field."""

from __future__ import annotations

from pathlib import Path

import pytest
from source_codes import engine_codes, rule_codes
from test_page_words import words

from referee import CODES

ROOT = Path(__file__).resolve().parents[2]


def test_the_list_is_every_code_the_engine_gives_and_no_other():
    assert sorted(engine_codes() - set(CODES)) == []
    assert sorted(set(CODES) - engine_codes()) == []


def test_a_broken_rule_is_forceable_and_what_cannot_have_happened_is_not():
    forceable = {code for code, listed in CODES.items() if listed.forceable}
    # besides the rules: the wrong dealer or first attacker, and a correction after which a later event breaks a
    # forceable rule
    assert forceable == rule_codes() | {"wrong_dealer", "wrong_attacker", "correction_breaks_rule"}
    assert all(CODES[code].status == 409 for code in forceable)


def test_each_code_has_a_status_and_a_sentence():
    for code, listed in CODES.items():
        assert listed.status in (409, 422), code
        assert listed.sentence[0].isupper() and listed.sentence.endswith("."), code


@pytest.mark.parametrize("lang", ["pl", "en", "ru"])
def test_the_page_has_words_for_every_code(lang):
    assert sorted(code for code in CODES if f"code.{code}" not in words(lang)) == []


@pytest.mark.parametrize(("body", "status", "code"), [
    ({"type": "bid", "seat": -1, "bid": 0}, 422, "bad_seat"),
    ({"type": "bid", "seat": 7, "bid": 0}, 422, "bad_seat"),
    ({"type": "bid", "seat": 1, "bid": 56}, 409, "bid_out_of_range"),
    ({"type": "bid", "seat": 1, "bid": 5}, 409, "bid_out_of_range"),
    ({"type": "bid", "seat": 1, "bid": -1}, 409, "bid_out_of_range"),
    ({"type": "play", "seat": 1, "card": "Z"}, 422, "bad_card"),
])
def test_one_mistake_one_code_and_the_status_of_its_code(table, body, status, code):
    match = table.new_match(players=["Ann", "Bob", "Cid"], game="oh_hell")
    table.post_event(match, {"type": "deal", "dealer": 0, "trump": "9H"})
    error = table.post_event(match, body, expect=status)["error"]
    assert (error["code"], CODES[error["code"]].status) == (code, status)
