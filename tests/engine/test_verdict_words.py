"""The referee speaks the table's language: every verdict of every game (refusal, warning, finding) has the
page's words in Polish, English and Russian, and its details fill every placeholder of them.

The verdicts are real: random tables that make every mistake (tests/support/verdict_fuzz.py) collect them from the
engine with their details; the page picks the words as webui/static/js/words.js does."""

from __future__ import annotations

import functools
import hashlib
import inspect
import json
import re
from pathlib import Path

import pytest
from per_game import MissingEntry, PerGame
from source_codes import verdict_codes
from verdict_fuzz import verdicts

from referee import GAMES
from referee.games.tricks import TrickGame

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ("pl", "en", "ru")
BUDGET = PerGame("BUDGET in tests/engine/test_verdict_words.py", "the matches and steps its random tables need",
                 {"oh_hell": (80, 150), "duren": (60, 500), "durak": (40, 1000)}, default=lambda game: (60, 150))
"""The random tables of each game: (matches, steps of each)."""


@functools.cache
def words(lang: str) -> dict[str, str]:
    return json.loads((ROOT / "webui" / "static" / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))




@functools.cache
def collected(game: str) -> list[tuple[str, str, int | None, dict]]:
    matches, steps = BUDGET[game]
    return verdicts(game, seed=13, matches=matches, steps=steps)


COUNTED = {"say.bid_out_of_range": "size", "say.card_not_held.too_many": "held"}
"""As words.js: the verdicts whose words depend on a number, and the detail that holds it."""
PLURAL_FORMS = {"pl": ("one", "few", "many", "other"), "en": ("one", "other"), "ru": ("one", "few", "many", "other")}


def said(key: str, lang: str) -> bool:
    return key in words(lang) or f"{key}.other" in words(lang)


def key_for(code: str, details: dict, lang: str) -> str | None:
    """As words.js: `say.<code>.<case>` when the language has it, else `say.<code>` (either in one form or in the
    forms of a number)."""
    if details.get("case") and said(f"say.{code}.{details['case']}", lang):
        return f"say.{code}.{details['case']}"
    return f"say.{code}" if said(f"say.{code}", lang) else None


def forms(key: str, lang: str) -> list[str]:
    """The words of `key`: its one form, or every form of its number."""
    if key in words(lang):
        return [words(lang)[key]]
    return [words(lang)[f"{key}.{form}"] for form in PLURAL_FORMS[lang]]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_verdict_with_a_noun_after_a_number_has_every_plural_form_and_only_those_do(lang):
    for key, counted in COUNTED.items():
        texts = forms(key, lang)
        assert all("{" + counted + "}" in text for text in texts), (key, lang)
    for key in words(lang):
        base, _, form = key.rpartition(".")
        if key.startswith("say.") and form in ("one", "few", "many", "other"):
            assert base in COUNTED, f"{key}: words.js chooses no form for it"


def test_words_js_counts_the_same_verdicts():
    source = (ROOT / "webui" / "static" / "js" / "words.js").read_text(encoding="utf-8")
    listed = re.search(r"export const COUNTED = (\{[^}]*\});", source).group(1)
    assert json.loads(listed) == COUNTED


def test_the_scan_finds_the_verdicts():
    assert {"not_your_turn", "must_play_lowest", "must_follow_suit", "hook", "attack_size", "beat_too_low",
            "beat_wrong_suit", "card_under_stock", "wrong_dealer", "nothing_to_undo"} <= verdict_codes()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_verdict_code_has_words(lang):
    said = {key.split(".")[1] for key in words(lang) if key.startswith("say.")}
    assert sorted(verdict_codes() - said) == []


