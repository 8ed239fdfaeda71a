"""The skeletons every game shares are written once: a game module says only its rules.

A deal is decided and applied by one template, a card is read by one `read_card`, `expected` asks one question
between deals; the trick games play, judge and show their tricks through one base; the climbing games take what
the family shares (the ace led, what a card counts, the last card's result, the shapes of the deal and its result)
from climbing.py. A game that writes its own copy of a skeleton fails here, by game and by name.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from referee import GAMES
from referee.games.base import Game
from referee.games.climbing import ACE_LED_LOWEST, ClimbingGame
from referee.games.tricks import TrickGame

GAMES_FOLDER = Path(__file__).resolve().parents[2] / "referee" / "games"

SHARED = ("decide", "decide_deal", "evolve", "evolve_deal", "current_deal", "read_card", "card", "read_dealt",
          "expected", "choose_dealer", "check_fields", "resolve_options")
SHARED_BY_TRICK_GAMES = ("decide_play", "evolve_play", "judge", "deal_view")


@pytest.mark.parametrize("game", GAMES.values(), ids=lambda game: game.name)
def test_a_game_leaves_the_shared_skeleton_to_the_base(game: Game):
    written_again = [name for name in SHARED if getattr(type(game), name) is not getattr(Game, name)]
    assert written_again == []


@pytest.mark.parametrize("game", [game for game in GAMES.values() if isinstance(game, TrickGame)],
                         ids=lambda game: game.name)
def test_a_trick_game_says_only_what_is_legal_who_takes_the_trick_what_a_blind_play_claims_and_how_a_deal_scores(
        game: TrickGame):
    base = TrickGame
    written_again = [name for name in SHARED_BY_TRICK_GAMES if getattr(type(game), name) is not getattr(base, name)]
    assert written_again == []
    for rule in ("broken_rule", "legal", "trick_winner", "claim_of", "score_deal", "check_unplayed"):
        assert getattr(type(game), rule) is not getattr(TrickGame, rule), f"{game.name} does not say its {rule}"


@pytest.mark.parametrize("game", GAMES.values(), ids=lambda game: game.name)
def test_a_game_plays_tricks_through_the_trick_base_when_its_rules_say_who_takes_a_trick(game: Game):
    """The catalogue's `trick` ("climb", "follow") tells the page who takes a trick; a game that has it plays its
    tricks through the trick base, and one without it (Dureń's attacks and defences) has no tricks."""
    assert isinstance(game, TrickGame) == (game.trick is not None), (game.name, game.trick)
    assert isinstance(game, ClimbingGame) == (game.trick == "climb"), (game.name, game.trick)


COPIES = ("def card_points", "CARD_POINTS =", '"ace_led_lowest"', '"losers":', '"ClimbingDeal"')
"""What a game module would write again if it copied the family's rules: the card points, the ace led, the last
card's result, the deal's shape."""


def test_the_sister_games_take_the_familys_rules_from_climbing_py_rather_than_copy_them():
    found = {path.name: [copy for copy in COPIES if copy in path.read_text(encoding="utf-8")]
             for path in sorted(GAMES_FOLDER.glob("*.py")) if path.name != "climbing.py"}
    assert {name: copies for name, copies in found.items() if copies} == {}
    assert "def card_points" in (GAMES_FOLDER / "climbing.py").read_text(encoding="utf-8")  # the scan can find one


@pytest.mark.parametrize("game", [game for game in GAMES.values() if isinstance(game, ClimbingGame)],
                         ids=lambda game: game.name)
def test_a_climbing_game_with_the_ace_led_takes_the_familys_rule(game: ClimbingGame):
    """A game that has the ace led lists the family's option (`ACE_LED_LOWEST`) and leaves the rule to the base."""
    named = [option for option in game.options if option.name == ACE_LED_LOWEST.name]
    assert named in ([], [ACE_LED_LOWEST]), game.name
