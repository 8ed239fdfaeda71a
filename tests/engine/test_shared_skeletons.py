"""The skeletons every game shares are written once: a game module says only its rules.

A deal is decided and applied by one template, a card is read by one `read_card`, `expected` asks one question
between deals; the trick games play, judge and show their tricks through one base. A game that writes its own
copy of a skeleton fails here, by game and by name.
"""

from __future__ import annotations

import pytest

from referee import GAMES
from referee.games.base import Game
from referee.games.tricks import TrickGame

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


def test_the_trick_games_are_four_and_durens_attacks_are_not_tricks():
    assert sorted(game.name for game in GAMES.values() if isinstance(game, TrickGame)) == [
        "agurk", "ogorek", "ogurets", "oh_hell"]
