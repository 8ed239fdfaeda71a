"""The page draws every game from the catalogue: what each game's rules name (its keypad, who takes a trick, the
figures of its scoreboard, its scoresheet and its seats) is a kind the page's scripts draw. A game that names
another fails here by name: the page needs that kind first (docs/adding-a-game.md)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from referee import GAMES

SCRIPTS = Path(__file__).resolve().parents[2] / "webui" / "static" / "js"


def kinds(script: str, table: str) -> set[str]:
    """The keys of the object `const <table> = {...}` of a script of the page."""
    source = (SCRIPTS / script).read_text(encoding="utf-8")
    found = re.search(rf"const {table} = \{{(.*?)\}};", source, re.S)
    assert found, f"{script} has no {table}"
    entries, depth, entry = [], 0, ""
    for char in found.group(1):  # the object's entries: split at its own commas, not those within its values
        depth += (char in "([{") - (char in ")]}")
        if char == "," and depth == 0:
            entries.append(entry)
            entry = ""
        else:
            entry += char
    entries.append(entry)
    return {re.match(r"\s*(\w+)", entry).group(1) for entry in entries if entry.strip()}


def rules(name: str) -> dict:
    game = GAMES[name]
    return game.rules({option.name: option.default for option in game.options}, game.min_players)


def test_the_scan_reads_the_scripts_tables():
    assert kinds("play.js", "KEYPADS") == {"ranks", "suit_rank", "attack_beat", "bout"}
    assert {"minus_points", "lives"} <= kinds("scores.js", "COLUMNS")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_page_draws_every_kind_the_games_rules_name(game):
    named = rules(game)
    assert named["keypad"] in kinds("play.js", "KEYPADS"), f"{game}'s keypad {named['keypad']!r}: play.js KEYPADS"
    assert named["trick"] in (None, "climb", "follow"), f"{game}'s trick {named['trick']!r}: cards.js"
    figures = named["figures"]
    assert set(figures["player"]) <= kinds("scores.js", "COLUMNS"), f"{game}'s player figures: scores.js COLUMNS"
    assert figures["deal"] in kinds("scoresheet.js", "CSV_FIELDS"), f"{game}'s deal figure: scoresheet.js"
    assert figures["chart"]["figure"] in ("scores", "lives"), f"{game}'s chart: scores.js"
    if named["keypad"] == "ranks":
        assert set(figures["player"]) <= kinds("games/ranks.js", "SEAT_FIGURES"), f"{game}: ranks.js SEAT_FIGURES"
