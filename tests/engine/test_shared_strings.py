"""Matches held in memory share one copy of each text of their events (field names, types, cards)."""

from __future__ import annotations

import json
import random

from ogorek_table import Table

from referee import Match


def test_events_read_from_a_log_share_their_texts():
    match = Table(random.Random(1), 4, {}, "1", known=True).play_match()
    stored = [json.dumps(event) for event in match.log]

    first = Match.replay(match.header(), [json.loads(text) for text in stored])
    second = Match.replay(match.header(), [json.loads(text) for text in stored])

    assert first.view() == second.view() == match.view()
    deal = next(event for event in first.log if event["type"] == "deal")
    other = second.log[deal["seq"] - 1]
    assert other["hands"]["0"][0] is deal["hands"]["0"][0]
    for mine, theirs in zip(first.log, second.log, strict=True):
        assert all(a is b for a, b in zip(mine, theirs, strict=True)), "field names"
        assert mine["type"] is theirs["type"]
        if "card" in mine:
            assert mine["card"] is theirs["card"]
