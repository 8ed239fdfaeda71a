"""Recorded logs (tests/logs/<game>/, written by tests/record_logs.py) replay to the state they ended in.

Ogórek's first log is the seed's worked deal; each game has matches its table simulator played. A change of
the engine that changes how a stored log folds fails here, by game and log.
"""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest
from record_logs import FORMAT, LOGS

from referee import GAMES, Match

RECORDED = sorted(LOGS.glob("*/*.json"))


def test_every_game_has_recorded_logs_and_ogorek_starts_with_the_seed_deal():
    assert sorted({path.parent.name for path in RECORDED}) == sorted(GAMES)
    assert sorted(path.name for path in RECORDED if path.parent.name == "ogorek")[0] == "000-seed-deal.json"


@pytest.mark.parametrize("path", RECORDED, ids=lambda path: f"{path.parent.name}/{path.stem}")
def test_a_recorded_log_replays_to_its_stored_final_state(path: Path):
    log = json.loads(path.read_text(encoding="utf-8"))
    assert log["format"] == FORMAT and log["header"]["game"] == path.parent.name
    replayed = Match.replay(log["header"], log["events"]).view()
    assert json.loads(json.dumps(replayed)) == log["final"]


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