def rules_file(game: str) -> tuple[str, ...]:
    """The file that says what a play breaks in the game (where its `broken_rule` is written: climbing.py for every
    climbing game); a game that says it elsewhere needs its entry in `GAME_FILES`."""
    owner = next((kind for kind in type(GAMES[game]).__mro__ if "broken_rule" in vars(kind)), TrickGame)
    if owner is TrickGame:
        raise MissingEntry(f"GAME_FILES in tests/engine/test_verdict_words.py has no entry for the game {game!r}: add "
                           "the files of referee/games/ whose verdicts its random tables must meet "
                           "(docs/adding-a-game.md)")
    return (Path(inspect.getsourcefile(owner)).name,)


GAME_FILES = PerGame("GAME_FILES in tests/engine/test_verdict_words.py", "the files of referee/games/ whose "
                     "verdicts its random tables must meet",
                     {"duren": ("duren.py", "duren_deal.py"), "durak": ("durak.py", "durak_deal.py")},
                     default=rules_file)


@pytest.mark.parametrize("game", list(GAMES))
def test_the_random_tables_meet_every_verdict_of_their_game(game):
    met = {code for _, code, _, _ in collected(game)}
    raised_here = set().union(*(verdict_codes(name) for name in GAME_FILES[game]))
    assert raised_here
    assert sorted(raised_here - met) == []
    assert {"not_your_turn", "deal_in_progress", "no_deal", "match_finished", "nothing_to_undo"} <= met


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", list(GAMES))
def test_every_verdict_met_is_said_with_every_placeholder_filled(game, lang):
    for kind, code, seat, details in collected(game):
        key = key_for(code, details, lang)
        assert key, (kind, code, details)
        assert details.get("case") is None or key.endswith(f".{details['case']}"), (code, details, lang)
        given = {name for name, value in details.items() if value is not None}
        if seat is not None:
            given.add("name")
        needed = {name for text in forms(key, lang) for name in re.findall(r"\{(\w+)\}", text)}
        assert needed <= given, (kind, code, details, lang, needed - given)


def test_details_name_seats_by_number_and_cards_in_the_api_notation():
    card = re.compile(r"^(10|[2-9TJQKA])[SHDC]?$|^X$")
    for game in GAMES:
        for _, code, _, details in collected(game):
            for name in ("turn", "holder", "dealer", "last_dealer", "loser", "defender", "attacker"):
                assert name not in details or isinstance(details[name], int), (code, details)
            for name in ("card", "top", "later", "lead", "nine", "face_up", "with"):
                assert name not in details or card.match(details[name]), (code, details)


def test_the_random_agurk_tables_meet_the_ace_led_rule_with_its_own_words():
    met = {(code, details.get("case")) for _, code, _, details in collected("agurk")}
    assert ("must_play_lowest", "ace_led") in met



TABLES_DIGEST = """
import hashlib, json, sys
sys.path[:0] = sys.argv[1:3]
from verdict_fuzz import verdicts
found = verdicts(sys.argv[3], seed=13, matches=int(sys.argv[4]), steps=int(sys.argv[5]))
print(hashlib.sha256(json.dumps(found, sort_keys=True, default=str).encode()).hexdigest())
"""


def digest(found) -> str:
    return hashlib.sha256(json.dumps(found, sort_keys=True, default=str).encode()).hexdigest()


@pytest.mark.parametrize("game", list(GAMES))
def test_the_random_tables_are_the_same_in_every_process(game):
    """Seeded, a game's random tables are the same whatever order a process's sets keep (hash randomization): this
    process's and one with another hash seed. (A table that took a card from the referee's knowledge in the order the
    engine keeps it was another table in each process, and now and then missed a verdict: Dureń's
    `not_enough_cards`, once in a shared run.)"""
    import os
    import subprocess
    import sys

    seed = "2" if os.environ.get("PYTHONHASHSEED") == "1" else "1"  # another than this process's
    args = [str(ROOT / "tests" / "support"), str(ROOT), game, *map(str, BUDGET[game])]
    other = subprocess.run([sys.executable, "-c", TABLES_DIGEST, *args], capture_output=True, text=True, check=True,
                           env={**os.environ, "PYTHONHASHSEED": seed}, timeout=300).stdout.strip()
    assert digest(collected(game)) == other
