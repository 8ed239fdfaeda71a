"""The page's words: the same keys in Polish, English and Russian, every verdict code and game option translated."""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path

import pytest
from source_codes import all_codes, input_error_codes

from referee import GAMES, catalogue

ROOT = Path(__file__).resolve().parents[2]
WORDS = ROOT / "webui" / "static" / "i18n"
LANGUAGES = ("pl", "en", "ru")
PLURAL_FORMS = {"en": {"one", "other"}, "pl": {"one", "few", "many", "other"}, "ru": {"one", "few", "many", "other"}}


@functools.cache
def words(lang: str) -> dict[str, str]:
    return json.loads((WORDS / f"{lang}.json").read_text(encoding="utf-8"))


def split_plural(key: str) -> tuple[str, str | None]:
    base, _, form = key.rpartition(".")
    return (base, form) if form in {"one", "few", "many", "other"} else (key, None)


def plain_keys(lang: str) -> set[str]:
    return {split_plural(key)[0] for key in words(lang)}


def placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", text))


def catalogue_keys() -> set[str]:
    """The English words the page takes from the catalogue itself: game titles and descriptions, options."""
    keys = set()
    for game in catalogue():
        keys |= {f"game.{game['game']}.title", f"game.{game['game']}.description"}
        keys |= {f"option.{game['game']}.{option['name']}" for option in game["options"]}
    return keys


@pytest.mark.parametrize("lang", ["pl", "ru"])
def test_every_language_has_the_same_words(lang):
    assert plain_keys(lang) == plain_keys("en") | catalogue_keys()


def test_english_takes_the_games_and_their_options_from_the_catalogue():
    assert not catalogue_keys() & set(words("en"))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_words_that_count_have_every_plural_form_of_their_language(lang):
    forms: dict[str, set[str]] = {}
    for key in words(lang):
        base, form = split_plural(key)
        if form:
            forms.setdefault(base, set()).add(form)
    assert forms, "no word counts anything"
    for base, found in forms.items():
        assert found == PLURAL_FORMS[lang], (lang, base)


@pytest.mark.parametrize("lang", ["pl", "ru"])
def test_translations_keep_the_placeholders(lang):
    english: dict[str, set[str]] = {key: set() for key in catalogue_keys()}
    for key, text in words("en").items():
        english.setdefault(split_plural(key)[0], set()).update(placeholders(text))
    for key, text in words(lang).items():
        base, form = split_plural(key)
        if form:  # a form may leave the number out ("one card")
            assert placeholders(text) - {"n"} == english[base] - {"n"}, (lang, key)
        else:
            assert placeholders(text) == english[base], (lang, key)


def test_the_source_scan_finds_the_codes():
    found = all_codes()
    assert {"not_your_turn", "must_play_lowest", "must_follow_suit", "attack_size", "beat_wrong_suit",
            "beat_too_low", "bad_card", "seq_conflict", "internal_error", "not_found"} <= found


