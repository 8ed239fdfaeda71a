"""Recorded logs (tests/support/logs/<game>/, written by tests/support/record_logs.py) replay to the state they
ended in.

Ogórek's first log is the seed's worked deal; each game has matches its table simulator played. A change of
the engine that changes how a stored log folds fails here, by game and log.
"""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest
from record_logs import FORMAT, LOGS, final_read, without_gained

from referee import GAMES, Match

RECORDED = sorted(LOGS.glob("*/*.json"))


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_has_recorded_logs(game):
    assert sorted((LOGS / game).glob("*.json")), (f"tests/support/logs/{game}/ holds no recorded log of {game}: "
                                                  "run `python tests/support/record_logs.py` (docs/adding-a-game.md)")


def test_the_recorded_logs_are_of_games_of_the_registry_and_ogorek_starts_with_the_seed_deal():
    assert sorted({path.parent.name for path in RECORDED} - set(GAMES)) == []
    assert sorted(path.name for path in RECORDED if path.parent.name == "ogorek")[0] == "000-seed-deal.json"


@pytest.mark.parametrize("path", RECORDED, ids=lambda path: f"{path.parent.name}/{path.stem}")
def test_a_recorded_log_replays_to_its_stored_final_state(path: Path):
    log = json.loads(path.read_text(encoding="utf-8"))
    assert log["format"] == FORMAT and log["header"]["game"] == path.parent.name
    replayed = Match.replay(log["header"], log["events"]).view()
    assert without_gained(json.loads(json.dumps(replayed)), log) == final_read(log)


def test_an_ogurets_match_created_before_the_revised_king_rule_keeps_the_joker_overtaking_the_king():
    """RULES.md §2 was revised (issue 29): a match created before it, whose header has no `joker_overtakes_king`,
    keeps the rule it was created with; a new match takes the revised rule."""
    log = json.loads((LOGS / "ogurets" / "001-table.json").read_text(encoding="utf-8"))
    assert "joker_overtakes_king" not in log["header"]["options"]
    old = Match.replay({**log["header"], "options": {**log["header"]["options"], "jokers": 3}}, [])
    assert old.options["joker_overtakes_king"] is True
    old.play({"type": "deal", "dealer": 0})
    old.play({"type": "play", "seat": 1, "card": "K"})
    assert old.expected()["rule"] == "reach"  # a joker may still overtake the king
    new = Match.create("ogurets", log["header"]["players"], {"jokers": 3})
    assert new.header()["options"]["joker_overtakes_king"] is False
    new.play({"type": "deal", "dealer": 0})
    new.play({"type": "play", "seat": 1, "card": "K"})
    assert new.expected()["rule"] == "lowest"


def test_the_seed_deal_ends_as_the_seed_says():
    log = json.loads((LOGS / "ogorek" / "000-seed-deal.json").read_text(encoding="utf-8"))
    final = log["final"]
    assert final["deal"]["result"] == {"losers": [3], "card": "9", "points": 9}  # E shows the highest last card
    assert [player["score"] for player in final["players"]] == [0, 0, 0, 9]


@pytest.mark.parametrize("path", RECORDED, ids=lambda path: f"{path.parent.name}/{path.stem}")
def test_the_money_of_a_recorded_match_sums_to_zero(path: Path):
    settlement = json.loads(path.read_text(encoding="utf-8"))["final"]["settlement"]
    if settlement is not None:
        assert sum(Decimal(player["net"]) for player in settlement["players"]) == 0
