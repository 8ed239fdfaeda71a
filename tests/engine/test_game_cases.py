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


def test_every_game_module_is_registered():
    """A module of referee/games/ that makes a game (`GAME = ...`) has it in the registry (referee/games/__init__.py):
    else nothing serves it, and nothing but its own tests would notice."""
    folder = Path(__file__).resolve().parents[2] / "referee" / "games"
    made = sorted(path.stem for path in folder.glob("*.py") if "\nGAME = " in path.read_text(encoding="utf-8"))
    assert len(made) >= 5
    registered = {type(game).__module__.rsplit(".", 1)[1] for game in GAMES.values()}
    assert [module for module in made if module not in registered] == [], "register it in referee/games/__init__.py"