def test_the_source_scan_finds_the_input_errors():
    found = input_error_codes()
    assert {"bad_players", "bad_stake", "bad_card", "invalid_input", "evening_full", "idempotency_key_reused",
            "bad_idempotency_key", "evening_currency", "bad_evening_name"} <= set(found)
    assert found["bad_players"] == {"count", "length", "control", "invisible", "same"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_input_error_is_said_in_the_tables_language(lang):
    """A refused entry or start is said by the page in its own words (`say.<code>`, and `say.<code>.<case>`),
    never with the server's English message."""
    missing = sorted(f"say.{code}{'.' + case if case else ''}" for code, cases in input_error_codes().items()
                     for case in [None, *cases] if f"say.{code}{'.' + case if case else ''}" not in words(lang))
    assert not missing, missing


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_verdict_and_error_code_is_translated(lang):
    missing = sorted(code for code in all_codes() if f"code.{code}" not in words(lang))
    assert not missing, missing


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", catalogue(), ids=lambda game: game["game"])
def test_every_game_and_option_is_translated(lang, game):
    name = game["game"]
    described = {f"game.{name}.title", f"game.{name}.description"} | {
        f"option.{name}.{option['name']}" for option in game["options"]}
    if lang != "en":
        assert described <= set(words(lang))
    for option in game["options"]:
        assert f"option_label.{name}.{option['name']}" in words(lang), option["name"]
        for choice in option.get("choices", []):
            assert f"choice.{option['name']}.{choice}" in words(lang), (option["name"], choice)


KEYPAD_WORDS = {
    "ranks": lambda name, result: [(f"deal.{name}", False),
                                   (f"result.{name}", True) if "losers" in result else (f"result.{name}_points", False),
                                   *([(f"result.{name}_lost", False), (f"result.{name}_nobody", False)]
                                     if "lost_life" in result else [])],
    "suit_rank": lambda name, result: [(f"deal.{name}", True), (f"deal.{name}_no_trump", True),
                                       (f"result.{name}", False)],
    "attack_beat": lambda name, result: [(f"deal.{name}", False), (f"result.{name}", False),
                                         (f"result.{name}_draw", False)],
    "bout": lambda name, result: [(f"deal.{name}", False), (f"result.{name}", False), (f"result.{name}_draw", False)],
}
"""The words each keypad's script (webui/static/js/games/<keypad>.js) asks for a game by its name, as (key, counted):
how the deal is dealt, the deal's result (as its `DealResult` has it)."""


def game_words(name: str) -> list[tuple[str, bool]]:
    """The words the page asks for the game by its name: its deal and result (by its keypad), how its scoresheet
    counts and what its stake is."""
    game = GAMES[name]
    assert game.keypad in KEYPAD_WORDS, (f"KEYPAD_WORDS in tests/page/test_page_words.py has no words of the keypad "
                                         f"{game.keypad!r} of {name}: add the keys its script asks for")
    result = game.schemas.get("DealResult", {}).get("properties", {})
    return [*KEYPAD_WORDS[game.keypad](name, result), (f"sheet.how.{name}", False), (f"stake_hint.{name}", False)]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_has_the_words_the_page_asks_for_it_by_name(lang, game):
    """Words a script asks for by the game's name (`deal.${game}`) are no literal key of it: the scan of the
    scripts cannot see them, so they are held here, game by game: a missing one would show as its key."""
    missing = [key + (".other" if counted else "") for key, counted in game_words(game)
               if (f"{key}.other" if counted else key) not in words(lang)]
    assert missing == [], f"webui/static/i18n/{lang}.json has no {', '.join(missing)}"


@pytest.mark.parametrize(("lang", "letters"), [
    ("pl", {"A": "A", "K": "K", "Q": "D", "J": "W", "10": None}),
    ("en", {"A": "A", "K": "K", "Q": "Q", "J": "J", "10": None}),
    ("ru", {"A": "Т", "K": "К", "Q": "Д", "J": "В", "10": None}),
])
def test_card_letters_follow_the_language(lang, letters):
    for rank, letter in letters.items():
        assert words(lang).get(f"rank.{rank}") == letter, rank  # 10 stays 10: no entry


def used_keys(function: str) -> set[str]:
    """The literal keys the page's scripts pass to `t(...)` or `tn(...)`."""
    pattern = re.compile(rf'\b{function}\("([\w.]+)"')
    scripts = ROOT.joinpath("webui", "static", "js").rglob("*.js")
    return {key for path in scripts for key in pattern.findall(path.read_text(encoding="utf-8"))}


def test_the_scripts_ask_for_words_that_exist_in_the_form_they_have():
    english = words("en")
    plain = {key for key in english if split_plural(key)[1] is None}
    counted = {split_plural(key)[0] for key in english if split_plural(key)[1]}
    assert len(used_keys("t")) > 100 and len(used_keys("tn")) > 5
    assert sorted(used_keys("t") - plain) == []
    assert sorted(used_keys("tn") - counted) == []
