"""Every game of the registry has its own hand-worked cases (tests/engine/test_<game>.py): the examples of its rules
worked out by hand, apart from the random tables and the oracles that the tests of every game share."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee import GAMES

ENGINE_TESTS = Path(__file__).resolve().parent


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_has_its_hand_worked_cases(game):
    path = ENGINE_TESTS / f"test_{game}.py"
    assert path.exists(), f"{game} has no hand-worked cases: write tests/engine/test_{game}.py (docs/adding-a-game.md)"
    assert path.read_text(encoding="utf-8").count("\ndef test_") >= 3, path
